package gomoku

// ForbiddenAt reports whether Black placing a stone at p on the given
// position would be a renju foul (RIF rules: a move that makes a five is
// never a foul; otherwise overline, double-four and double-three are
// forbidden, with threes and fours judged recursively as RIF does).
// cells holds the board row by row (index y*width+x); p must be empty.
// It does not modify cells.
//
// STUB: replaced by the real implementation.
func ForbiddenAt(cells []Stone, width, height int, p Point) Foul {
	return NoFoul
}
