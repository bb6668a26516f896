package tournament

import (
	"fmt"
	"slices"
	"testing"
)

// simulate plays a schedule to its end with outcomes from judge, round
// by round as the pool would, and returns every game played in order.
func simulate(t *testing.T, s *Schedule, judge func(Game) Outcome) (map[string]Outcome, []Game) {
	t.Helper()
	results := map[string]Outcome{}
	var played []Game
	for step := 0; ; step++ {
		if step > 1000 {
			t.Fatal("schedule never ends")
		}
		pending, done := s.Pending(results)
		if done {
			if len(pending) != 0 {
				t.Fatalf("done with %d games pending", len(pending))
			}
			return results, played
		}
		if len(pending) == 0 {
			t.Fatal("not done, yet nothing pending")
		}
		for _, g := range pending {
			if _, dup := results[g.ID]; dup {
				t.Fatalf("game %s scheduled again after it was played", g.ID)
			}
			results[g.ID] = judge(g)
			played = append(played, g)
		}
	}
}

// lowerWins makes the player with the lower index win every game.
func lowerWins(g Game) Outcome { return Outcome{Winner: slices.Min(g.Seats)} }

func mustNew(t *testing.T, cfg Config) *Schedule {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type pairKey [2]int

func key(a, b int) pairKey { return pairKey{min(a, b), max(a, b)} }

// TestRoundRobinMeetings checks that every pair meets GamesPerPair times
// on every opening, that colours balance, and that IDs are unique.
func TestRoundRobinMeetings(t *testing.T) {
	tests := []struct {
		players, gpp, openings int
	}{
		{2, 2, 1}, {3, 2, 1}, {4, 2, 3}, {5, 1, 1}, {6, 4, 2}, {7, 3, 2}, {8, 2, 5},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dbots-%dgpp-%dopenings", tc.players, tc.gpp, tc.openings), func(t *testing.T) {
			s := mustNew(t, Config{Name: "T", Format: RoundRobin, Players: tc.players, GamesPerPair: tc.gpp, Openings: tc.openings})
			_, games := simulate(t, s, lowerWins)
			if want := tc.players * (tc.players - 1) / 2 * tc.gpp * tc.openings; len(games) != want || s.Total() != want {
				t.Fatalf("%d games (Total %d), want %d", len(games), s.Total(), want)
			}
			meet := map[pairKey]map[int]int{} // pair -> opening -> games
			first := map[pairKey]map[int]int{}
			firsts := make([]int, tc.players)
			ids := map[string]bool{}
			roundOf := map[[2]int]int{} // (round, player) -> pairings
			for _, g := range games {
				if ids[g.ID] {
					t.Fatalf("duplicate id %s", g.ID)
				}
				ids[g.ID] = true
				k := key(g.Seats[0], g.Seats[1])
				if meet[k] == nil {
					meet[k], first[k] = map[int]int{}, map[int]int{}
				}
				meet[k][g.Opening]++
				first[k][g.Seats[0]]++
				firsts[g.Seats[0]]++
				if g.Slot == 0 && g.Index == 0 {
					roundOf[[2]int{g.Round, g.Seats[0]}]++
					roundOf[[2]int{g.Round, g.Seats[1]}]++
				}
			}
			for a := 0; a < tc.players; a++ {
				for b := a + 1; b < tc.players; b++ {
					for o := 0; o < tc.openings; o++ {
						if n := meet[key(a, b)][o]; n != tc.gpp {
							t.Errorf("%d-%d meet %d times on opening %d, want %d", a, b, n, o, tc.gpp)
						}
					}
					fa, fb := first[key(a, b)][a], first[key(a, b)][b]
					if d := fa - fb; d > 1 || d < -1 {
						t.Errorf("%d-%d: %d moved first %d times, %d %d times", a, b, a, fa, b, fb)
					}
				}
			}
			perPlayer := (tc.players - 1) * tc.gpp * tc.openings
			for p, f := range firsts {
				if d := 2*f - perPlayer; d > tc.players || d < -tc.players {
					t.Errorf("player %d moved first in %d of %d games", p, f, perPlayer)
				}
				if tc.gpp*tc.openings%2 == 0 && 2*f != perPlayer {
					t.Errorf("even games per pair: player %d moved first in %d of %d games", p, f, perPlayer)
				}
			}
			for k, n := range roundOf {
				if n > 1 {
					t.Errorf("player %d has %d pairings in round %d", k[1], n, k[0])
				}
			}
		})
	}
}

// TestOpeningPlayedTwiceSwapped checks the pairing of games on one
// opening: two games, the colours swapped, next to each other.
func TestOpeningPlayedTwiceSwapped(t *testing.T) {
	s := mustNew(t, Config{Name: "T", Format: RoundRobin, Players: 3, GamesPerPair: 2, Openings: 2})
	games, _ := s.Pending(map[string]Outcome{})
	for i := 0; i < len(games); i += 2 {
		a, b := games[i], games[i+1]
		if a.Pairing != b.Pairing || a.Round != b.Round || a.Opening != b.Opening || a.Seats[0] != b.Seats[1] || a.Seats[1] != b.Seats[0] {
			t.Errorf("games %v and %v are not one opening with colours swapped", a, b)
		}
	}
}

func TestGameIDs(t *testing.T) {
	s := mustNew(t, Config{Name: "cup", Format: RoundRobin, Players: 4, GamesPerPair: 2, Openings: 2})
	games, _ := s.Pending(map[string]Outcome{})
	if games[0].ID != "cup-r01-p01-o01-s1" || games[1].ID != "cup-r01-p01-o01-s2" {
		t.Errorf("first ids %s %s", games[0].ID, games[1].ID)
	}
	again := mustNew(t, Config{Name: "cup", Format: RoundRobin, Players: 4, GamesPerPair: 2, Openings: 2})
	other, _ := again.Pending(map[string]Outcome{})
	for i := range games {
		if games[i].ID != other[i].ID || !slices.Equal(games[i].Seats, other[i].Seats) {
			t.Fatalf("game %d differs between two schedules of one config: %v %v", i, games[i], other[i])
		}
		name, r, p, slot, idx, err := ParseID(games[i].ID)
		if err != nil || name != "cup" || r != games[i].Round || p != games[i].Pairing || slot != games[i].Slot || idx != games[i].Index {
			t.Errorf("ParseID(%s) = %s %d %d %d %d %v", games[i].ID, name, r, p, slot, idx, err)
		}
	}
	if name, _, _, _, _, err := ParseID("my-cup-r10-p02-o03-s2"); err != nil || name != "my-cup" {
		t.Errorf("name with dashes: %q %v", name, err)
	}
	for _, bad := range []string{"", "T", "T-r1-p1-o1", "r1-p1-o1-s1", "T-r0-p1-o1-s1", "T-x1-p1-o1-s1", "T-r1-p1-o1-s", "T-r1-p1-o1-s1x"} {
		if _, _, _, _, _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q): no error", bad)
		}
	}
}

// TestResumeSkipsPlayed checks that a schedule given stored results lists
// only the games still missing.
func TestResumeSkipsPlayed(t *testing.T) {
	for _, f := range Formats() {
		t.Run(string(f), func(t *testing.T) {
			cfg := Config{Name: "T", Format: f, Players: 5, GamesPerPair: 2, Openings: 2}
			full, order := simulate(t, mustNew(t, cfg), lowerWins)
			// Any prefix of the played games, as a crash leaves it.
			for cut := 0; cut <= len(order); cut += 3 {
				results := map[string]Outcome{}
				for _, g := range order[:cut] {
					results[g.ID] = full[g.ID]
				}
				s := mustNew(t, cfg)
				for {
					pending, done := s.Pending(results)
					if done {
						break
					}
					for _, g := range pending {
						if _, ok := results[g.ID]; ok {
							t.Fatalf("cut %d: stored game %s pending again", cut, g.ID)
						}
						results[g.ID] = lowerWins(g)
					}
				}
				if len(results) != len(full) {
					t.Fatalf("cut %d: %d games after resume, want %d", cut, len(results), len(full))
				}
				for id := range full {
					if _, ok := results[id]; !ok {
						t.Fatalf("cut %d: resume played a different event (no %s)", cut, id)
					}
				}
			}
		})
	}
}

func TestGauntlet(t *testing.T) {
	s := mustNew(t, Config{Name: "G", Format: Gauntlet, Players: 5, GamesPerPair: 2, Openings: 3})
	_, games := simulate(t, s, lowerWins)
	meets := map[int]int{}
	for _, g := range games {
		if !slices.Contains(g.Seats, 0) {
			t.Fatalf("game %s without the first bot: %v", g.ID, g.Seats)
		}
		meets[g.Seats[0]+g.Seats[1]]++
	}
	for opp := 1; opp < 5; opp++ {
		if meets[opp] != 6 {
			t.Errorf("opponent %d plays %d games, want 6", opp, meets[opp])
		}
	}
}

// TestNPlayerRotation checks that N-player games rotate every bot of a
// group through every seat on every map.
func TestNPlayerRotation(t *testing.T) {
	tests := []struct{ players, seats, gpp int }{{4, 4, 2}, {5, 3, 1}, {6, 4, 4}}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d-in-%d", tc.players, tc.seats), func(t *testing.T) {
			s := mustNew(t, Config{Name: "A", Format: RoundRobin, Players: tc.players, Seats: tc.seats, GamesPerPair: tc.gpp, Openings: 2})
			_, games := simulate(t, s, lowerWins)
			type k struct {
				group                 string
				opening, player, seat int
			}
			sat := map[k]int{}
			groups := map[string]bool{}
			for _, g := range games {
				if len(g.Seats) != tc.seats {
					t.Fatalf("game %s seats %v", g.ID, g.Seats)
				}
				sorted := slices.Sorted(slices.Values(g.Seats))
				gk := fmt.Sprint(sorted)
				groups[gk] = true
				for seat, p := range g.Seats {
					sat[k{gk, g.Opening, p, seat}]++
				}
			}
			if want := binomial(tc.players, tc.seats); len(groups) != want {
				t.Errorf("%d groups, want %d", len(groups), want)
			}
			perSeat := (tc.gpp + tc.seats - 1) / tc.seats
			for gk := range groups {
				for o := 0; o < 2; o++ {
					cells := 0
					for key, n := range sat {
						if key.group == gk && key.opening == o {
							cells++
							if n != perSeat {
								t.Errorf("group %s map %d: player %d sat in seat %d %d times, want %d", gk, o, key.player, key.seat, n, perSeat)
							}
						}
					}
					if cells != tc.seats*tc.seats {
						t.Errorf("group %s map %d: %d (player, seat) cells, want every player in every seat", gk, o, cells)
					}
				}
			}
		})
	}
}

func binomial(n, k int) int {
	r := 1
	for i := 0; i < k; i++ {
		r = r * (n - i) / (i + 1)
	}
	return r
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no name", Config{Format: RoundRobin, Players: 2, GamesPerPair: 2}},
		{"one bot", Config{Name: "T", Format: RoundRobin, Players: 1, GamesPerPair: 2}},
		{"no games", Config{Name: "T", Format: RoundRobin, Players: 2}},
		{"bad format", Config{Name: "T", Format: "ladder", Players: 2, GamesPerPair: 2}},
		{"swiss n-player", Config{Name: "T", Format: Swiss, Players: 6, Seats: 3, GamesPerPair: 3}},
		{"knockout n-player", Config{Name: "T", Format: Knockout, Players: 6, Seats: 3, GamesPerPair: 3}},
		{"negative rounds", Config{Name: "T", Format: Swiss, Players: 4, GamesPerPair: 2, Rounds: -1}},
		{"too many groups", Config{Name: "T", Format: RoundRobin, Players: 60, Seats: 6, GamesPerPair: 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.cfg); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"round-robin": RoundRobin, "RR": RoundRobin, "gauntlet": Gauntlet, "swiss": Swiss, "knockout": Knockout} {
		if f, err := ParseFormat(in); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, f, err)
		}
	}
	if _, err := ParseFormat("pyramid"); err == nil {
		t.Error("pyramid accepted")
	}
}

func FuzzParseID(f *testing.F) {
	f.Add("T-r01-p02-o03-s1")
	f.Add("a-b-r1-p1-o1-s1")
	f.Add("-r1-p1-o1-s1")
	f.Fuzz(func(t *testing.T, id string) {
		name, r, p, slot, idx, err := ParseID(id)
		if err != nil {
			return
		}
		if again := GameID(name, r, p, slot, idx); again != id {
			// Leading zeros may differ; the parts must not.
			n2, r2, p2, s2, i2, err := ParseID(again)
			if err != nil || n2 != name || r2 != r || p2 != p || s2 != slot || i2 != idx {
				t.Fatalf("%q -> %q does not round-trip", id, again)
			}
		}
	})
}
