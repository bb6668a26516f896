package main

import (
	"path/filepath"
	"testing"
)

// TestBuiltinStrength plays arena's brain against the random and the
// greedy test brain over real pipes: it must win every game (20 each,
// colours alternating), and the file protocol version too.
func TestBuiltinStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 46 games")
	}
	dir := testBrain(t)
	tests := []struct {
		name, builtin, opponent string
		games                   string
		rule, size              string
	}{
		{"random", "builtin", "random=" + filepath.Join(dir, "pbrain-tb") + " --policy=random --seed=11", "20", "0", "20"},
		{"greedy", "builtin", "greedy=" + filepath.Join(dir, "pbrain-tb") + " --policy=greedy --seed=12", "20", "0", "20"},
		{"greedy exact five", "builtin", "greedy=" + filepath.Join(dir, "pbrain-tb") + " --policy=greedy --seed=13", "4", "1", "15"},
		{"file protocol", "builtin --file", "greedy=" + filepath.Join(dir, "tb") + " --policy=greedy --seed=14", "2", "0", "15"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := arena(t, "match", "gomoku", "--bot", tc.builtin, "--bot", tc.opponent,
				"--games", tc.games, "--turn-time", "100ms", "--rule", tc.rule, "--size", tc.size,
				"--out", t.TempDir(), "--json")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for i, g := range decodeLines(t, stdout) {
				if g["winner"] != float64(0) {
					t.Errorf("game %d: winner %v by %v (%v): the builtin brain must win every game", i+1, g["winner"], g["reason"], g["detail"])
				}
			}
		})
	}
}
