package gomoku

import (
	"context"
	"testing"
	"time"
)

// opponentThinks is how long the other side takes over its move in
// BenchmarkFileSeatOpponentThinks: a fast real brain, far below the
// tournaments' turn times.
const opponentThinks = 20 * time.Millisecond

// BenchmarkFileSeatOpponentThinks is BenchmarkFileSeat in a real game's
// rhythm: between two moves of the seat the opponent thinks, and the
// sandboxed seat sets up its next brain's init meanwhile (a benchmark of
// moves back to back measures the set-up instead, which no real game
// waits for). Only the seat's moves are timed; the floor is the C
// fork+exec+wait of the same brain with its files, taken move by move.
func BenchmarkFileSeatOpponentThinks(b *testing.B) {
	for _, c := range []struct {
		name      string
		sandboxed bool
	}{{"sandbox=off", false}, {"sandbox=auto", true}} {
		b.Run(c.name, func(b *testing.B) {
			fb := startFileBench(b, c.sandboxed)
			state, seat, req, floor := fb.state, fb.seat, fb.req, fb.floor
			sq := safeSquares()
			ref := Referee{state}
			var times, floors []time.Duration
			k := 0
			for b.Loop() {
				floors = append(floors, floor.next(b))
				if k == len(sq) {
					fresh, _ := NewState(state.Config())
					*state = *fresh
					k = 0
				}
				time.Sleep(opponentThinks)
				t0 := time.Now()
				if _, err := state.Play(sq[k]); err != nil {
					b.Fatal(err)
				}
				k++
				reply, err := seat.Move(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				if err := ref.Play(1, reply.Move); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			report(b, times, floors)
		})
	}
}
