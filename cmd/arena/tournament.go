package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/standings"
	"arena/store"
	"arena/tournament"
	"arena/web"
)

// tournamentFlags are the options of "arena tournament GAME" besides the
// shared match flags.
type tournamentFlags struct {
	format       string
	gamesPerPair int
	rounds       int
	concurrency  int
	db           string
	interval     int
}

// volatile reports whether a flag changes how a tournament runs, not
// which games it plays: a rerun may change it and still continue the
// same event.
func volatile(flag string) bool {
	switch flag {
	case "concurrency", "json", "db", "debug", "work-dir", "name", "rating-interval":
		return true
	}
	return false
}

func newTournamentCmd() *cobra.Command {
	var resume, db, out string
	var concurrency int
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "tournament GAME",
		Short: "Run a tournament between bots: round robin, gauntlet, Swiss or knockout, stored and resumable",
		Long: `Run a tournament between bots of one game. Every finished game is stored at
once (SQLite in OUT/arena.db by default, or PostgreSQL with --db postgres://...),
so an interrupted tournament continues where it stopped: run the same command
with the same --name again, or "arena tournament --resume NAME". Without
--name every run is a new event, named after the game and the time.`,
		Example: `  arena tournament gomoku --bot a=./pbrain-a --bot b=./pbrain-b --bot c=./pbrain-c --games-per-pair 2 --turn-time 1s
  arena tournament gomoku --format swiss --rounds 5 --opening openings.txt --bot ... --name cup
  arena tournament --resume cup`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if resume == "" {
				return errors.New("give a game (arena tournament GAME --bot ...) or --resume NAME")
			}
			dsn := db
			if dsn == "" {
				dsn = filepath.Join(out, "arena.db")
			}
			st, err := openExistingStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			t, err := st.Tournament(cmd.Context(), resume)
			st.Close()
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("--resume %s: no such tournament in %s (give --db or --out)", resume, dsn)
			}
			if err != nil {
				return fmt.Errorf("--resume %s: %w", resume, err)
			}
			args := append([]string{"tournament"}, t.Args...)
			if db != "" {
				args = append(args, "--db="+db)
			} else if !slices.ContainsFunc(t.Args, func(a string) bool { return strings.HasPrefix(a, "--db=") }) {
				args = append(args, "--db="+dsn)
			}
			if cmd.Flags().Changed("concurrency") {
				args = append(args, fmt.Sprintf("--concurrency=%d", concurrency))
			}
			if jsonOut {
				args = append(args, "--json")
			}
			root := newRoot()
			root.SetArgs(args)
			root.SetOut(cmd.OutOrStdout())
			root.SetErr(cmd.ErrOrStderr())
			return root.ExecuteContext(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&resume, "resume", "", "continue the tournament of this name with the arguments it was started with")
	fl.StringVar(&db, "db", "", "the store: a SQLite file or postgres://... (default OUT/arena.db)")
	fl.StringVar(&out, "out", "arena-out", "the folder of the tournament (for the default --db)")
	fl.IntVar(&concurrency, "concurrency", 0, "games at once (default: what the cores allow)")
	fl.BoolVar(&jsonOut, "json", false, "print one JSON object per finished game and the final standings on stdout")
	for _, d := range drivers() {
		cmd.AddCommand(newTournamentGameCmd(d))
	}
	return cmd
}

// tournamentCLI is the flags of "arena tournament GAME", parsed: the web
// page's tournaments fill the same flags, so both run one code path and
// store the same command line.
type tournamentCLI struct {
	d     driver
	f     matchFlags
	tf    tournamentFlags
	build func(env runEnv) (runner, error)
}

// registerTournamentFlags adds the flags of a tournament of d to cmd.
func registerTournamentFlags(cmd *cobra.Command, d driver) *tournamentCLI {
	tc := &tournamentCLI{d: d}
	tc.f.register(cmd, d, "games") // a tournament counts games per pairing
	tc.build = d.flags(cmd.Flags())
	fl := cmd.Flags()
	fl.Lookup("name").Usage = "name of the tournament, to resume it, and the prefix of its game IDs (default: game and a hash of the settings)"
	fl.StringVar(&tc.tf.format, "format", "round-robin", "round-robin, gauntlet, swiss or knockout")
	fl.IntVar(&tc.tf.gamesPerPair, "games-per-pair", 2, "games each pairing plays on every opening, colours alternating")
	fl.IntVar(&tc.tf.rounds, "rounds", 0, "Swiss rounds (default: ceil(log2(bots)))")
	fl.IntVar(&tc.tf.concurrency, "concurrency", 0, "games at once (default: as many as the cores allow, one thinking bot per core)")
	fl.StringVar(&tc.tf.db, "db", "", "the store: a SQLite file or postgres://... (default OUT/arena.db)")
	fl.IntVar(&tc.tf.interval, "rating-interval", 0, "also print the full standings every N games (0 = at the end only)")
	return tc
}

func newTournamentGameCmd(d driver) *cobra.Command {
	var tc *tournamentCLI
	cmd := &cobra.Command{
		Use:   d.info.Name,
		Short: fmt.Sprintf("Run a tournament of %s bots", d.info.Title),
		Long: fmt.Sprintf(`Run a tournament of %s bots (%s's own options below apply to every game).

Formats: round-robin (every pair meets; every group of seats for N-player
games, each bot in every seat), gauntlet (the first --bot against every
other), swiss (--rounds rounds paired by score, no rematches, byes) and
knockout (seeded by the order of --bot; a drawn match plays up to %d more
pairs of games, then the higher seed advances). A pairing plays
--games-per-pair games on every opening, colours swapped each game.`, d.info.Title, d.info.Name, tournament.DefaultTieBreaks),
		Args: d.positionalArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTournament(cmd, tc)
		},
	}
	tc = registerTournamentFlags(cmd, d)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		if err.Error() == "unknown flag: --games" {
			return fmt.Errorf("%w: a tournament counts games per pairing (--games-per-pair)", err)
		}
		return err
	})
	return cmd
}

// openStore opens the store, creating a SQLite file's folder.
func openStore(ctx context.Context, dsn string) (*store.Store, error) {
	if !strings.Contains(dsn, "://") {
		path := strings.TrimPrefix(dsn, "sqlite:")
		if dir := filepath.Dir(path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("--db: %w", err)
			}
		}
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return st, nil
}

// openExistingStore opens the store of a command that only reads it
// (standings, games, export, --resume): where there is none it says so
// and creates nothing.
func openExistingStore(ctx context.Context, dsn string) (*store.Store, error) {
	st, err := store.OpenExisting(ctx, dsn)
	if errors.Is(err, store.ErrNoStore) {
		return nil, fmt.Errorf("no store at %s: arena tournament and arena serve keep their games there (--db names another)", dsn)
	}
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return st, nil
}

// commandArgs rebuilds the command line of cmd from its parsed flags, in a
// stable order: what a tournament stores to be resumed, and what decides
// whether a rerun is the same event.
func commandArgs(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+fl.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+fl.Name+"="+fl.Value.String())
	})
	return args
}

// identity is the part of a stored command line that decides which games
// a tournament plays.
func identity(args []string) []string {
	var out []string
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !volatile(name) {
			out = append(out, a)
		}
	}
	return out
}

// defaultConcurrency is how many games fit the cores when no more bots
// may think at once than there are cores: one per game when idle bots are
// paused in an alternating game, every seat when they move at once or
// ponder.
func defaultConcurrency(cores, seats int, simultaneous, ponder bool) (games, thinkersPerGame int) {
	thinkers := 1
	if simultaneous || ponder {
		thinkers = seats
	}
	return max(1, cores/thinkers), thinkers
}

// seatCounter is implemented by runners of N-player games whose maps fix
// the number of players; other N-player runners seat every bot.
type seatCounter interface {
	Seats() int
}

// tournamentRun is one running tournament: the games it stores and the
// standings it keeps.
type tournamentRun struct {
	name, game string
	env        runEnv
	r          runner
	st         *store.Store
	table      *standings.Table
	json       bool
	stdout     io.Writer
	prog       *progress
	total      int
	interval   int       // print the standings every interval games
	stderr     io.Writer // people's output
	format     string
	listen     func(gameID string) game.Listener // nil: nobody follows the games live
	mu         sync.Mutex
	finished   map[string]playedGame // by game ID, between play and report
}

type playedGame struct {
	rec      *game.Record
	path     string
	listener game.Listener // the game's live listener, or nil
}

// tournamentSpec is one tournament ready to run, whether the command line
// or the web page asked for it.
type tournamentSpec struct {
	d      driver
	env    runEnv
	r      runner
	name   string
	args   []string // the command line stored to resume it
	format tournament.Format
	tf     tournamentFlags
	json   bool
	// stdout gets the JSON lines, stderr people's output; terminal says
	// stderr is a terminal (a progress bar rather than a line per game).
	stdout, stderr io.Writer
	terminal       bool
	// st is the open store and dsn names it in the hint to resume.
	st     *store.Store
	dsn    string
	listen func(gameID string) game.Listener
}

func runTournament(cmd *cobra.Command, tc *tournamentCLI) error {
	spec, cleanup, err := prepareTournament(cmd, tc, nil)
	if err != nil {
		return err
	}
	defer cleanup()
	spec.dsn = tc.tf.db
	if spec.dsn == "" {
		spec.dsn = filepath.Join(spec.env.out, "arena.db")
	}
	st, err := openStore(cmd.Context(), spec.dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	spec.st = st
	rep, err := spec.run(cmd.Context())
	if err != nil {
		return err
	}
	printNextSteps(spec.stderr, spec.name, spec.dsn)
	if spec.json {
		return writeStandingsJSON(cmd.OutOrStdout(), rep)
	}
	return nil
}

// prepareTournament checks a tournament command's flags and builds its
// runner. players, if not nil, are the bots already parsed from the --bot
// flags (the server's registered bots). cleanup removes the scratch folder.
func prepareTournament(cmd *cobra.Command, tc *tournamentCLI, players []player) (*tournamentSpec, func(), error) {
	d, f, tf := tc.d, &tc.f, &tc.tf
	if err := checkName(f.name); err != nil {
		return nil, nil, err
	}
	format, err := tournament.ParseFormat(tf.format)
	if err != nil {
		return nil, nil, fmt.Errorf("--format: %w", err)
	}
	if tf.gamesPerPair < 1 {
		return nil, nil, fmt.Errorf("--games-per-pair %d: must be at least 1", tf.gamesPerPair)
	}
	if tf.concurrency < 0 {
		return nil, nil, fmt.Errorf("--concurrency %d: must not be negative", tf.concurrency)
	}
	if tf.interval < 0 {
		return nil, nil, fmt.Errorf("--rating-interval %d: must not be negative", tf.interval)
	}
	// The command line as given: what is stored to resume.
	args := append([]string{d.info.Name}, commandArgs(cmd)...)
	// A tournament takes any number of bots from the game's minimum.
	if n := len(f.bots); n > 0 && n < d.info.Players[0] && f.botsFile == "" {
		return nil, nil, fmt.Errorf("--bot: a %s tournament needs at least %d bots, got %d", d.info.Name, d.info.Players[0], n)
	}
	td := d
	td.info.Players[1] = math.MaxInt
	env, cleanup, err := f.env(td)
	if err != nil {
		return nil, nil, err
	}
	if players != nil {
		if len(players) != len(env.players) {
			cleanup()
			return nil, nil, fmt.Errorf("--bot: %d bots for %d players", len(env.players), len(players))
		}
		env.players = players
	}
	r, err := tc.build(env)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	name := f.name
	if name == "" {
		name = uniqueEventName(d.info.Name, time.Now())
		args = append(args, "--name="+name)
	}
	spec := &tournamentSpec{
		d: d, env: env, r: r, name: name, args: args, format: format, tf: *tf, json: f.json,
		stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(),
		terminal: writesToTerminal(cmd.ErrOrStderr()),
	}
	return spec, cleanup, nil
}

// run plays the tournament's missing games, storing each, and returns the
// final standings, printed to stderr and (when it finished) written beside
// the records. An interrupted tournament returns its standings so far with
// the error that stopped it.
func (spec *tournamentSpec) run(ctx context.Context) (standings.Report, error) {
	d, env, r, st, name, format, tf := spec.d, spec.env, spec.r, spec.st, spec.name, spec.format, spec.tf
	stderr := spec.stderr
	// N-player games (Ants) are the simultaneous ones: all seats think
	// at once. Their groups take every bot unless the runner says how
	// many seats its maps have.
	seats := 2
	simultaneous := d.info.Players[1] > 2
	if simultaneous {
		seats = min(len(env.players), d.info.Players[1])
		if sc, ok := r.(seatCounter); ok {
			seats = sc.Seats()
		}
	}
	sched, err := tournament.New(tournament.Config{
		Name: name, Format: format, Players: len(env.players), Seats: seats,
		GamesPerPair: tf.gamesPerPair, Openings: r.Openings(), Rounds: tf.rounds,
	})
	if err != nil {
		return standings.Report{}, err
	}

	cores := runtime.NumCPU()
	auto, thinkers := defaultConcurrency(cores, seats, simultaneous, env.ponder)
	conc := tf.concurrency
	if conc == 0 {
		conc = auto
	} else if conc > auto {
		fmt.Fprintf(stderr, "warning: --concurrency %d lets up to %d bots think at once on %d cores; expect time losses\n",
			conc, conc*thinkers, cores)
	}

	unlock, err := lockTournament(env.out, name)
	if err != nil {
		return standings.Report{}, err
	}
	defer unlock()
	if err := claimTournament(ctx, st, name, d.info.Name, spec.args); err != nil {
		return standings.Report{}, err
	}
	stored, err := st.Games(ctx, name)
	if err != nil {
		return standings.Report{}, fmt.Errorf("tournament %s: %w", name, err)
	}

	t := &tournamentRun{
		name: name, game: d.info.Name, env: env, r: r, st: st, json: spec.json, stdout: spec.stdout,
		total: sched.Total(), finished: map[string]playedGame{},
		interval: tf.interval, stderr: stderr, format: string(format), listen: spec.listen,
		table: standings.New(playerNames(env.players)),
	}
	if !spec.json {
		t.stdout = stderr
	}
	results := map[string]tournament.Outcome{}
	for _, g := range stored {
		t.table.Add(g, standings.RecordFaults(g))
		results[g.ID] = outcomeOf(g, t.table)
	}
	t.prog = newProgress(stderr, spec.terminal, t.total, env.players)
	t.prog.resume(len(stored))
	if len(stored) > 0 {
		fmt.Fprintf(stderr, "tournament %s: %d of %d games already played, continuing\n", name, len(stored), t.total)
	} else {
		fmt.Fprintf(stderr, "tournament %s: %s, %d bots, %d games, %d at once, store %s\n",
			name, format, len(env.players), t.total, conc, st)
	}

	runErr := tournament.Run(ctx, sched, results, conc, t.play, t.report)
	t.prog.clear()
	status := store.StatusFinished
	if runErr != nil {
		status = store.StatusInterrupted
	}
	// The status must be saved even when ctx was cancelled by Ctrl-C.
	if err := st.SetTournamentStatus(context.WithoutCancel(ctx), name, status); err != nil && runErr == nil {
		runErr = err
	}
	rep := t.table.Full()
	rep.Tournament, rep.Game, rep.Format, rep.Total = name, d.info.Name, string(format), t.total
	rep.Finished = runErr == nil
	rep.Matches = describeMatches(sched, results, t.table.Names())
	printStandings(stderr, rep)
	if runErr != nil {
		fmt.Fprintf(stderr, "interrupted: %d of %d games stored; continue with: arena tournament --resume %s --db %s\n",
			t.table.Played(), t.total, name, spec.dsn)
		return rep, runErr
	}
	var b strings.Builder
	printStandings(&b, rep)
	if err := game.WriteFileAtomic(filepath.Join(env.out, name+"-standings.txt"), []byte(b.String())); err != nil {
		return rep, err
	}
	return rep, nil
}

// lockTournament holds an exclusive lock on OUT/.NAME.lock while the
// tournament runs: a second arena running the same tournament into the
// same folder at the same time would play its games again and replace
// their files, so it is refused. The kernel drops the lock when the
// process ends however it ends, so a crash never blocks --resume. The
// lock file stays: removing it would race with another run opening it.
func lockTournament(out, name string) (unlock func(), err error) {
	path := filepath.Join(out, "."+safeName(name)+".lock")
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

// claimTournament creates the tournament in the store, or checks that a
// stored one of that name is the same event and marks it running again.
func claimTournament(ctx context.Context, st *store.Store, name, gameName string, args []string) error {
	err := st.CreateTournament(ctx, store.Tournament{Name: name, Game: gameName, Args: args, Status: store.StatusRunning})
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
	if old.Game != gameName || !slices.Equal(identity(old.Args), identity(args)) {
		return fmt.Errorf("tournament %s exists with other settings (%s): resume it with --resume %s, or choose another --name",
			name, strings.Join(old.Args, " "), name)
	}
	return st.SetTournamentStatus(ctx, name, store.StatusRunning)
}

func playerNames(players []player) []string {
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.Name
	}
	return names
}

// outcomeOf reads a stored game's result as the schedule needs it.
func outcomeOf(g store.Game, table *standings.Table) tournament.Outcome {
	if g.Winner == nil || *g.Winner < 0 || *g.Winner >= len(g.Players) {
		return tournament.Draw
	}
	return tournament.Outcome{Winner: table.Index(g.Players[*g.Winner])}
}

// play plays one scheduled game and keeps its record for report.
func (t *tournamentRun) play(ctx context.Context, g tournament.Game) (tournament.Outcome, error) {
	j := job{ID: g.ID, Seats: g.Seats, Opening: g.Opening, OnMove: t.prog.follow(g.ID, strings.TrimPrefix(g.ID, t.name+"-"))}
	if t.listen != nil {
		j.Listener = t.listen(g.ID)
	}
	if t.env.seed != 0 {
		h := fnv.New64a()
		h.Write([]byte(g.ID))
		j.Seed = t.env.seed ^ int64(h.Sum64()>>1)
	}
	if t.env.debug {
		order, _ := participants(g.Seats)
		var ps []player
		for _, pi := range order {
			ps = append(ps, t.env.players[pi])
		}
		logs, closeLogs, err := openTranscripts(t.env.out, j.ID, ps)
		if err != nil {
			return tournament.Outcome{}, err
		}
		defer closeLogs()
		j.Transcripts = func(pi int) *bot.Transcript { return logs[slices.Index(order, pi)] }
	}
	rec, path, err := t.r.Play(ctx, j)
	if err != nil {
		t.prog.forget(g.ID)
		return tournament.Outcome{}, err
	}
	t.mu.Lock()
	t.finished[g.ID] = playedGame{rec: rec, path: path, listener: j.Listener}
	t.mu.Unlock()
	order, _ := participants(g.Seats)
	if rec.Winner == nil || *rec.Winner < 0 || *rec.Winner >= len(order) {
		return tournament.Draw, nil
	}
	return tournament.Outcome{Winner: order[*rec.Winner]}, nil
}

// report stores a finished game in one transaction, then shows it.
func (t *tournamentRun) report(g tournament.Game, _ tournament.Outcome) error {
	t.mu.Lock()
	pg := t.finished[g.ID]
	delete(t.finished, g.ID)
	t.mu.Unlock()
	rec := pg.rec
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode record: %w", err)
	}
	sg := store.Game{
		ID: rec.ID, Tournament: t.name, Round: g.Round, Seats: rec.Seats, Winner: rec.Winner,
		Reason: string(rec.Reason), Detail: rec.Detail, Scores: rec.Scores, Moves: rec.Length(),
		Record: data, RecordPath: pg.path, Start: rec.Start, End: rec.End,
	}
	for _, p := range rec.Players {
		sg.Players = append(sg.Players, p.Name)
	}
	// A game already stored is the same game played again by a run that
	// raced this one; the stored copy stands.
	if err := t.st.SaveGame(context.Background(), sg); err != nil && !errors.Is(err, store.ErrExists) {
		return fmt.Errorf("store: %w", err)
	}
	// A live follower (the web page) learns the game is over only now
	// that it is stored: its replay link works from this moment.
	if f, ok := pg.listener.(web.Finisher); ok {
		f.Finished(rec)
	}
	t.table.Add(sg, standings.PlayerFaults(rec))
	if t.json {
		if err := emitGame(t.stdout, rec, pg.path); err != nil {
			return err
		}
	}
	// Knockout tie-breaks add games the total did not count; the
	// progress bar must never run past its end.
	played := t.table.Played()
	total := t.prog.grow(played)
	t.prog.gameOver(played, rec, progressTallies(t.table.Tallies()[:len(t.env.players)]))
	if t.interval > 0 && played%t.interval == 0 {
		t.prog.clear()
		rep := t.table.Compute()
		rep.Tournament, rep.Game, rep.Format, rep.Total = t.name, t.game, t.format, total
		printStandings(t.stderr, rep)
	}
	return nil
}

// progressTallies gives the progress bar the standings' results.
func progressTallies(ts []standings.Tally) []tally {
	out := make([]tally, len(ts))
	for i, t := range ts {
		out[i] = tally{Wins: t.Wins, Draws: t.Draws, Losses: t.Losses, Faults: t.Faults}
	}
	return out
}
