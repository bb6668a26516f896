package gomokubot

import (
	"math"
	"sync"

	"arena/game/gomoku"
)

// Square codes on the engine's board and in line keys.
const (
	cEmpty uint8 = 0
	cBlack uint8 = 1
	cWhite uint8 = 2
	cWall  uint8 = 3
)

// Line patterns: what a stone placed on an empty square makes along one
// line, judged from the five squares on either side. "Flex" (F) patterns
// are open, "blocked" (B) ones have one way forward.
const (
	pDead uint8 = iota // nothing can come of it
	pOL                // an overline that does not win (exact-five rules)
	pB1
	pF1
	pB2
	pF2
	pB3 // one more stone makes a four
	pF3 // one more stone makes an open four: an open three
	pB4 // a four: one square completes a five
	pF4 // two or more squares complete a five: open four
	pF5 // a winning five
	nPat
)

// lineRule says what counts as a winning five for one colour.
type lineRule struct {
	exact bool // overlines do not win
	caro  bool // a line with opponent stones at both ends does not win
}

// ruleFor returns the line rule of colour c under rule r.
func ruleFor(r gomoku.Rule, c uint8) lineRule {
	switch {
	case r&gomoku.Renju != 0:
		return lineRule{exact: c == cBlack}
	case r&gomoku.Caro != 0:
		return lineRule{exact: r&gomoku.ExactFive != 0, caro: true}
	}
	return lineRule{exact: r&gomoku.ExactFive != 0}
}

// lineTable maps a line key to the pattern a stone makes on the centre
// square, from Black's point of view (cBlack is own, cWhite the
// opponent's). Entries are computed on first use (value+1; 0 means not yet
// known), so creating an engine stays cheap.
type lineTable struct {
	rule lineRule
	tab  []uint8
}

// keyBits is the size of a line key: ten neighbours, two bits each.
const keyBits = 20

func newLineTable(rule lineRule) *lineTable {
	return &lineTable{rule: rule, tab: make([]uint8, 1<<keyBits)}
}

// get returns the pattern for key.
func (t *lineTable) get(key uint32) uint8 {
	if v := t.tab[key]; v != 0 {
		return v - 1
	}
	p := t.compute(key)
	t.tab[key] = p + 1
	return p
}

// Relative square contents inside compute.
const (
	rEmpty = iota
	rOwn
	rOpp
	rWall
)

// slotOf maps a line position 0..10 (5 is the centre) to its key slot.
func slotOf(i int) int {
	if i < 5 {
		return i
	}
	return i - 1
}

// compute classifies key; see the pattern constants.
func (t *lineTable) compute(key uint32) uint8 {
	var line [11]uint8
	for i := 0; i < 11; i++ {
		if i == 5 {
			line[i] = rOwn
			continue
		}
		switch c := uint8(key>>(2*slotOf(i))) & 3; {
		case c == cEmpty:
			line[i] = rEmpty
		case c == cWall:
			line[i] = rWall
		case c == cBlack:
			line[i] = rOwn
		default:
			line[i] = rOpp
		}
	}
	five, over := t.five(&line)
	if five {
		return pF5
	}
	if over {
		return pOL
	}
	wins := 0
	for i := 1; i <= 9; i++ {
		if i == 5 || line[i] != rEmpty {
			continue
		}
		line[i] = rOwn
		if f, _ := t.five(&line); f {
			wins++
		}
		line[i] = rEmpty
	}
	switch {
	case wins >= 2:
		return pF4
	case wins == 1:
		return pB4
	}
	best := pDead
	for i := 1; i <= 9 && best < pF3; i++ {
		if i == 5 || line[i] != rEmpty {
			continue
		}
		sub := t.get(key | uint32(cBlack)<<(2*slotOf(i)))
		if sub >= pB2 && sub <= pF4 && sub-2 > best {
			best = sub - 2
		}
	}
	return best
}

// five reports whether the run of own stones through the centre wins, and
// whether it is a non-winning overline.
func (t *lineTable) five(line *[11]uint8) (five, over bool) {
	l, r := 5, 5
	for l > 0 && line[l-1] == rOwn {
		l--
	}
	for r < 10 && line[r+1] == rOwn {
		r++
	}
	n := r - l + 1
	if n < 5 {
		return false, false
	}
	if n > 5 && t.rule.exact {
		return false, true
	}
	// l == 0 or r == 10 implies n >= 6: the run goes on beyond the
	// window, and its far end counts as open.
	if t.rule.caro && l > 0 && r < 10 && line[l-1] == rOpp && line[r+1] == rOpp {
		return false, false
	}
	return true, false
}

// Threat levels of a square for one colour: the four line patterns
// combined.
const (
	lvNone  uint8 = iota
	lvLow         // ones and twos
	lvF2          // makes an open two
	lvB3          // makes a three that can become a four
	lvF3          // makes an open three
	lvB4          // makes a four
	lv33          // makes two open threes
	lv43          // makes a four and an open three
	lvFlex4       // makes an open four or two fours
	lvFive        // makes five
	nLevel
)

// cellInfo is the combined view of one square for one colour.
type cellInfo struct {
	// score is small enough for 16 bits (combine clamps it), which keeps
	// the table of every pattern quadruple at 256 KB: the incremental
	// update reads it twice for every square it touches.
	score int16
	level uint8
	four  bool // some line makes a four (or five)
	three bool // some line makes an open three
	foul  bool // Black under renju might be fouling here: ask the referee
}

// weights are the evaluation constants: the value of each line pattern
// on an empty square and the bonus for squares where threats combine.
type weights struct {
	pat   [nPat]int32
	bonus [nLevel]int32
}

// defaultWeights returns the tuned weights.
func defaultWeights() weights {
	return weights{
		pat: [nPat]int32{
			pDead: 0, pOL: 0, pB1: 1, pF1: 3, pB2: 5, pF2: 14, pB3: 18,
			pF3: 60, pB4: 70, pF4: 350, pF5: 3000,
		},
		bonus: [nLevel]int32{lv33: 250, lv43: 450, lvFlex4: 700, lvFive: 3000},
	}
}

// combTable maps four packed line patterns (4 bits each) to cellInfo
// with the default weights. It is built once and only read afterwards.
var combTable = sync.OnceValue(func() *[1 << 16]cellInfo { return buildComb(defaultWeights()) })

// buildComb computes the cellInfo of every packed pattern quadruple.
func buildComb(w weights) *[1 << 16]cellInfo {
	var t [1 << 16]cellInfo
	for k := range t {
		t[k] = combine(uint16(k), &w)
	}
	return &t
}

// combine computes the cellInfo of four packed line patterns.
func combine(k uint16, w *weights) cellInfo {
	var n [16]int
	var score int32
	for d := 0; d < 4; d++ {
		p := uint8(k>>(4*d)) & 0xF
		n[p]++
		if p < nPat {
			score += w.pat[p]
		}
	}
	var lv uint8
	switch {
	case n[pF5] > 0:
		lv = lvFive
	case n[pF4] > 0 || n[pB4] >= 2:
		lv = lvFlex4
	case n[pB4] == 1 && n[pF3] >= 1:
		lv = lv43
	case n[pF3] >= 2:
		lv = lv33
	case n[pB4] == 1:
		lv = lvB4
	case n[pF3] == 1:
		lv = lvF3
	case n[pB3] > 0 || n[pF2] >= 2:
		lv = lvB3
	case n[pF2] > 0:
		lv = lvF2
	case n[pB1]+n[pF1]+n[pB2] > 0:
		lv = lvLow
	}
	threes := n[pF3] + n[pB4] + n[pF4]
	return cellInfo{
		score: int16(min(max(score+w.bonus[lv], math.MinInt16), math.MaxInt16)),
		level: lv,
		four:  n[pB4]+n[pF4]+n[pF5] > 0,
		three: n[pF3] > 0,
		foul:  n[pF5] == 0 && (n[pOL] > 0 || n[pF4] > 0 || threes >= 2),
	}
}
