// Package standings turns a tournament's finished games into its standings:
// per-bot results and failures, whole-event ratings (a Bradley–Terry fit in
// BayesElo's model for two-player games, OpenSkill's Plackett–Luce model for
// N-player games such as Ants), the crosstable, the likelihood of
// superiority, the rating of each bot as the event went on, and the list of
// games.
//
// The same Report is what "arena standings --json" prints, what a running
// "arena tournament" prints at its end, and what the web page shows, so the
// three can never disagree. A Table accumulates games one by one (a live
// tournament adds each as it ends); Of reads a stored tournament at once.
package standings

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"arena/game"
	"arena/rating"
	"arena/store"
	"arena/tournament"
)

// Row is one bot's line of the standings.
type Row struct {
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

// Cell is one bot's results against another.
type Cell struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Point is the ratings after the first Games games: Elo for two-player
// games, the OpenSkill ordinal for N-player games. Bots without a rating
// yet (no game, or games that do not connect them to the others) are left
// out.
type Point struct {
	Games   int                `json:"games"`
	Ratings map[string]float64 `json:"ratings"`
}

// Result is one finished game as the standings page lists it.
type Result struct {
	ID      string   `json:"id"`
	Round   int      `json:"round"`
	Players []string `json:"players"`
	Winner  *int     `json:"winner"` // index into Players; nil = draw
	Reason  string   `json:"reason"`
	Moves   int      `json:"moves"`
}

// Report is a tournament's standings as "arena standings --json" prints
// them, with the rating history and the games.
type Report struct {
	Tournament string `json:"tournament"`
	Game       string `json:"game"`
	Format     string `json:"format,omitempty"`
	Games      int    `json:"games"`
	Total      int    `json:"total,omitempty"`
	Finished   bool   `json:"finished"`
	Standings  []Row  `json:"standings"`
	// Advantage and DrawElo are the fitted first-move advantage and draw
	// model (two-player games).
	Advantage  *float64                      `json:"advantage,omitempty"`
	DrawElo    *float64                      `json:"draw_elo,omitempty"`
	LOS        map[string]map[string]float64 `json:"los,omitempty"`
	Crosstable map[string]map[string]Cell    `json:"crosstable,omitempty"`
	// Matches describe Swiss and knockout rounds.
	Matches    []string `json:"matches,omitempty"`
	RatingNote string   `json:"rating_note,omitempty"`
	// History is the ratings at up to MaxHistory checkpoints, in the
	// order the games were stored (the order they ended), the last one
	// after every game.
	History []Point `json:"history"`
	// Results are the games in the order they were stored.
	Results []Result `json:"results"`
}

// MaxHistory is about the most points of a rating history: enough for a
// plot, while a checkpoint costs a whole-event fit.
const MaxHistory = 60

// Tally counts one bot's results.
type Tally struct {
	Wins, Draws, Losses int
	Faults              map[game.Reason]int // games lost by timeout, crash, ...
}

// Table accumulates a tournament's games: per-bot tallies, the games for
// the rating fits and the per-pair crosstable. It is not safe for
// concurrent use.
type Table struct {
	names    []string
	byName   map[string]int
	tallies  []Tally
	nPlayer  bool
	pairs    map[[2]int]*rating.Score // [i, j]: i's score against j
	btGames  []rating.Game
	rankings []rating.Ranking
	results  []Result
	// kinds[g] tells whether game g went to btGames (false) or to
	// rankings (true), for replaying the event in order.
	kinds []bool
}

// New returns an empty table whose bots are names, in that order (more
// are added as games name them).
func New(names []string) *Table {
	t := &Table{byName: map[string]int{}, pairs: map[[2]int]*rating.Score{}}
	for _, n := range names {
		t.Index(n)
	}
	return t
}

// Index returns a bot's index by name, adding a bot seen for the first
// time (a stored game of a bot no longer entered).
func (t *Table) Index(name string) int {
	if i, ok := t.byName[name]; ok {
		return i
	}
	t.byName[name] = len(t.names)
	t.names = append(t.names, name)
	t.tallies = append(t.tallies, Tally{Faults: map[game.Reason]int{}})
	return len(t.names) - 1
}

// Names are the bots in the order of their indexes.
func (t *Table) Names() []string { return t.names }

// Played is the number of games added.
func (t *Table) Played() int { return len(t.results) }

// Tallies are the bots' results by index; the caller must not change them.
func (t *Table) Tallies() []Tally { return t.tallies }

// IsFault reports whether a game's reason (or a player's fault) is a
// bot's failure rather than a result of play.
func IsFault(r string) bool {
	switch game.Reason(r) {
	case game.ReasonTimeout, game.ReasonCrash, game.ReasonIllegal, game.ReasonProtocol, game.ReasonMemory:
		return true
	}
	return false
}

// RecordFaults reads from a stored record how each player failed, if it
// did (records written before players carried their fault give none). A
// live tournament has the record at hand and uses PlayerFaults.
func RecordFaults(g store.Game) []game.Reason {
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

// PlayerFaults lists how each player of a record failed, if it did.
func PlayerFaults(rec *game.Record) []game.Reason {
	faults := make([]game.Reason, len(rec.Players))
	for i, p := range rec.Players {
		faults[i] = p.Fault
	}
	return faults
}

// Add counts a finished game; faults are its players' faults (nil when
// the record does not say).
func (t *Table) Add(g store.Game, faults []game.Reason) {
	idx := make([]int, len(g.Players))
	for i, n := range g.Players {
		idx[i] = t.Index(n)
	}
	for i, f := range faults {
		if i < len(idx) && IsFault(string(f)) {
			t.tallies[idx[i]].Faults[f]++
		}
	}
	t.results = append(t.results, Result{ID: g.ID, Round: g.Round, Players: g.Players, Winner: g.Winner,
		Reason: g.Reason, Moves: g.Moves})
	winner := -1
	if g.Winner != nil && *g.Winner >= 0 && *g.Winner < len(idx) {
		winner = idx[*g.Winner]
	}
	var behind []bool
	if winner < 0 {
		behind = BehindTop(nil, g.Scores, len(idx))
	} else {
		behind = make([]bool, len(idx))
	}
	for i, p := range idx {
		tl := &t.tallies[p]
		switch {
		case winner < 0 && !behind[i]:
			tl.Draws++
		case winner == p:
			tl.Wins++
		default:
			tl.Losses++
			// Without the players' own faults (older records), the
			// loser of a two-player game is the side at fault.
			if faults == nil && len(idx) == 2 && IsFault(g.Reason) {
				tl.Faults[game.Reason(g.Reason)]++
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
		t.btGames = append(t.btGames, rating.Game{First: first, Second: second, Score: score})
		t.pairScore(first, second, score)
		t.pairScore(second, first, 1-score)
		t.kinds = append(t.kinds, false)
		return
	}
	t.nPlayer = true
	t.rankings = append(t.rankings, rating.Ranking{Players: idx, Ranks: ranks(g, winner, idx)})
	t.kinds = append(t.kinds, true)
}

func (t *Table) pairScore(a, b int, score float64) {
	sc := t.pairs[[2]int{a, b}]
	if sc == nil {
		sc = &rating.Score{}
		t.pairs[[2]int{a, b}] = sc
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

// BehindTop tells, for a game without a winner (winner nil) that keeps
// a score per player, which players scored less than the best: a shared
// top score is a draw between the players who share it and a loss for
// the others (four Ants players scoring 7, 4, 7, 0: two draws and two
// losses). It is all false for a game with a winner or without scores.
func BehindTop(winner *int, scores []int, players int) []bool {
	behind := make([]bool, players)
	if winner != nil || len(scores) != players || players == 0 {
		return behind
	}
	top := slices.Max(scores)
	for i, s := range scores {
		behind[i] = s < top
	}
	return behind
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

// finite returns a pointer to v, or nil when v is not a finite number
// (JSON has no infinities).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// Compute fits the ratings and orders the standings: by points, then by
// rating. It leaves out History and Results, which a table printed during
// a tournament does not need; Full adds them.
func (t *Table) Compute() Report {
	rep := Report{Games: t.Played()}
	rows := make([]Row, len(t.names))
	key := make([]float64, len(t.names))
	for i, tl := range t.tallies {
		rows[i] = Row{Player: t.names[i], Games: tl.Wins + tl.Draws + tl.Losses, Wins: tl.Wins, Draws: tl.Draws,
			Losses: tl.Losses, Points: float64(tl.Wins) + float64(tl.Draws)/2}
		for r, n := range tl.Faults {
			if n > 0 {
				if rows[i].Faults == nil {
					rows[i].Faults = map[string]int{}
				}
				rows[i].Faults[string(r)] = n
			}
		}
	}
	switch {
	case t.nPlayer:
		skills := rating.FitPlackettLuce(len(t.names), t.rankings)
		for i, sk := range skills {
			rows[i].Mu, rows[i].Sigma, rows[i].Ordinal = finite(sk.Mu), finite(sk.Sigma), finite(sk.Ordinal())
			key[i] = sk.Ordinal()
		}
	case len(t.btGames) > 0:
		est, err := rating.BradleyTerry(len(t.names), t.btGames, rating.DefaultBTOptions())
		if err != nil {
			rep.RatingNote = "no ratings yet: " + err.Error()
			break
		}
		rep.Advantage, rep.DrawElo = finite(est.Advantage), finite(est.DrawElo)
		rep.LOS = map[string]map[string]float64{}
		for i := range t.names {
			rows[i].Elo, rows[i].EloLow, rows[i].EloHigh = finite(est.Elo[i]), finite(est.Low[i]), finite(est.High[i])
			key[i] = est.Elo[i]
			rep.LOS[t.names[i]] = map[string]float64{}
			for j := range t.names {
				if i != j && i < len(est.LOS) && j < len(est.LOS[i]) {
					rep.LOS[t.names[i]][t.names[j]] = est.LOS[i][j]
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
	if len(t.pairs) > 0 {
		rep.Crosstable = map[string]map[string]Cell{}
		for k, sc := range t.pairs {
			a, b := t.names[k[0]], t.names[k[1]]
			if rep.Crosstable[a] == nil {
				rep.Crosstable[a] = map[string]Cell{}
			}
			rep.Crosstable[a][b] = Cell{sc.Wins, sc.Draws, sc.Losses}
		}
	}
	return rep
}

// Full is Compute with the rating history and the list of games.
func (t *Table) Full() Report {
	rep := t.Compute()
	rep.History = t.History()
	rep.Results = append([]Result{}, t.results...)
	return rep
}

// checkpoints are the numbers of games after which the history rates the
// bots: every game of a short event, else evenly spaced, always the last.
func checkpoints(n int) []int {
	step := max(1, (n+MaxHistory-1)/MaxHistory)
	var out []int
	for k := step; k < n; k += step {
		out = append(out, k)
	}
	if n > 0 {
		out = append(out, n)
	}
	return out
}

// History rates the bots after each checkpoint, replaying the games in
// the order they were added. Two-player ratings are refitted over the
// games so far at each checkpoint only, which keeps a long event to
// MaxHistory fits; N-player ratings are sequential updates anyway, so
// they cost one pass. The last point is the standings' own ratings.
func (t *Table) History() []Point {
	// ranked[n] is how many of the first n games were N-player games.
	ranked := make([]int, len(t.kinds)+1)
	for i, k := range t.kinds {
		ranked[i+1] = ranked[i]
		if k {
			ranked[i+1]++
		}
	}
	if t.nPlayer {
		return t.skillHistory(ranked)
	}
	points := []Point{}
	for _, n := range checkpoints(len(t.kinds)) {
		games := t.btGames[:n-ranked[n]]
		if len(games) == 0 {
			continue
		}
		est, err := rating.BradleyTerry(len(t.names), games, rating.DefaultBTOptions())
		if err != nil {
			// Early on the games may not connect every bot yet: no
			// point rather than a wrong one.
			continue
		}
		played := make([]bool, len(t.names))
		for _, g := range games {
			played[g.First], played[g.Second] = true, true
		}
		pt := Point{Games: n, Ratings: map[string]float64{}}
		for i, e := range est.Elo {
			if played[i] && !math.IsNaN(e) && !math.IsInf(e, 0) {
				pt.Ratings[t.names[i]] = e
			}
		}
		points = append(points, pt)
	}
	return points
}

// skillHistory is History for N-player games: the OpenSkill ordinals,
// updated game by game as rating.FitPlackettLuce does, so the last point
// equals the standings.
func (t *Table) skillHistory(ranked []int) []Point {
	points := []Point{}
	skills := make([]rating.Skill, len(t.names))
	for i := range skills {
		skills[i] = rating.DefaultSkill()
	}
	seen := make([]bool, len(t.names))
	done := 0 // rankings applied
	for _, n := range checkpoints(len(t.kinds)) {
		for ; done < ranked[n]; done++ {
			r := t.rankings[done]
			in := make([]rating.Skill, len(r.Players))
			for k, p := range r.Players {
				in[k] = skills[p]
				seen[p] = true
			}
			for k, s := range rating.PlackettLuce(in, r.Ranks) {
				skills[r.Players[k]] = s
			}
		}
		pt := Point{Games: n, Ratings: map[string]float64{}}
		for i, s := range skills {
			if o := s.Ordinal(); seen[i] && !math.IsNaN(o) && !math.IsInf(o, 0) {
				pt.Ratings[t.names[i]] = o
			}
		}
		points = append(points, pt)
	}
	return points
}

// Flag returns the value of the last --NAME=VALUE in a stored command line
// ("" if none).
func Flag(args []string, name string) string {
	v := ""
	for _, a := range args {
		if s, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			v = s
		}
	}
	return v
}

// BotNames reads the bots' names from a stored command line, in the order
// of its --bot flags, when every bot was given as NAME=CMD (as the web
// page's tournaments are); nil otherwise, and the standings then list the
// bots in the order they first played.
func BotNames(args []string) []string {
	var names []string
	seen := map[string]bool{}
	for _, a := range args {
		spec, ok := strings.CutPrefix(a, "--bot=")
		if !ok {
			continue
		}
		name, _, ok := strings.Cut(spec, "=")
		if !ok || name == "" || strings.ContainsAny(name, " \t/\\'\"") || seen[name] {
			return nil
		}
		seen[name] = true
		names = append(names, name)
	}
	return names
}

// Build computes the full report of a stored tournament from its games,
// in the order they were stored; names are the bots in the order they
// were entered (nil: as they first played).
func Build(t store.Tournament, games []store.Game, names []string) Report {
	table := New(names)
	for _, g := range games {
		table.Add(g, RecordFaults(g))
	}
	rep := table.Full()
	rep.Tournament, rep.Game, rep.Finished = t.Name, t.Game, t.Status == store.StatusFinished
	rep.Format = Flag(t.Args, "format")
	if rep.Format == "" {
		rep.Format = string(tournament.RoundRobin)
	}
	return rep
}

// Of reads a stored tournament and computes its report. An unknown
// tournament is an error that wraps store.ErrNotFound.
func Of(ctx context.Context, st *store.Store, name string) (Report, error) {
	t, err := st.Tournament(ctx, name)
	if err != nil {
		return Report{}, fmt.Errorf("standings of %s: %w", name, err)
	}
	games, err := st.Games(ctx, name)
	if err != nil {
		return Report{}, fmt.Errorf("standings of %s: %w", name, err)
	}
	return Build(t, games, BotNames(t.Args)), nil
}
