package points

import (
	"errors"
	"strings"
	"testing"
)

// setUp draws a position: 'x' red dots, 'o' blue dots, '.' free points.
// Dots are put row by row with PutColor, so a ring complete in the drawing
// is already closed (and scored) when the test starts.
func setUp(t *testing.T, s Surround, drawing string) *Field {
	t.Helper()
	rows := strings.Fields(drawing)
	f, err := NewField(len(rows[0]), len(rows), s)
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		for x, ch := range row {
			i := f.Index(Point{x, y})
			switch ch {
			case 'x':
				f.PutColor(i, Red)
			case 'o':
				f.PutColor(i, Blue)
			}
		}
	}
	return f
}

func drawing(s string) string { return strings.Join(strings.Fields(s), "\n") + "\n" }

type step struct {
	c Color
	p Point
}

func TestRules(t *testing.T) {
	tests := []struct {
		name      string
		surround  Surround
		start     string
		moves     []step
		want      string
		red, blue int
	}{
		{name: "single capture", start: `
			.....
			..x..
			.xo..
			..x..
			.....`,
			moves: []step{{Red, Point{3, 2}}},
			want: `
			.....
			..x..
			.xOx.
			..x..
			.....`, red: 1},
		{name: "one dot closes two rings", start: `
			.x.x.
			xo.ox
			.x.x.`,
			moves: []step{{Red, Point{2, 1}}},
			want: `
			.x.x.
			xOxOx
			.x.x.`, red: 2},
		{name: "diagonal chain, minimal area", start: `
			..x..
			.x.x.
			x.o.x
			.x...
			..x..`,
			moves: []step{{Red, Point{3, 3}}},
			want: `
			..x..
			.x+x.
			x+O+x
			.x+x.
			..x..`, red: 1},
		{name: "the edge never encloses", start: `
			ox.o.
			...xo
			.....`,
			moves: []step{{Red, Point{0, 1}}, {Blue, Point{4, 0}}},
			want: `
			ox.oo
			x..xo
			.....`},
		{name: "re-capture frees prisoners and lowers the score", start: `
			.......
			...o...
			..oxo..
			.oxoxo.
			..o.o..
			.......
			.......`,
			moves: []step{{Red, Point{3, 4}}, {Blue, Point{3, 5}}},
			want: `
			.......
			...o...
			..oXo..
			.oXoXo.
			..oXo..
			...o...
			.......`, blue: 4},
		{name: "standard: a dot played into a house is taken", start: `
			.....
			..x..
			.x.x.
			..x..
			.....`,
			moves: []step{{Blue, Point{2, 2}}},
			want: `
			.....
			..x..
			.xOx.
			..x..
			.....`, red: 1},
		{name: "always-enemy: a dot played into a house is taken", surround: AlwaysEnemy, start: `
			.....
			..x..
			.x.x.
			..x..
			.....`,
			moves: []step{{Blue, Point{2, 2}}},
			want: `
			.....
			..x..
			.xOx.
			..x..
			.....`, red: 1},
		{name: "always: an empty ring is taken at once", surround: Always, start: `
			.....
			..x..
			.x.x.
			.....
			.....`,
			moves: []step{{Red, Point{2, 3}}},
			want: `
			.....
			..x..
			.x+x.
			..x..
			.....`},
		{name: "standard: the house owner's own dot takes nothing", start: `
			.....
			..x..
			.x.x.
			..x..
			.....`,
			moves: []step{{Red, Point{2, 2}}},
			want: `
			.....
			..x..
			.xxx.
			..x..
			.....`},
		{name: "the placer's capture comes first", start: `
			..o..
			.oxo.
			.x.x.
			..x..
			.....`,
			moves: []step{{Blue, Point{2, 2}}},
			want: `
			..o..
			.oXo.
			.xox.
			..x..
			.....`, blue: 1},
		{name: "always-enemy: the placer's capture opens the house", surround: AlwaysEnemy, start: `
			..o..
			.oxo.
			.x.x.
			..x..
			.....`,
			moves: []step{{Blue, Point{2, 2}}},
			want: `
			..o..
			.oXo.
			.xox.
			..x..
			.....`, blue: 1},
		{name: "dead dots form no chains", start: `
			.......
			..ox...
			.oxox..
			..o....
			.......`,
			moves: []step{{Red, Point{3, 3}}},
			want: `
			.......
			..ox...
			.oXox..
			..ox...
			.......`, blue: 1},
		{name: "a ring takes the houses inside it", start: `
			....x....
			...x.x...
			..x...x..
			.x..x..x.
			x..x.x..x
			.x..x..x.
			..x.o.x..
			...x.x...
			.........`,
			moves: []step{{Red, Point{4, 8}}},
			want: `
			....x....
			...x+x...
			..x+++x..
			.x++x++x.
			x++x+x++x
			.x++x++x.
			..x+O+x..
			...x+x...
			....x....`, red: 1},
		{name: "minimal area: a house touching the ring only diagonally stays out", start: `
			.........
			....x....
			...x.x...
			..x.x.x..
			.x.o...x.
			..x...x..
			...x.x...
			.........
			.........`,
			moves: []step{{Red, Point{4, 7}}},
			want: `
			.........
			....x....
			...x.x...
			..x+x+x..
			.x+O+++x.
			..x+++x..
			...x+x...
			....x....
			.........`, red: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setUp(t, tt.surround, tt.start)
			for _, m := range tt.moves {
				if err := f.Check(m.p); err != nil {
					t.Fatal(err)
				}
				f.PutColor(f.Index(m.p), m.c)
			}
			if got, want := f.String(), drawing(tt.want); got != want {
				t.Errorf("got\n%swant\n%s", got, want)
			}
			if f.Score(Red) != tt.red || f.Score(Blue) != tt.blue {
				t.Errorf("score %d:%d, want %d:%d", f.Score(Red), f.Score(Blue), tt.red, tt.blue)
			}
		})
	}
}

func TestMovesIntoCapturedAreasRefused(t *testing.T) {
	f := setUp(t, Standard, `
		..x..
		.x.x.
		x.o.x
		.x.x.
		..x..`)
	if f.Score(Red) != 1 {
		t.Fatalf("set-up: red scores %d, want 1\n%s", f.Score(Red), f)
	}
	for _, c := range []struct {
		p    Point
		want error
	}{{Point{2, 1}, ErrCaptured}, {Point{2, 2}, ErrOccupied}, {Point{0, 0}, nil}, {Point{5, 0}, ErrOffField}, {Point{-1, 2}, ErrOffField}} {
		if err := f.Check(c.p); !errors.Is(err, c.want) {
			t.Errorf("%v: %v, want %v", c.p, err, c.want)
		}
	}
	if f.Free() != 25-9-4 {
		t.Errorf("%d free points, want 12", f.Free())
	}
}

func TestGround(t *testing.T) {
	f := setUp(t, Standard, `
		x.....
		..x...
		.xox..
		..x...
		......`)
	if f.Score(Red) != 1 {
		t.Fatalf("set-up: %d", f.Score(Red))
	}
	caps := f.Ground(Red)
	// Red's ring and its prisoner are not connected to the edge: blue gets
	// the four ring dots and its own dot back; red's corner dot stays.
	if f.Score(Blue) != 4 || f.Score(Red) != 0 {
		t.Errorf("after grounding: %d:%d, want 0:4\n%s", f.Score(Red), f.Score(Blue), f)
	}
	if len(caps) != 1 || caps[0].By != Blue || caps[0].Dots != 4 || caps[0].Freed != 1 {
		t.Errorf("captures %+v", caps)
	}
	if f.OwnerAt(Point{0, 0}) != Red {
		t.Errorf("the corner dot is grounded")
	}
}

func TestGroundingEndsTheGame(t *testing.T) {
	s, err := NewState(Config{Width: 7, Height: 5, Grounding: true})
	if err != nil {
		t.Fatal(err)
	}
	// Red encloses a blue dot with a ring touching the edge: it leads 1:0
	// and loses nothing by grounding.
	moves := []Point{{1, 0}, {1, 1}, {0, 1}, {4, 4}, {2, 1}, {5, 4}}
	for _, p := range moves {
		if _, err := s.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	if s.Over() {
		t.Fatalf("over too early: %+v", s.Outcome())
	}
	eff, err := s.Play(Point{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if eff.Score != [2]int{1, 0} {
		t.Fatalf("score %v\n%s", eff.Score, s.Field())
	}
	if !s.Over() || s.Outcome().Winner != Red || s.Outcome().Reason != ReasonGrounded {
		t.Errorf("outcome %+v, want red wins grounded", s.Outcome())
	}
}

func TestFullBoard(t *testing.T) {
	s, err := NewState(Config{Width: 3, Height: 3})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for !s.Over() {
		played := false
		for y := 0; y < 3 && !played; y++ {
			for x := 0; x < 3 && !played; x++ {
				if s.Field().Check(Point{x, y}) == nil {
					if _, err := s.Play(Point{x, y}); err != nil {
						t.Fatal(err)
					}
					played = true
				}
			}
		}
		if !played {
			t.Fatal("no legal move but not over")
		}
		n++
	}
	if s.Field().Free() != 0 || n > 9 {
		t.Errorf("ended with %d free after %d moves", s.Field().Free(), n)
	}
	if r := s.Outcome().Reason; r != ReasonScore && r != "draw" {
		t.Errorf("reason %q", r)
	}
	if _, err := s.Play(Point{0, 0}); !errors.Is(err, ErrOver) {
		t.Errorf("play after the end: %v", err)
	}
}

func TestMaxMoves(t *testing.T) {
	s, _ := NewState(Config{Width: 9, Height: 9, MaxMoves: 3})
	pts, _ := Cross.Points(9, 9, 0)
	if err := s.PlayOpening(pts); err != nil {
		t.Fatal(err)
	}
	for _, p := range []Point{{0, 0}, {8, 8}, {0, 8}} {
		if _, err := s.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Over() || s.Outcome().Reason != ReasonMaxMoves || s.Outcome().Winner != None {
		t.Errorf("outcome %+v", s.Outcome())
	}
}
