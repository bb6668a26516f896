package gomoku

import (
	"fmt"

	"arena/match"
)

// humanSeat seats a person: a move's text is "x,y" (0-based, as the
// records write it), judged against state without changing it so that a
// refused click leaves the game as it was.
func humanSeat(h *match.Human, state *State) match.Seat[Point] {
	return match.HumanSeat(h, func(text string) (Point, error) {
		p, err := ParsePoint(text)
		if err != nil {
			return Point{}, err
		}
		return p, state.Check(p)
	})
}

// Check says why the side to move may not play p now, or nil; it
// changes nothing. A renju foul is not refused: like a bot, a person
// who plays one loses by it.
func (s *State) Check(p Point) error {
	switch {
	case s.over:
		return fmt.Errorf("play %v: %w", p, ErrOver)
	case !s.onBoard(p):
		return fmt.Errorf("play %v: %w", p, ErrOffBoard)
	case s.board[s.index(p)] != Empty:
		return fmt.Errorf("play %v: %w", p, ErrOccupied)
	}
	return nil
}
