package khet

import (
	"arena/match"
)

// humanSeat seats a person: a move's text is in the Tartu notation
// (S23C), judged against state without changing it so that a refused
// click leaves the game as it was.
func humanSeat(h *match.Human, state *State) match.Seat[Move] {
	return match.HumanSeat(h, func(text string) (Move, error) {
		m, err := ParseMove(text)
		if err != nil {
			return Move{}, err
		}
		return m, state.Check(m)
	})
}

// Check says why m may not be played now, or nil; it changes nothing.
func (s *State) Check(m Move) error {
	if s.over {
		return ErrOver
	}
	return s.board.Check(m)
}
