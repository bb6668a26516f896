package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/contest"
	"arena/internal/names"
	"arena/store"
)

// defaultDB is the store that arena serve and the contest commands share
// unless --db says otherwise.
var defaultDB = filepath.Join("arena-out", "arena.db")

func newContestCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "contest",
		Short: "Run a contest: participants submit bots, arena serve compiles them and plays a ladder",
		Long: `Create a contest and its participants in the store; "arena serve" serves
every contest in its store (uploads, the ladder, the leaderboard) and
"arena submit" uploads a bot.`,
	}
	cmd.AddCommand(newContestCreateCmd(), newContestUserCmd(), newContestStatusCmd(), newContestFinalsCmd())
	return cmd
}

func newContestCreateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "create NAME --game GAME [--db DB] [--open-registration] [game options]",
		Short: "Create a contest of a game, with the game's options of arena match GAME",
		Example: `  arena contest create spring --game gomoku
  arena contest create cup --game points --size 20x20 --open-registration`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return contestCreate(cmd, args)
		},
	}
}

// contestCreate parses "create" by hand: the game's own options are
// known only once --game is.
func contestCreate(cmd *cobra.Command, args []string) error {
	var gameName string
	for i, a := range args {
		if a == "-h" || a == "--help" {
			return cmd.Help()
		}
		if v, ok := strings.CutPrefix(a, "--game="); ok {
			gameName = v
		} else if a == "--game" && i+1 < len(args) {
			gameName = args[i+1]
		}
	}
	d, ok := driverByName(gameName)
	if !ok {
		return unknownName("game", gameName, "--game takes", gameNames())
	}
	fs := pflag.NewFlagSet("contest create", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var db string
	var open bool
	fs.StringVar(&gameName, "game", "", "the game")
	fs.StringVar(&db, "db", defaultDB, "the store")
	fs.BoolVar(&open, "open-registration", false, "participants may register themselves on the page")
	opts := d.flags(fs)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("contest create: %w", err)
	}
	if fs.NArg() != 1 {
		return errors.New("contest create: give the contest's NAME")
	}
	name := fs.Arg(0)
	if err := names.Check(name); err != nil {
		return fmt.Errorf("contest name %q: %w", name, err)
	}
	spec, err := opts.spec(runEnv{})
	if err != nil {
		return err
	}
	var own []string
	fs.Visit(func(f *pflag.Flag) {
		if !slices.Contains([]string{"game", "db", "open-registration"}, f.Name) {
			own = append(own, "--"+f.Name+"="+f.Value.String())
		}
	})
	st, err := store.Open(cmd.Context(), db)
	if err != nil {
		return err
	}
	defer st.Close()
	c := store.Contest{Name: name, Game: d.info.Name, Options: spec.Options, Args: own, Open: open}
	if err := st.CreateContest(cmd.Context(), c); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "arena: contest %s of %s created in %s; add participants with arena contest user add USER --contest %s\n",
		name, d.info.Title, st, name)
	return nil
}

func newContestUserCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "user", Short: "Manage a contest's participants"}
	var db, contestName string
	add := &cobra.Command{
		Use:   "add USER --contest NAME",
		Short: "Add a participant and print its token (on stdout, once: the store keeps only its hash)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if contestName == "" {
				return errors.New("--contest: which contest?")
			}
			if err := names.Check(args[0]); err != nil {
				return fmt.Errorf("user name %q: %w", args[0], err)
			}
			st, err := openExistingStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			token, err := contest.AddParticipant(cmd.Context(), st, contestName, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), token)
			return nil
		},
	}
	add.Flags().StringVar(&db, "db", defaultDB, "the store: a SQLite file or postgres://...")
	add.Flags().StringVar(&contestName, "contest", "", "the contest")
	cmd.AddCommand(add)
	return cmd
}

func newContestStatusCmd() *cobra.Command {
	var db string
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "status NAME",
		Short: "Show a contest's submissions with their state and the ladder's standings",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openExistingStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			s, err := contest.LoadStatus(cmd.Context(), st, args[0])
			if err != nil {
				return err
			}
			if jsonOut {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			printStatus(cmd.OutOrStdout(), s)
			return nil
		},
	}
	cmd.Flags().StringVar(&db, "db", defaultDB, "the store: a SQLite file or postgres://...")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the status as one JSON object")
	return cmd
}

func printStatus(w io.Writer, s contest.Status) {
	state := "running"
	if s.Paused {
		state = "paused"
	}
	fmt.Fprintf(w, "contest %s (%s), ladder %s, %d games\n\n", s.Name, s.Game, state, s.Games)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tparticipant\trating\tmu ± 3σ\tgames\tW/D/L\tlanguage\tlast submission")
	for _, r := range s.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.2f ± %.2f\t%d\t%d/%d/%d\t%s\t%s\n", r.Rank, r.User, r.Rating, r.Mu, 3*r.Sigma,
			r.Games, r.Wins, r.Draws, r.Losses, r.Language, r.LastSubmission)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "submission\tparticipant\tlanguage\tstate\treason")
	for _, sub := range s.Submissions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", sub.ID, sub.User, sub.Language, sub.State, sub.Reason)
	}
	tw.Flush()
}
