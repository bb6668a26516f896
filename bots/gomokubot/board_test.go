package gomokubot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"arena/game/gomoku"
)

// TestIncremental: after random stones come and go, the incrementally
// kept keys, patterns, sums, counts and hash equal a rebuild from
// scratch, whether take restored them from what put saved or recomputed
// them; the stones' rectangle holds every stone, and genMoves, which reads
// only that rectangle, lists what a scan of the whole board lists.
func TestIncremental(t *testing.T) {
	for _, rule := range []gomoku.Rule{0, 1, 4, 8, 9} {
		rng := rand.New(rand.NewPCG(uint64(rule), 11))
		e := NewEngine(13, 9, rule)
		var placed []int
		for step := 0; step < 3000; step++ {
			if len(placed) > 0 && (rng.IntN(3) == 0 || e.empty == 0) {
				// Half the time the last stone, as the searches take
				// back (from the saved state), else any (recomputed).
				k := len(placed) - 1
				if rng.IntN(2) == 0 {
					k = rng.IntN(len(placed))
				}
				e.take(placed[k])
				placed = append(placed[:k], placed[k+1:]...)
			} else {
				sq := int(e.real[rng.IntN(len(e.real))])
				if e.cells[sq] != cEmpty {
					continue
				}
				c := uint8(1 + rng.IntN(2))
				if rng.IntN(20) == 0 {
					c = cWall
				}
				e.put(sq, c)
				placed = append(placed, sq)
			}
			if step%97 != 0 {
				continue
			}
			for _, i := range e.real {
				p := e.point(int(i))
				if c := e.cells[i]; (c == cBlack || c == cWhite) && (p.X < int(e.stones.x0) || p.X > int(e.stones.x1) || p.Y < int(e.stones.y0) || p.Y > int(e.stones.y1)) {
					t.Fatalf("rule %v step %d: stone on %v outside the stones' rectangle %v", rule, step, p, e.stones)
				}
			}
			for me := uint8(1); me <= 2; me++ {
				got, _ := e.genMoves(me, 1, 2, -1)
				if want := allMoves(e, me); !slices.Equal(got, want) {
					t.Fatalf("rule %v step %d: genMoves for %d lists %v, the whole board %v", rule, step, me, got, want)
				}
			}
			keys := append([][4]uint32(nil), e.keys...)
			pat := append([][2]uint16(nil), e.pat...)
			sum, cnt, empty, hash := e.sum, e.cnt, e.empty, e.hash
			e.rebuild()
			for _, i := range e.real {
				if keys[i] != e.keys[i] {
					t.Fatalf("rule %v step %d: key of %v drifted", rule, step, e.point(int(i)))
				}
				if e.cells[i] == cEmpty && pat[i] != e.pat[i] {
					t.Fatalf("rule %v step %d: patterns of %v drifted", rule, step, e.point(int(i)))
				}
			}
			if sum != e.sum || cnt != e.cnt || empty != e.empty {
				t.Fatalf("rule %v step %d: sums %v/%v counts %v/%v empty %d/%d", rule, step, sum, e.sum, cnt, e.cnt, empty, e.empty)
			}
			var h uint64
			for _, i := range e.real {
				if c := e.cells[i]; c != cEmpty {
					h ^= e.zob[i][c-1]
				}
			}
			if h != hash {
				t.Fatalf("rule %v step %d: hash drifted", rule, step)
			}
		}
	}
}

// allMoves is what genMoves lists (without a move from the table), read
// from every square of the board.
func allMoves(e *Engine, me uint8) []move {
	opp := 3 - me
	threat := e.cnt[opp-1][lvFlex4] > 0 && e.hasLegal(opp, lvFlex4)
	var out []move
	for _, i := range e.real {
		t := int(i)
		if e.cells[t] != cEmpty || !threat && e.near[t] == 0 {
			continue
		}
		mi, oi := e.info(t, me), e.info(t, opp)
		if threat && !mi.four && !oi.four {
			continue
		}
		out = append(out, move{int32(t), int32(mi.score) + int32(oi.score)})
	}
	return out
}

// TestLinePatterns checks the line table on hand-made lines (own stone
// in the middle of an 11-square window).
func TestLinePatterns(t *testing.T) {
	tests := []struct {
		rule gomoku.Rule
		c    uint8
		line string // 11 characters, centre 'X' is the stone placed
		want uint8
	}{
		{0, cBlack, "..xxxXx....", pF5},
		{0, cBlack, "..xxxXxx...", pF5},
		{1, cBlack, "..xxxXxx...", pOL},
		{1, cBlack, "..xxxXx.x..", pF5},
		{1, cBlack, "...xxXx.x..", pB4}, // the gap would make six
		{4, cBlack, "..xxxXx....", pF5},
		{4, cBlack, ".xxxxXx....", pOL},
		{4, cWhite, "..oooOo....", pF5},
		{8, cBlack, "..oxxXxxo..", pDead},
		{8, cBlack, "..oxxXxxxo.", pDead},
		{8, cBlack, "..oxxXxxx..", pF5},
		{9, cBlack, "..oxxXxxxo.", pOL},
		{8, cBlack, "|||xxXxxo..", pF5},
		{0, cBlack, "....xXxx...", pF4},
		{0, cBlack, "...oxXxx...", pB4},
		{0, cBlack, "....xX.xx..", pB4},
		{0, cBlack, "....xXx....", pF3},
		{0, cBlack, "...oxXx....", pB3},
		{0, cBlack, "....xX.x...", pF3},
		{0, cBlack, "...o.Xx.o..", pDead},
		{0, cBlack, "..o..Xx.o..", pB2},
		{0, cBlack, ".....Xx....", pF2},
		{0, cBlack, ".....X.....", pF1},
		{0, cBlack, "..o..X.o...", pDead},
		{0, cBlack, "|||..X.....", pF1},
		{1, cBlack, "..x.xXx.x..", pF4}, // two fours in one line
		{1, cBlack, ".xx.xXx....", pB3}, // the gap would make six
	}
	for _, tc := range tests {
		e := NewEngine(15, 15, tc.rule)
		var key uint32
		for i, ch := range tc.line {
			if i == 5 {
				continue
			}
			var code uint8
			switch ch {
			case 'x', 'X':
				code = cBlack
			case 'o', 'O':
				code = cWhite
			case '|':
				code = cWall
			}
			key |= uint32(code) << (2 * slotOf(i))
		}
		if got := e.linePattern(int(tc.c-1), key); got != tc.want {
			t.Errorf("rule %v colour %d %q: pattern %d, want %d", tc.rule, tc.c, tc.line, got, tc.want)
		}
	}
}

// TestPairIndex checks what linePair's short index rests on: under every
// rule where a stone reaches four squares, a key's patterns (both colours)
// do not depend on its two outermost neighbours, so every key agrees with
// the one whose outer neighbours are empty.
func TestPairIndex(t *testing.T) {
	const outer = 3 | 3<<(2*9)
	for _, rule := range []gomoku.Rule{gomoku.Freestyle, gomoku.Continuous} {
		e := NewEngine(15, 15, rule)
		if e.reach != 4 {
			t.Fatalf("rule %v: reach %d, want 4", rule, e.reach)
		}
		for key := uint32(0); key < 1<<keyBits; key++ {
			for b := 0; b < 2; b++ {
				if got, want := e.linePattern(b, key), e.linePattern(b, key&^outer); got != want {
					t.Fatalf("rule %v colour %d key %#x: pattern %d, %d without the outer neighbours", rule, b, key, got, want)
				}
			}
			if got, want := e.linePair(key), e.linePattern(0, key)|e.linePattern(1, key)<<4; got != want {
				t.Fatalf("rule %v key %#x: pair %#x, want %#x", rule, key, got, want)
			}
		}
	}
}

// TestContinuousBlocksFives: in a continuous game a completed five turns
// into blocked squares and is counted; other stones stay.
func TestContinuousBlocksFives(t *testing.T) {
	e := engineFrom(t, gomoku.Continuous,
		"..........",
		".xxxx.....",
		"..........",
		"..........",
		"..........",
	)
	if err := e.Place(gomoku.Point{X: 5, Y: 1}, gomoku.Black); err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= 5; x++ {
		if !e.Blocked(gomoku.Point{X: x, Y: 1}) {
			t.Errorf("%d,1 is not blocked", x)
		}
	}
	if e.Fives(gomoku.Black) != 1 || e.Fives(gomoku.White) != 0 {
		t.Errorf("fives %d/%d, want 1/0", e.Fives(gomoku.Black), e.Fives(gomoku.White))
	}
	if e.Stones() != 0 {
		t.Errorf("%d stones left, want 0", e.Stones())
	}
	// Exactly five: an overline is no five and stays.
	e = engineFrom(t, gomoku.Continuous|gomoku.ExactFive, "xxx.xx....", "..........", "..........", "..........", "..........")
	if err := e.Place(gomoku.Point{X: 3, Y: 0}, gomoku.Black); err != nil {
		t.Fatal(err)
	}
	if e.Blocked(gomoku.Point{X: 0, Y: 0}) || e.Fives(gomoku.Black) != 0 {
		t.Error("an overline was blocked under exactly five")
	}
}
