package game

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
