package khet

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/match"
)

func TestParseOpenings(t *testing.T) {
	cases := []struct {
		name, file string
		want       []string // the openings, moves joined by spaces
		err        string   // a part of the error, "" for none
	}{
		{name: "two openings, comments and blanks", file: "# openings\n\nS23C R21C\n  S54c  \n",
			want: []string{"S23C R21C", "S54c"}},
		{name: "empty", file: "# nothing\n\n"},
		{name: "not a move", file: "S23C\nS23C R2\n", err: "line 2: bad opening"},
		{name: "out of turn", file: "R21C\n", err: "line 1: bad opening: move 1"},
		{name: "illegal", file: "S23C R21C S00C\n", err: "move 3"},
		{name: "ends the game", file: "S238 R431\n", err: "ends the game: SG"},
		{name: "goes on after the end", file: "S238 R431 S23C\n", err: "over before move 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseOpenings(strings.NewReader(c.file), DefaultConfig())
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrBadOpening) {
					t.Fatalf("error %v, want one with %q wrapping ErrBadOpening", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, o := range got {
				var f []string
				for _, m := range o {
					f = append(f, m.String())
				}
				lines = append(lines, strings.Join(f, " "))
			}
			if !slices.Equal(lines, c.want) {
				t.Errorf("openings %q, want %q", lines, c.want)
			}
		})
	}
}

// FuzzParseOpenings: any file either fails with ErrBadOpening (or a
// too-long line) or gives openings that play through the rules without
// ending the game.
func FuzzParseOpenings(f *testing.F) {
	for _, s := range []string{"S23C R21C\n", "# c\nS54c\n", "R21C\n", "S23C R21C S00C", "S238 R431", "S238 R431 S23C", "\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		openings, err := ParseOpenings(strings.NewReader(s), DefaultConfig())
		if err != nil {
			if !errors.Is(err, ErrBadOpening) && !strings.Contains(err.Error(), "too long") {
				t.Fatalf("%q: error %v wraps neither ErrBadOpening nor a long line", s, err)
			}
			return
		}
		for _, o := range openings {
			st, err := openingState(DefaultConfig(), o)
			if err != nil || st.Over() || st.Plies() != len(o) {
				t.Fatalf("%q: opening %v accepted, then: %v", s, o, err)
			}
		}
	})
}

// TestPlayGameOpening plays a game between two test processes from an
// opening: the bots start from the state after it (Red moves first after
// an odd opening), the record keeps the opening apart from the bots'
// moves, and the record replays through it.
func TestPlayGameOpening(t *testing.T) {
	opening, err := ParseOpenings(strings.NewReader("S23C R21C S54c\n"), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	after, err := openingState(DefaultConfig(), opening[0])
	if err != nil {
		t.Fatal(err)
	}
	mc := MatchConfig{
		Config:  DefaultConfig(),
		Clock:   match.Clock{Turn: 5 * time.Second, Tolerance: time.Second},
		WorkDir: t.TempDir(),
	}
	g := Game{ID: "khet-opening-001", Silver: 0, Opening: opening[0], Players: []Player{
		{Name: "greedy", Args: player(t, "--policy=greedy", "--seed=5")},
		{Name: "random", Args: player(t, "--policy=random", "--seed=6")},
	}}
	rec, err := PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Opening, []string{"S23C", "R21C", "S54c"}) {
		t.Errorf("record's opening %v", rec.Opening)
	}
	if len(rec.Moves) == 0 || rec.Moves[0].Side != int(Red) || !strings.HasPrefix(rec.Moves[0].Move, "R") {
		t.Fatalf("first bot move %+v, want Red's", rec.Moves)
	}
	path, back, states := writeAndReplay(t, rec)
	if states[0] != after.String() || len(states) != len(back.Moves)+1 {
		t.Fatalf("replay starts at %q (%d states for %d moves), want %q", states[0], len(states), len(back.Moves), after.String())
	}
	log, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".khet")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(log), "\n"); lines[1] != after.String() {
		t.Errorf("log starts at %q, want %q", lines[1], after.String())
	}
}

// TestRunnerOpenings: the runner reads --opening, plays opening k in
// both games of the k-th pair, and names a bad file in one line.
func TestRunnerOpenings(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("S23C R21C\nS54c\n"), 0o644)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("S23C\nR21C R21C\n"), 0o644)
	env := match.Env{Out: dir, Work: dir, Clock: match.Clock{Turn: time.Second}}
	s := DefaultSettings()
	s.Opening = good
	r, err := Def{}.NewRunner(s, env)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Openings(); n != 2 {
		t.Errorf("%d openings, want 2", n)
	}
	s.Opening = bad
	if _, err := (Def{}).NewRunner(s, env); err == nil || !strings.Contains(err.Error(), "bad.txt") || !strings.Contains(err.Error(), "line 2") || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad file: error %v, want one line naming the file and line 2", err)
	}
	s.Opening = filepath.Join(dir, "missing.txt")
	if _, err := (Def{}).NewRunner(s, env); err == nil || !strings.Contains(err.Error(), "--opening") {
		t.Errorf("missing file: error %v", err)
	}
}

// TestShippedOpenings: the openings file in the repository is valid and
// holds no opening twice.
func TestShippedOpenings(t *testing.T) {
	fh, err := os.Open("../../testdata/khet/openings.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	openings, err := ParseOpenings(fh, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range openings {
		st, _ := openingState(DefaultConfig(), o)
		if seen[st.String()] {
			t.Errorf("opening %v: its position is in the file twice", o)
		}
		seen[st.String()] = true
	}
	if len(openings) < 500 {
		t.Errorf("%d openings", len(openings))
	}
}
