package ants

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// conformanceDir is the recorded official games in the repository's
// testdata (testdata/conformance/ants at the module root). They are part
// of the repository, so their absence is a failure, not a skip.
func conformanceDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata", "conformance", "ants"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("recorded games missing (testdata/conformance/ants in the repository): %v", err)
	}
	return d
}

func recordedGames(t testing.TB) []string {
	root := conformanceDir(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no recorded games")
	}
	return dirs
}

func TestConformance(t *testing.T) {
	for _, dir := range recordedGames(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			diff, err := Conform(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				t.Fatal(diff)
			}
		})
	}
}
