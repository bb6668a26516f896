package engine

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"arena/game"
	"arena/match"
	"arena/standings"
	"arena/store"
	"arena/tournament"
)

// Tournament is one tournament to run: its schedule, the match every
// game shares, where its games are played and stored, and the hooks that
// let a caller show it. Run plays the games the store does not hold yet.
type Tournament struct {
	Name string
	// Args is what the store keeps to resume the tournament (the CLI's
	// command line); Same says whether the Args of a stored tournament
	// of this name are this event's (nil: equal Args).
	Args []string
	Same func(stored []string) bool
	// Schedule configures the schedule; Run sets its Name and Openings.
	Schedule tournament.Config
	// Match is the match part of every game's spec: the game, its
	// options, the players (Schedule's players), clock and seed.
	Match       match.Spec
	Runner      Runner
	Store       *store.Store
	Out         string // the tournament's folder: its lock and files
	Concurrency int    // games at once, at least 1

	// Hooks, each optional. Started is told, before the first game,
	// how many games the store already holds and the schedule. Follow
	// gives a game's hooks (progress, live listener, transcripts) and
	// what to call once it is over; Abandoned is told a game that could
	// not be played. Stored is told each game once it is stored, with
	// the standings that count it.
	Started   func(stored int, s *tournament.Schedule)
	Follow    func(g tournament.Game) (match.Local, func(), error)
	Abandoned func(g tournament.Game)
	Stored    func(g tournament.Game, rec *game.Record, path string, table *standings.Table) error
}

// Finisher is implemented by live listeners that want to know a game is
// over once it is stored (the web page: its replay link works from then
// on).
type Finisher interface {
	Finished(rec *game.Record)
}

// Result is where a tournament stands when Run returns.
type Result struct {
	// Report is the full standings, with the tournament's name, game,
	// format and total; Finished says every game was played.
	Report   standings.Report
	Schedule *tournament.Schedule
	Outcomes map[string]tournament.Outcome // by game ID, stored and played
	Table    *standings.Table
}

// run is one Run in progress.
type run struct {
	t        *Tournament
	table    *standings.Table
	mu       sync.Mutex
	finished map[string]playedGame // by game ID, between play and report
}

type playedGame struct {
	rec      *game.Record
	path     string
	listener game.Listener // the game's live listener, or nil
	stored   store.Game
}

// Run plays the tournament's games the store does not hold, storing each
// as it ends, and returns the standings. An interrupted tournament
// returns its standings so far with the error that stopped it, and is
// marked interrupted in the store: a later Run continues it.
func (t *Tournament) Run(ctx context.Context) (Result, error) {
	openings, err := t.Runner.Openings(t.Match)
	if err != nil {
		return Result{}, err
	}
	cfg := t.Schedule
	cfg.Name, cfg.Openings = t.Name, openings
	sched, err := tournament.New(cfg)
	if err != nil {
		return Result{}, err
	}
	unlock, err := Lock(t.Out, t.Name)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	if err := t.claim(ctx); err != nil {
		return Result{}, err
	}
	stored, err := t.Store.Games(ctx, t.Name)
	if err != nil {
		return Result{}, fmt.Errorf("tournament %s: %w", t.Name, err)
	}
	names := make([]string, len(t.Match.Players))
	for i, p := range t.Match.Players {
		names[i] = p.Name
	}
	r := &run{t: t, table: standings.New(names), finished: map[string]playedGame{}}
	results := map[string]tournament.Outcome{}
	for _, g := range stored {
		r.table.Add(g, standings.RecordFaults(g))
		results[g.ID] = outcomeOf(g, r.table)
	}
	if t.Started != nil {
		t.Started(len(stored), sched)
	}
	runErr := tournament.Run(ctx, sched, results, max(t.Concurrency, 1), r.play, r.report)
	status := store.StatusFinished
	if runErr != nil {
		status = store.StatusInterrupted
	}
	// The status must be saved even when ctx was cancelled by Ctrl-C.
	if err := t.Store.SetTournamentStatus(context.WithoutCancel(ctx), t.Name, status); err != nil && runErr == nil {
		runErr = err
	}
	rep := r.table.Full()
	rep.Tournament, rep.Game, rep.Format, rep.Total = t.Name, t.Match.Game, string(cfg.Format), sched.Total()
	rep.Finished = runErr == nil
	return Result{Report: rep, Schedule: sched, Outcomes: results, Table: r.table}, runErr
}

// claim creates the tournament in the store, or checks that a stored one
// of that name is the same event and marks it running again.
func (t *Tournament) claim(ctx context.Context) error {
	st, name := t.Store, t.Name
	err := st.CreateTournament(ctx, store.Tournament{Name: name, Game: t.Match.Game, Args: t.Args, Status: store.StatusRunning})
	if err == nil {
		return nil
	}
	if !errors.Is(err, store.ErrExists) {
		return fmt.Errorf("tournament %s: %w", name, err)
	}
	old, err := st.Tournament(ctx, name)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", name, err)
	}
	same := slices.Equal(old.Args, t.Args)
	if t.Same != nil {
		same = t.Same(old.Args)
	}
	if old.Game != t.Match.Game || !same {
		return fmt.Errorf("tournament %s exists with other settings (%s): resume it with --resume %s, or choose another --name",
			name, strings.Join(old.Args, " "), name)
	}
	return st.SetTournamentStatus(ctx, name, store.StatusRunning)
}

// GameSeed is the seed of a tournament's game: the match seed mixed with
// the game's ID, so that every game has its own and a rerun the same;
// 0 without a match seed.
func GameSeed(seed int64, id string) int64 {
	if seed == 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return seed ^ int64(h.Sum64()>>1)
}

// play plays one scheduled game and keeps its record for report.
func (r *run) play(ctx context.Context, g tournament.Game) (tournament.Outcome, error) {
	spec := r.t.Match
	spec.ID, spec.Seats, spec.Opening, spec.GameSeed = g.ID, g.Seats, g.Opening, GameSeed(spec.Seed, g.ID)
	var follow match.Local
	if r.t.Follow != nil {
		f, done, err := r.t.Follow(g)
		if err != nil {
			return tournament.Outcome{}, err
		}
		defer done()
		follow = f
	}
	rec, path, err := r.t.Runner.Run(ctx, spec, follow)
	if err != nil {
		if r.t.Abandoned != nil {
			r.t.Abandoned(g)
		}
		return tournament.Outcome{}, err
	}
	// Stored here, on the game's own goroutine, so that games that end
	// together share one commit (the store's group commit); report, on
	// Run's single goroutine, only counts it.
	sg, err := StoredGame(rec, path, r.t.Name, g.Round)
	if err != nil {
		return tournament.Outcome{}, err
	}
	if err := saveOnce(r.t.Store, sg); err != nil {
		return tournament.Outcome{}, err
	}
	r.mu.Lock()
	r.finished[g.ID] = playedGame{rec: rec, path: path, listener: follow.Listener, stored: sg}
	r.mu.Unlock()
	order, _ := match.Participants(g.Seats)
	if rec.Winner == nil || *rec.Winner < 0 || *rec.Winner >= len(order) {
		return tournament.Draw, nil
	}
	return tournament.Outcome{Winner: order[*rec.Winner]}, nil
}

// report counts a finished game, which play has stored.
func (r *run) report(g tournament.Game, _ tournament.Outcome) error {
	r.mu.Lock()
	pg := r.finished[g.ID]
	delete(r.finished, g.ID)
	r.mu.Unlock()
	sg := pg.stored
	// A live follower (the web page) learns the game is over only now
	// that it is stored: its replay link works from this moment.
	if f, ok := pg.listener.(Finisher); ok {
		f.Finished(pg.rec)
	}
	r.table.Add(sg, standings.PlayerFaults(pg.rec))
	if r.t.Stored != nil {
		return r.t.Stored(g, pg.rec, pg.path, r.table)
	}
	return nil
}

// outcomeOf reads a stored game's result as the schedule needs it.
func outcomeOf(g store.Game, table *standings.Table) tournament.Outcome {
	if g.Winner == nil || *g.Winner < 0 || *g.Winner >= len(g.Players) {
		return tournament.Draw
	}
	return tournament.Outcome{Winner: table.Index(g.Players[*g.Winner])}
}

// Lock holds an exclusive lock on OUT/.NAME.lock while a tournament
// runs: a second arena running the same tournament into the same folder
// at the same time would play its games again and replace their files,
// so it is refused. The kernel drops the lock when the process ends
// however it ends, so a crash never blocks a resume. The lock file
// stays: removing it would race with another run opening it.
func Lock(out, name string) (unlock func(), err error) {
	path := filepath.Join(out, "."+fileName(name)+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: %w", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("tournament %s is running in another arena on %s: let it finish, or stop it and resume", name, out)
		}
		return nil, fmt.Errorf("tournament %s: lock %s: %w", name, path, err)
	}
	return func() { f.Close() }, nil
}

// fileName keeps a name usable in a file name.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ' ' {
			return '_'
		}
		return r
	}, name)
}
