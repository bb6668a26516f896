package khetbot

import (
	"slices"

	"arena/game/khet"
)

// pieceValue is what losing a piece costs. Scarabs and Sphinxes cannot be
// destroyed; the Pharaoh's loss ends the game (scored by the search).
var pieceValue = [5]int{khet.Pharaoh: 2000, khet.Scarab: 0, khet.Anubis: 120, khet.Pyramid: 100, khet.Sphinx: 0}

// weights are the evaluation's terms' weights; the search's tuning holds
// them so that the in-process SPRT can compare sets.
type weights struct {
	// threatOwn: the side to move's laser already hits an enemy piece; a
	// move that leaves the beam alone takes it, so most of its value
	// counts (percent).
	threatOwn int
	// threatOpp: the opponent's laser hits one of ours, but we move first
	// and can often block or dodge (percent).
	threatOpp int
	// pharaohThreat: the side to move's laser hits the enemy Pharaoh:
	// nearly always a win on the next move.
	pharaohThreat int
	// pharaohDanger: the opponent's laser hits our Pharaoh: we must answer.
	pharaohDanger int
	// beamNear rewards a beam passing close to the enemy Pharaoh, per
	// square of closeness.
	beamNear int
	// guard rewards own pieces next to the own Pharaoh.
	guard int
	// scarabAdvance rewards each own Scarab per row it stands nearer the
	// enemy Pharaoh's row than its own Pharaoh's: a Scarab cannot be
	// destroyed, and one near the enemy turns the beam onto him. Without
	// it, self-play games mostly ended drawn at the ply limit, both
	// Pharaohs walled in.
	scarabAdvance int
	// exposed costs each side, per line leading away from its Pharaoh,
	// an enemy mirror as the first piece on it that can send a beam down
	// that line onto the Pharaoh: the way a laser comes round to him;
	// exposedOwn is the same for a mirror of his own side (which his
	// side can turn away).
	exposed, exposedOwn int
}

// How the weights were chosen: in-process SPRTs at 20,000 nodes a move
// (TestSPRTVariant, 400 games each unless said, balanced openings,
// colours swapped), one weight against the defaults of the time:
//   - scarabAdvance 10 against 0: W/D/L 256/28/116, +127 ± 35 Elo; 20
//     against 10: -29 ± 31; then 5 against 10: +71 ± 35; 3 against 5:
//     +22 ± 33; 7 against 5: -42 ± 32; 15 against 10: -33 ± 33.
//   - beamNear 12 against 6 (with scarabAdvance 10): +61 ± 34; 18 against
//     12: -7 ± 32; 9 against 12: -62 ± 32; 16 against 12: +17 ± 27.
//   - guard 0: -46 ± 33, 16: -18 ± 32 (against 8); threatOwn 40 and 100:
//     -2 ± 15 and +3 ± 17 (against 70); threatOpp 10 and 50: -13 ± 18 and
//     0 ± 17 (against 30); pharaohDanger 200 and 800: +1 ± 13 and no game
//     changed (against 400).
//   - Pyramids' advance at 3 a row (as for Scarabs): -68 ± 35, dropped.
//   - A Scarab on the enemy Pharaoh's row or column with nothing between
//     them (20 and 40 a Scarab): +4.3 ± 32.6 over 400 games and -1.0 ±
//     20.3 over 1000; Scarab nearness to the enemy Pharaoh (5 a square
//     of Chebyshev closeness): -6.9 ± 32.7. Both dropped: the search sees
//     such shots.
//   - The Pharaoh's exposure at 15 a line (mirrors of either side) against
//     none: 4400 games (three runs on successive openings) +9.1 ± 9.9,
//     LLR 1.30, undecided; 30: -17 ± 24 over 758. With the null move
//     (tuning.nullMove) against neither: H1, +19.0 ± 10.4 over 3968.
//     Then own mirrors at 0 (the enemy's still at 15): -10.6 ± 16.1 over
//     1600 (727/97/776), so both count; 20 a line (both colours) against
//     15: -1.7 ± 16.5 over 1400 (650/93/657).

// defaultWeights are the evaluation as the bot plays.
func defaultWeights() weights {
	return weights{threatOwn: 70, threatOpp: 30, pharaohThreat: 3000, pharaohDanger: 400, beamNear: 12, guard: 8, scarabAdvance: 5,
		exposed: 15, exposedOwn: 15}
}

// evaluate scores the position for the side to move: material, what each
// laser would hit if fired now, how close each beam passes to the enemy
// Pharaoh, and the Pharaoh's guards.
func evaluate(b *khet.Board) int {
	k := keptOf(b)
	return evaluateWith(b, &k, defaultWeights())
}

// maxScarabs is how many Scarabs of a side kept tracks (every setup has
// two; a board with more scores the first ones found).
const maxScarabs = 4

// kept is what the search keeps of the position as it plays and takes
// back moves, so that a leaf need not scan the board: each side's
// material and its Scarabs' squares (Scarabs are never destroyed).
type kept struct {
	material [2]int
	scarabs  [2][maxScarabs]khet.Square // 0: no Scarab
}

// keptOf counts the board for kept.
func keptOf(b *khet.Board) kept {
	var k kept
	var n [2]int
	for y := range khet.Height {
		for x := range khet.Width {
			p := b.At(x, y)
			if !p.IsPiece() {
				continue
			}
			c := p.Color()
			k.material[c] += pieceValue[p.Kind()]
			if p.Kind() == khet.Scarab && n[c] < maxScarabs {
				k.scarabs[c][n[c]] = khet.SquareAt(x, y)
				n[c]++
			}
		}
	}
	return k
}

// same reports whether k holds what keptOf(b) gives, the Scarabs in any
// order.
func (k *kept) same(b *khet.Board) bool {
	want := keptOf(b)
	if k.material != want.material {
		return false
	}
	for c := range k.scarabs {
		got, exp := k.scarabs[c], want.scarabs[c]
		slices.Sort(got[:])
		slices.Sort(exp[:])
		if got != exp {
			return false
		}
	}
	return true
}

// moveScarab records c's Scarab going from one square to another.
func (k *kept) moveScarab(c khet.Color, from, to khet.Square) {
	for i, sq := range k.scarabs[c] {
		if sq == from {
			k.scarabs[c][i] = to
			return
		}
	}
}

// evaluateWith is evaluate given what the search keeps of the position
// (k) rather than counting the board at every leaf.
func evaluateWith(b *khet.Board, k *kept, w weights) int {
	me := b.ToMove()
	side := k.material
	var pharaoh [2][2]int
	for c := khet.Silver; c <= khet.Red; c++ {
		px, py, ok := b.Pharaoh(c)
		if !ok {
			px, py = 0, 0 // as a count of the board finds it (the search never scores such a position)
		}
		pharaoh[c] = [2]int{px, py}
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if p := b.At(px+dx, py+dy); p.IsPiece() && p.Color() == c && (dx != 0 || dy != 0) {
					side[c] += w.guard
				}
			}
		}
		if w.exposed != 0 || w.exposedOwn != 0 {
			e := exposure(b, px, py)
			side[c] -= w.exposed*e[c.Other()] + w.exposedOwn*e[c]
		}
	}
	for c := khet.Silver; c <= khet.Red; c++ {
		own, enemy := pharaoh[c][1], pharaoh[c.Other()][1]
		for _, sq := range k.scarabs[c] {
			if sq == 0 {
				continue
			}
			y := sq.Y()
			side[c] += w.scarabAdvance * (abs(y-own) - abs(y-enemy))
		}
	}
	var buf [80]khet.Square
	for c := khet.Silver; c <= khet.Red; c++ {
		path, r := b.Beam(c, buf[:0])
		enemy := c.Other()
		ex, ey := pharaoh[enemy][0], pharaoh[enemy][1]
		near := 9
		for _, sq := range path {
			near = min(near, max(abs(sq.X()-ex), abs(sq.Y()-ey)))
		}
		side[c] += (9 - near) * w.beamNear
		if !r.IsPiece() {
			continue
		}
		v := pieceValue[r.Kind()]
		switch {
		case r.Kind() == khet.Pharaoh && c == me && r.Color() != me:
			side[c] += w.pharaohThreat
		case r.Kind() == khet.Pharaoh && c != me && r.Color() == me:
			side[me] -= w.pharaohDanger
		case r.Color() == c:
			// A beam on one's own piece costs nothing yet: the owner moves
			// something before firing.
		case c == me:
			side[c] += v * w.threatOwn / 100
		default:
			side[c] += v * w.threatOpp / 100
		}
	}
	return side[me] - side[me.Other()]
}

// exposure counts, by the mirror's colour, the lines from the Pharaoh on
// (px, py) whose first piece is a mirror that can send a beam down the
// line onto him (any Scarab; a Pyramid one of whose faces looks along the
// line towards him).
func exposure(b *khet.Board, px, py int) [2]int {
	var n [2]int
	for d := range khet.Dir(4) {
		dx, dy := d.Step()
		x, y := px+dx, py+dy
		for x >= 0 && x < khet.Width && y >= 0 && y < khet.Height && !b.At(x, y).IsPiece() {
			x, y = x+dx, y+dy
		}
		if p := b.At(x, y); p.IsPiece() && p.Sends((d+2)&3) {
			n[p.Color()]++
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
