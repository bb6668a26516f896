package tournament

import (
	"fmt"
	"slices"
	"testing"
)

// TestSwissNoRematches checks Swiss pairings: one match per bot and
// round, no rematch while one can be avoided, every bye to a different
// bot, and colours kept in balance.
func TestSwissNoRematches(t *testing.T) {
	tests := []struct{ players, rounds, gpp int }{
		{8, 0, 2}, {8, 7, 1}, {7, 5, 1}, {6, 5, 2}, {9, 6, 1}, {16, 6, 1}, {3, 2, 2},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dbots-%drounds-%dgpp", tc.players, tc.rounds, tc.gpp), func(t *testing.T) {
			s := mustNew(t, Config{Name: "S", Format: Swiss, Players: tc.players, Rounds: tc.rounds, GamesPerPair: tc.gpp})
			results, games := simulate(t, s, lowerWins)
			if len(games) != s.Total() {
				t.Errorf("%d games, Total says %d", len(games), s.Total())
			}
			rounds := s.Matches(results)
			if len(rounds) != s.Config().Rounds {
				t.Fatalf("%d rounds, want %d", len(rounds), s.Config().Rounds)
			}
			met := map[pairKey]int{}
			byes := map[int]int{}
			for r, round := range rounds {
				seen := map[int]bool{}
				for _, m := range round {
					if !m.Done {
						t.Errorf("round %d: match %v not done", r+1, m)
					}
					for _, p := range m.Players {
						if p < 0 {
							continue
						}
						if seen[p] {
							t.Errorf("round %d: bot %d paired twice", r+1, p)
						}
						seen[p] = true
					}
					if m.Players[1] < 0 {
						byes[m.Players[0]]++
						continue
					}
					k := key(m.Players[0], m.Players[1])
					if met[k]++; met[k] > 1 {
						t.Errorf("round %d: rematch %v", r+1, k)
					}
				}
				if len(seen) != tc.players {
					t.Errorf("round %d: %d bots paired, want %d", r+1, len(seen), tc.players)
				}
			}
			for p, n := range byes {
				if n > 1 {
					t.Errorf("bot %d had %d byes", p, n)
				}
			}
			colour := make([]int, tc.players)
			for _, g := range games {
				colour[g.Seats[0]]++
				colour[g.Seats[1]]--
			}
			for p, c := range colour {
				if c > 2 || c < -2 {
					t.Errorf("bot %d moved first %+d times more than second", p, c)
				}
			}
		})
	}
}

// TestSwissWinner checks that the pairing follows the score: the
// strongest bot (lowest index) wins every match and tops the event.
func TestSwissWinner(t *testing.T) {
	s := mustNew(t, Config{Name: "S", Format: Swiss, Players: 8, GamesPerPair: 2})
	results, _ := simulate(t, s, lowerWins)
	rounds := s.Matches(results)
	// Round 2 pairs the four round-1 winners against each other.
	winners := map[int]bool{}
	for _, m := range rounds[0] {
		winners[m.Winner] = true
	}
	for _, m := range rounds[1] {
		if winners[m.Players[0]] != winners[m.Players[1]] {
			t.Errorf("round 2 pairs a winner with a loser: %v", m.Players)
		}
	}
	for _, round := range rounds {
		for _, m := range round {
			if slices.Contains(m.Players[:], 0) && m.Winner != 0 {
				t.Errorf("bot 0 did not win %v", m)
			}
		}
	}
}

// TestSwissRematchWhenUnavoidable checks that more rounds than opponents
// still pairs everyone.
func TestSwissRematchWhenUnavoidable(t *testing.T) {
	s := mustNew(t, Config{Name: "S", Format: Swiss, Players: 4, Rounds: 5, GamesPerPair: 1})
	results, games := simulate(t, s, lowerWins)
	if len(games) != 10 || len(s.Matches(results)) != 5 {
		t.Errorf("%d games in %d rounds, want 10 in 5", len(games), len(s.Matches(results)))
	}
}

func TestSeedOrder(t *testing.T) {
	want := map[int][]int{1: {0}, 2: {0, 1}, 4: {0, 3, 1, 2}, 8: {0, 7, 3, 4, 1, 6, 2, 5}}
	for n, w := range want {
		if got := seedOrder(n); !slices.Equal(got, w) {
			t.Errorf("seedOrder(%d) = %v, want %v", n, got, w)
		}
	}
}

// TestKnockoutAdvances checks the bracket: seeds, byes, winners advance
// and the top seed wins when the lower index always wins.
func TestKnockoutAdvances(t *testing.T) {
	tests := []struct {
		players    int
		firstRound [][2]int
		games      int
	}{
		{8, [][2]int{{0, 7}, {3, 4}, {1, 6}, {2, 5}}, 7 * 4},
		{5, [][2]int{{0, -1}, {3, 4}, {1, -1}, {2, -1}}, 4 * 4},
		{2, [][2]int{{0, 1}}, 4},
		{3, [][2]int{{0, -1}, {1, 2}}, 2 * 4},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dbots", tc.players), func(t *testing.T) {
			s := mustNew(t, Config{Name: "K", Format: Knockout, Players: tc.players, GamesPerPair: 2, Openings: 2})
			results, games := simulate(t, s, lowerWins)
			if len(games) != tc.games || s.Total() != tc.games {
				t.Errorf("%d games (Total %d), want %d", len(games), s.Total(), tc.games)
			}
			rounds := s.Matches(results)
			var first [][2]int
			for _, m := range rounds[0] {
				if m.Players[1] < 0 {
					first = append(first, [2]int{m.Players[0], -1})
				} else {
					first = append(first, [2]int{min(m.Players[0], m.Players[1]), max(m.Players[0], m.Players[1])})
				}
			}
			if !slices.Equal(first, tc.firstRound) {
				t.Errorf("first round %v, want %v", first, tc.firstRound)
			}
			last := rounds[len(rounds)-1]
			if len(last) != 1 || last[0].Winner != 0 || !last[0].Done {
				t.Errorf("final %v: want the top seed to win", last)
			}
			for r := 1; r < len(rounds); r++ {
				for i, m := range rounds[r] {
					a, b := rounds[r-1][2*i].Winner, rounds[r-1][2*i+1].Winner
					if !slices.Contains(m.Players[:], a) || !slices.Contains(m.Players[:], b) {
						t.Errorf("round %d match %d: %v, want the winners %d and %d", r+1, i+1, m.Players, a, b)
					}
				}
			}
		})
	}
}

// TestKnockoutTieBreak checks the rule for drawn matches: tie-break pairs
// of games, then the higher seed.
func TestKnockoutTieBreak(t *testing.T) {
	t.Run("all drawn: higher seed advances", func(t *testing.T) {
		s := mustNew(t, Config{Name: "K", Format: Knockout, Players: 4, GamesPerPair: 2})
		results, games := simulate(t, s, func(Game) Outcome { return Draw })
		// 3 matches of 2 games and DefaultTieBreaks pairs each.
		if want := 3 * (2 + 2*DefaultTieBreaks); len(games) != want {
			t.Errorf("%d games, want %d", len(games), want)
		}
		rounds := s.Matches(results)
		final := rounds[1][0]
		if final.Winner != 0 || !final.TieBreak {
			t.Errorf("final %+v: want seed 0 through the tie-break rule", final)
		}
	})
	t.Run("tie-break pair decides", func(t *testing.T) {
		s := mustNew(t, Config{Name: "K", Format: Knockout, Players: 2, GamesPerPair: 2, Openings: 3})
		results, games := simulate(t, s, func(g Game) Outcome {
			if g.Slot < 3 {
				return Draw
			}
			return Outcome{Winner: 1}
		})
		if len(games) != 6+2 {
			t.Errorf("%d games, want 6 and one tie-break pair", len(games))
		}
		last := games[len(games)-1]
		if last.Slot != 3 || last.Opening != 0 {
			t.Errorf("tie-break game %+v: want slot 3 on opening 0", last)
		}
		if m := s.Matches(results)[0][0]; m.Winner != 1 || m.TieBreak {
			t.Errorf("match %+v: want bot 1 through the tie-break games", m)
		}
	})
	t.Run("no tie-breaks", func(t *testing.T) {
		s := mustNew(t, Config{Name: "K", Format: Knockout, Players: 2, GamesPerPair: 2, TieBreaks: -1})
		results, games := simulate(t, s, func(Game) Outcome { return Draw })
		if m := s.Matches(results)[0][0]; len(games) != 2 || m.Winner != 0 || !m.TieBreak {
			t.Errorf("%d games, match %+v", len(games), m)
		}
	})
}
