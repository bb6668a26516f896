package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/internal/version"
	"arena/match"
	"arena/sandbox"
	"arena/store"
	"arena/web"
)

// serveFlags are the options of "arena serve".
type serveFlags struct {
	addr, db, token, out string
	bots, options        []string
	concurrency          int
	sandbox              sandboxFlags
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web page: watch live games, replay stored ones, play against bots, follow tournaments",
		Long: `Serve the web page and its API on --addr. Watching and replaying are open to
anyone who reaches the address; starting matches, tournaments and games
against a bot needs the token, which the printed address carries (#token=...).
Bots are registered here with --bot GAME:NAME=CMD (arena's own bot of every
game is registered as "builtin"); the page can only choose among them, never
run a command of its own. Finished games go to the store (--db) and their
files to --out.`,
		Example: `  arena serve
  arena serve --addr 127.0.0.1:0 --db arena.db --bot gomoku:mine=./pbrain-mine --bot "khet:py=python3 -u bot.py"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
	fl.StringVar(&f.db, "db", "", "the store: a SQLite file or postgres://... (default OUT/arena.db, where arena tournament keeps its games)")
	fl.StringVar(&f.token, "token", "", "token that opens starting matches and tournaments (default: a random one)")
	fl.StringArrayVar(&f.bots, "bot", nil, `register a bot: "GAME:NAME=CMD" (repeat; "builtin" is registered for every game)`)
	fl.StringArrayVar(&f.options, "options", nil, `"GAME:FLAGS": GAME's own options of "arena match GAME" (not --bot, the clocks or the other shared ones, which the page sets) for every game and tournament of GAME the page starts, e.g. "points:--size 15x15 --max-moves 60" (repeat per game)`)
	fl.StringVar(&f.out, "out", "arena-out", "folder for the games' record files")
	fl.IntVar(&f.concurrency, "concurrency", runtime.NumCPU(), "games with bots played at once (more wait)")
	f.sandbox.register(fl)
	return cmd
}

func (f *serveFlags) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	if f.concurrency < 1 {
		return fmt.Errorf("--concurrency %d: must be at least 1", f.concurrency)
	}
	token := f.token
	if token == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		token = hex.EncodeToString(b[:])
	}
	bots, err := registerBots(f.bots)
	if err != nil {
		return err
	}
	options, err := gameOptions(f.options)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	out, err := filepath.Abs(f.out)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	work, err := bot.ScratchDir("", out, "arena-work-")
	if err != nil {
		return fmt.Errorf("working folder: %w", err)
	}
	defer os.RemoveAll(work)
	if f.db == "" {
		f.db = filepath.Join(out, "arena.db")
	}
	st, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	l := newLauncher(st, bots, out, work, f.concurrency)
	l.options = options
	if l.sandbox, err = f.sandbox.open(); err != nil {
		return err
	}
	l.sandboxArgs = f.sandbox.args()
	logger := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	srv, err := web.New(web.Config{Launcher: l, Store: st, Token: token, Logger: logger, Version: version.String(), Formats: gameFormats()})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(cmd.OutOrStdout(), "arena: serving on %s/#token=%s\n", pageURL(ln.Addr()), token)

	select {
	case err = <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Stop taking requests, then end the games (killing their bots) and
	// the websockets, which Shutdown does not wait for.
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = hs.Shutdown(shut)
	srv.Close()
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// pageURL is the address a browser on this machine opens: an unspecified
// host (":0", "0.0.0.0") is reached through the loopback address.
func pageURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// registerBots reads the --bot flags of serve: GAME:NAME=CMD, or GAME:CMD
// (named after the program). Every game that seats bots gets arena's own
// as "builtin", first. Names are unique within a game.
func registerBots(specs []string) (map[string][]player, error) {
	out := map[string][]player{}
	for _, d := range drivers() {
		ps, err := parsePlayers([]string{"builtin"}, d.info.Name)
		if err != nil {
			return nil, err
		}
		out[d.info.Name] = ps
	}
	for _, spec := range specs {
		name, rest, ok := strings.Cut(spec, ":")
		if _, known := out[name]; !ok || !known {
			return nil, fmt.Errorf("--bot %q: want GAME:NAME=CMD with GAME one of %s", spec, strings.Join(gameNames(), ", "))
		}
		ps, err := parsePlayers([]string{rest}, name)
		if err != nil {
			return nil, err
		}
		p := ps[0]
		if slices.ContainsFunc(out[name], func(q player) bool { return q.Name == p.Name }) {
			return nil, fmt.Errorf("--bot %q: %s already has a bot named %q", spec, name, p.Name)
		}
		out[name] = append(out[name], p)
	}
	return out, nil
}

// gameOptions reads the --options flags of serve: GAME:FLAGS, the game's
// own flags of "arena match GAME" (not the shared ones such as --bot or
// --turn-time: the page sets the bots and clocks). Each is checked here,
// once, so that a mistake stops the server at start rather than failing
// every game; the error lists the flags the game takes.
func gameOptions(specs []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, spec := range specs {
		name, flags, ok := strings.Cut(spec, ":")
		d, known := driverByName(name)
		if !ok || !known {
			return nil, fmt.Errorf("--options %q: want GAME:FLAGS with GAME one of %s", spec, strings.Join(gameNames(), ", "))
		}
		args, err := bot.SplitCommand(flags)
		if err != nil {
			return nil, fmt.Errorf("--options %q: %w", spec, err)
		}
		out[name] = append(out[name], args...)
		fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		d.flags(fs)
		if err := fs.Parse(out[name]); err != nil {
			var own []string
			fs.VisitAll(func(fl *pflag.Flag) { own = append(own, "--"+fl.Name) })
			return nil, fmt.Errorf("--options %q: %w (%s's own options: %s)", spec, err, name, strings.Join(own, " "))
		}
		if fs.NArg() > 0 {
			return nil, fmt.Errorf("--options %q: unexpected %q", spec, fs.Arg(0))
		}
	}
	return out, nil
}

func gameNames() []string {
	var names []string
	for _, d := range drivers() {
		names = append(names, d.info.Name)
	}
	return names
}

// launcher plays the web page's games with the drivers, as "arena match"
// would with each game's default options, and stores them.
type launcher struct {
	drivers []driver
	bots    map[string][]player // per game, "builtin" first
	st      *store.Store
	options map[string][]string // per game, its flags (--options)
	out     string              // absolute folder for record files
	work    string              // scratch folder for the bots' working folders
	// slots limits the games with bots played at once; games between
	// people start no process and do not wait.
	slots chan struct{}
	// sandbox is around every bot (nil: off); sandboxArgs give a
	// tournament the same.
	sandbox     *sandbox.Sandbox
	sandboxArgs []string
}

var _ web.Launcher = (*launcher)(nil)

func newLauncher(st *store.Store, bots map[string][]player, out, work string, concurrency int) *launcher {
	return &launcher{drivers: drivers(), bots: bots, st: st, out: out, work: work, slots: make(chan struct{}, concurrency)}
}

func (l *launcher) driver(name string) (driver, bool) {
	i := slices.IndexFunc(l.drivers, func(d driver) bool { return d.info.Name == name })
	if i < 0 {
		return driver{}, false
	}
	return l.drivers[i], true
}

// Games lists every game with its registered bots.
func (l *launcher) Games() []web.GameInfo {
	var out []web.GameInfo
	for _, d := range l.drivers {
		gi := web.GameInfo{
			Name: d.info.Name, Title: d.info.Title, Players: d.info.Players, Human: d.human,
			TurnTime: d.turnTime.String(), MatchTime: d.matchTime.String(), BotTime: d.human && d.toldClock,
		}
		for _, p := range l.bots[d.info.Name] {
			gi.Bots = append(gi.Bots, p.Name)
		}
		out = append(out, gi)
	}
	return out
}

// Play plays one game with the game's default options, stores it and
// returns its record.
func (l *launcher) Play(ctx context.Context, req web.PlayRequest, listener game.Listener) (*game.Record, error) {
	d, ok := l.driver(req.Game)
	if !ok {
		return nil, fmt.Errorf("play: unknown game %q", req.Game)
	}
	players, bots, err := l.entrants(d, req.Players)
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
	clock, err := serveClock(orDefault(turnTime, d.turnTime), orDefault(matchTime, d.matchTime))
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
		if clock, err = serveClock(d.turnTime, d.matchTime); err != nil {
			return nil, fmt.Errorf("play %s: %w", req.ID, err)
		}
		// Unless the person chose the bot's time a move (a quicker
		// opponent, as a chess site's levels are).
		for i, e := range req.Players {
			if e.Bot == "" || e.TurnTime == 0 {
				continue
			}
			if !d.toldClock {
				return nil, fmt.Errorf("play %s: %s bots are not told their clock: a bot's own time cannot be set", req.ID, d.info.Name)
			}
			if players[i].Clock, err = serveClock(e.TurnTime, 0); err != nil {
				return nil, fmt.Errorf("play %s: bot time: %w", req.ID, err)
			}
		}
	}
	fs := pflag.NewFlagSet(d.info.Name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	build := d.flags(fs)
	if err := fs.Parse(l.options[d.info.Name]); err != nil {
		return nil, fmt.Errorf("play %s: %w", req.ID, err)
	}
	r, err := build(runEnv{players: players, clock: clock, out: l.out, work: l.work, sandbox: l.sandbox})
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", req.ID, err)
	}
	id := req.ID
	if id == "" {
		id = fmt.Sprintf("%s-%s", d.info.Name, time.Now().Format("20060102-150405.000"))
	}
	release, err := claimGameID(ctx, l.st, l.out, id)
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", id, err)
	}
	defer release()
	j := job{ID: id, Seats: make([]int, len(players)), Listener: listener}
	for i := range j.Seats {
		j.Seats[i] = i
	}
	rec, path, err := r.Play(ctx, j)
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", id, err)
	}
	if err := saveGame(ctx, l.st, rec, path); err != nil {
		return rec, fmt.Errorf("play %s: %w", id, err)
	}
	return rec, nil
}

// claimGameID makes sure a game of the page replaces nothing: its ID is
// neither stored nor the name of a record in out (another server on the
// same folder or store may have used it). The claim is the record file
// ID.json, created only if it does not exist; the game's record replaces
// it. release removes the claim if the game wrote no record.
func claimGameID(ctx context.Context, st *store.Store, out, id string) (release func(), err error) {
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
	return (&matchFlags{turnTime: turnTime, matchTime: matchTime, tolerance: time.Second, startup: 30 * time.Second, games: 1}).clock()
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
func (l *launcher) entrants(d driver, es []web.Entrant) (players []player, bots int, err error) {
	if n, lo, hi := len(es), d.info.Players[0], d.info.Players[1]; n < lo || n > hi {
		return nil, 0, fmt.Errorf("%s needs %d to %d players, got %d", d.info.Name, lo, hi, n)
	}
	seen := map[string]int{}
	for _, e := range es {
		var p player
		switch {
		case e.Bot != "":
			i := slices.IndexFunc(l.bots[d.info.Name], func(q player) bool { return q.Name == e.Bot })
			if i < 0 {
				return nil, 0, fmt.Errorf("no bot %q registered for %s", e.Bot, d.info.Name)
			}
			p = l.bots[d.info.Name][i]
			bots++
		case e.Human != nil:
			if !d.human {
				return nil, 0, fmt.Errorf("%s cannot seat a person", d.info.Name)
			}
			p = player{Player: match.Player{Name: e.Name, Human: e.Human}}
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

// saveGame stores a finished game that belongs to no tournament.
func saveGame(ctx context.Context, st *store.Store, rec *game.Record, path string) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode record: %w", err)
	}
	g := store.Game{
		ID: rec.ID, Seats: rec.Seats, Winner: rec.Winner, Reason: string(rec.Reason), Detail: rec.Detail,
		Scores: rec.Scores, Moves: rec.Length(), Record: data, RecordPath: path, Start: rec.Start, End: rec.End,
	}
	for _, p := range rec.Players {
		g.Players = append(g.Players, p.Name)
	}
	// The server is being closed: the game is over all the same, and
	// its record must not be lost with the request's context.
	if err := st.SaveGame(context.WithoutCancel(ctx), g); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Tournament runs a tournament among registered bots.
func (l *launcher) Tournament(ctx context.Context, req web.TournamentRequest, listen func(gameID string) game.Listener) error {
	if _, ok := l.driver(req.Game); !ok {
		return fmt.Errorf("tournament %s: unknown game %q", req.Name, req.Game)
	}
	bots := map[string]player{}
	for _, p := range l.bots[req.Game] {
		bots[p.Name] = p
	}
	return playTournament(ctx, l.st, req, bots, append(slices.Clone(l.options[req.Game]), l.sandboxArgs...), l.out, listen)
}
