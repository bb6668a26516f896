package points

import (
	"context"
	"time"

	"arena/match"
)

// humanSeat seats a person: a move's text is "x,y" (0-based, as the
// records write it), judged against state without changing it so that a
// refused click leaves the game as it was. The person's clock goes to
// clocks, as a bot's does, so that the opponent bot's "otime" is true.
func humanSeat(h *match.Human, state *State, side int, clocks *Clocks) match.Seat[Point] {
	seat := match.HumanSeat(h, func(text string) (Point, error) {
		p, err := ParsePoint(text)
		if err != nil {
			return Point{}, err
		}
		return p, state.Check(p)
	})
	return clockedSeat{Seat: seat, side: side, clocks: clocks}
}

// clockedSeat reports the time left on a seat's clock after each move.
type clockedSeat struct {
	match.Seat[Point]
	side   int
	clocks *Clocks
}

func (s clockedSeat) Move(ctx context.Context, req match.Request) (match.Reply[Point], error) {
	t0 := time.Now()
	r, err := s.Seat.Move(ctx, req)
	if !req.Unlimited {
		s.clocks.record(s.side, req.TimeLeft-time.Since(t0))
	}
	return r, err
}

// Check says why the next dot may not go on p, or nil; it changes
// nothing.
func (s *State) Check(p Point) error {
	if s.over {
		return ErrOver
	}
	return s.f.Check(p)
}
