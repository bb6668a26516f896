package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/engine"
	"arena/game"
	"arena/match"
)

// A driver is a game as the CLI plays it: the game's contract
// (match.Game), its description, and the commands that go with it, arena's
// own bot ("arena bot GAME") and the game's tools ("arena ants ...").
// The list of drivers is in games.go; nothing else in the CLI names a
// game.
type driver struct {
	match.Game
	info game.Info
	// bot is "arena bot GAME": arena's own player for the game.
	bot func() *cobra.Command
	// commands are extra top-level commands of the game ("arena ants ...").
	commands func() []*cobra.Command
}

// games is the registry of the games this arena plays, built once from
// the list in games.go and never changed.
var games = sync.OnceValue(func() *game.Registry[driver] {
	ds := gameEntries()
	for i := range ds {
		ds[i].info = ds[i].Info()
	}
	r, err := game.NewRegistry(ds...)
	if err != nil {
		panic(err) // two games of one name is a programming error
	}
	return r
})

// drivers lists every game arena plays.
func drivers() []driver { return games().All() }

// driverByName finds the driver of a game.
func driverByName(name string) (driver, bool) { return games().Lookup(name) }

// gameNames lists the games' names in the order of drivers.
func gameNames() []string {
	var names []string
	for _, d := range drivers() {
		names = append(names, d.info.Name)
	}
	return names
}

// flags registers the game's own options on fs.
func (d driver) flags(fs *pflag.FlagSet) *boundOptions {
	opts := d.NewOptions()
	opts.Bind(fs)
	return &boundOptions{d: d, opts: opts, fs: fs}
}

// boundOptions are a game's options bound to the flags of one command.
type boundOptions struct {
	d    driver
	opts game.Options
	fs   *pflag.FlagSet
}

// build runs after the flags are parsed: it checks the options and
// builds the runner that plays the games, as specs of one match (see
// specRunner).
func (b *boundOptions) build(env runEnv) (runner, error) {
	tmpl, err := b.spec(env)
	if err != nil {
		return nil, err
	}
	r := specRunner{run: engine.NewLocal(registryOf(games()), match.Local{Out: env.Out, Work: env.Work, Sandbox: env.Sandbox}), tmpl: tmpl}
	// The runner is built now, so that a bad option stops the command
	// before any game.
	if _, err := r.run.Openings(tmpl); err != nil {
		return nil, err
	}
	return r, nil
}

// spec writes the match part of a spec from the parsed flags: the game,
// its options, the players, the clock and the seed.
func (b *boundOptions) spec(env runEnv) (match.Spec, error) {
	if fc, ok := b.opts.(game.FlagChecker); ok {
		if err := fc.CheckFlags(b.fs); err != nil {
			return match.Spec{}, err
		}
	}
	if err := b.opts.Validate(); err != nil {
		return match.Spec{}, err
	}
	data, err := json.Marshal(b.opts)
	if err != nil {
		return match.Spec{}, fmt.Errorf("%s options: %w", b.d.info.Name, err)
	}
	return match.Spec{
		Game: b.d.info.Name, Options: data, Players: env.Players,
		Clock: env.Clock, Memory: env.Memory, Ponder: env.Ponder, Seed: env.Seed,
	}, nil
}

// specRunner plays the jobs of one match or tournament as specs: tmpl
// is the match part, each job fills in the game's.
type specRunner struct {
	run  engine.Runner
	tmpl match.Spec
}

func (r specRunner) Openings() int {
	n, err := r.run.Openings(r.tmpl)
	if err != nil {
		return 1 // build made the runner: it cannot fail now
	}
	return n
}

// spec is the whole spec of a job.
func (r specRunner) spec(j job) match.Spec {
	s := r.tmpl
	s.ID, s.Seats, s.Opening, s.GameSeed = j.ID, j.Seats, j.Opening, j.Seed
	return s
}

func (r specRunner) Play(ctx context.Context, j job) (*game.Record, string, error) {
	return r.run.Run(ctx, r.spec(j), match.Local{OnMove: j.OnMove, Transcripts: j.Transcripts, Listener: j.Listener})
}

// registryOf is the registry as match.Play looks games up.
func registryOf(r *game.Registry[driver]) match.Games { return gameLookup{r} }

type gameLookup struct{ r *game.Registry[driver] }

func (l gameLookup) Lookup(name string) (match.Game, bool) {
	d, ok := l.r.Lookup(name)
	return d, ok
}

// args checks the words left after the flags: the game's options may
// take some (game.ArgsTaker), others none.
func (b *boundOptions) args(cmd *cobra.Command, args []string) error {
	t, ok := b.opts.(game.ArgsTaker)
	if !ok {
		return cobra.NoArgs(cmd, args)
	}
	rest, err := t.TakeArgs(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected argument %q for %q", rest[0], cmd.CommandPath())
	}
	return nil
}

// runEnv is what the shared flags say, handed to a game's runner.
type runEnv = match.Env

// A runner plays single games of one game with options fixed by flags.
type runner = match.Runner

// job is one game to play.
type job = match.Job

// matchCLI is "arena match GAME" for a driver, its flags parsed into f
// and opts.
type matchCLI struct {
	d           driver
	f           matchFlags
	concurrency int
	opts        *boundOptions
}

// newMatchGameCmd builds "arena match GAME" for a driver: a series of
// games between the same bots, colours (seats) alternating.
func newMatchGameCmd(d driver) *cobra.Command {
	return newMatchCLI(d).cmd()
}

func newMatchCLI(d driver) *matchCLI { return &matchCLI{d: d} }

func (m *matchCLI) cmd() *cobra.Command {
	d, f := m.d, &m.f
	cmd := &cobra.Command{
		Use:     d.info.Name,
		Short:   d.info.Help.Short,
		Long:    d.info.Help.Long,
		Example: d.info.Help.Example,
		Args:    func(cmd *cobra.Command, args []string) error { return m.opts.args(cmd, args) },
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkName(f.name); err != nil {
				return err
			}
			env, r, cleanup, err := f.runner(d, m.opts.build)
			if err != nil {
				return err
			}
			defer cleanup()
			conc, err := matchConcurrency(cmd.ErrOrStderr(), m.concurrency, d, env)
			if err != nil {
				return err
			}
			keepReady(env.Sandbox, conc, len(env.Players))
			name, err := claimRunName(env.Out, f.matchName(d.info.Name), time.Now())
			if err != nil {
				return err
			}
			if f.name != "" && name != f.name {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s already holds a match %s: this one is %s\n", env.Out, f.name, name)
			}
			s := &series{
				game: d.info.Name, players: env.Players, games: f.games, json: f.json,
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(),
				terminal:    writesToTerminal(cmd.ErrOrStderr()),
				summaryFile: filepath.Join(env.Out, name+"-summary.txt"),
				concurrency: conc,
			}
			if !f.json {
				s.stdout = cmd.ErrOrStderr()
			}
			sr, ok := r.(specRunner)
			if !ok {
				return fmt.Errorf("match: a runner of type %T", r)
			}
			s.runner = sr.run
			s.spec = func(i int) match.Spec { return sr.spec(matchJob(name, i, env)) }
			s.follow = func(_ int, spec match.Spec) (match.Local, func(), error) {
				if !env.Debug {
					return match.Local{}, func() {}, nil
				}
				logs, closeLogs, err := openTranscripts(env.Out, spec.ID, env.Players)
				if err != nil {
					return match.Local{}, nil, err
				}
				return match.Local{Transcripts: func(pi int) *bot.Transcript { return logs[pi] }}, closeLogs, nil
			}
			return s.run(cmd.Context())
		},
	}
	f.register(cmd, d)
	cmd.Flags().IntVar(&m.concurrency, "concurrency", 1, "games at once (0 = as many as the cores allow, one thinking bot per core)")
	m.opts = d.flags(cmd.Flags())
	return cmd
}

// matchJob is game i (from 0) of the match name: its ID, the players'
// seats (rotating), its opening (one per round of seatings) and seed.
func matchJob(name string, i int, env runEnv) job {
	j := job{
		ID:      fmt.Sprintf("%s-%03d", name, i+1),
		Seats:   matchSeats(len(env.Players), i),
		Opening: i / len(env.Players),
	}
	if env.Seed != 0 {
		j.Seed = env.Seed + int64(i)
	}
	return j
}

// claimRunName claims a name for a match or SPRT in the folder out,
// whose files it names (NAME-001.json, NAME-summary.txt ...), so that no
// other run, before or at the same time, writes or replaces them. The
// claim is the summary file NAME-summary.txt, created only if it does not
// exist (the run later replaces it with its standings); a name whose
// summary exists, or that any other file in out starts with (a run
// without a claim left them), is taken, and base-2, base-3 ... are tried
// in turn.
func claimRunName(out, base string, now time.Time) (string, error) {
	const tries = 10000
	for n := 1; n <= tries; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		summary := filepath.Join(out, name+"-summary.txt")
		f, err := os.OpenFile(summary, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("--out: claim the name %s: %w", name, err)
		}
		_, werr := fmt.Fprintf(f, "%s: running since %s\n", name, now.Format(time.RFC3339))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(summary)
			return "", fmt.Errorf("--out: claim the name %s: %w", name, werr)
		}
		others, err := filepath.Glob(globEscape(filepath.Join(out, name)) + "-*")
		if err != nil {
			return "", fmt.Errorf("--out: claim the name %s: %w", name, err)
		}
		if slices.ContainsFunc(others, func(p string) bool { return p != summary }) {
			os.Remove(summary)
			continue
		}
		return name, nil
	}
	return "", fmt.Errorf("--out: %s holds %d runs named %s: choose another --name", out, tries, base)
}

// matchSeats seats the players of game i of a match: two players swap
// colours every game; more players keep the order of the --bot flags
// (as the AI Challenge engine does) but rotate by one seat per game.
func matchSeats(players, i int) []int {
	seats := make([]int, players)
	for s := range seats {
		seats[s] = (s + i) % players
	}
	return seats
}

// runner checks the shared flags, prepares the folders and builds the
// game's runner with build (from the driver's flags). cleanup removes
// the scratch folder.
func (f *matchFlags) runner(d driver, build func(runEnv) (runner, error)) (runEnv, runner, func(), error) {
	env, cleanup, err := f.env(d)
	if err != nil {
		return runEnv{}, nil, nil, err
	}
	r, err := build(env)
	if err != nil {
		cleanup()
		return runEnv{}, nil, nil, err
	}
	return env, r, cleanup, nil
}

// env checks the shared flags and prepares the output and scratch
// folders. cleanup removes the scratch folder.
func (f *matchFlags) env(d driver) (runEnv, func(), error) {
	clock, err := f.clock()
	if err != nil {
		return runEnv{}, nil, err
	}
	memory, err := parseSize(f.memory)
	if err != nil {
		return runEnv{}, nil, fmt.Errorf("--memory: %w", err)
	}
	players, err := f.players(d, clock)
	if err != nil {
		return runEnv{}, nil, err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return runEnv{}, nil, fmt.Errorf("--out: %w", err)
	}
	out, err := filepath.Abs(f.out)
	if err != nil {
		return runEnv{}, nil, fmt.Errorf("--out: %w", err)
	}
	work, err := workFolder(f.workDir, out, os.Stderr)
	if err != nil {
		return runEnv{}, nil, fmt.Errorf("--work-dir: %w", err)
	}
	// Its groups kept ready for one game at once: cleanup closes them.
	sb, err := f.sandbox.open(context.Background(), 1)
	if err != nil {
		os.RemoveAll(work)
		return runEnv{}, nil, err
	}
	env := runEnv{
		Players: players, Clock: clock, Memory: memory, Ponder: f.ponder, Seed: f.seed,
		Out: out, Work: work, Debug: f.debug, Sandbox: sb,
	}
	return env, func() { sb.Close(); os.RemoveAll(work) }, nil
}
