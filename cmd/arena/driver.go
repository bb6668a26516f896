package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// A driver is everything the generic commands (match, tournament, bot,
// games) need to know about one game. Each game has one file in this
// package that builds its driver (gomoku.go, khet.go, ...); nothing else
// in the CLI names a game.
type driver struct {
	info game.Info
	// short and long describe "arena match GAME"; example shows it used.
	short, long, example string
	// turnTime and matchTime are the game's default clocks.
	turnTime, matchTime time.Duration
	// notShared names the shared match flags (matchFlags) that do
	// nothing in this game, such as clocks a game that keeps its own
	// time does not use; its commands do not offer them.
	notShared []string
	// flags registers the game's own options (board size, rule, map ...)
	// on a match or tournament command. The returned function runs after
	// the flags are parsed and builds the runner that plays the games.
	flags func(fs *pflag.FlagSet) func(env runEnv) (runner, error)
	// defaultBots are the --bot values used when none are given.
	defaultBots []string
	// args checks the words left after the flags of "arena match GAME"
	// and "arena tournament GAME" (Ants: the MAX of --food_rate 5 11);
	// nil: there must be none.
	args cobra.PositionalArgs
	// bot is "arena bot GAME": arena's own player for the game.
	bot func() *cobra.Command
	// commands are extra top-level commands of the game ("arena ants ...").
	commands func() []*cobra.Command
	// human says whether the game's runner seats a person (player.Human)
	// as well as bots, so that the web page can offer it.
	human bool
	// toldClock says whether the game's protocol tells a bot its clock,
	// so that a person may give the bot opposite a time of its own (a
	// bot that is not told would be judged on a clock it never saw).
	toldClock bool
	// botFields are the optional fields of a --bots file entry that
	// the game's runner honours (fieldDir, ...); others are refused.
	botFields []string
}

// drivers lists every game arena plays.
func drivers() []driver {
	return []driver{gomokuDriver(), khetDriver(), antsDriver(), pointsDriver()}
}

// games is the registry of the games this arena plays.
func games() *game.Registry {
	var r game.Registry
	for _, d := range drivers() {
		if err := r.Register(d.info); err != nil {
			panic(err) // two games of one name is a programming error
		}
	}
	return &r
}

// gameFormats maps each game's name to its own file formats, which the
// web page offers stored games in.
func gameFormats() map[string][]game.Format {
	m := map[string][]game.Format{}
	for _, d := range drivers() {
		m[d.info.Name] = d.info.Formats
	}
	return m
}

// runEnv is what the shared flags say, handed to a game's runner.
type runEnv struct {
	// players are all bots of the match or tournament; a job picks
	// which of them play one game.
	players []player
	clock   match.Clock
	memory  int64 // bytes per bot, 0 = none
	ponder  bool
	seed    int64
	out     string // absolute folder for records, created
	work    string // scratch folder for bots' working folders, created, removed at the end
	debug   bool
	sandbox *sandbox.Sandbox // nil: --sandbox off
}

// A runner plays single games of one game with options fixed by flags.
// Runners are safe for concurrent use: a tournament plays several
// games at once.
type runner interface {
	// Openings is how many distinct starting positions (openings, maps,
	// setups) the runner cycles through; at least 1.
	Openings() int
	// Play plays one game to its end, writes its files into env.out
	// and returns its record and the path of its JSON record. An error
	// means the game could not be played or saved (never a bot's
	// fault: that is a result).
	Play(ctx context.Context, job job) (*game.Record, string, error)
}

// job is one game to play.
type job struct {
	ID string
	// Seats maps seat to player index (into runEnv.players). For
	// two-player games seat 0 moves first.
	Seats []int
	// Opening is the index of the starting position, taken modulo
	// Openings().
	Opening int
	// Seed makes the game's random choices (Ants' engine seed, random
	// crosses ...) repeatable; 0 lets the runner choose.
	Seed int64
	// OnMove, if set, is called after every move or turn with its
	// number and, where the game has one, a short account of the
	// position ("a 12 ants 3 points, b ...") for progress bars.
	OnMove func(ply int, status string)
	// Transcripts, if set, gives each player's debug transcript.
	Transcripts func(player int) *bot.Transcript
	// Listener, if set, follows the game live (the web page).
	Listener game.Listener
}

// newMatchGameCmd builds "arena match GAME" for a driver: a series of
// games between the same bots, colours (seats) alternating.
func newMatchGameCmd(d driver) *cobra.Command {
	var f matchFlags
	var concurrency int
	var build func(env runEnv) (runner, error)
	cmd := &cobra.Command{
		Use:     d.info.Name,
		Short:   d.short,
		Long:    d.long,
		Example: d.example,
		Args:    d.positionalArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, r, cleanup, err := f.runner(d, build)
			if err != nil {
				return err
			}
			defer cleanup()
			conc, err := matchConcurrency(cmd.ErrOrStderr(), concurrency, d, env)
			if err != nil {
				return err
			}
			name, err := claimRunName(env.out, f.matchName(d.info.Name), time.Now())
			if err != nil {
				return err
			}
			if f.name != "" && name != f.name {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s already holds a match %s: this one is %s\n", env.out, f.name, name)
			}
			s := &series{
				game: d.info.Name, players: env.players, games: f.games, json: f.json,
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(),
				terminal:    writesToTerminal(cmd.ErrOrStderr()),
				summaryFile: filepath.Join(env.out, name+"-summary.txt"),
				concurrency: conc,
			}
			if !f.json {
				s.stdout = cmd.ErrOrStderr()
			}
			s.play = func(ctx context.Context, i int, prog *progress) (*game.Record, string, error) {
				j := job{
					ID:      fmt.Sprintf("%s-%03d", name, i+1),
					Seats:   matchSeats(len(env.players), i),
					Opening: i / len(env.players),
				}
				j.OnMove = prog.follow(j.ID, fmt.Sprintf("#%d", i+1))
				if env.seed != 0 {
					j.Seed = env.seed + int64(i)
				}
				if env.debug {
					logs, closeLogs, err := openTranscripts(env.out, j.ID, env.players)
					if err != nil {
						return nil, "", err
					}
					defer closeLogs()
					j.Transcripts = func(pi int) *bot.Transcript { return logs[pi] }
				}
				rec, path, err := r.Play(ctx, j)
				if err != nil {
					prog.forget(j.ID)
				}
				return rec, path, err
			}
			return s.run(cmd.Context())
		},
	}
	f.register(cmd, d)
	cmd.Flags().IntVar(&concurrency, "concurrency", 1, "games at once (0 = as many as the cores allow, one thinking bot per core)")
	build = d.flags(cmd.Flags())
	return cmd
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

// positionalArgs is the check of the words left after the flags.
func (d driver) positionalArgs() cobra.PositionalArgs {
	if d.args != nil {
		return d.args
	}
	return cobra.NoArgs
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
	sb, err := f.sandbox.open()
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
	work, err := bot.ScratchDir(f.workDir, out, "arena-work-")
	if err != nil {
		return runEnv{}, nil, fmt.Errorf("--work-dir: %w", err)
	}
	env := runEnv{
		players: players, clock: clock, memory: memory, ponder: f.ponder, seed: f.seed,
		out: out, work: work, debug: f.debug, sandbox: sb,
	}
	return env, func() { os.RemoveAll(work) }, nil
}

// participants turns a job's seating into the players of one game's
// record: order lists the seated players by their index in the match or
// tournament (the order of a record's Players), and seats maps each seat
// to a position in order (a record's Seats).
func participants(jobSeats []int) (order, seats []int) {
	order = append([]int(nil), jobSeats...)
	slices.Sort(order)
	seats = make([]int, len(jobSeats))
	for s, pi := range jobSeats {
		seats[s] = slices.Index(order, pi)
	}
	return order, seats
}

// gameSetup is what a runner of a game played through match.Run takes
// from a job: who plays and where, and the per-game hooks of its match
// configuration.
type gameSetup struct {
	order []int // the seated players by their index, as the record lists them
	first int   // the position in order of the player who moves first
	// workDir is the game's own working folder: a tournament plays
	// several games of one bot at once.
	workDir     string
	onMove      func(match.MoveEvent)
	transcripts func(gameID string, player int) *bot.Transcript
	listener    game.Listener // the job's, nil: nobody follows the game live
}

// setup prepares a game of the job under workRoot; done removes its
// working folder.
func (j job) setup(workRoot string) (g gameSetup, done func()) {
	order, seats := participants(j.Seats)
	g = gameSetup{order: order, first: seats[0], workDir: filepath.Join(workRoot, j.ID), listener: j.Listener}
	if j.OnMove != nil {
		g.onMove = func(ev match.MoveEvent) { j.OnMove(ev.Ply, "") }
	}
	if j.Transcripts != nil {
		g.transcripts = func(_ string, pi int) *bot.Transcript { return j.Transcripts(order[pi]) }
	}
	return g, func() { os.RemoveAll(g.workDir) }
}

// pick returns the elements of all at the given indexes.
func pick[T any](all []T, indexes []int) []T {
	out := make([]T, len(indexes))
	for i, k := range indexes {
		out[i] = all[k]
	}
	return out
}
