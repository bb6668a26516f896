package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"

	"arena/contest"
	"arena/engine"
	"arena/match"
	"arena/tournament"
)

func newContestFinalsCmd() *cobra.Command {
	var db, out, name, format string
	var gamesPerPair, rounds, concurrency int
	var jsonOut bool
	var sb sandboxFlags
	cmd := &cobra.Command{
		Use:   "finals NAME --format swiss|round-robin",
		Short: "Run a contest's final tournament from each participant's latest accepted bot",
		Long: `Run the final tournament of a contest with the tournament engine of arena
tournament: every participant's latest accepted bot (not disqualified),
seeded by the ladder's ranking. Its games and standings are stored as a
tournament named NAME-finals (or --name): an interrupted run resumes
when run again; arena standings shows them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := tournament.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			st, err := openExistingStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			abs, err := filepath.Abs(out)
			if err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			work, err := workFolder("", abs, cmd.ErrOrStderr())
			if err != nil {
				return fmt.Errorf("working folder: %w", err)
			}
			defer os.RemoveAll(work)
			box, err := sb.open(cmd.Context(), concurrency)
			if err != nil {
				return err
			}
			defer box.Close()
			reg := registryOf(games())
			runner := engine.NewLocal(reg, match.Local{Out: abs, Work: work, Sandbox: box})
			svc, err := contest.NewService(contest.Config{Store: st, Runner: runner, Games: reg, Dir: filepath.Join(abs, "contests"),
				Builtin: func(string) (match.Player, error) { return match.Player{}, fmt.Errorf("finals play no built-in bot") }})
			if err != nil {
				return err
			}
			res, err := svc.RunFinals(cmd.Context(), contest.Finals{Contest: args[0], Name: name, Format: f, GamesPerPair: gamesPerPair,
				Rounds: rounds, Out: abs, Concurrency: concurrency,
				Stored: func(id string) { fmt.Fprintf(cmd.ErrOrStderr(), "arena: finals game %s stored\n", id) }})
			if err != nil {
				return err
			}
			if jsonOut {
				return writeStandingsJSON(cmd.OutOrStdout(), res.Report)
			}
			printStandings(cmd.OutOrStdout(), res.Report)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&db, "db", defaultDB, "the store: a SQLite file or postgres://...")
	fl.StringVar(&out, "out", "arena-out", "folder for the games' record files")
	fl.StringVar(&name, "name", "", "the finals' tournament name (default NAME-finals)")
	fl.StringVar(&format, "format", "round-robin", "round-robin or swiss (or gauntlet, knockout)")
	fl.IntVar(&gamesPerPair, "games-per-pair", 2, "games each pairing plays, seats alternating")
	fl.IntVar(&rounds, "rounds", 0, "Swiss rounds (0: enough to find a winner)")
	fl.IntVar(&concurrency, "concurrency", max(runtime.NumCPU()/2, 1), "games at once")
	fl.BoolVar(&jsonOut, "json", false, "print the standings as JSON")
	sb.register(fl)
	return cmd
}
