package points

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// refField is the slow, obviously correct referee the fast Field is
// checked against: after every dot it floods whole regions of the board
// with no hints, no local topology and no bounding boxes.
type refField struct {
	w, h     int
	surround Surround
	dot, own [][]Color
	score    [3]int
}

func newRef(w, h int, s Surround) *refField {
	r := &refField{w: w, h: h, surround: s}
	for y := 0; y < h; y++ {
		r.dot = append(r.dot, make([]Color, w))
		r.own = append(r.own, make([]Color, w))
	}
	return r
}

var dirs4 = [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

func (r *refField) on(x, y int) bool { return x >= 0 && y >= 0 && x < r.w && y < r.h }

// region returns the 4-connected points not owned by c around (x, y) and
// whether they reach the edge.
func (r *refField) region(x, y int, c Color) ([]Point, bool) {
	seen := r.grid()
	seen[y][x] = true
	reg := []Point{{x, y}}
	edge := false
	for i := 0; i < len(reg); i++ {
		p := reg[i]
		for _, d := range dirs4 {
			q := Point{p.X + d[0], p.Y + d[1]}
			if !r.on(q.X, q.Y) {
				edge = true
				continue
			}
			if r.own[q.Y][q.X] != c && !seen[q.Y][q.X] {
				seen[q.Y][q.X] = true
				reg = append(reg, q)
			}
		}
	}
	return reg, edge
}

func (r *refField) grid() [][]bool {
	g := make([][]bool, r.h)
	for y := range g {
		g[y] = make([]bool, r.w)
	}
	return g
}

// inside returns every point enclosed by the region and the points next to
// it: those that cannot reach the edge without crossing them.
func (r *refField) inside(reg []Point) []Point {
	wall := r.grid()
	for _, p := range reg {
		wall[p.Y][p.X] = true
		for _, d := range dirs4 {
			if q := (Point{p.X + d[0], p.Y + d[1]}); r.on(q.X, q.Y) {
				wall[q.Y][q.X] = true
			}
		}
	}
	out := r.grid()
	var stack []Point
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if (x == 0 || y == 0 || x == r.w-1 || y == r.h-1) && !wall[y][x] {
				out[y][x] = true
				stack = append(stack, Point{x, y})
			}
		}
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range dirs4 {
			q := Point{p.X + d[0], p.Y + d[1]}
			if r.on(q.X, q.Y) && !wall[q.Y][q.X] && !out[q.Y][q.X] {
				out[q.Y][q.X] = true
				stack = append(stack, q)
			}
		}
	}
	var in []Point
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if !out[y][x] {
				in = append(in, Point{x, y})
			}
		}
	}
	return in
}

func (r *refField) take(c Color, pts []Point) {
	for _, p := range pts {
		d, o := r.dot[p.Y][p.X], r.own[p.Y][p.X]
		if o == c {
			continue
		}
		if d == c.Opp() && o == c.Opp() {
			r.score[c]++
		}
		if d == c && o == c.Opp() {
			r.score[c.Opp()]--
		}
		r.own[p.Y][p.X] = c
	}
}

func (r *refField) hasLive(reg []Point, c Color) bool {
	for _, p := range reg {
		if r.dot[p.Y][p.X] == c && r.own[p.Y][p.X] == c {
			return true
		}
	}
	return false
}

func (r *refField) put(x, y int, p Color) {
	o := p.Opp()
	r.dot[y][x], r.own[y][x] = p, p
	took := false
	for _, d := range dirs4 {
		nx, ny := x+d[0], y+d[1]
		if !r.on(nx, ny) || r.own[ny][nx] == p {
			continue
		}
		reg, edge := r.region(nx, ny, p)
		if edge {
			continue
		}
		if r.hasLive(reg, o) || r.surround == Always {
			r.take(p, r.inside(reg))
			took = true
		}
	}
	if !took || r.surround == AlwaysEnemy {
		if reg, edge := r.region(x, y, o); !edge {
			r.take(o, r.inside(reg))
		}
	}
}

func (r *refField) ground(p Color) {
	grounded := map[Point]bool{}
	var stack []Point
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if r.own[y][x] == p && (x == 0 || y == 0 || x == r.w-1 || y == r.h-1) {
				grounded[Point{x, y}] = true
				stack = append(stack, Point{x, y})
			}
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range dirs4 {
			n := Point{q.X + d[0], q.Y + d[1]}
			if r.on(n.X, n.Y) && r.own[n.Y][n.X] == p && !grounded[n] {
				grounded[n] = true
				stack = append(stack, n)
			}
		}
	}
	var lost []Point
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if r.own[y][x] == p && !grounded[Point{x, y}] {
				lost = append(lost, Point{x, y})
			}
		}
	}
	r.take(p.Opp(), lost)
}

func sameField(t *testing.T, f *Field, r *refField, what func() string) {
	t.Helper()
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			p := Point{x, y}
			if f.DotAt(p) != r.dot[y][x] || f.OwnerAt(p) != r.own[y][x] {
				t.Fatalf("%s: point %v: fast dot %v owner %v, reference dot %v owner %v\nfast:\n%s", what(), p,
					f.DotAt(p), f.OwnerAt(p), r.dot[y][x], r.own[y][x], f)
			}
		}
	}
	for _, c := range []Color{Red, Blue} {
		if f.Score(c) != r.score[c] {
			t.Fatalf("%s: %v scores %d, reference %d\n%s", what(), c, f.Score(c), r.score[c], f)
		}
	}
}

// randomMove picks a free point, usually near one of the last dots so
// that rings close often.
func randomMove(rng *rand.Rand, f *Field, last []Point) (Point, bool) {
	if f.Free() == 0 {
		return Point{}, false
	}
	if len(last) > 0 && rng.IntN(10) < 8 {
		for try := 0; try < 8; try++ {
			b := last[len(last)-1-rng.IntN(min(len(last), 6))]
			p := Point{b.X + rng.IntN(5) - 2, b.Y + rng.IntN(5) - 2}
			if f.Check(p) == nil {
				return p, true
			}
		}
	}
	var free []Point
	for y := 0; y < f.Height(); y++ {
		for x := 0; x < f.Width(); x++ {
			if f.Check(Point{x, y}) == nil {
				free = append(free, Point{x, y})
			}
		}
	}
	return free[rng.IntN(len(free))], true
}

// TestAgainstReference plays thousands of random games on the fast field
// and the reference and compares every point and both scores after every
// dot, and the effect of grounding either player at the end.
func TestAgainstReference(t *testing.T) {
	games := 2000
	if testing.Short() || raceEnabled {
		games = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	captures, freed, houses := 0, 0, 0
	for g := 0; g < games; g++ {
		w, h := 3+rng.IntN(12), 3+rng.IntN(12)
		s := Surround(rng.IntN(3))
		f, err := NewField(w, h, s)
		if err != nil {
			t.Fatal(err)
		}
		r := newRef(w, h, s)
		var last []Point
		for n := 0; ; n++ {
			p, ok := randomMove(rng, f, last)
			if !ok {
				break
			}
			c := f.Next()
			caps, err := f.Play(p)
			if err != nil {
				t.Fatalf("game %d: %v", g, err)
			}
			captures += len(caps)
			for _, cp := range caps {
				if cp.Freed > 0 {
					freed++
				}
				if cp.By != c {
					houses++
				}
			}
			r.put(p.X, p.Y, c)
			last = append(last, p)
			sameField(t, f, r, func() string { return "game " + itoa(g) + " move " + itoa(n) + " " + c.String() + " " + p.String() })
		}
		for _, c := range []Color{Red, Blue} {
			fc, rc := f.Clone(), newRef(w, h, s)
			for y := range rc.dot {
				copy(rc.dot[y], r.dot[y])
				copy(rc.own[y], r.own[y])
			}
			rc.score = r.score
			fc.Ground(c)
			rc.ground(c)
			sameField(t, fc, rc, func() string { return "game " + itoa(g) + " grounding " + c.String() })
		}
	}
	t.Logf("%d games, %d captures, %d freeing prisoners, %d taken on the opponent's move", games, captures, freed, houses)
	if captures < games || freed == 0 || houses == 0 {
		t.Errorf("%d captures (%d re-captures, %d houses) in %d games: the random games do not test much", captures, freed, houses, games)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
