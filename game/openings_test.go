package game

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lines is a parser for ReadOpenings' tests: every non-blank line is an
// opening, "bad" is an error.
func lines(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		switch s := strings.TrimSpace(sc.Text()); s {
		case "":
		case "bad":
			return nil, errors.New("line bad")
		default:
			out = append(out, s)
		}
	}
	return out, sc.Err()
}

func TestReadOpenings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	good := write("good.txt", "a\nb\nc\nd\ne\nf\n")
	cases := []struct {
		name, path string
		seed       int64
		want       []string
		err        string
	}{
		{name: "in order", path: good, want: []string{"a", "b", "c", "d", "e", "f"}},
		{name: "missing", path: filepath.Join(dir, "none.txt"), err: "--opening: open"},
		{name: "empty", path: write("empty.txt", "\n\n"), err: "empty.txt: no openings"},
		{name: "bad", path: write("bad.txt", "a\nbad\n"), err: "bad.txt: line bad"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadOpenings(c.path, c.seed, lines)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, c.want) {
				t.Fatalf("%v, %v; want %v", got, err, c.want)
			}
		})
	}
	// A seed gives an order of its own, the same every time, of the same
	// openings.
	a, _ := ReadOpenings(good, 5, lines)
	b, _ := ReadOpenings(good, 5, lines)
	sorted := slices.Sorted(slices.Values(a))
	if !slices.Equal(a, b) || slices.Equal(a, sorted) || !slices.Equal(sorted, []string{"a", "b", "c", "d", "e", "f"}) {
		t.Errorf("seed 5 gave %v and %v", a, b)
	}
}
