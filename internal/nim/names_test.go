package nim

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoOtherFileNamesNim proves that adding a game takes its package and
// its view only: no source file of the module outside internal/nim and
// web/static/games/nim.js names Nim, yet the tests above play it through
// the generic match, tournament, store and page. (Documentation may
// point at it: docs/adding-a-game.md takes it as the example. Other
// packages' tests may take it as their fixture game, as the contest
// tests do: they import it by name as a test picks any game; no code
// that ships with arena may.)
func TestNoOtherFileNamesNim(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module root at %s: %v", root, err)
	}
	name := regexp.MustCompile(`(?i)\bnim\b`)
	source := map[string]bool{".go": true, ".js": true, ".html": true, ".css": true, ".py": true, ".sh": true,
		".json": true, ".yml": true, ".yaml": true, ".mod": true, ".txt": true}
	own := map[string]bool{"internal/nim": true, "web/static/games/nim.js": true}
	var seenOwn, checked int
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !source[filepath.Ext(path)] {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 4<<20 {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(rel, "_test.go") && !strings.HasPrefix(rel, "internal/nim/") {
			return nil // a fixture of another package's tests
		}
		mine := own[rel] || own[filepath.ToSlash(filepath.Dir(rel))]
		found := name.Find(data) != nil
		switch {
		case mine && found:
			seenOwn++
		case !mine:
			checked++
			if found {
				t.Errorf("%s names the test game: only its package and its view may", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The search finds the name where it is, and looked at the tree.
	if seenOwn < 4 || checked < 100 {
		t.Fatalf("found the name in %d of the game's own files, checked %d others", seenOwn, checked)
	}
}
