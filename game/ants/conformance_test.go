package ants

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// conformanceDir finds ../shared/conformance/ants beside the module root.
// CI has it there; its absence is a failure, not a skip.
func conformanceDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
	d := filepath.Join(filepath.Dir(dir), "shared", "conformance", "ants")
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("recorded games missing (../shared/conformance/ants beside the module root): %v", err)
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
