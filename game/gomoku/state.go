package gomoku

import "errors"

// Errors returned by State.Play for moves the referee refuses.
var (
	ErrOffBoard = errors.New("square is off the board")
	ErrOccupied = errors.New("square is occupied")
	ErrOver     = errors.New("game is over")
)

// Foul is a renju forbidden move of Black.
type Foul uint8

// Renju fouls; NoFoul means the move is allowed.
const (
	NoFoul Foul = iota
	DoubleThree
	DoubleFour
	Overline
)

// String names the foul as RIF does ("double-three", ...).
func (f Foul) String() string {
	switch f {
	case DoubleThree:
		return "double-three"
	case DoubleFour:
		return "double-four"
	case Overline:
		return "overline"
	}
	return "none"
}

// Outcome describes how a finished game ended.
type Outcome struct {
	// Winner is Black or White, or Empty for a draw.
	Winner Stone
	// Reason is "five" (a winning line), "foul" (renju: Black played a
	// forbidden move and loses), "score" (continuous game decided by
	// the number of fives) or "draw".
	Reason string
	// Detail says what happened in words, e.g. "black double-four at 7,7".
	Detail string
}

// Event reports what one move did.
type Event struct {
	// Fives are the lines of five (or more, as the rule allows) the move
	// completed, each from one end to the other.
	Fives [][]Point
	// Foul is set when the move was a renju foul.
	Foul Foul
	// Over is set when the move ended the game.
	Over bool
}

