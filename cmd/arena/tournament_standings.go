package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"arena/game"
	"arena/standings"
	"arena/store"
	"arena/tournament"
)

// isFault reports whether a reason is a bot's failure.
func isFault(r string) bool { return standings.IsFault(r) }

// matrixLimit is the most bots whose LOS matrix and crosstable are
// printed for people (the JSON always has them).
const matrixLimit = 16

// standingsLine is the JSON object of a tournament's standings: the
// last line of "arena tournament --json" and "arena standings --json".
type standingsLine struct {
	Type string `json:"type"` // "standings"
	standings.Report
}

// writeStandingsJSON prints a tournament's standings as one JSON line.
func writeStandingsJSON(w io.Writer, rep standings.Report) error {
	return writeJSONLine(w, standingsLine{Type: "standings", Report: rep})
}

// printStandings writes the standings for people.
func printStandings(w io.Writer, rep standings.Report) {
	state := "finished"
	if !rep.Finished {
		state = "not finished"
	}
	head := fmt.Sprintf("Tournament %s (%s", rep.Tournament, rep.Game)
	if rep.Format != "" {
		head += ", " + rep.Format
	}
	head += "): " + game.Count(rep.Games, "game")
	if rep.Total > 0 {
		head += fmt.Sprintf(" of %d", rep.Total)
	}
	fmt.Fprintf(w, "%s, %s\n", head, state)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	nPlayer := len(rep.Standings) > 0 && rep.Standings[0].Mu != nil
	rate := "elo\t95% interval"
	if nPlayer {
		rate = "mu\tsigma\tordinal"
	}
	fmt.Fprintf(tw, "rank\tplayer\tgames\tpoints\twins\tdraws\tlosses\ttimeout\tcrash\tillegal\tprotocol\tmemory\t%s\n", rate)
	for _, r := range rep.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", r.Rank, r.Player, r.Games, r.Points,
			r.Wins, r.Draws, r.Losses, r.Faults["timeout"], r.Faults["crash"], r.Faults["illegal"],
			r.Faults["protocol"], r.Faults["memory"])
		switch {
		case nPlayer:
			fmt.Fprintf(tw, "%s\t%s\t%s\n", num(r.Mu, "%.2f"), num(r.Sigma, "%.2f"), num(r.Ordinal, "%.2f"))
		case r.Elo != nil:
			fmt.Fprintf(tw, "%s\t[%s, %s]\n", num(r.Elo, "%+.0f"), num(r.EloLow, "%+.0f"), num(r.EloHigh, "%+.0f"))
		default:
			fmt.Fprint(tw, "-\t-\n")
		}
	}
	tw.Flush()
	if rep.Advantage != nil && rep.DrawElo != nil {
		fmt.Fprintf(w, "Bradley-Terry fit over all games (BayesElo model): first-move advantage %+.0f Elo, draw Elo %.0f\n",
			math.Round(*rep.Advantage)+0, math.Round(*rep.DrawElo)+0)
	}
	if rep.RatingNote != "" {
		fmt.Fprintln(w, rep.RatingNote)
	}
	names := make([]string, len(rep.Standings))
	for i, r := range rep.Standings {
		names[i] = r.Player
	}
	if len(rep.LOS) > 0 && len(names) <= matrixLimit {
		fmt.Fprintln(w, "Likelihood of superiority (row stronger than column, %):")
		printMatrix(w, names, func(a, b string) string { return fmt.Sprintf("%.0f", 100*rep.LOS[a][b]) })
	}
	if len(rep.Crosstable) > 0 && len(names) <= matrixLimit {
		fmt.Fprintln(w, "Crosstable (row's wins-draws-losses against column):")
		printMatrix(w, names, func(a, b string) string {
			c, ok := rep.Crosstable[a][b]
			if !ok {
				return "."
			}
			return fmt.Sprintf("%d-%d-%d", c.Wins, c.Draws, c.Losses)
		})
	}
	for _, m := range rep.Matches {
		fmt.Fprintln(w, m)
	}
}

func num(v *float64, format string) string {
	if v == nil {
		return "?"
	}
	// Rounding first keeps a tiny negative from printing as "-0".
	return fmt.Sprintf(format, math.Round(*v*100)/100+0)
}

func printMatrix(w io.Writer, names []string, cell func(a, b string) string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintln(tw)
	for _, a := range names {
		fmt.Fprintf(tw, "%s\t", a)
		for _, b := range names {
			if a == b {
				fmt.Fprint(tw, "-\t")
			} else {
				fmt.Fprintf(tw, "%s\t", cell(a, b))
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// describeMatches says what happened in the rounds of a Swiss or knockout
// event: byes, match scores, who advanced and why.
func describeMatches(s *tournament.Schedule, results map[string]tournament.Outcome, names []string) []string {
	rounds := s.Matches(results)
	if rounds == nil {
		return nil
	}
	name := func(i int) string {
		if i < 0 || i >= len(names) {
			return "?"
		}
		return names[i]
	}
	var out []string
	knockout := s.Config().Format == tournament.Knockout
	for _, round := range rounds {
		for _, m := range round {
			prefix := fmt.Sprintf("round %d, pairing %d: ", m.Round, m.Pairing)
			if m.Players[1] < 0 {
				out = append(out, prefix+"bye for "+name(m.Players[0]))
				continue
			}
			line := fmt.Sprintf("%s%s %g - %g %s", prefix, name(m.Players[0]), m.Points[0], m.Points[1], name(m.Players[1]))
			switch {
			case !m.Done:
				line += " (playing)"
			case knockout && m.TieBreak:
				line += fmt.Sprintf(", %s advances as the higher seed", name(m.Winner))
			case knockout:
				line += fmt.Sprintf(", %s advances", name(m.Winner))
			}
			out = append(out, line)
		}
	}
	if knockout {
		last := rounds[len(rounds)-1]
		if len(last) == 1 && last[0].Done {
			out = append(out, "winner: "+name(last[0].Winner))
		}
	}
	return out
}

// storedTournament loads a tournament and its games for the standings and
// export commands.
func storedTournament(cmd *cobra.Command, dsn, name string) (store.Tournament, []store.Game, error) {
	st, err := openExistingStore(cmd.Context(), dsn)
	if err != nil {
		return store.Tournament{}, nil, err
	}
	defer st.Close()
	t, err := st.Tournament(cmd.Context(), name)
	if errors.Is(err, store.ErrNotFound) {
		return t, nil, unknownTournament(cmd.Context(), st, name)
	}
	if err != nil {
		return t, nil, fmt.Errorf("tournament %s: %w", name, err)
	}
	games, err := st.Games(cmd.Context(), name)
	if err != nil {
		return t, nil, fmt.Errorf("tournament %s: %w", name, err)
	}
	return t, games, nil
}

// unknownTournament is the error for a tournament name the store does not
// hold: it names the nearest stored ones, or all of them.
func unknownTournament(ctx context.Context, st *store.Store, name string) error {
	ts, err := st.Tournaments(ctx)
	if err != nil {
		return fmt.Errorf("tournament %s: not in %s (give --db)", name, st)
	}
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
	}
	switch {
	case len(names) == 0:
		return fmt.Errorf("unknown tournament %q: %s holds none", name, st)
	case len(names) > 10 && len(nearest(name, names)) == 0:
		return fmt.Errorf("unknown tournament %q in %s (arena standings lists them)", name, st)
	}
	return unknownName("tournament", name, st.String()+" holds", names)
}

// storedBotNames reads the bots' names from a stored command line, in the
// order of its --bot flags; nil if the bots cannot be read any more.
func storedBotNames(t store.Tournament) []string {
	var specs []string
	for _, a := range t.Args {
		if v, ok := strings.CutPrefix(a, "--bot="); ok {
			specs = append(specs, v)
		}
	}
	players, err := parsePlayers(specs, t.Game)
	if err != nil {
		return nil
	}
	names, ok := appendBotsFileNames(playerNames(players), t.Args)
	if !ok {
		return nil
	}
	return names
}

func newStandingsCmd() *cobra.Command {
	var db string
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "standings [NAME]",
		Short: "Print a tournament's standings from the store (without NAME: list the tournaments)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return listTournaments(cmd, db, jsonOut)
			}
			t, games, err := storedTournament(cmd, db, args[0])
			if err != nil {
				return err
			}
			rep := standings.Build(t, games, storedBotNames(t))
			if jsonOut {
				return writeStandingsJSON(cmd.OutOrStdout(), rep)
			}
			printStandings(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	cmd.Flags().StringVar(&db, "db", filepath.Join("arena-out", "arena.db"), "the store: a SQLite file or postgres://...")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the standings as one JSON object")
	return cmd
}

// listTournaments prints the tournaments in the store.
func listTournaments(cmd *cobra.Command, dsn string, jsonOut bool) error {
	st, err := openExistingStore(cmd.Context(), dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	ts, err := st.Tournaments(cmd.Context())
	if err != nil {
		return fmt.Errorf("list tournaments: %w", err)
	}
	type entry struct {
		Type    string `json:"type"` // "tournament"
		Name    string `json:"name"`
		Game    string `json:"game"`
		Status  string `json:"status"`
		Games   int    `json:"games"`
		Updated string `json:"updated"`
	}
	tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
	if !jsonOut {
		fmt.Fprintln(tw, "name\tgame\tstatus\tgames\tupdated")
	}
	for _, t := range ts {
		ids, err := st.GameIDs(cmd.Context(), t.Name)
		if err != nil {
			return fmt.Errorf("tournament %s: %w", t.Name, err)
		}
		e := entry{"tournament", t.Name, t.Game, t.Status, len(ids), t.Updated.UTC().Format("2006-01-02 15:04:05")}
		if jsonOut {
			if err := writeJSONLine(cmd.OutOrStdout(), e); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", e.Name, e.Game, e.Status, e.Games, e.Updated)
	}
	return tw.Flush()
}

func newExportCmd() *cobra.Command {
	var db, out string
	cmd := &cobra.Command{
		Use:   "export NAME",
		Short: "Write a tournament's records and a PGN-style results file (for BayesElo and Ordo)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, games, err := storedTournament(cmd, db, args[0])
			if err != nil {
				return err
			}
			if out == "" {
				out = safeName(t.Name) + "-export"
			}
			n, pgn, err := exportTournament(t, games, out)
			if err != nil {
				return err
			}
			msg := fmt.Sprintf("exported %d games of %s to %s", n, t.Name, filepath.Join(out, "records"))
			if pgn != "" {
				msg += "; results for BayesElo/Ordo in " + pgn
			}
			fmt.Fprintln(cmd.ErrOrStderr(), msg)
			return nil
		},
	}
	cmd.Flags().StringVar(&db, "db", filepath.Join("arena-out", "arena.db"), "the store: a SQLite file or postgres://...")
	cmd.Flags().StringVar(&out, "out", "", "folder to write to (default NAME-export)")
	return cmd
}

// exportTournament writes every game's JSON record and the game's own
// files (psq, SGF, replays: the files beside the record that share its
// name) into out/records, and the two-player games' results as PGN tags
// into out/NAME.pgn.
func exportTournament(t store.Tournament, games []store.Game, out string) (int, string, error) {
	dir := filepath.Join(out, "records")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, "", fmt.Errorf("--out: %w", err)
	}
	for _, g := range games {
		if err := checkGameID(g.ID); err != nil {
			return 0, "", fmt.Errorf("export: %w", err)
		}
		if err := game.WriteFileAtomic(filepath.Join(dir, g.ID+".json"), append(slices.Clone([]byte(g.Record)), '\n')); err != nil {
			return 0, "", err
		}
		if g.RecordPath != "" {
			stem := strings.TrimSuffix(g.RecordPath, filepath.Ext(g.RecordPath))
			siblings, _ := filepath.Glob(globEscape(stem) + ".*")
			for _, src := range siblings {
				if src == g.RecordPath {
					continue
				}
				data, err := os.ReadFile(src)
				if err != nil {
					return 0, "", fmt.Errorf("export %s: %w", g.ID, err)
				}
				if err := game.WriteFileAtomic(filepath.Join(dir, filepath.Base(src)), data); err != nil {
					return 0, "", err
				}
			}
		}
	}
	pgn := standings.PGN(t.Name, games)
	if pgn == "" {
		return len(games), "", nil
	}
	path := filepath.Join(out, t.Name+".pgn")
	if err := game.WriteFileAtomic(path, []byte(pgn)); err != nil {
		return 0, "", err
	}
	return len(games), path, nil
}

// globEscape keeps a path's glob metacharacters literal.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}
