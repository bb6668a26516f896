package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"arena/game"
	"arena/rating"
	"arena/store"
	"arena/tournament"
)

// standings accumulates a tournament's games: per-bot tallies, the games
// for the rating fits and the per-pair crosstable.
type standings struct {
	names    []string
	byName   map[string]int
	tallies  []tally
	played   int
	nPlayer  bool
	pairs    map[[2]int]*rating.Score // [i, j]: i's score against j
	btGames  []rating.Game
	rankings []rating.Ranking
}

func newStandings(names []string) *standings {
	s := &standings{byName: map[string]int{}, pairs: map[[2]int]*rating.Score{}}
	for _, n := range names {
		s.index(n)
	}
	return s
}

// index returns a bot's index by name, adding bots seen for the first
// time (a stored game of a bot no longer on the command line).
func (s *standings) index(name string) int {
	if i, ok := s.byName[name]; ok {
		return i
	}
	s.byName[name] = len(s.names)
	s.names = append(s.names, name)
	s.tallies = append(s.tallies, tally{Faults: map[game.Reason]int{}})
	return len(s.names) - 1
}

func isFault(r string) bool {
	switch game.Reason(r) {
	case game.ReasonTimeout, game.ReasonCrash, game.ReasonIllegal, game.ReasonProtocol, game.ReasonMemory:
		return true
	}
	return false
}

// recordFaults reads from a stored record how each player failed, if it
// did (records written before players carried their fault give none).
// A live tournament has the record at hand and uses playerFaults.
func recordFaults(g store.Game) []game.Reason {
	var rec struct {
		Players []struct {
			Fault game.Reason `json:"fault"`
		} `json:"players"`
	}
	if len(g.Record) == 0 || json.Unmarshal(g.Record, &rec) != nil || len(rec.Players) != len(g.Players) {
		return nil
	}
	faults := make([]game.Reason, len(rec.Players))
	for i, p := range rec.Players {
		faults[i] = p.Fault
	}
	return faults
}

// playerFaults lists how each player of a record failed, if it did.
func playerFaults(rec *game.Record) []game.Reason {
	faults := make([]game.Reason, len(rec.Players))
	for i, p := range rec.Players {
		faults[i] = p.Fault
	}
	return faults
}

// add counts a finished game; faults are its players' faults (nil when
// the record does not say).
func (s *standings) add(g store.Game, faults []game.Reason) {
	idx := make([]int, len(g.Players))
	for i, n := range g.Players {
		idx[i] = s.index(n)
	}
	for i, f := range faults {
		if isFault(string(f)) {
			s.tallies[idx[i]].Faults[f]++
		}
	}
	s.played++
	winner := -1
	if g.Winner != nil && *g.Winner >= 0 && *g.Winner < len(idx) {
		winner = idx[*g.Winner]
	}
	for _, p := range idx {
		t := &s.tallies[p]
		switch {
		case winner < 0:
			t.Draws++
		case winner == p:
			t.Wins++
		default:
			t.Losses++
			// Without the players' own faults (older records), the
			// loser of a two-player game is the side at fault.
			if faults == nil && len(idx) == 2 && isFault(g.Reason) {
				t.Faults[game.Reason(g.Reason)]++
			}
		}
	}
	if len(idx) == 2 && len(g.Seats) == 2 {
		first, second := idx[g.Seats[0]], idx[g.Seats[1]]
		score := 0.5
		switch winner {
		case first:
			score = 1
		case second:
			score = 0
		}
		s.btGames = append(s.btGames, rating.Game{First: first, Second: second, Score: score})
		s.pairScore(first, second, score)
		s.pairScore(second, first, 1-score)
		return
	}
	s.nPlayer = true
	s.rankings = append(s.rankings, rating.Ranking{Players: idx, Ranks: ranks(g, winner, idx)})
}

func (s *standings) pairScore(a, b int, score float64) {
	sc := s.pairs[[2]int{a, b}]
	if sc == nil {
		sc = &rating.Score{}
		s.pairs[[2]int{a, b}] = sc
	}
	switch score {
	case 1:
		sc.Wins++
	case 0:
		sc.Losses++
	default:
		sc.Draws++
	}
}

// ranks places the players of an N-player game: by score where the game
// keeps one, else the winner first and everyone else tied.
func ranks(g store.Game, winner int, idx []int) []int {
	r := make([]int, len(idx))
	if len(g.Scores) == len(idx) {
		for i := range r {
			r[i] = 1
			for _, o := range g.Scores {
				if o > g.Scores[i] {
					r[i]++
				}
			}
		}
		return r
	}
	for i, p := range idx {
		r[i] = 1
		if winner >= 0 && p != winner {
			r[i] = 2
		}
	}
	return r
}

// standingRow is one bot's line of the standings.
type standingRow struct {
	Rank    int            `json:"rank"`
	Player  string         `json:"player"`
	Games   int            `json:"games"`
	Points  float64        `json:"points"`
	Wins    int            `json:"wins"`
	Draws   int            `json:"draws"`
	Losses  int            `json:"losses"`
	Faults  map[string]int `json:"faults,omitempty"`
	Elo     *float64       `json:"elo,omitempty"`
	EloLow  *float64       `json:"elo_low,omitempty"`
	EloHigh *float64       `json:"elo_high,omitempty"`
	Mu      *float64       `json:"mu,omitempty"`
	Sigma   *float64       `json:"sigma,omitempty"`
	Ordinal *float64       `json:"ordinal,omitempty"`
}

// crossCell is one bot's results against another.
type crossCell struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// standingsReport is the standings as printed and as the final JSON object.
type standingsReport struct {
	Tournament string        `json:"tournament"`
	Game       string        `json:"game"`
	Format     string        `json:"format,omitempty"`
	Games      int           `json:"games"`
	Total      int           `json:"total,omitempty"`
	Finished   bool          `json:"finished"`
	Standings  []standingRow `json:"standings"`
	// Advantage and DrawElo are the fitted first-move advantage and draw
	// model (two-player games).
	Advantage  *float64                        `json:"advantage,omitempty"`
	DrawElo    *float64                        `json:"draw_elo,omitempty"`
	LOS        map[string]map[string]float64   `json:"los,omitempty"`
	Crosstable map[string]map[string]crossCell `json:"crosstable,omitempty"`
	// Matches describe Swiss and knockout rounds.
	Matches    []string `json:"matches,omitempty"`
	RatingNote string   `json:"rating_note,omitempty"`
}

// finite returns a pointer to v, or nil when v is not a finite number
// (JSON has no infinities).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// compute fits the ratings and orders the standings: by points, then by
// rating.
func (s *standings) compute() standingsReport {
	rep := standingsReport{Games: s.played}
	rows := make([]standingRow, len(s.names))
	key := make([]float64, len(s.names))
	for i, t := range s.tallies {
		rows[i] = standingRow{Player: s.names[i], Games: t.Wins + t.Draws + t.Losses, Wins: t.Wins, Draws: t.Draws,
			Losses: t.Losses, Points: float64(t.Wins) + float64(t.Draws)/2}
		for r, n := range t.Faults {
			if n > 0 {
				if rows[i].Faults == nil {
					rows[i].Faults = map[string]int{}
				}
				rows[i].Faults[string(r)] = n
			}
		}
	}
	switch {
	case s.nPlayer:
		skills := rating.FitPlackettLuce(len(s.names), s.rankings)
		for i, sk := range skills {
			rows[i].Mu, rows[i].Sigma, rows[i].Ordinal = finite(sk.Mu), finite(sk.Sigma), finite(sk.Ordinal())
			key[i] = sk.Ordinal()
		}
	case len(s.btGames) > 0:
		est, err := rating.BradleyTerry(len(s.names), s.btGames, rating.DefaultBTOptions())
		if err != nil {
			rep.RatingNote = "no ratings yet: " + err.Error()
			break
		}
		rep.Advantage, rep.DrawElo = finite(est.Advantage), finite(est.DrawElo)
		rep.LOS = map[string]map[string]float64{}
		for i := range s.names {
			rows[i].Elo, rows[i].EloLow, rows[i].EloHigh = finite(est.Elo[i]), finite(est.Low[i]), finite(est.High[i])
			key[i] = est.Elo[i]
			rep.LOS[s.names[i]] = map[string]float64{}
			for j := range s.names {
				if i != j && i < len(est.LOS) && j < len(est.LOS[i]) {
					rep.LOS[s.names[i]][s.names[j]] = est.LOS[i][j]
				}
			}
		}
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := rows[order[a]], rows[order[b]]
		if ra.Points != rb.Points {
			return ra.Points > rb.Points
		}
		return key[order[a]] > key[order[b]]
	})
	for rank, i := range order {
		rows[i].Rank = rank + 1
		rep.Standings = append(rep.Standings, rows[i])
	}
	if len(s.pairs) > 0 {
		rep.Crosstable = map[string]map[string]crossCell{}
		for k, sc := range s.pairs {
			a, b := s.names[k[0]], s.names[k[1]]
			if rep.Crosstable[a] == nil {
				rep.Crosstable[a] = map[string]crossCell{}
			}
			rep.Crosstable[a][b] = crossCell{sc.Wins, sc.Draws, sc.Losses}
		}
	}
	return rep
}

// matrixLimit is the most bots whose LOS matrix and crosstable are
// printed for people (the JSON always has them).
const matrixLimit = 16

func (rep standingsReport) print(w io.Writer) {
	state := "finished"
	if !rep.Finished {
		state = "not finished"
	}
	head := fmt.Sprintf("Tournament %s (%s", rep.Tournament, rep.Game)
	if rep.Format != "" {
		head += ", " + rep.Format
	}
	head += fmt.Sprintf("): %d games", rep.Games)
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
	st, err := openStore(cmd.Context(), dsn)
	if err != nil {
		return store.Tournament{}, nil, err
	}
	defer st.Close()
	t, err := st.Tournament(cmd.Context(), name)
	if errors.Is(err, store.ErrNotFound) {
		return t, nil, fmt.Errorf("tournament %s: not in %s (give --db)", name, dsn)
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
	return playerNames(players)
}

func storedFlag(args []string, name string) string {
	v := ""
	for _, a := range args {
		if s, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			v = s
		}
	}
	return v
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
			table := newStandings(storedBotNames(t))
			for _, g := range games {
				table.add(g, recordFaults(g))
			}
			rep := table.compute()
			rep.Tournament, rep.Game, rep.Finished = t.Name, t.Game, t.Status == store.StatusFinished
			rep.Format = storedFlag(t.Args, "format")
			if rep.Format == "" {
				rep.Format = string(tournament.RoundRobin)
			}
			if jsonOut {
				return writeJSONLine(cmd.OutOrStdout(), rep)
			}
			rep.print(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().StringVar(&db, "db", filepath.Join("arena-out", "arena.db"), "the store: a SQLite file or postgres://...")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the standings as one JSON object")
	return cmd
}

// listTournaments prints the tournaments in the store.
func listTournaments(cmd *cobra.Command, dsn string, jsonOut bool) error {
	st, err := openStore(cmd.Context(), dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	ts, err := st.Tournaments(cmd.Context())
	if err != nil {
		return fmt.Errorf("list tournaments: %w", err)
	}
	type entry struct {
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
		e := entry{t.Name, t.Game, t.Status, len(ids), t.Updated.UTC().Format("2006-01-02 15:04:05")}
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
				return errors.New("--out: give the folder to export to")
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
	cmd.Flags().StringVar(&out, "out", "", "folder to write to")
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
	var pgn strings.Builder
	for _, g := range games {
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
		if len(g.Players) == 2 && len(g.Seats) == 2 {
			writePGN(&pgn, t.Name, g)
		}
	}
	if pgn.Len() == 0 {
		return len(games), "", nil
	}
	path := filepath.Join(out, t.Name+".pgn")
	if err := game.WriteFileAtomic(path, []byte(pgn.String())); err != nil {
		return 0, "", err
	}
	return len(games), path, nil
}

// globEscape keeps a path's glob metacharacters literal.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

// writePGN writes one game as a PGN header with the result and an empty
// move list, which BayesElo and Ordo read: White is the side that moved
// first.
func writePGN(b *strings.Builder, event string, g store.Game) {
	result := "1/2-1/2"
	if g.Winner != nil {
		if *g.Winner == g.Seats[0] {
			result = "1-0"
		} else {
			result = "0-1"
		}
	}
	date := "????.??.??"
	if !g.End.IsZero() {
		date = g.End.UTC().Format("2006.01.02")
	}
	tag := func(k, v string) {
		v = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		fmt.Fprintf(b, "[%s \"%s\"]\n", k, v)
	}
	tag("Event", event)
	tag("Site", "arena")
	tag("Date", date)
	tag("Round", fmt.Sprint(max(g.Round, 1)))
	tag("White", g.Players[g.Seats[0]])
	tag("Black", g.Players[g.Seats[1]])
	tag("Result", result)
	tag("GameId", g.ID)
	tag("Termination", g.Reason)
	fmt.Fprintf(b, "\n%s\n\n", result)
}
