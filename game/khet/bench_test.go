package khet

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"arena/match"
)

// BenchmarkMoveGenLaser measures move generation plus make (with the
// laser) and unmake: one op is one position generated and every move in
// it played and taken back. It reports positions per second.
func BenchmarkMoveGenLaser(b *testing.B) {
	boards := benchPositions(b)
	buf := make([]Move, 0, 128)
	var made int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd := boards[i%len(boards)]
		buf = bd.Moves(buf[:0])
		for _, m := range buf {
			u := bd.Make(m)
			bd.Unmake(u)
		}
		made += int64(len(buf))
	}
	b.ReportMetric(float64(made)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkPerft3 is perft(3) from the Classic setup.
func BenchmarkPerft3(b *testing.B) {
	bd, _ := SetupBoard(Classic, Rules{})
	var n int64
	for i := 0; i < b.N; i++ {
		n += Perft(bd, 3)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkLaser fires a laser (the referee's Trace, with its path).
func BenchmarkLaser(b *testing.B) {
	bd, _ := SetupBoard(Classic, Rules{})
	for i := 0; i < b.N; i++ {
		_ = bd.Trace(Color(i & 1))
	}
}

// BenchmarkReferee plays random games through the referee (Check, Play,
// rendering of the state string as the protocol sends it).
func BenchmarkReferee(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var plies int
	for i := 0; i < b.N; i++ {
		s, _ := NewState(DefaultConfig())
		for !s.Over() {
			moves := s.board.Moves(nil)
			s.Play(moves[rng.IntN(len(moves))])
			_ = s.String()
			plies++
		}
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}

// BenchmarkParseState reads a state string as a bot does.
func BenchmarkParseState(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := ParseState(goldenAfter2, Rules{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProtocolGame plays whole games between two random test players
// over real pipes: protocol I/O and process handling per ply.
func BenchmarkProtocolGame(b *testing.B) {
	p := testPlayer(b)
	var plies int
	for i := 0; i < b.N; i++ {
		state, _ := NewState(Config{Setup: Classic, MaxPlies: 60, Repetition: 3})
		seats := []match.Seat[Move]{
			NewSeat(state, Silver, SeatOptions{Args: []string{p, "--seed=1"}}),
			NewSeat(state, Red, SeatOptions{Args: []string{p, "--seed=2"}}),
		}
		out := match.Run[Move](context.Background(), Referee{state}, seats, match.Config{
			Clock: match.Clock{Turn: 5 * time.Second, Tolerance: time.Second},
		})
		plies += len(out.Moves)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(max(plies, 1)), "µs/ply")
}

// benchPositions collects positions from random games.
func benchPositions(b *testing.B) []*Board {
	rng := rand.New(rand.NewPCG(3, 4))
	var out []*Board
	for len(out) < 200 {
		s, _ := NewState(DefaultConfig())
		for !s.Over() && len(out) < 200 {
			out = append(out, s.Board())
			moves := s.board.Moves(nil)
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}
