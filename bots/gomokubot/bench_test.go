package gomokubot

import (
	"context"
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
