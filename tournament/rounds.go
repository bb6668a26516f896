package tournament

import (
	"math/bits"
	"sort"
)

// Match is one pairing of a Swiss or knockout round as far as it has
// been played.
type Match struct {
	Round, Pairing int
	// Players are the two players, the one moving first in the match's
	// first game first; Players[1] is -1 for a bye.
	Players [2]int
	// Points each player scored in the match's games with a result.
	Points [2]float64
	// Played counts the games with a result.
	Played int
	// Winner is the player who won the match (a Swiss bye: the player
	// who had it; a knockout: who advances), -1 while undecided or for a
	// drawn Swiss match.
	Winner int
	// Done is true when no more games of the match are to be played.
	Done bool
	// TieBreak is true when a knockout match was decided by the seeding
	// after its tie-break games were drawn too.
	TieBreak bool
}

// Matches replays a Swiss or knockout event from the results and returns
// its rounds as far as they are built; nil for other formats.
func (s *Schedule) Matches(results map[string]Outcome) [][]Match {
	switch s.cfg.Format {
	case Swiss:
		rounds, _ := s.swiss(results)
		return rounds
	case Knockout:
		rounds, _ := s.knockout(results)
		return rounds
	}
	return nil
}

func (s *Schedule) swissPending(results map[string]Outcome) ([]Game, bool) {
	_, pending := s.swiss(results)
	return pending, len(pending) == 0
}

func (s *Schedule) knockoutPending(results map[string]Outcome) ([]Game, bool) {
	_, pending := s.knockout(results)
	return pending, len(pending) == 0
}

// tally adds the results of games to m and lists the games still
// without one.
func tally(m *Match, games []Game, results map[string]Outcome) (missing []Game) {
	for _, g := range games {
		o, ok := results[g.ID]
		if !ok {
			missing = append(missing, g)
			continue
		}
		m.Played++
		switch o.Winner {
		case m.Players[0]:
			m.Points[0]++
		case m.Players[1]:
			m.Points[1]++
		default:
			m.Points[0] += 0.5
			m.Points[1] += 0.5
		}
	}
	return missing
}

// swiss replays the Swiss rounds: each round is paired from the results
// of the rounds before it, so the rounds come out the same however often
// the event is interrupted. It stops at the first round with games
// missing and returns them.
func (s *Schedule) swiss(results map[string]Outcome) (rounds [][]Match, pending []Game) {
	n := s.cfg.Players
	perMatch := float64(s.cfg.GamesPerPair * s.cfg.Openings)
	score := make([]float64, n)
	colour := make([]int, n) // games moving first minus games moving second
	hadBye := make([]bool, n)
	met := map[[2]int]bool{}
	played := func(a, b int) bool { return met[[2]int{min(a, b), max(a, b)}] }
	for r := 1; r <= s.cfg.Rounds; r++ {
		ranked := make([]int, n)
		for i := range ranked {
			ranked[i] = i
		}
		sort.SliceStable(ranked, func(a, b int) bool { return score[ranked[a]] > score[ranked[b]] })
		pairs, bye := swissPair(ranked, played, hadBye)
		var round []Match
		for i, pr := range pairs {
			a, b := pr[0], pr[1]
			// The side that has moved first less often starts; between
			// equals, the higher-ranked side in odd rounds.
			if colour[b] < colour[a] || (colour[a] == colour[b] && r%2 == 0) {
				a, b = b, a
			}
			m := Match{Round: r, Pairing: i + 1, Players: [2]int{a, b}, Winner: -1}
			games := s.matchGames(r, i+1, []int{a, b}, 0, s.cfg.Openings, s.cfg.GamesPerPair)
			pending = append(pending, tally(&m, games, results)...)
			for _, g := range games {
				if _, ok := results[g.ID]; ok {
					colour[g.Seats[0]]++
					colour[g.Seats[1]]--
				}
			}
			m.Done = m.Played == len(games)
			if m.Done && m.Points[0] != m.Points[1] {
				m.Winner = a
				if m.Points[1] > m.Points[0] {
					m.Winner = b
				}
			}
			score[a] += m.Points[0]
			score[b] += m.Points[1]
			met[[2]int{min(a, b), max(a, b)}] = true
			round = append(round, m)
		}
		if bye >= 0 {
			// A bye scores as a won match, as FIDE's pairing-allocated
			// bye scores as a won game.
			hadBye[bye] = true
			score[bye] += perMatch
			round = append(round, Match{Round: r, Pairing: len(pairs) + 1, Players: [2]int{bye, -1},
				Points: [2]float64{perMatch, 0}, Winner: bye, Done: true})
		}
		rounds = append(rounds, round)
		if len(pending) > 0 {
			return rounds, pending
		}
	}
	return rounds, nil
}

// pairBudget bounds the backtracking search for a pairing without
// rematches; past it the pairing allows rematches.
const pairBudget = 200000

// swissPair pairs the players listed best first: neighbours in the
// ranking meet unless they met before, found by backtracking from the
// top so that score groups stay together. With an odd count the
// lowest-ranked player without a bye sits out. Rematches happen only
// when no pairing avoids them (more rounds than the field allows).
func swissPair(ranked []int, played func(a, b int) bool, hadBye []bool) (pairs [][2]int, bye int) {
	budget := pairBudget
	var search func(rest []int, acc [][2]int) ([][2]int, bool)
	search = func(rest []int, acc [][2]int) ([][2]int, bool) {
		if len(rest) == 0 {
			return acc, true
		}
		if budget--; budget < 0 {
			return nil, false
		}
		first := rest[0]
		for j := 1; j < len(rest); j++ {
			if played(first, rest[j]) {
				continue
			}
			next := make([]int, 0, len(rest)-2)
			next = append(next, rest[1:j]...)
			next = append(next, rest[j+1:]...)
			if out, ok := search(next, append(acc, [2]int{first, rest[j]})); ok {
				return out, true
			}
		}
		return nil, false
	}
	without := func(i int) []int {
		out := append([]int(nil), ranked[:i]...)
		return append(out, ranked[i+1:]...)
	}
	if len(ranked)%2 == 0 {
		if out, ok := search(ranked, nil); ok {
			return out, -1
		}
		return adjacent(ranked), -1
	}
	fallback := -1
	for i := len(ranked) - 1; i >= 0; i-- {
		if hadBye[ranked[i]] {
			continue
		}
		if fallback < 0 {
			fallback = i
		}
		if out, ok := search(without(i), nil); ok {
			return out, ranked[i]
		}
	}
	if fallback < 0 {
		fallback = len(ranked) - 1
	}
	return adjacent(without(fallback)), ranked[fallback]
}

// adjacent pairs neighbours in the ranking, rematches or not.
func adjacent(ranked []int) [][2]int {
	var out [][2]int
	for i := 0; i+1 < len(ranked); i += 2 {
		out = append(out, [2]int{ranked[i], ranked[i+1]})
	}
	return out
}

// seedOrder places seeds 0..size-1 (size a power of two) on the lines of
// a bracket so that the two top seeds can meet only in the final, the
// top four only in the semi-finals, and so on.
func seedOrder(size int) []int {
	order := []int{0}
	for len(order) < size {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m-1-s)
		}
		order = next
	}
	return order
}

// knockout replays the bracket: seeds by player index, byes for the top
// seeds when the field is not a power of two. A match is GamesPerPair
// games on every opening; a drawn match plays up to TieBreaks further
// pairs of games (one opening each, colours swapped), and if those are
// drawn too the higher seed advances. A round starts when the one before
// it is decided.
func (s *Schedule) knockout(results map[string]Outcome) (rounds [][]Match, pending []Game) {
	size := 1 << bits.Len(uint(s.cfg.Players-1))
	var entrants []int
	for _, seed := range seedOrder(size) {
		if seed >= s.cfg.Players {
			seed = -1
		}
		entrants = append(entrants, seed)
	}
	tieBreaks := max(s.cfg.TieBreaks, 0)
	for r := 1; len(entrants) > 1; r++ {
		var round []Match
		var next []int
		for i := 0; i+1 < len(entrants); i += 2 {
			a, b := entrants[i], entrants[i+1]
			if b >= 0 && (a < 0 || b < a) {
				a, b = b, a
			}
			m := Match{Round: r, Pairing: i/2 + 1, Players: [2]int{a, b}, Winner: -1}
			if b < 0 {
				m.Winner, m.Done = a, true
				round = append(round, m)
				next = append(next, a)
				continue
			}
			missing := tally(&m, s.matchGames(r, m.Pairing, []int{a, b}, 0, s.cfg.Openings, s.cfg.GamesPerPair), results)
			for t := 0; len(missing) == 0 && m.Points[0] == m.Points[1] && t < tieBreaks; t++ {
				slot := s.cfg.Openings + t
				missing = tally(&m, s.matchGames(r, m.Pairing, []int{a, b}, slot, slot+1, 2), results)
			}
			if len(missing) == 0 {
				m.Done, m.Winner = true, a
				switch {
				case m.Points[1] > m.Points[0]:
					m.Winner = b
				case m.Points[1] == m.Points[0]:
					m.TieBreak = true
				}
			}
			pending = append(pending, missing...)
			round = append(round, m)
			next = append(next, m.Winner)
		}
		rounds = append(rounds, round)
		if len(pending) > 0 {
			return rounds, pending
		}
		entrants = next
	}
	return rounds, nil
}
