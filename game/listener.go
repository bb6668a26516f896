package game

import "time"

// Listener follows one game while it is played: the web page's live view
// and anything else that wants the moves before the record is complete.
// Its methods are called from the goroutine that plays the game and must
// not block for long.
type Listener interface {
	// Started is called once, before the first move, with the record's
	// fixed parts: ID, Game, Options, Players and Seats (no moves, no
	// result yet).
	Started(header *Record)
	// Moved is called after every accepted move with the number of moves
	// made so far (1 for the first). Games of simultaneous turns (Ants)
	// call it once per turn, with Side -1 and the turn's view in Effect.
	Moved(ply int, m MoveRecord)
}

// ClockListener is a Listener that also follows the clocks: it is told
// when a side is asked to move, so that a page can count down the exact
// time the side has rather than guess it.
type ClockListener interface {
	Listener
	// Asked is called as a side is asked to move, with its match time
	// left (negative: no match clock) and the deadline of its answer
	// (zero: none).
	Asked(side int, left time.Duration, deadline time.Time)
}
