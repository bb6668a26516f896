package pointsbot

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/game/points"
)

func field(t testing.TB, drawing string) *points.Field {
	t.Helper()
	rows := strings.Fields(drawing)
	f, err := points.NewField(len(rows[0]), len(rows), points.Standard)
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		for x, ch := range row {
			switch ch {
			case 'x':
				f.PutColor(f.Index(points.Point{X: x, Y: y}), points.Red)
			case 'o':
				f.PutColor(f.Index(points.Point{X: x, Y: y}), points.Blue)
			}
		}
	}
	return f
}

func TestTactics(t *testing.T) {
	tests := []struct {
		name    string
		drawing string
		want    points.Point
	}{
		// Red (to move: even number of dots) takes the blue dot.
		{"capture", `
			........
			...x....
			..xo....
			...x....
			......o.
			o.......`, points.Point{X: 4, Y: 2}},
		// Blue threatens to take red's dot at (3,2) by playing (4,2):
		// red must defend.
		{"defend", `
			........
			...o....
			..ox....
			...o....
			........
			x......x`, points.Point{X: 4, Y: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := field(t, tt.drawing)
			if f.Next() != points.Red {
				t.Fatalf("set-up: %v to move", f.Next())
			}
			e := New(1)
			got, ok := e.Best(context.Background(), f, Limits{Playouts: 2000})
			if !ok {
				t.Fatal("no move")
			}
			if tt.name == "capture" && got != tt.want {
				t.Errorf("played %v, want %v", got, tt.want)
			}
			if tt.name == "defend" {
				g := f.Clone()
				g.Put(g.Index(got))
				// After red's move blue must have no capturing reply.
				for y := 0; y < g.Height(); y++ {
					for x := 0; x < g.Width(); x++ {
						p := points.Point{X: x, Y: y}
						if g.Check(p) != nil {
							continue
						}
						h := g.Clone()
						h.Put(h.Index(p))
						if h.Score(points.Blue) > 0 {
							t.Errorf("after red %v, blue takes with %v\n%s", got, p, h)
							return
						}
					}
				}
			}
		})
	}
}

// TestThreads grows two and three trees side by side: with a playout
// budget they share it out and the move depends on the seed alone (the
// same twice, whatever the scheduling), the tactics still hold, and the
// stats add up over the trees.
func TestThreads(t *testing.T) {
	f := field(t, `
		........
		...x....
		..xo....
		...x....
		......o.
		o.......`)
	want := points.Point{X: 4, Y: 2}
	mid := middleGame(60, 5)
	single := New(9)
	single.Best(context.Background(), mid, Limits{Playouts: 900})
	for _, threads := range []int{2, 3} {
		e := New(1)
		if got, _ := e.Best(context.Background(), f, Limits{Playouts: 1000, Threads: threads}); got != want {
			t.Errorf("%d threads: played %v, want the capture %v", threads, got, want)
		}
		if e.Playouts != 1000 {
			t.Errorf("%d threads: %d playouts, want the budget 1000", threads, e.Playouts)
		}
		var moves []points.Point
		for range 2 {
			e := New(9)
			var got points.Point
			for range 3 { // the helpers are reused from move to move
				got, _ = e.Best(context.Background(), mid, Limits{Playouts: 900, Threads: threads})
			}
			moves = append(moves, got)
			if e.Playouts != 900 || e.Nodes <= single.Nodes || e.Visits < 1 || e.WinRate < 0 || e.WinRate > 1 {
				t.Errorf("%d threads: playouts %d nodes %d (one tree %d) visits %v win %v", threads, e.Playouts, e.Nodes, single.Nodes, e.Visits, e.WinRate)
			}
		}
		if moves[0] != moves[1] {
			t.Errorf("%d threads, same seed: %v then %v", threads, moves[0], moves[1])
		}
	}
	// A budget smaller than the threads: each tree gets one playout.
	e := New(1)
	e.Best(context.Background(), mid, Limits{Playouts: 2, Threads: 4})
	if e.Playouts != 2 {
		t.Errorf("2 playouts on 4 threads: %d played", e.Playouts)
	}
	// A time budget: every tree stops on the clock (else this hangs).
	e.Best(context.Background(), mid, Limits{Time: 50 * time.Millisecond, Threads: 2})
	if e.Playouts < 2 {
		t.Errorf("50ms on 2 threads: %d playouts", e.Playouts)
	}
}

// TestSettle: a search under a time budget stops once its choice can no
// longer change (a lone capture worth far more than anything else), on
// one tree or several, and still plays it; one bounded by playouts never
// stops early.
func TestSettle(t *testing.T) {
	f := field(t, `
		..........
		....x.....
		...xo.....
		....x.....
		.......o..
		o.........
		..........
		..........`)
	want := points.Point{X: 5, Y: 2}
	for _, threads := range []int{1, 2} {
		e := New(1)
		got, _ := e.Best(context.Background(), f, Limits{Time: 2 * time.Second, Threads: threads})
		if got != want || !e.Settled {
			t.Errorf("%d threads, 2s: played %v (settled %v) after %d playouts, want %v settled", threads, got, e.Settled, e.Playouts, want)
		}
		e.Best(context.Background(), f, Limits{Playouts: 3000, Threads: threads})
		if e.Settled || e.Playouts != 3000 {
			t.Errorf("%d threads, 3000 playouts: settled %v after %d", threads, e.Settled, e.Playouts)
		}
	}
}

// TestSettleCheck is the rule itself: a tree settles when its leader's
// lead passes the playouts it has left (with the margin), and the search
// ends only when every tree settled on the same child.
func TestSettleCheck(t *testing.T) {
	tree := func(visits ...float32) *Engine {
		e := &Engine{nodes: []node{{move: -1, first: 1, num: int32(len(visits))}}}
		for i, n := range visits {
			e.nodes = append(e.nodes, node{move: int32(i), n: n})
		}
		return e
	}
	tests := []struct {
		name      string
		trees     []*Engine
		remaining float64
		leaders   []int32
		done      bool
	}{
		{"clear lead", []*Engine{tree(10, 500, 40)}, 100, []int32{1}, true},
		{"lead within reach", []*Engine{tree(10, 500, 400)}, 100, []int32{-1}, false},
		{"margin", []*Engine{tree(0, 140, 0)}, 90, []int32{-1}, false},
		{"tie", []*Engine{tree(300, 300)}, 0, []int32{-1}, false},
		{"trees agree", []*Engine{tree(900, 10), tree(800, 5)}, 100, []int32{0, 0}, true},
		{"trees differ", []*Engine{tree(900, 10), tree(5, 800)}, 100, []int32{0, 1}, false},
		{"one tree unsettled", []*Engine{tree(900, 10), tree(400, 390)}, 100, []int32{0, -1}, false},
	}
	for _, tt := range tests {
		s := newSettle(len(tt.trees))
		for i, e := range tt.trees {
			s.check(e, i, tt.remaining)
		}
		for i, want := range tt.leaders {
			if got := s.leader[i].Load(); got != want {
				t.Errorf("%s: tree %d settled on %d, want %d", tt.name, i, got, want)
			}
		}
		if s.done.Load() != tt.done {
			t.Errorf("%s: done %v, want %v", tt.name, s.done.Load(), tt.done)
		}
	}
}

// TestUnstable: a choice is unstable when a child visited at least an
// eighth as often as the most visited one scores better.
func TestUnstable(t *testing.T) {
	tests := []struct {
		name string
		n, w []float32
		want bool
	}{
		{"leader best", []float32{100, 50, 20}, []float32{60, 25, 5}, false},
		{"runner-up better", []float32{100, 50, 20}, []float32{40, 30, 5}, true},
		{"better but rarely visited", []float32{100, 12, 20}, []float32{40, 11, 5}, false},
		{"an eighth is enough", []float32{160, 20}, []float32{80, 11}, true},
		{"nothing visited", []float32{0, 0}, []float32{0, 0}, false},
	}
	for _, tt := range tests {
		e := &Engine{nodes: []node{{move: -1, first: 1, num: int32(len(tt.n))}}}
		for i := range tt.n {
			e.nodes = append(e.nodes, node{move: int32(i), n: tt.n[i], w: tt.w[i]})
		}
		if got := e.unstable(); got != tt.want {
			t.Errorf("%s: unstable %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestAlwaysLegal plays engine against engine on small fields to the end.
func TestAlwaysLegal(t *testing.T) {
	for g := 0; g < 4; g++ {
		s, _ := points.NewState(points.Config{Width: 5 + g, Height: 4 + g, Surround: points.Surround(g % 3)})
		e := New(uint64(g))
		for !s.Over() {
			p, ok := e.Best(context.Background(), s.Field(), Limits{Playouts: 50})
			if !ok {
				t.Fatal("no move on a field with free points")
			}
			if _, err := s.Play(p); err != nil {
				t.Fatalf("game %d: %v", g, err)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		left, inc time.Duration
		max       time.Duration
	}{
		{10 * time.Second, 10 * time.Second, 7 * time.Second},
		{100 * time.Millisecond, 100 * time.Millisecond, 40 * time.Millisecond},
		{60 * time.Second, 0, 3 * time.Second},
		{10 * time.Millisecond, 0, 4 * time.Millisecond},
	}
	for _, tt := range tests {
		b := &brain{increment: tt.inc, timeLeft: tt.left}
		if got := b.limits().Time; got > tt.max || got <= 0 {
			t.Errorf("left %v increment %v: budget %v, want (0, %v]", tt.left, tt.inc, got, tt.max)
		}
	}
}

func TestRunPipe(t *testing.T) {
	in := strings.NewReader("new 6 7\nincrement 0.1\nmove 2 2\nmove 2 3\nmove 3 3\nmove 3 2\ntime 300\notime 300\ngo\nquit\n")
	var out bytes.Buffer
	if err := RunPipe(context.Background(), in, &out, Options{Name: "t"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "t" || !strings.HasPrefix(lines[len(lines)-1], "move ") {
		t.Errorf("output %q", lines)
	}
	for _, bad := range []string{"go\n", "move 1 1\n", "new 6\n", "new 5 5\nmove 9 9\n"} {
		if err := RunPipe(context.Background(), strings.NewReader(bad), &bytes.Buffer{}, Options{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// middleGame is a standard field with dots random dots around its
// centre, the random choices following seed.
func middleGame(dots int, seed uint64) *points.Field {
	f, _ := points.NewField(39, 32, points.Standard)
	rng := rand.New(rand.NewPCG(seed, seed))
	for n := 0; n < dots; {
		p := points.Point{X: 12 + rng.IntN(15), Y: 10 + rng.IntN(12)}
		if f.Check(p) == nil {
			f.Put(f.Index(p))
			n++
		}
	}
	return f
}

// BenchmarkPlayouts measures the search on a middle-game position of the
// standard field: playouts per second, the tree's average size after a
// search of 200 playouts a tree and the deepest descent; reply-threads2
// grows two trees side by side (on two free cores its playouts a second
// would be twice reply's at best).
func BenchmarkPlayouts(b *testing.B) {
	f := middleGame(120, 3)
	for _, c := range []struct {
		name    string
		reply   float32
		threads int
	}{{"random", 0, 1}, {"reply", 0.5, 1}, {"reply-threads2", 0.5, 2}} {
		b.Run(c.name, func(b *testing.B) {
			e := New(1)
			e.tune.reply = c.reply
			total, nodes, depth := 0, 0, 0
			for b.Loop() {
				e.Best(context.Background(), f, Limits{Playouts: 200 * c.threads, Threads: c.threads})
				total += e.Playouts
				nodes += e.Nodes
				depth = max(depth, e.Depth)
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "tree-nodes")
			b.ReportMetric(float64(depth), "depth")
		})
	}
}

// BenchmarkCandidates is the move generation of the search.
func BenchmarkCandidates(b *testing.B) {
	f, _ := points.NewField(39, 32, points.Standard)
	pts, _ := points.FourCrosses.Points(39, 32, 0)
	for _, p := range pts {
		f.Play(p)
	}
	e := New(1)
	for i := 0; i < b.N; i++ {
		e.candidates(f, 2)
	}
}
