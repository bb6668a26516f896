package khet

// Perft counts the positions reached after exactly depth plies from b (a
// position where a Pharaoh was destroyed ends the game: it counts only as
// a last ply). It is the move generator's correctness and speed check.
func Perft(b *Board, depth int) int64 {
	if depth == 0 {
		return 1
	}
	buf := make([][]Move, depth)
	for i := range buf {
		buf[i] = make([]Move, 0, 128)
	}
	return perft(b, depth, buf)
}

func perft(b *Board, depth int, buf [][]Move) int64 {
	moves := b.Moves(buf[depth-1][:0])
	if depth == 1 {
		return int64(len(moves))
	}
	var n int64
	for _, m := range moves {
		u := b.Make(m)
		if !u.removed.IsPiece() || u.removed.Kind() != Pharaoh {
			n += perft(b, depth-1, buf)
		}
		b.Unmake(u)
	}
	return n
}
