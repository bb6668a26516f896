package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"arena/game"
	"arena/internal/names"
	"arena/match"
	"arena/sandbox"
	"arena/store"
	"arena/web"
)

// Launcher plays the web page's games (it is the server's web.Launcher)
// with each game's options, as "arena match" would, and stores them. A
// page's tournament is run by RunTournament, which the command line
// provides (it stores the command line to resume it by).
type Launcher struct {
	games *game.Registry[match.Game]
	bots  map[string][]match.Player // per game, "builtin" first
	st    *store.Store
	// options returns a game's own options as JSON (serve's --options);
	// nil JSON: the defaults.
	options func(gameName string) (json.RawMessage, error)
	out     string           // absolute folder for record files
	work    string           // scratch folder for the bots' working folders
	sandbox *sandbox.Sandbox // around every bot; nil: off
	// slots limits the games with bots played at once; games between
	// people start no process and do not wait.
	slots chan struct{}
	// tournament runs a page's tournament; nil: none.
	tournament func(ctx context.Context, req web.TournamentRequest, listen func(gameID string) game.Listener) error
}

// LauncherConfig is what a Launcher plays with.
type LauncherConfig struct {
	Games       []match.Game
	Bots        map[string][]match.Player // per game, "builtin" first
	Store       *store.Store
	Options     func(gameName string) (json.RawMessage, error) // nil: every game's defaults
	Out, Work   string                                         // absolute folders
	Sandbox     *sandbox.Sandbox                               // around every bot; nil: off
	Concurrency int                                            // games with bots at once, at least 1
	Tournament  func(ctx context.Context, req web.TournamentRequest, listen func(gameID string) game.Listener) error
}

var _ web.Launcher = (*Launcher)(nil)

// NewLauncher makes the launcher of a server.
func NewLauncher(cfg LauncherConfig) (*Launcher, error) {
	reg, err := game.NewRegistry(cfg.Games...)
	if err != nil {
		return nil, err
	}
	options := cfg.Options
	if options == nil {
		options = func(string) (json.RawMessage, error) { return nil, nil }
	}
	return &Launcher{games: reg, bots: cfg.Bots, st: cfg.Store, options: options, out: cfg.Out, work: cfg.Work, sandbox: cfg.Sandbox,
		slots: make(chan struct{}, max(cfg.Concurrency, 1)), tournament: cfg.Tournament}, nil
}

// Games lists every game with its registered bots.
func (l *Launcher) Games() []web.GameInfo {
	var out []web.GameInfo
	for _, g := range l.games.All() {
		info := g.Info()
		gi := web.GameInfo{
			Name: info.Name, Title: info.Title, Players: info.Players, Human: info.Human,
			TurnTime: info.TurnTime.String(), MatchTime: info.MatchTime.String(), BotTime: info.Human && info.ToldClock,
			Simultaneous: info.Simultaneous,
			Replay:       slices.ContainsFunc(info.Formats, func(f game.Format) bool { return f.Name == "replay" && f.Write == nil }),
		}
		for _, p := range l.bots[info.Name] {
			gi.Bots = append(gi.Bots, p.Name)
		}
		out = append(out, gi)
	}
	return out
}

// Tournament runs a tournament among registered bots.
func (l *Launcher) Tournament(ctx context.Context, req web.TournamentRequest, listen func(gameID string) game.Listener) error {
	if _, ok := l.games.Lookup(req.Game); !ok {
		return fmt.Errorf("tournament %s: unknown game %q", req.Name, req.Game)
	}
	if l.tournament == nil {
		return fmt.Errorf("tournament %s: this server runs no tournaments", req.Name)
	}
	return l.tournament(ctx, req, listen)
}

// Play plays one game with the game's default options, stores it and
// returns its record.
func (l *Launcher) Play(ctx context.Context, req web.PlayRequest, listener game.Listener) (*game.Record, error) {
	g, ok := l.games.Lookup(req.Game)
	if !ok {
		return nil, fmt.Errorf("play: unknown game %q", req.Game)
	}
	info := g.Info()
	players, bots, err := l.entrants(info, req.Players)
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", req.ID, err)
	}
	if bots > 0 {
		select {
		case l.slots <- struct{}{}:
			defer func() { <-l.slots }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	turnTime, matchTime := req.TurnTime, req.MatchTime
	if bots < len(players) && turnTime == 0 && matchTime == 0 {
		turnTime = personTurnTime // the games' defaults are bots' seconds
	}
	clock, err := serveClock(orDefault(turnTime, info.TurnTime), orDefault(matchTime, info.MatchTime))
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", req.ID, err)
	}
	// People play on the page's clock as it is (a game's own clock
	// options, such as Points' increment, are for bots). A bot against a
	// person keeps the game's own clock, as a computer opponent on a chess
	// site moves in seconds whatever the person's time.
	for i := range players {
		if players[i].Human != nil {
			players[i].Clock = clock
		}
	}
	if bots > 0 && bots < len(players) {
		if clock, err = serveClock(info.TurnTime, info.MatchTime); err != nil {
			return nil, fmt.Errorf("play %s: %w", req.ID, err)
		}
		// Unless the person chose the bot's time a move (a quicker
		// opponent, as a chess site's levels are).
		for i, e := range req.Players {
			if e.Bot == "" || e.TurnTime == 0 {
				continue
			}
			if !info.ToldClock {
				return nil, fmt.Errorf("play %s: %s bots are not told their clock: a bot's own time cannot be set", req.ID, info.Name)
			}
			if players[i].Clock, err = serveClock(e.TurnTime, 0); err != nil {
				return nil, fmt.Errorf("play %s: bot time: %w", req.ID, err)
			}
		}
	}
	opts, err := l.options(info.Name)
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", req.ID, err)
	}
	id := req.ID
	if id == "" {
		id = fmt.Sprintf("%s-%s", info.Name, time.Now().Format("20060102-150405.000"))
	}
	if err := names.CheckID(id); err != nil {
		return nil, fmt.Errorf("play: game ID %q: %w", id, err)
	}
	release, err := ClaimGameID(ctx, l.st, l.out, id)
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", id, err)
	}
	defer release()
	spec := match.Spec{ID: id, Game: info.Name, Options: opts, Players: players, Seats: make([]int, len(players)), Clock: clock}
	for i := range spec.Seats {
		spec.Seats[i] = i
	}
	rec, path, err := match.Play(ctx, l.games, spec, match.Local{Out: l.out, Work: l.work, Sandbox: l.sandbox, Listener: listener})
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", id, err)
	}
	if err := Save(ctx, l.st, rec, path); err != nil {
		return rec, fmt.Errorf("play %s: %w", id, err)
	}
	return rec, nil
}

// ClaimGameID makes sure a game of the page replaces nothing: its ID is
// neither stored nor the name of a record in out (another server on the
// same folder or store may have used it). The claim is the record file
// ID.json, created only if it does not exist; the game's record replaces
// it. release removes the claim if the game wrote no record.
func ClaimGameID(ctx context.Context, st *store.Store, out, id string) (release func(), err error) {
	switch _, err := st.Game(ctx, id); {
	case err == nil:
		return nil, fmt.Errorf("game ID %s is already stored in %s", id, st)
	case !errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("game ID %s: %w", id, err)
	}
	path := filepath.Join(out, id+".json")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("game ID %s: %s already exists", id, path)
	}
	if err != nil {
		return nil, fmt.Errorf("game ID %s: claim its record: %w", id, err)
	}
	f.Close()
	return func() {
		if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
			os.Remove(path)
		}
	}, nil
}

// personTurnTime is a person's time a move when the page asks for no
// clock.
const personTurnTime = 30 * time.Second

// serveClock is the clock of a game the page starts: Gomocup's second of
// tolerance, and half a minute to start.
func serveClock(turnTime, matchTime time.Duration) (match.Clock, error) {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--turn-time", turnTime}, {"--match-time", matchTime}} {
		if d.v < 0 {
			return match.Clock{}, fmt.Errorf("%s %v: must not be negative", d.name, d.v)
		}
	}
	return match.Clock{Turn: turnTime, Match: matchTime, Tolerance: time.Second, Startup: 30 * time.Second}, nil
}

// orDefault is a unless it is zero, else b.
func orDefault(a, b time.Duration) time.Duration {
	if a != 0 {
		return a
	}
	return b
}

// entrants turns a request's seats into players: a registered bot by
// name, or a person. Names are made unique in the game as parsePlayers
// does. bots counts the seats that start a process.
func (l *Launcher) entrants(info game.Info, es []web.Entrant) (players []match.Player, bots int, err error) {
	if n, lo, hi := len(es), info.Players[0], info.Players[1]; n < lo || n > hi {
		return nil, 0, fmt.Errorf("%s needs %d to %d players, got %d", info.Name, lo, hi, n)
	}
	seen := map[string]int{}
	for _, e := range es {
		var p match.Player
		switch {
		case e.Bot != "":
			i := slices.IndexFunc(l.bots[info.Name], func(q match.Player) bool { return q.Name == e.Bot })
			if i < 0 {
				return nil, 0, fmt.Errorf("no bot %q registered for %s", e.Bot, info.Name)
			}
			p = l.bots[info.Name][i]
			bots++
		case e.Human != nil:
			if !info.Human {
				return nil, 0, fmt.Errorf("%s cannot seat a person", info.Name)
			}
			p = match.Player{Name: e.Name, Human: e.Human}
			if p.Name == "" {
				p.Name = "person"
			}
		default:
			return nil, 0, errors.New("a seat with neither a bot nor a person")
		}
		seen[p.Name]++
		if n := seen[p.Name]; n > 1 {
			p.Name = fmt.Sprintf("%s#%d", p.Name, n)
		}
		players = append(players, p)
	}
	return players, bots, nil
}
