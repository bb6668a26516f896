package gomoku

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The -update flag rewrites golden files. Another test file of the
// package may define it already; define it only if not.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata")
	}
}

// updatingGolden reports whether -update was given.
func updatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenSGF compares got with testdata/name, or rewrites it with -update.
func goldenSGF(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updatingGolden() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestWriteSGFGolden(t *testing.T) {
	// A renju game on 15x15 that Black loses by a double-three.
	s, err := NewState(Config{Width: 15, Height: 15, Rule: Renju})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Point{{7, 6}, {8, 8}, {7, 5}, {0, 0}, {6, 7}, {14, 14}, {5, 7}, {0, 14}} {
		if _, err := s.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	// Black's 7,7 makes threes across and down.
	if _, err := s.Play(Point{7, 7}); err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); o.Reason != "foul" {
		t.Fatalf("outcome %+v, want a foul", o)
	}
	g := SGF{
		Width: 15, Height: 15, Rule: Renju,
		Black: "pbrain-a [v1.0]", White: `back\slash`, Event: "arena test", Date: "2025-06-19",
		Result: SGFResult(s.Outcome()), Termination: s.Outcome().Detail,
		Moves: s.Moves(),
	}
	var b bytes.Buffer
	if err := WriteSGF(&b, g); err != nil {
		t.Fatal(err)
	}
	goldenSGF(t, "renju_foul.sgf", b.Bytes())

	// A rectangular board with columns past 'z' and no text properties.
	r := SGF{Width: 32, Height: 20, Moves: []Point{{0, 0}, {25, 19}, {26, 1}, {31, 2}}}
	b.Reset()
	if err := WriteSGF(&b, r); err != nil {
		t.Fatal(err)
	}
	goldenSGF(t, "wide.sgf", b.Bytes())
}

func TestWriteSGFErrors(t *testing.T) {
	tests := []struct {
		name string
		g    SGF
		want string
	}{
		{"no board", SGF{}, "board 0x0"},
		{"too wide", SGF{Width: 53, Height: 5}, "board 53x5"},
		{"off the board", SGF{Width: 15, Height: 15, Moves: []Point{{7, 7}, {15, 0}}}, "move 2 (15,0) is off the 15x15 board"},
	}
	for _, tc := range tests {
		err := WriteSGF(&bytes.Buffer{}, tc.g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: WriteSGF = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSGFResult(t *testing.T) {
	tests := []struct {
		o    Outcome
		want string
	}{
		{Outcome{}, "?"},
		{Outcome{Reason: "draw"}, "0"},
		{Outcome{Reason: "adjudication"}, "0"},
		{Outcome{Winner: Black, Reason: "five"}, "B+"},
		{Outcome{Winner: White, Reason: "score"}, "W+"},
		{Outcome{Winner: White, Reason: "foul"}, "W+F"},
		{Outcome{Winner: Black, Reason: "timeout"}, "B+T"},
		{Outcome{Winner: White, Reason: "crash"}, "W+F"},
		{Outcome{Winner: Black, Reason: "illegal"}, "B+F"},
	}
	for _, tc := range tests {
		if got := SGFResult(tc.o); got != tc.want {
			t.Errorf("SGFResult(%+v) = %q, want %q", tc.o, got, tc.want)
		}
	}
}
