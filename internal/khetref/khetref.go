// Package khetref holds the reference opponents Khet players are measured
// against: a random legal-move player and a one-ply "take whatever the
// laser hits" player. The strength tests and the khettest program share
// them so both measure against the same thing.
package khetref

import (
	"math/rand/v2"

	"arena/game/khet"
)

// Random plays a legal move chosen at random.
func Random(b *khet.Board, rng *rand.Rand) khet.Move {
	moves := b.Moves(nil)
	return moves[rng.IntN(len(moves))]
}

// Greedy looks one ply ahead: it takes whatever its laser can hit (the
// enemy Pharaoh first), never hits its own pieces when it can help it,
// and breaks ties at random.
func Greedy(b *khet.Board, rng *rand.Rand) khet.Move {
	me := b.ToMove()
	var best []khet.Move
	bestScore := -1 << 30
	for _, m := range b.Moves(nil) {
		u := b.Make(m)
		score := 0
		if r := u.Removed(); r.IsPiece() {
			v := 1
			if r.Kind() == khet.Pharaoh {
				v = 1000
			}
			if r.Color() == me {
				v = -v
			}
			score = v
		}
		b.Unmake(u)
		switch {
		case score > bestScore:
			best, bestScore = append(best[:0], m), score
		case score == bestScore:
			best = append(best, m)
		}
	}
	return best[rng.IntN(len(best))]
}
