package replaystats

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tiny is a 10x10 game of ten turns made up so that every figure can be
// worked out by hand:
//   - ant 0 (player 0) walks south five times and dies at turn 5 on
//     (5, 0); ant 1 (player 0) stands on (5, 9), one square away across
//     the map's edge: not a lone death.
//   - ant 2 (player 1), born at turn 1, walks east three times and dies
//     at turn 4 on (2, 5); its only friend, ant 3 on (9, 9), is at
//     squared distance 3²+4² = 25: a lone death.
//   - player 1's hill is razed at turn 7, player 0's never (turn 11).
const tiny = `{"playernames": ["north", "south"], "rank": [0, 1], "game_length": 10,
 "replaydata": {"players": 2, "map": {"rows": 10, "cols": 10, "data": []},
  "ants": [[0, 0, 0, 5, 0, "sssss"], [5, 9, 0, 11, 0, "----------"],
           [2, 2, 1, 4, 1, "eee"], [9, 9, 0, 11, 1, ""]],
  "hills": [[0, 0, 0, 11], [9, 9, 1, 7]]}}`

func TestParseTiny(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want Game
	}{
		{"turn 3", Options{Turn: 3, LoneR2: 20}, Game{
			Born: []int{2, 2}, Alive: []int{2, 2}, Dead: []int{1, 1}, LoneDead: []int{0, 1}, HillsLost: []int{0, 1}}},
		{"turn 4: ant 2 died then", Options{Turn: 4, LoneR2: 20}, Game{
			Born: []int{2, 2}, Alive: []int{2, 1}, Dead: []int{1, 1}, LoneDead: []int{0, 1}, HillsLost: []int{0, 1}}},
		{"after the end", Options{Turn: 12, LoneR2: 20}, Game{
			Born: []int{2, 2}, Alive: []int{0, 0}, Dead: []int{1, 1}, LoneDead: []int{0, 1}, HillsLost: []int{0, 1}}},
		{"friends within 25", Options{Turn: 3, LoneR2: 25}, Game{
			Born: []int{2, 2}, Alive: []int{2, 2}, Dead: []int{1, 1}, LoneDead: []int{0, 0}, HillsLost: []int{0, 1}}},
		{"no friend near enough", Options{Turn: 3, LoneR2: 0}, Game{
			Born: []int{2, 2}, Alive: []int{2, 2}, Dead: []int{1, 1}, LoneDead: []int{1, 1}, HillsLost: []int{0, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Parse([]byte(tiny), tc.o)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				what      string
				got, want []int
			}{
				{"born", g.Born, tc.want.Born}, {"alive", g.Alive, tc.want.Alive}, {"dead", g.Dead, tc.want.Dead},
				{"lone dead", g.LoneDead, tc.want.LoneDead}, {"hills lost", g.HillsLost, tc.want.HillsLost},
			} {
				if !slices.Equal(f.got, f.want) {
					t.Errorf("%s %v, want %v", f.what, f.got, f.want)
				}
			}
			if g.Turns != 10 || !slices.Equal(g.Names, []string{"north", "south"}) {
				t.Errorf("turns %d, names %v", g.Turns, g.Names)
			}
		})
	}
}

func TestTotals(t *testing.T) {
	won, err := Parse([]byte(tiny), Options{Turn: 3, LoneR2: 20})
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := Parse([]byte(tiny), Options{Turn: 4, LoneR2: 20})
	if err != nil {
		t.Fatal(err)
	}
	drawn.Rank = []int{0, 0}
	var tot Totals
	tot.Add(won)
	tot.Add(drawn)
	if len(tot.List) != 2 {
		t.Fatalf("%d players", len(tot.List))
	}
	n, s := tot.List[0], tot.List[1]
	if n.Name != "north" || n.Games != 2 || n.Won != 1 || n.Drawn != 1 || n.Lost != 0 {
		t.Errorf("north %+v", n)
	}
	if s.Name != "south" || s.Won != 0 || s.Drawn != 1 || s.Lost != 1 {
		t.Errorf("south %+v", s)
	}
	// Shares at turn 3 are 2/4 each; at turn 4, 2/3 and 1/3.
	if got, want := n.Share(), (0.5+2.0/3)/2; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("north's share %v, want %v", got, want)
	}
	if got := n.DeadPerEnemy(); got != 1 {
		t.Errorf("north dead per enemy %v, want 1", got)
	}
	if n.LoneDead != 0 || s.LoneDead != 2 || s.HillsLost != 2 {
		t.Errorf("north %+v, south %+v", n, s)
	}
}

// TestParseOfficialReplay reads a replay the official engine wrote:
// every ant is counted once, and no player loses more ants than it had.
func TestParseOfficialReplay(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "conformance", "ants", "v4_maze_p02_01_hunter_hunter", "replay.json"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(data, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	born := 0
	for i := range g.Names {
		born += g.Born[i]
		if g.Dead[i] > g.Born[i] || g.LoneDead[i] > g.Dead[i] || g.Alive[i] > g.Born[i] {
			t.Errorf("player %d: born %d, dead %d, lone %d, alive %d", i, g.Born[i], g.Dead[i], g.LoneDead[i], g.Alive[i])
		}
	}
	if born != 30 || g.Turns == 0 {
		t.Errorf("%d ants in %d turns, want the replay's 30", born, g.Turns)
	}
}

func TestParseErrors(t *testing.T) {
	for name, data := range map[string]string{
		"not JSON":       `{`,
		"no players":     `{"rank": [], "replaydata": {"players": 0, "map": {"rows": 5, "cols": 5}}}`,
		"ranks":          `{"rank": [0], "replaydata": {"players": 2, "map": {"rows": 5, "cols": 5}}}`,
		"bad map":        `{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 0, "cols": 5}}}`,
		"short ant":      `{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 5, "cols": 5}, "ants": [[1, 2, 3]]}}`,
		"owner":          `{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 5, "cols": 5}, "ants": [[1, 2, 0, 3, 7, ""]]}}`,
		"died before":    `{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 5, "cols": 5}, "ants": [[1, 2, 4, 3, 0, ""]]}}`,
		"moves not text": `{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 5, "cols": 5}, "ants": [[1, 2, 0, 3, 0, 5]]}}`,
		"hill":           `{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 5, "cols": 5}, "hills": [[1, 2, 9, 3]]}}`,
	} {
		if _, err := Parse([]byte(data), DefaultOptions()); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(tiny))
	f.Add([]byte(`{"rank": [0, 1], "replaydata": {"players": 2, "map": {"rows": 3, "cols": 3}, "ants": [[-7, 99, 0, 2, 1, "nnwwxx"]]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data, DefaultOptions())
		if err != nil {
			return
		}
		for i := range g.Names {
			if g.Dead[i] > g.Born[i] || g.LoneDead[i] > g.Dead[i] {
				t.Fatalf("player %d: born %d, dead %d, lone %d", i, g.Born[i], g.Dead[i], g.LoneDead[i])
			}
		}
		var tot Totals
		tot.Add(g)
	})
}
