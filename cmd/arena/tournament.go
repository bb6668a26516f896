package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/engine"
	"arena/game"
	"arena/match"
	"arena/standings"
	"arena/store"
	"arena/tournament"
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
	dispatch     dispatchFlags // where the games are played
}

// volatile reports whether a flag changes how a tournament runs, not
// which games it plays: a rerun may change it and still continue the
// same event.
func volatile(flag string) bool {
	switch flag {
	case "concurrency", "json", "db", "debug", "work-dir", "name", "rating-interval":
		return true
	}
	return slices.Contains(dispatchFlagNames, flag)
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
	d    driver
	f    matchFlags
	tf   tournamentFlags
	opts *boundOptions
}

// registerTournamentFlags adds the flags of a tournament of d to cmd.
func registerTournamentFlags(cmd *cobra.Command, d driver) *tournamentCLI {
	tc := &tournamentCLI{d: d}
	tc.f.register(cmd, d, "games") // a tournament counts games per pairing
	tc.opts = d.flags(cmd.Flags())
	fl := cmd.Flags()
	fl.Lookup("name").Usage = "name of the tournament, to resume it, and the prefix of its game IDs (default: game and a hash of the settings)"
	fl.StringVar(&tc.tf.format, "format", "round-robin", "round-robin, gauntlet, swiss or knockout")
	fl.IntVar(&tc.tf.gamesPerPair, "games-per-pair", 2, "games each pairing plays on every opening, colours alternating")
	fl.IntVar(&tc.tf.rounds, "rounds", 0, "Swiss rounds (default: ceil(log2(bots)))")
	fl.IntVar(&tc.tf.concurrency, "concurrency", 0, "games at once (default: as many as the cores allow, one thinking bot per core)")
	fl.StringVar(&tc.tf.db, "db", "", "the store: a SQLite file or postgres://... (default OUT/arena.db)")
	fl.IntVar(&tc.tf.interval, "rating-interval", 0, "also print the full standings every N games (0 = at the end only)")
	tc.tf.dispatch.register(fl)
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
		Args: func(cmd *cobra.Command, args []string) error { return tc.opts.args(cmd, args) },
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTournament(cmd, tc)
		},
	}
	tc = registerTournamentFlags(cmd, d)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		err = notSharedError(d, err)
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
	// disp plays the games on workers; nil: here.
	disp *dispatcher
}

func runTournament(cmd *cobra.Command, tc *tournamentCLI) error {
	spec, cleanup, err := prepareTournament(cmd, tc, nil)
	if err != nil {
		return err
	}
	defer cleanup()
	spec.dsn = tc.tf.db
	if spec.dsn == "" {
		spec.dsn = filepath.Join(spec.env.Out, "arena.db")
	}
	st, err := openStore(cmd.Context(), spec.dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	spec.st = st
	disp, err := tc.tf.dispatch.start(cmd.Context(), spec.env.Out, spec.stderr)
	if err != nil {
		return err
	}
	defer disp.stop()
	spec.disp = disp
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
		if len(players) != len(env.Players) {
			cleanup()
			return nil, nil, fmt.Errorf("--bot: %d bots for %d players", len(env.Players), len(players))
		}
		env.Players = players
	}
	r, err := tc.opts.build(env)
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
	d, env, name, format, tf := spec.d, spec.env, spec.name, spec.format, spec.tf
	stderr := spec.stderr
	sr, ok := spec.r.(specRunner)
	if !ok {
		return standings.Report{}, fmt.Errorf("tournament %s: a runner of type %T", name, spec.r)
	}
	// N-player games seat every bot in each game, up to the game's most;
	// in games whose players move at once all seats think at once.
	seats := 2
	if d.info.Players[1] > 2 {
		seats = min(len(env.Players), d.info.Players[1])
	}
	cores := runtime.NumCPU()
	auto, thinkers := defaultConcurrency(cores, seats, d.info.Simultaneous, env.Ponder)
	run, closeRunner, err := spec.disp.runner(ctx, sr.run, env.Out, name, false)
	if err != nil {
		return standings.Report{}, err
	}
	defer closeRunner()
	if spec.disp != nil {
		auto = dispatchedGames // the workers' slots decide
	}
	conc := tf.concurrency
	if conc == 0 {
		conc = auto
	} else if conc > auto {
		fmt.Fprintf(stderr, "warning: --concurrency %d lets up to %d bots think at once on %d cores; expect time losses\n",
			conc, conc*thinkers, cores)
	}
	if spec.disp == nil {
		keepReady(env.Sandbox, conc, seats)
	}
	out := spec.stdout
	if !spec.json {
		out = stderr
	}
	var prog *progress
	total := 0
	t := &engine.Tournament{
		Name: name, Args: spec.args,
		Same:     func(stored []string) bool { return slices.Equal(identity(stored), identity(spec.args)) },
		Schedule: tournament.Config{Format: format, Players: len(env.Players), Seats: seats, GamesPerPair: tf.gamesPerPair, Rounds: tf.rounds},
		Match:    sr.tmpl, Runner: run, Store: spec.st, Out: env.Out, Concurrency: conc,
		Started: func(stored int, sched *tournament.Schedule) {
			total = sched.Total()
			prog = newProgress(stderr, spec.terminal, total, env.Players)
			prog.resume(stored)
			if stored > 0 {
				fmt.Fprintf(stderr, "tournament %s: %d of %d games already played, continuing\n", name, stored, total)
			} else {
				fmt.Fprintf(stderr, "tournament %s: %s, %d bots, %d games, %d at once, store %s\n",
					name, format, len(env.Players), total, conc, spec.st)
			}
		},
		Follow: func(g tournament.Game) (match.Local, func(), error) {
			f := match.Local{OnMove: prog.follow(g.ID, strings.TrimPrefix(g.ID, name+"-"))}
			if spec.listen != nil {
				f.Listener = spec.listen(g.ID)
			}
			if !env.Debug {
				return f, func() {}, nil
			}
			order, _ := match.Participants(g.Seats)
			logs, closeLogs, err := openTranscripts(env.Out, g.ID, match.Pick(env.Players, order))
			if err != nil {
				return match.Local{}, nil, err
			}
			f.Transcripts = func(pi int) *bot.Transcript { return logs[slices.Index(order, pi)] }
			return f, closeLogs, nil
		},
		Abandoned: func(g tournament.Game) { prog.forget(g.ID) },
		Stored: func(_ tournament.Game, rec *game.Record, path string, table *standings.Table) error {
			if spec.json {
				if err := emitGame(out, rec, path); err != nil {
					return err
				}
			}
			// Knockout tie-breaks add games the total did not count; the
			// progress bar must never run past its end.
			played := table.Played()
			grown := prog.grow(played)
			prog.gameOver(played, rec, progressTallies(table.Tallies()[:len(env.Players)]))
			if tf.interval > 0 && played%tf.interval == 0 {
				prog.clear()
				rep := table.Compute()
				rep.Tournament, rep.Game, rep.Format, rep.Total = name, d.info.Name, string(format), grown
				printStandings(stderr, rep)
			}
			return nil
		},
	}
	res, runErr := t.Run(ctx)
	if prog == nil { // it stopped before its first game
		return standings.Report{}, runErr
	}
	prog.clear()
	rep := res.Report
	rep.Matches = describeMatches(res.Schedule, res.Outcomes, res.Table.Names())
	printStandings(stderr, rep)
	if runErr != nil {
		fmt.Fprintf(stderr, "interrupted: %d of %d games stored; continue with: arena tournament --resume %s --db %s\n",
			res.Table.Played(), total, name, spec.dsn)
		return rep, runErr
	}
	var b strings.Builder
	printStandings(&b, rep)
	if err := game.WriteFileAtomic(filepath.Join(env.Out, name+"-standings.txt"), []byte(b.String())); err != nil {
		return rep, err
	}
	return rep, nil
}

func playerNames(players []player) []string {
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.Name
	}
	return names
}

// progressTallies gives the progress bar the standings' results.
func progressTallies(ts []standings.Tally) []tally {
	out := make([]tally, len(ts))
	for i, t := range ts {
		out[i] = tally{Wins: t.Wins, Draws: t.Draws, Losses: t.Losses, Faults: t.Faults}
	}
	return out
}
