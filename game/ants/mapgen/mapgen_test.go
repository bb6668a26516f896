package mapgen

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// parsed is a map read back from the official text format, the way the
// engine's parse_map reads it.
type parsed struct {
	rows, cols, players int
	grid                [][]byte
	hills               [][][2]int // per player, in row-major order
}

func parse(t *testing.T, text string) *parsed {
	t.Helper()
	p := &parsed{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, _ := strings.Cut(line, " ")
		switch strings.ToLower(key) {
		case "rows":
			p.rows, _ = strconv.Atoi(value)
		case "cols":
			p.cols, _ = strconv.Atoi(value)
		case "players":
			p.players, _ = strconv.Atoi(value)
		case "m":
			if p.players == 0 {
				t.Fatal("m line before players")
			}
			if len(value) != p.cols {
				t.Fatalf("row %d has %d chars, want %d", len(p.grid), len(value), p.cols)
			}
			for _, ch := range value {
				if !strings.ContainsRune(".%0123456789", ch) {
					t.Fatalf("invalid character %q", ch)
				}
			}
			p.grid = append(p.grid, []byte(value))
		default:
			t.Fatalf("unknown key %q", key)
		}
	}
	if len(p.grid) != p.rows {
		t.Fatalf("%d m lines, want %d", len(p.grid), p.rows)
	}
	if p.players < 2 || p.players > 10 {
		t.Fatalf("players %d", p.players)
	}
	p.hills = make([][][2]int, p.players)
	for r, row := range p.grid {
		for c, ch := range row {
			if ch >= '0' && ch <= '9' {
				pl := int(ch - '0')
				if pl >= p.players {
					t.Fatalf("hill of player %d on a %d-player map", pl, p.players)
				}
				p.hills[pl] = append(p.hills[pl], [2]int{r, c})
			}
		}
	}
	for pl, hs := range p.hills {
		if len(hs) == 0 {
			t.Fatalf("player %d has no hill", pl)
		}
	}
	return p
}

// ilk is the engine's view of a square at the start of a game: an ant of
// its owner on every hill, land or water elsewhere.
func (p *parsed) ilk(r, c int) int {
	r, c = wrap(r, p.rows), wrap(c, p.cols)
	switch ch := p.grid[r][c]; {
	case ch == '%':
		return -4
	case ch >= '0' && ch <= '9':
		return int(ch - '0')
	}
	return -2
}

// offsetAim is the engine's offset_aim: the eight orientations.
func offsetAim(r, c, aim int) (int, int) {
	switch aim {
	case 1:
		return -r, c
	case 2:
		return r, -c
	case 3:
		return -r, -c
	case 4:
		return c, r
	case 5:
		return -c, r
	case 6:
		return c, -r
	case 7:
		return -c, -r
	}
	return r, c
}

// similar is the engine's map_similar: does the map look the same from
// hill a as from player's hill b turned by aim?
func (p *parsed) similar(a, b [2]int, aim, player int) bool {
	for r := range p.rows {
		for c := range p.cols {
			i0 := p.ilk(a[0]+r, a[1]+c)
			dr, dc := offsetAim(r, c, aim)
			i1 := p.ilk(b[0]+dr, b[1]+dc)
			switch {
			case i0 == 0 && i1 != player:
				return false
			case i0 > 0 && (i1 < 0 || i1 == player):
				return false
			case i0 < 0 && i1 != i0:
				return false
			}
		}
	}
	return true
}

// symmetric applies the engine's get_map_symmetry test: every other
// player has a hill from which the map looks like it does from player 0's
// first hill, under one of the eight orientations.
func (p *parsed) symmetric() error {
	h0 := p.hills[0][0]
	for pl := 1; pl < p.players; pl++ {
		if len(p.hills[pl]) != len(p.hills[0]) {
			return fmt.Errorf("player %d has %d hills, player 0 has %d", pl, len(p.hills[pl]), len(p.hills[0]))
		}
		found := false
		for _, h := range p.hills[pl] {
			for aim := range 8 {
				if p.similar(h0, h, aim, pl) {
					found = true
				}
			}
		}
		if !found {
			return fmt.Errorf("player %d has no orientation that matches player 0", pl)
		}
	}
	return nil
}

func (p *parsed) water() []bool {
	w := make([]bool, p.rows*p.cols)
	for r, row := range p.grid {
		for c, ch := range row {
			w[r*p.cols+c] = ch == '%'
		}
	}
	return w
}

func TestGenerateProperties(t *testing.T) {
	cases := []Options{
		{Players: 2, Seed: 1},
		{Players: 2, Seed: 2, Symmetry: Rotate},
		{Players: 2, Seed: 3, Symmetry: Mirror},
		{Players: 2, Seed: 4, Symmetry: Translate, Rows: 60, Cols: 60},
		{Players: 3, Seed: 5},
		{Players: 4, Seed: 6, Symmetry: Mirror},
		{Players: 4, Seed: 7, Symmetry: Rotate, Rows: 80, Cols: 80},
		{Players: 4, Seed: 8, Symmetry: Translate},
		{Players: 5, Seed: 9},
		{Players: 6, Seed: 10, Hills: 2},
		{Players: 8, Seed: 11},
		{Players: 10, Seed: 12},
		{Players: 2, Seed: 13, Hills: 3, Symmetry: Mirror},
	}
	for _, o := range cases {
		t.Run(fmt.Sprintf("p%d_seed%d_%s_h%d", o.Players, o.Seed, o.Symmetry, o.Hills), func(t *testing.T) {
			text, err := Generate(o)
			if err != nil {
				t.Fatal(err)
			}
			p := parse(t, text)
			if p.players != o.Players {
				t.Fatalf("players %d, want %d", p.players, o.Players)
			}
			if p.rows > MaxSide || p.cols > MaxSide {
				t.Fatalf("size %dx%d over %d", p.rows, p.cols, MaxSide)
			}
			if o.Rows != 0 && (p.rows != o.Rows || p.cols != o.Cols) {
				t.Fatalf("size %dx%d, want %dx%d", p.rows, p.cols, o.Rows, o.Cols)
			}
			hills := max(o.Hills, 1)
			for pl, hs := range p.hills {
				if len(hs) != hills {
					t.Fatalf("player %d has %d hills, want %d", pl, len(hs), hills)
				}
			}
			if err := p.symmetric(); err != nil {
				t.Fatalf("engine symmetry check: %v\n%s", err, text)
			}
			// No islands: every land square is reachable from a hill.
			water := p.water()
			h := p.hills[0][0]
			dist := bfs(water, p.rows, p.cols, h[0]*p.cols+h[1])
			for i, w := range water {
				if !w && dist[i] < 0 {
					t.Fatalf("land square %d,%d cannot be reached\n%s", i/p.cols, i%p.cols, text)
				}
			}
			// Hills of different players are far apart by walking.
			want := min(20, max(6, min(p.rows, p.cols)/3))
			for pl, hs := range p.hills {
				for _, a := range hs {
					d := bfs(water, p.rows, p.cols, a[0]*p.cols+a[1])
					for q, qs := range p.hills {
						for _, b := range qs {
							if q != pl && d[b[0]*p.cols+b[1]] < want {
								t.Fatalf("hills %v (player %d) and %v (player %d) are %d steps apart, want >= %d",
									a, pl, b, q, d[b[0]*p.cols+b[1]], want)
							}
						}
					}
				}
			}
		})
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for _, o := range []Options{{Players: 2, Seed: 42}, {Players: 4, Seed: -7}, {Players: 3, Seed: 99, Rows: 60, Cols: 90}} {
		a, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Fatalf("%+v: two maps from one seed differ", o)
		}
		o.Seed++
		c, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		if a == c {
			t.Fatalf("%+v: seeds %d and %d give the same map", o, o.Seed-1, o.Seed)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"one player", Options{Players: 1}, "players must be 2..10"},
		{"eleven players", Options{Players: 11}, "players must be 2..10"},
		{"rows without cols", Options{Players: 2, Rows: 40}, "give both rows and cols"},
		{"too big", Options{Players: 2, Rows: 300, Cols: 40}, "rows and cols must be"},
		{"bad symmetry", Options{Players: 2, Symmetry: "spiral"}, "unknown symmetry"},
		{"mirror for three", Options{Players: 3, Symmetry: Mirror}, "mirror symmetry needs 2 or 4"},
		{"rotate on a rectangle", Options{Players: 4, Symmetry: Rotate, Rows: 40, Cols: 60}, "rotate symmetry needs"},
		{"translate indivisible", Options{Players: 3, Symmetry: Translate, Rows: 40, Cols: 40}, "cols divisible by 3"},
		{"too many hills", Options{Players: 2, Hills: 4}, "hills per player"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Generate(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func ExampleGenerate() {
	text, err := Generate(Options{Players: 2, Seed: 1, Rows: 20, Cols: 30, Symmetry: Mirror, MinHillDistance: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(strings.Split(text, "\n")[2:5], "\n"))
	// Output:
	// rows 20
	// cols 30
	// players 2
}

func BenchmarkGenerate200(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		if _, err := Generate(Options{Players: 4, Seed: int64(i), Rows: 200, Cols: 200, Symmetry: Translate}); err != nil {
			b.Fatal(err)
		}
	}
}
