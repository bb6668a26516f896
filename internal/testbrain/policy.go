package testbrain

import "math/rand/v2"

// Policy chooses a move for side me on b. ok is false when the policy has
// no move (no empty square, or an invalid side).
type Policy func(b Board, me byte, rng *rand.Rand) (x, y int, ok bool)

// PolicyByName returns the policy called name ("random" or "greedy").
func PolicyByName(name string) (Policy, bool) {
	switch name {
	case "random":
		return Random, true
	case "greedy":
		return Greedy, true
	}
	return nil, false
}

// orNew returns rng, or a freshly seeded generator if rng is nil.
func orNew(rng *rand.Rand) *rand.Rand {
	if rng != nil {
		return rng
	}
	return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
}

// Random picks uniformly among the empty squares of b; ok is false if
// there is none. me is not used. A nil rng means a freshly seeded one.
func Random(b Board, me byte, rng *rand.Rand) (x, y int, ok bool) {
	n := b.Count(Empty)
	if n == 0 {
		return 0, 0, false
	}
	k := orNew(rng).IntN(n)
	for i, c := range b.Cells {
		if c != Empty {
			continue
		}
		if k == 0 {
			return i % b.W, i / b.W, true
		}
		k--
	}
	panic("unreachable")
}

// Greedy is a one-ply player for side me ('x' or 'o'). In order:
//
//  1. a square where me makes five or more in a row (an immediate win);
//  2. else a square where the opponent would make five or more (a block);
//  3. else the square maximising me's longest line through it, preferring
//     squares next to a stone (of either side) among equally long lines.
//
// Ties at each step are broken uniformly at random with rng (nil means a
// freshly seeded one). ok is false if there is no empty square or me is
// neither 'x' nor 'o'. '#' squares block lines like the opponent's stones.
func Greedy(b Board, me byte, rng *rand.Rand) (x, y int, ok bool) {
	opp := Opponent(me)
	if opp == 0 {
		return 0, 0, false
	}
	rng = orNew(rng)

	var wins, blocks, best []int
	bestKey := -1
	for i, c := range b.Cells {
		if c != Empty {
			continue
		}
		sx, sy := i%b.W, i/b.W
		mine := b.LineThrough(sx, sy, me)
		if mine >= WinLength {
			wins = append(wins, i)
			continue
		}
		if len(wins) > 0 {
			continue
		}
		if b.LineThrough(sx, sy, opp) >= WinLength {
			blocks = append(blocks, i)
			continue
		}
		if len(blocks) > 0 {
			continue
		}
		key := mine * 2
		if b.nearStone(sx, sy) {
			key++
		}
		switch {
		case key > bestKey:
			bestKey, best = key, append(best[:0], i)
		case key == bestKey:
			best = append(best, i)
		}
	}
	pick := best
	switch {
	case len(wins) > 0:
		pick = wins
	case len(blocks) > 0:
		pick = blocks
	}
	if len(pick) == 0 {
		return 0, 0, false
	}
	i := pick[rng.IntN(len(pick))]
	return i % b.W, i / b.W, true
}
