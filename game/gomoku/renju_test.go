package gomoku

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Diagrams shared with the State tests; '*' is Black's move.
var (
	renjuDoubleThree = []string{
		".........",
		".........",
		"....x....",
		"....x....",
		"..xx*....",
		".........",
		".........",
		".........",
		".........",
	}
	renjuDoubleFour = []string{
		".........",
		"....x....",
		"....x....",
		"....x....",
		".xxx*....",
		"....o....",
		".........",
		".........",
		".........",
	}
)

// grid9 puts one row into the middle of an empty 9x9 diagram.
func grid9(row string) []string {
	rows := []string{".........", ".........", ".........", ".........", row, ".........", ".........", ".........", "........."}
	return rows
}

// withVerticalThree adds x stones two and one squares above the move in
// row 4: a second, open three through it.
func withVerticalThree(rows []string) []string {
	out := append([]string(nil), rows...)
	x := strings.IndexByte(out[4], '*')
	for _, y := range []int{2, 3} {
		b := []byte(out[y])
		b[x] = 'x'
		out[y] = string(b)
	}
	return out
}

// cellsOf converts a diagram into cells and the marked square.
func cellsOf(t testing.TB, rows []string) ([]Stone, int, int, Point) {
	t.Helper()
	w, h := len(rows[0]), len(rows)
	cells := make([]Stone, w*h)
	p := Point{-1, -1}
	for y, row := range rows {
		if len(row) != w {
			t.Fatalf("diagram row %d has %d squares, want %d", y, len(row), w)
		}
		for x, ch := range []byte(row) {
			switch ch {
			case 'x':
				cells[y*w+x] = Black
			case 'o':
				cells[y*w+x] = White
			case '*':
				p = Point{x, y}
			case '.':
			default:
				t.Fatalf("bad square %q", ch)
			}
		}
	}
	return cells, w, h, p
}

func TestForbiddenAt(t *testing.T) {
	tests := []struct {
		name string
		rows []string
		want Foul
	}{
		{"double-three", renjuDoubleThree, DoubleThree},
		{"double-four", renjuDoubleFour, DoubleFour},
		{"same-line double-four x.xxx.x", grid9(".x.x*x.x."), DoubleFour},
		{"same-line double-four xx.xx.xx", grid9("xx.x*.xx."), DoubleFour},
		{"same-line double-four xxx.x.xxx", grid9("xxx.*.xxx"), DoubleFour},
		{"straight four is one four", grid9("..xx*x..."), NoFoul},
		{"overline", grid9(".xxx*xx.."), Overline},
		{"long overline", grid9("xxxx*xxx."), Overline},
		{"exact five", grid9("..xx*xx.."), NoFoul},
		{"five at the edge", grid9("xxxx*...."), NoFoul},
		{"single three", grid9("..xx*...."), NoFoul},
		{"split three and three", withVerticalThree(grid9(".x.x*....")), DoubleThree},
		{"three and split three xx.x", withVerticalThree(grid9("...x*.x..")), DoubleThree},
		{"four-three", withVerticalThree(grid9("xxx.*....")), NoFoul},
		{"four-three open four", withVerticalThree(grid9(".xxx*....")), NoFoul},
		{"closed three is no three", withVerticalThree(grid9(".oxx*...o")), NoFoul},
		{"three against the edge", withVerticalThree(grid9("xx*......")), NoFoul},
		{"three one off the edge", withVerticalThree(grid9(".xx*.....")), DoubleThree},
		{"three between overline stones", withVerticalThree(grid9("x..xx*..x")), NoFoul},
		{"three with one overline side", withVerticalThree(grid9("x..xx*...")), DoubleThree},
		{"five beats double-three", []string{
			".........",
			".........",
			"....x....",
			"....x....",
			"xxxx*....",
			".........",
			"..x......",
			".x.......",
			".........",
		}, NoFoul},
		{"five beats double-four", []string{
			".........",
			".x..x....",
			"..x.x....",
			"...xx....",
			"xxxx*....",
			".........",
			"....x....",
			".........",
			".........",
		}, NoFoul},
		{"five beats overline", []string{
			"..x......",
			"..x......",
			"..x......",
			"xx*xx....",
			"..x......",
			"..x......",
			".........",
		}, NoFoul},
		{"white stones do not count", swapColours(renjuDoubleThree), NoFoul},
		{"fake three: completion is an overline", []string{
			"...........",
			"...........",
			"...........",
			"....x......",
			"....x.x....",
			"....x.x....",
			"...x.x*....",
			"....x......",
			"....x......",
			"...........",
			"...........",
		}, NoFoul},
		{"the same three without the overline", []string{
			"...........",
			"...........",
			"...........",
			"...........",
			"......x....",
			"......x....",
			"...x.x*....",
			"...........",
			"...........",
			"...........",
			"...........",
		}, DoubleThree},
		{"fake three: completion is a double-four", []string{
			"...........",
			"...........",
			"...........",
			"....x......",
			"....x.x....",
			"....x.x....",
			"...x.x*....",
			"...........",
			"...........",
			"...........",
			"...........",
		}, NoFoul},
		{"fake three: completion is a four-three-three", []string{
			"...........",
			"...........",
			"...........",
			"...........",
			"..x.x.x....",
			"...xx.x....",
			"...x.x*....",
			"...........",
			"...........",
			"...........",
			"...........",
		}, NoFoul},
		{"real three: completion is a four-three", []string{
			"...........",
			"...........",
			"...........",
			"...........",
			"....x.x....",
			"....x.x....",
			"...x.x*....",
			"...........",
			"...........",
			"...........",
			"...........",
		}, DoubleThree},
		// Piskvork's convention: a completion that makes a five (here
		// down column 4) does not make a three.
		{"completion making a five elsewhere", []string{
			"...........",
			"...........",
			"....x......",
			"....x......",
			"....x.x....",
			"....x.x....",
			"...x.x*....",
			"...........",
			"...........",
			"...........",
			"...........",
		}, NoFoul},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cells, w, h, p := cellsOf(t, tc.rows)
			orig := append([]Stone(nil), cells...)
			if got := ForbiddenAt(cells, w, h, p); got != tc.want {
				t.Errorf("ForbiddenAt = %v, want %v", got, tc.want)
			}
			if ref := refForbidden(cells, w, h, p); ref != tc.want {
				t.Errorf("reference = %v, want %v", ref, tc.want)
			}
			for i := range cells {
				if cells[i] != orig[i] {
					t.Fatal("ForbiddenAt modified cells")
				}
			}
		})
	}
}

func TestForbiddenAtBadInput(t *testing.T) {
	cells, w, h, _ := cellsOf(t, renjuDoubleThree)
	tests := []struct {
		name  string
		cells []Stone
		w, h  int
		p     Point
	}{
		{"occupied", cells, w, h, Point{4, 2}},
		{"off the board", cells, w, h, Point{9, 4}},
		{"negative", cells, w, h, Point{-1, 4}},
		{"short cells", cells[:10], w, h, Point{4, 4}},
		{"zero size", nil, 0, 0, Point{0, 0}},
		{"too wide", make([]Stone, 40*5), 40, 5, Point{0, 0}},
	}
	for _, tc := range tests {
		if got := ForbiddenAt(tc.cells, tc.w, tc.h, tc.p); got != NoFoul {
			t.Errorf("%s: ForbiddenAt = %v, want NoFoul", tc.name, got)
		}
	}
	// Odd cell values are treated as non-black stones.
	odd := append([]Stone(nil), cells...)
	odd[2*w+4] = 7
	if got := ForbiddenAt(odd, w, h, Point{4, 4}); got != NoFoul {
		t.Errorf("odd stone value: %v", got)
	}
}

// refBoard is the slow, obvious renju judge the fast one is checked
// against: coordinates, bounds checks, and every square within reach
// tried, straight from the RIF definitions.
type refBoard struct {
	w, h int
	c    []Stone
}

func (b *refBoard) at(x, y int) Stone {
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return wall
	}
	return b.c[y*b.w+x]
}

func (b *refBoard) set(x, y int, c Stone) { b.c[y*b.w+x] = c }

// span returns the offsets (along d, from x,y) of the two ends of the
// black run through x,y.
func (b *refBoard) span(x, y int, d Point) (lo, hi int) {
	for b.at(x+(lo-1)*d.X, y+(lo-1)*d.Y) == Black {
		lo--
	}
	for b.at(x+(hi+1)*d.X, y+(hi+1)*d.Y) == Black {
		hi++
	}
	return lo, hi
}

// judge judges the black stone on x,y.
func (b *refBoard) judge(x, y int) (Foul, bool) {
	over := false
	for _, d := range lineDirs {
		lo, hi := b.span(x, y, d)
		if hi-lo+1 == 5 {
			return NoFoul, true
		}
		over = over || hi-lo+1 > 5
	}
	if over {
		return Overline, false
	}
	// Fours: distinct sets of four stones (with x,y) that one more
	// stone turns into exactly five.
	fours := 0
	for _, d := range lineDirs {
		sets := map[uint32]bool{}
		for k := -4; k <= 4; k++ {
			sx, sy := x+k*d.X, y+k*d.Y
			if k == 0 || b.at(sx, sy) != Empty {
				continue
			}
			b.set(sx, sy, Black)
			if lo, hi := b.span(x, y, d); hi-lo+1 == 5 && lo <= k && k <= hi {
				var set uint32
				for j := lo; j <= hi; j++ {
					if j != k {
						set |= 1 << (j + 8)
					}
				}
				sets[set] = true
			}
			b.set(sx, sy, Empty)
		}
		fours += len(sets)
	}
	if fours >= 2 {
		return DoubleFour, false
	}
	// Threes: lines that one more allowed stone turns into a straight
	// four (four in a row, both ends empty, each making exactly five).
	threes := 0
	for _, d := range lineDirs {
		for k := -4; k <= 4; k++ {
			sx, sy := x+k*d.X, y+k*d.Y
			if k == 0 || b.at(sx, sy) != Empty {
				continue
			}
			b.set(sx, sy, Black)
			lo, hi := b.span(x, y, d)
			straight := hi-lo+1 == 4 && lo <= k && k <= hi &&
				b.at(x+(lo-1)*d.X, y+(lo-1)*d.Y) == Empty && b.at(x+(hi+1)*d.X, y+(hi+1)*d.Y) == Empty &&
				b.at(x+(lo-2)*d.X, y+(lo-2)*d.Y) != Black && b.at(x+(hi+2)*d.X, y+(hi+2)*d.Y) != Black
			ok := false
			if straight {
				f, five := b.judge(sx, sy)
				ok = f == NoFoul && !five
			}
			b.set(sx, sy, Empty)
			if ok {
				threes++
				break
			}
		}
	}
	if threes >= 2 {
		return DoubleThree, false
	}
	return NoFoul, false
}

// refForbidden is the reference ForbiddenAt.
func refForbidden(cells []Stone, w, h int, p Point) Foul {
	b := &refBoard{w: w, h: h, c: append([]Stone(nil), cells...)}
	if b.at(p.X, p.Y) != Empty {
		return NoFoul
	}
	b.set(p.X, p.Y, Black)
	f, _ := b.judge(p.X, p.Y)
	return f
}

// randomRenjuPosition scatters stones, mostly black, around the centre of
// a board of the given size.
func randomRenjuPosition(rng *rand.Rand, w, h, stones int, blackShare float64) []Stone {
	cells := make([]Stone, w*h)
	spread := min(w, h)/2 + 1
	for range stones {
		x := w/2 + rng.IntN(2*spread+1) - spread
		y := h/2 + rng.IntN(2*spread+1) - spread
		if x < 0 || y < 0 || x >= w || y >= h {
			continue
		}
		c := White
		if rng.Float64() < blackShare {
			c = Black
		}
		cells[y*w+x] = c
	}
	return cells
}

// TestForbiddenAtMatchesReference compares the fast judge with the
// reference on every empty square of many random positions.
func TestForbiddenAtMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions := 1500
	if testing.Short() {
		positions = 200
	}
	seen := map[Foul]int{}
	for n := range positions {
		w, h := 15, 15
		switch n % 4 {
		case 1:
			w, h = 9, 9
		case 2:
			w, h = 7, 12
		}
		cells := randomRenjuPosition(rng, w, h, 10+rng.IntN(50), 0.55+0.2*rng.Float64())
		for y := range h {
			for x := range w {
				p := Point{x, y}
				if cells[y*w+x] != Empty {
					continue
				}
				got, want := ForbiddenAt(cells, w, h, p), refForbidden(cells, w, h, p)
				if got != want {
					t.Fatalf("position %d, %v: ForbiddenAt = %v, reference %v\n%s", n, p, got, want, drawCells(cells, w, h, p))
				}
				seen[got]++
			}
		}
	}
	t.Logf("verdicts: %v", seen)
	for _, f := range []Foul{DoubleThree, DoubleFour, Overline} {
		if seen[f] == 0 {
			t.Errorf("no %v among the random positions", f)
		}
	}
}

func drawCells(cells []Stone, w, h int, mark Point) string {
	out := make([]byte, 0, (w+1)*h)
	for y := range h {
		for x := range w {
			switch c := cells[y*w+x]; {
			case (Point{x, y}) == mark:
				out = append(out, '*')
			case c == Empty:
				out = append(out, '.')
			default:
				out = append(out, c.Char())
			}
		}
		out = append(out, '\n')
	}
	return string(out)
}

// BenchmarkForbiddenAt judges every empty square of midgame positions on
// 15x15; one op is one call.
func BenchmarkForbiddenAt(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	type job struct {
		cells []Stone
		p     Point
	}
	var jobs []job
	for range 32 {
		cells := randomRenjuPosition(rng, 15, 15, 40, 0.5)
		for i, c := range cells {
			if c == Empty {
				jobs = append(jobs, job{cells, Point{i % 15, i / 15}})
			}
		}
	}
	fouls := 0
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		j := jobs[i%len(jobs)]
		if ForbiddenAt(j.cells, 15, 15, j.p) != NoFoul {
			fouls++
		}
		i++
	}
	_ = fouls
}
