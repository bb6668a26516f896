package gomokubot

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arena/game/gomoku"
)

// midgame is a 20x20 position from self-play after 17 moves, White to
// move.
var midgame = []string{
	"....................",
	"....................",
	"....................",
	"....................",
	"....................",
	"....................",
	"....................",
	"....................",
	"..........xo........",
	".........xox........",
	"........oooxx.......",
	"........xoxx.o......",
	"..........x.........",
	"...........o........",
	"....................",
	"....................",
	"....................",
	"....................",
	"....................",
	"....................",
}

// BenchmarkSearch searches the midgame position to a fixed depth and
// reports nodes per second.
func BenchmarkSearch(b *testing.B) {
	e := engineFrom(b, gomoku.Freestyle, midgame...)
	e.MaxDepth = 8
	var nodes int64
	var took time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.clearTT()
		_, info := e.Search(context.Background(), gomoku.White, time.Minute)
		nodes += info.Nodes
		took += info.Elapsed
	}
	b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkPlaceTake measures the incremental board update.
func BenchmarkPlaceTake(b *testing.B) {
	e := engineFrom(b, gomoku.Freestyle, midgame...)
	sq := e.index(12, 12)
	for i := 0; i < b.N; i++ {
		e.put(sq, cBlack)
		e.take(sq)
	}
}

// BenchmarkSearchSecond gives the engine one second (all of it: no early
// stop between iterations) on the midgame position and on the opening
// after two stones, and reports the depth reached and nodes per second.
// Run it with -benchtime 1x.
func BenchmarkSearchSecond(b *testing.B) {
	positions := map[string]func() (*Engine, gomoku.Stone){
		"midgame": func() (*Engine, gomoku.Stone) { return engineFrom(b, gomoku.Freestyle, midgame...), gomoku.White },
		"opening": func() (*Engine, gomoku.Stone) {
			e := NewEngine(20, 20, gomoku.Freestyle)
			e.Place(gomoku.Point{X: 9, Y: 9}, gomoku.Black)
			e.Place(gomoku.Point{X: 10, Y: 10}, gomoku.White)
			return e, gomoku.Black
		},
	}
	for _, name := range []string{"opening", "midgame"} {
		b.Run(name, func(b *testing.B) {
			var nodes int64
			var took time.Duration
			depth := 0
			for i := 0; i < b.N; i++ {
				e, me := positions[name]()
				e.tune.soft = 1
				_, info := e.Search(context.Background(), me, time.Second)
				nodes += info.Nodes
				took += info.Elapsed
				depth += info.Depth
			}
			b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
			b.ReportMetric(float64(depth)/float64(b.N), "depth")
		})
	}
}

// BenchmarkSearchNodes searches the midgame position with a budget of
// 100000 nodes (as the SPRTs do), with the default tuning, without
// threat extensions and with the horizon threat search (leafvct50), and
// reports nodes per second and the depth reached.
func BenchmarkSearchNodes(b *testing.B) {
	for _, name := range []string{"base", "noext", "leafvct50"} {
		b.Run(name, func(b *testing.B) {
			var nodes int64
			var took time.Duration
			depth := 0
			for i := 0; i < b.N; i++ {
				e := engineFrom(b, gomoku.Freestyle, midgame...)
				e.tune = sprtVariants()[name].tune
				e.MaxNodes = 100000
				_, info := e.Search(context.Background(), gomoku.White, time.Minute)
				nodes += info.Nodes
				took += info.Elapsed
				depth += info.Depth
			}
			b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
			b.ReportMetric(float64(depth)/float64(b.N), "depth")
		})
	}
}

// BenchmarkSearchGames searches the 40 positions of two games (two
// balanced openings played on for 20 moves by a depth-4 search) in
// order, with one engine that searches each to depth 8 and is then told
// the game's move, so its transposition table carries over from move to
// move as in a game, once with the default table and once with one an
// eighth of its size. It reports the nodes of the 40 searches and nodes
// per second.
func BenchmarkSearchGames(b *testing.B) {
	type game struct {
		opening, moves []gomoku.Point
	}
	var games []game
	// opened is a fresh engine with the opening on it, and who moves next.
	opened := func(opening []gomoku.Point) (*Engine, gomoku.Stone) {
		e := NewEngine(15, 15, gomoku.Freestyle)
		me := gomoku.Black
		for _, p := range opening {
			e.Place(p, me)
			me = me.Opponent()
		}
		return e, me
	}
	for o := range 2 {
		g := game{opening: balancedOpening(b, o)}
		e, me := opened(g.opening)
		e.MaxDepth = 4
		for range 20 {
			p, _ := e.Search(context.Background(), me, time.Minute)
			if e.Place(p, me) != nil || e.Fives(me) > 0 {
				break
			}
			g.moves = append(g.moves, p)
			me = me.Opponent()
		}
		games = append(games, g)
	}
	// A real move (a second, ~1.4 million nodes) fills the table about
	// as much as these searches fill one an eighth of its size.
	for _, bits := range []int{defaultTTBits, defaultTTBits - 3} {
		b.Run(fmt.Sprintf("table-2^%d", bits), func(b *testing.B) {
			var nodes int64
			var took time.Duration
			for b.Loop() {
				for _, g := range games {
					e, me := opened(g.opening)
					e.MaxDepth = 8
					e.setTTBits(bits)
					for _, p := range g.moves {
						_, info := e.Search(context.Background(), me, time.Minute)
						nodes += info.Nodes
						took += info.Elapsed
						e.Place(p, me)
						me = me.Opponent()
					}
				}
			}
			b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
