package points

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"arena/match"
)

// BenchmarkRefereeRandomGames plays random games to the end on the
// standard 39x32 field through the referee's fast path and reports moves
// per second.
func BenchmarkRefereeRandomGames(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	proto, _ := NewField(39, 32, Standard)
	f := proto.Clone()
	order := make([]int, 0, 39*32)
	for y := 0; y < 32; y++ {
		for x := 0; x < 39; x++ {
			order = append(order, f.Index(Point{x, y}))
		}
	}
	moves := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.CopyFrom(proto)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, c := range order {
			if f.CanPut(c) {
				f.Put(c)
				moves++
			}
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkStatePlay is the checked path the match loop uses: Play with
// capture records and the end-of-game tests.
func BenchmarkStatePlay(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	var order []Point
	for y := 0; y < 32; y++ {
		for x := 0; x < 39; x++ {
			order = append(order, Point{x, y})
		}
	}
	moves := 0
	for i := 0; i < b.N; i++ {
		s, _ := NewState(DefaultConfig())
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, p := range order {
			if s.Over() {
				break
			}
			if s.Field().Check(p) == nil {
				s.Play(p)
				moves++
			}
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkParseMove is the protocol's hot path on the manager's side.
func BenchmarkParseMove(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := ParseMove("move 17 23", 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormatMove(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = FormatMove(Point{17, 23}, 1)
	}
}

// BenchmarkProtocolGame plays whole games between two real processes
// over the Points Battle protocol on a 10x10 field and reports protocol
// round trips (moves) per second.
func BenchmarkProtocolGame(b *testing.B) {
	dir := b.TempDir()
	mc := MatchConfig{Config: Config{Width: 10, Height: 10}, Opening: Cross, WorkDir: dir,
		Clock: match.Clock{Match: time.Minute, Increment: time.Second, Tolerance: time.Second}}
	g := Game{ID: "b", Players: []Player{testPlayer(b, "a"), testPlayer(b, "b", "--seed=2")}}
	moves := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec, err := PlayGame(context.Background(), mc, g)
		if err != nil {
			b.Fatal(err)
		}
		moves += len(rec.Moves)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(moves), "µs/move")
}

// BenchmarkV6ProtocolGame is BenchmarkProtocolGame over Points AI
// Protocol v6 (two scripted v6 engines): each move is a play of the
// opponent's dot, a play of the engine's own last dot and a
// gen_move_with_time, sent together, and three answers.
func BenchmarkV6ProtocolGame(b *testing.B) {
	dir := b.TempDir()
	mc := MatchConfig{Config: Config{Width: 10, Height: 10}, Opening: Cross, WorkDir: dir,
		Clock: match.Clock{Match: time.Minute, Increment: time.Second, Tolerance: time.Second}}
	g := Game{ID: "b", Players: []Player{v6Player(b, "a"), v6Player(b, "b", "--seed=2")}}
	moves := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec, err := PlayGame(context.Background(), mc, g)
		if err != nil {
			b.Fatal(err)
		}
		moves += len(rec.Moves)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(moves), "µs/move")
}
