package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"arena/game"
)

// TestOpenings plays each opening of a Gomocup offset file twice with
// colours swapped, and records the opening stones.
func TestOpenings(t *testing.T) {
	dir := testBrain(t)
	out := t.TempDir()
	file := filepath.Join(out, "openings.txt")
	os.WriteFile(file, []byte("# two openings\n0,0, 1,0, 1,3\n-1,-1, 0,0\n"), 0o644)
	stdout, stderr, err := arena(t, "match", "gomoku", "--size", "15", "--games", "4", "--opening", file,
		"--bot", filepath.Join(dir, "pbrain-tb")+" --seed=1", "--bot", filepath.Join(dir, "tb")+" --seed=2",
		"--out", out, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want := [][]string{{"7,7", "8,7", "8,10"}, {"7,7", "8,7", "8,10"}, {"6,6", "7,7"}, {"6,6", "7,7"}}
	for i, g := range decodeLines(t, stdout) {
		rec, err := game.ReadRecord(g["record"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rec.Opening, want[i]) {
			t.Errorf("game %d: opening %v, want %v", i+1, rec.Opening, want[i])
		}
		if rec.FirstPlayer() != i%2 {
			t.Errorf("game %d: player %d has Black, want %d", i+1, rec.FirstPlayer(), i%2)
		}
		// After an odd opening White moves first among the bots.
		if len(rec.Moves) > 0 && rec.Moves[0].Side != len(want[i])%2 {
			t.Errorf("game %d: first move by side %d", i+1, rec.Moves[0].Side)
		}
	}
}
