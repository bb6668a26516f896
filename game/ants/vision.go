package ants

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Fog of war as the engine computes it: a square is in sight of a player
// when one of its live ants sees it (viewradius2, own square included),
// water is revealed once, and enemy ids are renumbered per player by first
// sighting. The engine keeps a count of the ants seeing each square; only
// whether the count is above zero is ever read, so here the sight of each
// player is a bit per square (bit loc), drawn afresh after each turn from
// the live ants: a disc is a row span per row offset, a word or two ORed
// each.

// visionSpan is the row dr of the disc of vision: the columns c-w..c+w
// of row r+dr for an ant on (r, c).
type visionSpan struct {
	step int   // dr*Cols - w: the first bit of the span from the ant's square (no wrapping)
	dr   int32 // dr + visionReach: index into wrapRow from the ant's row
	w    int32
}

func (s *State) initVision() {
	r2 := s.opt.ViewRadius2
	s.visionReach = isqrt(r2)
	reach := s.visionReach
	for dr := -reach; dr <= reach; dr++ {
		w := isqrt(r2 - dr*dr) // 0 for the own square when viewradius2 < 0, as the engine sees it
		sp := visionSpan{step: dr*s.Cols - w, dr: int32(dr + reach), w: int32(w)}
		s.visionSpans = append(s.visionSpans, sp)
		s.visionSteps = append(s.visionSteps, sp.step)
		s.visionZeros = append(s.visionZeros, 63-2*w)
	}
	// Ants in a row whose discs' spans touch on every row offset: no
	// further apart than the narrowest span's width plus one.
	s.visionGap = 2*isqrt(r2-reach*reach) + 1
	s.visionMaxExt = 63 - 2*reach // a run's widest span fits a word
	if s.visionMaxExt < 0 {
		s.visionMaxExt = 0
	}
	// A disc drawn without wrapping: inside the map by reach, and every
	// span a word's width at most.
	s.visionPlain = 2*reach+1 <= 64
	s.initDiscWords()
	s.initEdgeWords()
	s.wrapRow = make([]int32, s.Rows+2*reach+1)
	for i := range s.wrapRow {
		s.wrapRow[i] = int32(mod(i-reach, s.Rows) * s.Cols)
	}
	size := s.Rows * s.Cols
	words := (size+63)/64 + 1 // a spare word: a span's second word may lie past the map
	s.waterBits = make([]uint64, words)
	for loc, v := range s.grid {
		if v == water {
			s.waterBits[loc>>6] |= 1 << (loc & 63)
		}
	}
	s.vision = make([][]uint64, s.N)
	s.revealed = make([][]uint64, s.N)
	for p := range s.vision {
		s.vision[p] = make([]uint64, words)
		s.revealed[p] = make([]uint64, words)
	}
	s.updateVision()
	s.updateRevealed()
}

// initDiscWords lays out a lone ant's disc as consecutive words, once for
// each of the 64 bit positions its first square may have in a word, when
// those words are few beside the disc's spans (two words each, shifted
// and masked): at most 1.5 per span, on maps up to about 90 columns for
// the usual view radius. Wider, the table (17 KiB on 126 columns) costs
// more in cache misses than it saves, as measured on a 2-player game.
// markRun then draws a lone ant away from the map's left and right edges
// without a shift or a mask to compute.
func (s *State) initDiscWords() {
	reach := s.visionReach
	s.discWords, s.discLen = nil, 0
	if !s.visionPlain || len(s.visionSteps) == 0 {
		return
	}
	s.discMin = -reach*s.Cols - reach
	s.discBits = 2*reach*s.Cols + 2*reach + 1
	n := (63 + s.discBits + 63) >> 6 // the most words a phase spans
	if 2*n > 3*len(s.visionSteps) {
		return
	}
	s.discLen = n
	s.discWords = make([]uint64, 64*n+1) // setBits may touch the word past the last
	for ph := range 64 {
		t := s.discWords[ph*n:]
		for k, st := range s.visionSteps {
			lo := st - s.discMin + ph
			setBits(t, lo, lo+2*int(s.visionSpans[k].w)+1)
		}
	}
}

// initEdgeWords lays out, as initDiscWords, the disc of a lone ant in one
// of the reach columns at either edge of the map: its rows whole (the
// spans wrapped round them), from the first row's start, for each bit
// phase a row may start at (64/gcd(Cols, 64) of them). Only when the
// table stays small (16 KiB) and ORing its words costs less than the
// wrapped spans (up to four words each).
func (s *State) initEdgeWords() {
	reach, cols := s.visionReach, s.Cols
	s.edgeWords, s.edgeLen = nil, 0
	for i := range s.edgePhase {
		s.edgePhase[i] = -1
	}
	if !s.visionPlain || reach == 0 || 2*reach+1 >= cols {
		return
	}
	phases := 64 / (1 << min(bits.TrailingZeros(uint(cols)), 6))
	n := (63 + len(s.visionSpans)*cols + 63) >> 6
	if n > 4*len(s.visionSpans) || phases*2*reach*n > 2048 {
		return
	}
	s.edgeLen = n
	s.edgeWords = make([]uint64, phases*2*reach*n+1) // setBits may touch the word past the last
	for k := range phases {
		ph := k * cols & 63
		s.edgePhase[ph] = int16(k)
		for ci := range 2 * reach {
			c := ci
			if ci >= reach {
				c = cols - 2*reach + ci
			}
			t := s.edgeWords[(k*2*reach+ci)*n:]
			for j, sp := range s.visionSpans {
				base, w := ph+j*cols, int(sp.w)
				lo, hi := c-w, c+w+1
				setBits(t, base+max(lo, 0), base+min(hi, cols))
				if lo < 0 {
					setBits(t, base+cols+lo, base+cols)
				}
				if hi > cols {
					setBits(t, base, base+hi-cols)
				}
			}
		}
	}
}

// markRun sets in v the bits of the squares seen by ants on loc and
// loc+ext of the same row, and on squares between them no further apart
// than visionGap: the union of their discs, a span per row offset from
// loc's column minus w to loc+ext's plus w. A run fits a word
// (ext <= visionMaxExt) when the disc does.
func (s *State) markRun(v []uint64, loc, ext int) {
	r := s.row(loc)
	c := loc - r*s.Cols
	reach := s.visionReach
	if s.visionPlain && c >= reach && c+ext+reach < s.Cols {
		zeros := s.visionZeros[:len(s.visionSteps)]
		if r >= reach && r+reach < s.Rows {
			if ext == 0 && s.discWords != nil {
				// A lone ant: its disc's words for its bit phase.
				o := uint(loc + s.discMin)
				ph := int(o & 63)
				t := s.discWords[ph*s.discLen : ph*s.discLen+(ph+s.discBits+63)>>6]
				w := v[o>>6:]
				w = w[:len(t)]
				for j, m := range t {
					w[j] |= m
				}
				return
			}
			for k, st := range s.visionSteps {
				b := uint(loc + st)
				i, sh := b>>6, b&63
				m := ^uint64(0) >> (uint(zeros[k]-ext) & 63) // in 0..63: no test for 64 or more
				w := v[i : i+2 : i+2]
				w[0] |= m << sh
				w[1] |= m >> 1 >> (63 - sh) // nothing when sh is 0
			}
			return
		}
		// Near the top or bottom: the rows wrap, the columns do not.
		if ext == 0 && s.discWords != nil && s.Rows > 2*reach {
			// A lone ant: its disc's words in two parts, the rows
			// beyond the map's edge moved to its other edge.
			// The part above ends with its last row's span (2*reach+1
			// bits from the row's first, a row before split).
			size := s.Rows * s.Cols
			o := loc + s.discMin
			if r < reach {
				split := (reach - r) * s.Cols
				s.orDiscPart(v, o+size, 0, split-s.Cols+2*reach+1)
				s.orDiscPart(v, o, split, s.discBits)
			} else {
				split := (s.Rows - r + reach) * s.Cols
				s.orDiscPart(v, o, 0, split-s.Cols+2*reach+1)
				s.orDiscPart(v, o-size, split, s.discBits)
			}
			return
		}
		rows := s.wrapRow[r : r+len(s.visionSpans)]
		for k, sp := range s.visionSpans {
			b := uint(int(rows[k]) + c - int(sp.w))
			i, sh := b>>6, b&63
			m := ^uint64(0) >> (uint(zeros[k]-ext) & 63) // in 0..63: no test for 64 or more
			w := v[i : i+2 : i+2]
			w[0] |= m << sh
			w[1] |= m >> 1 >> (63 - sh)
		}
		return
	}
	if ext == 0 && s.edgeWords != nil && r >= reach && r+reach < s.Rows {
		// A lone ant at the left or right edge: its wrapped disc's
		// words for its column and the bit phase of its first row.
		o := uint((r - reach) * s.Cols)
		ph := int(o & 63)
		ci := c
		if c >= reach {
			ci = c - s.Cols + 2*reach
		}
		at := (int(s.edgePhase[ph])*2*reach + ci) * s.edgeLen
		t := s.edgeWords[at : at+(ph+len(s.visionSpans)*s.Cols+63)>>6]
		w := v[o>>6:]
		w = w[:len(t)]
		for j, m := range t {
			w[j] |= m
		}
		return
	}
	if cols := s.Cols; s.visionPlain && ext+2*reach+1 < cols {
		// Near the left or right edge: each span is its part in the row
		// and the part that wraps round to the row's other end (none
		// for the narrow spans), chosen without branching on which.
		rows := s.wrapRow[r : r+len(s.visionSpans)]
		for k, sp := range s.visionSpans {
			base, w := int(rows[k]), int(sp.w)
			lo, hi := c-w, c+ext+w+1
			in0, in1 := max(lo, 0), min(hi, cols)
			out0, n := 0, 0
			if lo < 0 {
				out0, n = lo+cols, -lo
			}
			if hi > cols {
				n = hi - cols
			}
			// setSpan and setSpanUpTo, written out (the inliner leaves
			// them as calls here).
			m := ^uint64(0) >> (uint(64-(in1-in0)) & 63) // 1..64 bits
			b := uint(base + in0)
			i, sh := b>>6, b&63
			w2 := v[i : i+2 : i+2]
			w2[0] |= m << sh
			w2[1] |= m >> 1 >> (63 - sh)
			m = ^uint64(0) >> uint(64-n) // 0..64 bits
			b = uint(base + out0)
			i, sh = b>>6, b&63
			w2 = v[i : i+2 : i+2]
			w2[0] |= m << sh
			w2[1] |= m >> 1 >> (63 - sh)
		}
		return
	}
	rows := s.wrapRow[r:]
	for _, sp := range s.visionSpans {
		base := int(rows[sp.dr])
		w := int(sp.w)
		lo, hi := c-w, c+ext+w+1
		switch {
		case hi-lo >= s.Cols: // the span goes round the row
			setBits(v, base, base+s.Cols)
		case !s.visionPlain: // spans wider than a word
			if lo < 0 {
				setBits(v, base+lo+s.Cols, base+s.Cols)
				lo = 0
			}
			if hi > s.Cols {
				setBits(v, base, base+hi-s.Cols)
				hi = s.Cols
			}
			setBits(v, base+lo, base+hi)
		case lo < 0: // the end of the row, then its start
			setSpan(v, base+lo+s.Cols, -lo)
			setSpan(v, base, hi)
		case hi > s.Cols:
			setSpan(v, base+lo, s.Cols-lo)
			setSpan(v, base, hi-s.Cols)
		default: // only the row wrapped
			setSpan(v, base+lo, hi-lo)
		}
	}
}

// orDiscPart sets in v bits a..b-1 of a lone ant's disc (discWords) laid
// from bit d of v, which may be negative: bits d+a..d+b-1 are in the map.
func (s *State) orDiscPart(v []uint64, d, a, b int) {
	q := int(uint(d) & 63)
	t := s.discWords[q*s.discLen : q*s.discLen+(q+s.discBits+63)>>6]
	j0, j1 := (a+q)>>6, (b-1+q)>>6
	w := v[d>>6+j0 : d>>6+j1+1]
	t = t[j0 : j1+1]
	first, last := ^uint64(0)<<uint((a+q)&63), ^uint64(0)>>uint(63-(b-1+q)&63)
	if len(t) == 1 {
		w[0] |= t[0] & first & last
		return
	}
	w[0] |= t[0] & first
	for j := 1; j < len(t)-1; j++ {
		w[j] |= t[j]
	}
	w[len(t)-1] |= t[len(t)-1] & last
}

// setSpan sets n bits of v (1 <= n <= 64) from bit lo, in the word of lo
// and the next (v has a spare word at its end).
func setSpan(v []uint64, lo, n int) {
	m := ^uint64(0) >> (uint(64-n) & 63) // n is 1..64
	i, sh := uint(lo)>>6, uint(lo)&63
	v[i] |= m << sh
	v[i+1] |= m >> 1 >> (63 - sh) // nothing when sh is 0
}

// setBits sets bits lo..hi-1 of v.
func setBits(v []uint64, lo, hi int) {
	for lo < hi {
		i, sh := lo>>6, uint(lo&63)
		n := min(hi-lo, 64-int(sh))
		m := ^uint64(0)
		if n < 64 {
			m = 1<<uint(n) - 1
		}
		v[i] |= m << sh
		lo += n
	}
}

// seen reports whether bit loc of v is set.
func seen(v []uint64, loc int) bool { return v[loc>>6]>>(loc&63)&1 != 0 }

// updateVision draws every player's sight afresh from the live ants, as
// the engine's counts stand after a turn: what moved, was born or died
// since is all in where the live ants are now.
func (s *State) updateVision() {
	for p := range s.vision {
		clear(s.vision[p])
	}
	// The ants in row-major order (a bit per square, read in order):
	// each player's ants close together in a row are drawn as one run.
	ants := s.liveAntMap()
	var runs [16]visionRun // per player (at most 10), the run being drawn
	for p := range runs {
		runs[p].start = -1
	}
	if len(s.ownerAnts) != s.N {
		s.ownerAnts = make([][]int32, s.N)
	}
	// updateRevealed's lists, of the owners some player has yet to meet.
	var unmet uint32
	for p := range s.ownerAnts {
		s.ownerAnts[p] = s.ownerAnts[p][:0]
	}
	if !s.allMet {
		for _, ids := range s.switchIDs {
			for o, id := range ids {
				if id < 0 {
					unmet |= 1 << o
				}
			}
		}
	}
	grid, gap, maxExt := s.grid, s.visionGap, s.visionMaxExt
	for i, w := range ants {
		if w == 0 {
			continue
		}
		for w != 0 {
			loc := i<<6 | bits.TrailingZeros64(w)
			w &= w - 1
			p := int(grid[loc]) & 15
			if unmet>>p&1 != 0 {
				s.ownerAnts[p] = append(s.ownerAnts[p], int32(loc))
			}
			run := &runs[p]
			if st := run.start; st >= 0 {
				if loc < run.rowEnd && loc-run.end <= gap && loc-st <= maxExt {
					run.end = loc
					continue
				}
				s.markRun(s.vision[p], st, run.end-st)
			}
			run.start, run.end, run.rowEnd = loc, loc, (s.row(loc)+1)*s.Cols
		}
	}
	for p := range s.N {
		if st := runs[p].start; st >= 0 {
			s.markRun(s.vision[p], st, runs[p].end-st)
		}
	}
}

// visionRun is the run of a player's ants updateVision is drawing: the
// squares of its first and last ant, and the end of their row.
type visionRun struct{ start, end, rowEnd int }

// liveAntMap returns a bit per square of the live ants, drawn afresh
// only after the ants changed.
func (s *State) liveAntMap() []uint64 {
	if s.antMap != nil && s.antMapGen == s.antGen {
		return s.antMap
	}
	words := (s.Rows*s.Cols + 63) / 64
	if len(s.antMap) != words {
		s.antMap = make([]uint64, words)
	}
	clear(s.antMap)
	for _, a := range s.currentAnts() {
		s.antMap[a.Loc>>6] |= 1 << (a.Loc & 63)
	}
	s.antMapGen = s.antGen
	return s.antMap
}

// updateRevealed does what the engine's row-major scan of every visible
// square does: water in sight and never seen before is revealed (the bits
// come out in row-major order), and enemies seen for the first time get
// their ids in row-major order.
func (s *State) updateRevealed() {
	if s.revealedWater == nil {
		s.revealedWater = make([][]int, s.N)
	}
	allMet := true
	defer func() { s.allMet = allMet }()
	for p := 0; p < s.N; p++ {
		v, rev, ids := s.vision[p], s.revealed[p], s.switchIDs[p]
		wet := s.revealedWater[p][:0] // the lists are rebuilt each turn
		for i, w := range v {
			fresh := w &^ rev[i]
			if fresh == 0 {
				continue
			}
			rev[i] |= fresh
			for x := fresh & s.waterBits[i]; x != 0; x &= x - 1 {
				wet = append(wet, i<<6|bits.TrailingZeros64(x))
			}
		}
		s.revealedWater[p] = wet
		if s.nextID(p) == s.N {
			continue // p knows everybody
		}
		allMet = false
		// Enemies p sees for the first time get ids in the row-major
		// order of their first ant p sees (each one's ants are listed in
		// row-major order).
		found := s.revealAnts[:0]
		for o, ants := range s.ownerAnts {
			if ids[o] >= 0 {
				continue
			}
			for _, loc := range ants {
				if seen(v, int(loc)) {
					found = append(found, int(loc))
					break
				}
			}
		}
		slices.Sort(found)
		for _, loc := range found {
			ids[s.grid[loc]] = s.nextID(p)
		}
		s.revealAnts = found[:0]
	}
}

// nextID is the engine's num_players - switch.count(None).
func (s *State) nextID(p int) int {
	known := 0
	for _, id := range s.switchIDs[p] {
		if id >= 0 {
			known++
		}
	}
	return known
}

// Visible reports whether player p sees loc now.
func (s *State) Visible(p, loc int) bool { return seen(s.vision[p], loc) }

// The state lines, as render_changes and get_state write them: newly
// seen water (for a player), then the standing hills, the live ants, the
// food and this turn's dead, each kind sorted by row, column and owner.
// The ants and the food are a bit per square (liveAntMap, foodMap): ANDed
// with a player's sight word by word, what it sees comes out in order.

// sortedKeys returns the standing hills and this turn's dead as sorted
// keys loc<<4 | owner+1 (several dead may share a square), sorted again
// only after the board changed.
func (s *State) sortedKeys() (hills, dead []int) {
	if s.keysValid {
		return s.hillKeys, s.deadKeys
	}
	hills = s.hillKeys[:0]
	for _, h := range s.Hills {
		if h.KilledBy < 0 {
			hills = append(hills, h.Loc<<4|(h.Owner+1))
		}
	}
	slices.Sort(hills)
	dead = s.deadKeys[:0]
	for _, a := range s.killedAnts {
		dead = append(dead, a.Loc<<4|(a.Owner+1))
	}
	slices.Sort(dead)
	s.hillKeys, s.deadKeys, s.keysValid = hills, dead, true
	return hills, dead
}

// lineRoom is what appendLine may write past the end of b: "a 99999
// 99999 9\n" plus the spare bytes of its 8-byte writes (NewState refuses
// maps with 100000 rows or columns).
const lineRoom = 24

// appendLine appends "ilk ROW COL OWNER\n" for square loc, or "ilk ROW
// COL\n" when owner is negative. The numbers are copied as 8-byte words
// (numWord), each overwriting the spare bytes of the one before.
func (s *State) appendLine(b []byte, ilk byte, loc, owner int) []byte {
	r := s.row(loc)
	c := loc - r*s.Cols
	n := len(b)
	if cap(b)-n < lineRoom {
		b = slices.Grow(b, lineRoom)
	}
	t := b[n : n+lineRoom]
	t[0], t[1] = ilk, ' '
	k := 2
	binary.LittleEndian.PutUint64(t[k:], s.numWord[r])
	k += int(s.numLen[r])
	binary.LittleEndian.PutUint64(t[k:], s.numWord[c])
	k += int(s.numLen[c])
	if owner < 0 {
		t[k-1] = '\n'
		return b[:n+k]
	}
	t[k], t[k+1] = byte('0'+owner), '\n'
	return b[:n+k+2]
}

// PlayerState is what player p is told about the board (render_changes):
// newly seen water, then what it sees, owners renumbered for p. It
// assigns ids to enemies first seen here, as the engine does.
func (s *State) PlayerState(p int) string {
	s.textBuf = s.appendPlayerState(s.textBuf[:0], p)
	return string(s.textBuf)
}

// appendPlayerState is PlayerState appending to b.
func (s *State) appendPlayerState(b []byte, p int) []byte {
	for _, loc := range s.revealedWater[p] {
		b = s.appendLine(b, 'w', loc, -1)
	}
	ids := s.switchIDs[p]
	vis := s.vision[p]
	// id is p's number for owner o, given on first sight in this order.
	id := func(o int) int {
		if ids[o] < 0 {
			ids[o] = s.nextID(p)
		}
		return ids[o]
	}
	hills, dead := s.sortedKeys()
	for _, k := range hills {
		if loc := k >> 4; seen(vis, loc) {
			b = s.appendLine(b, 'h', loc, id(k&15-1))
		}
	}
	b = s.appendMaskLines(b, 'a', s.liveAntMap(), vis, ids, p)
	b = s.appendMaskLines(b, 'f', s.foodMap, vis, nil, p)
	for _, k := range dead {
		if loc, o := k>>4, k&15-1; o == p || seen(vis, loc) {
			b = s.appendLine(b, 'd', loc, id(o))
		}
	}
	return b
}

// FullState is get_state: everything, true owners (the stream format).
func (s *State) FullState() string {
	s.textBuf = s.appendFullState(s.textBuf[:0])
	return string(s.textBuf)
}

// appendFullState is FullState appending to b.
func (s *State) appendFullState(b []byte) []byte {
	hills, dead := s.sortedKeys()
	for _, k := range hills {
		b = s.appendLine(b, 'h', k>>4, k&15-1)
	}
	if len(s.trueIDs) != s.N {
		s.trueIDs = make([]int, s.N)
		for o := range s.trueIDs {
			s.trueIDs[o] = o
		}
	}
	ants := s.liveAntMap()
	b = s.appendMaskLines(b, 'a', ants, ants, s.trueIDs, -1)
	b = s.appendMaskLines(b, 'f', s.foodMap, s.foodMap, nil, -1)
	for _, k := range dead {
		b = s.appendLine(b, 'd', k>>4, k&15-1)
	}
	return b
}

// appendMaskLines appends appendLine's line for each square set in both
// m and vis (of vis's length at least), in square order: with no owner
// when ids is nil, else the owner of the ant there as ids numbers it (a
// player p's numbering gives an owner p meets here the next id). The hot
// loop of the state texts: room is made once per word, and the numbers
// are copied as in appendLine, with no bounds test (numLen is at most 6).
func (s *State) appendMaskLines(b []byte, ilk byte, m, vis []uint64, ids []int, p int) []byte {
	n := len(b)
	b = b[:cap(b)]
	numWord, numLen, grid, cols := s.numWord, s.numLen, s.grid, s.Cols
	vis = vis[:len(m)]
	for i, w := range m {
		x := w & vis[i]
		if x == 0 {
			continue
		}
		if need := bits.OnesCount64(x) * lineRoom; len(b)-n < need {
			b = slices.Grow(b[:n], need)
			b = b[:cap(b)]
		}
		for ; x != 0; x &= x - 1 {
			loc := i<<6 | bits.TrailingZeros64(x)
			r := s.row(loc)
			c := loc - r*cols
			t := b[n : n+lineRoom : n+lineRoom]
			t[0], t[1] = ilk, ' '
			binary.LittleEndian.PutUint64(t[2:10], numWord[r])
			k := 2 + int(numLen[r]&7)
			binary.LittleEndian.PutUint64(t[k:k+8], numWord[c])
			k += int(numLen[c] & 7)
			if ids == nil {
				t[k-1] = '\n'
				n += k
				continue
			}
			o := int(grid[loc])
			id := ids[o]
			if id < 0 {
				id = s.nextID(p)
				ids[o] = id
			}
			t[k], t[k+1] = byte('0'+id), '\n'
			n += k + 2
		}
	}
	return b[:n]
}

// OrderForPlayer is order_for_player: data indexed by engine id, reordered
// as player p numbers the players; ids p has never seen come out as nil.
func (s *State) OrderForPlayer(p int, data []string) []string {
	ids := s.switchIDs[p]
	n := max(len(data), s.N)
	out := make([]string, n)
	for i := 0; i < n; i++ {
		out[i] = "None"
		for engineID, id := range ids {
			if id == i {
				out[i] = data[engineID]
				break
			}
		}
	}
	return out
}

// The engine draws map squares with one string indexed by a number that
// may be negative (Python indexing from the end) and adds 10 for an ant on
// a hill and 20 for an empty hill; reproduced as is, so an empty hill
// shows as 'I' whoever owns it, as in the official replays.
const mapRender = "abcdefghijABCDEFGHIJ0123456789?%*.!"

func renderSquare(v int) byte {
	if v < 0 {
		v += len(mapRender)
	}
	if v < 0 || v >= len(mapRender) {
		return '?'
	}
	return mapRender[v]
}

// MapLines renders the whole map without fog (get_map_output()).
func (s *State) MapLines() []string {
	return s.renderGrid(s.grid, true)
}

func (s *State) renderGrid(grid []int8, hills bool) []string {
	lines := make([]string, s.Rows)
	buf := make([]byte, s.Cols)
	for r := 0; r < s.Rows; r++ {
		for c := 0; c < s.Cols; c++ {
			loc := r*s.Cols + c
			v := int(grid[loc])
			if hills && s.hillOn(loc) != nil {
				if s.antOn(loc) != nil {
					v += 10
				} else {
					v += 20
				}
			}
			buf[c] = renderSquare(v)
		}
		lines[r] = string(buf)
	}
	return lines
}

// replayMap is the map the replay carries: the final map, or for a
// scenario the map as given.
func (s *State) replayMap() []string {
	if s.opt.Scenario && s.originalMap != nil {
		return s.renderGrid(s.originalMap, false)
	}
	return s.MapLines()
}

// PlayerStart is the turn-0 text (get_player_start): for a bot, or with
// hidden=true the stream header with food parameters and the map.
func (s *State) PlayerStart(hidden bool) string {
	var b strings.Builder
	kv := func(k string, v int64) {
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(v, 10))
		b.WriteByte('\n')
	}
	kv("turn", 0)
	kv("loadtime", int64(s.opt.LoadTime))
	kv("turntime", int64(s.opt.TurnTime))
	kv("rows", int64(s.Rows))
	kv("cols", int64(s.Cols))
	kv("turns", int64(s.opt.Turns))
	kv("viewradius2", int64(s.opt.ViewRadius2))
	kv("attackradius2", int64(s.opt.AttackRadius2))
	kv("spawnradius2", int64(s.opt.SpawnRadius2))
	kv("player_seed", s.PlayerSeed)
	if hidden {
		kv("food_rate", int64(s.FoodRate))
		kv("food_turn", int64(s.FoodTurn))
		kv("food_start", int64(s.FoodStart))
		for _, line := range s.MapLines() {
			b.WriteString("m ")
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
