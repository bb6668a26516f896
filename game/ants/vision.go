package ants

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Fog of war as the engine computes it: a per-player counter of the live
// ants that see each square (viewradius2, own square included), water
// revealed once, and enemy ids renumbered per player by first sighting.

func (s *State) initVision() {
	// Offsets are (dr mod Rows, dc mod Cols); on maps smaller than the
	// radius several coincide. Sets of them are grids of Rows*Cols flags.
	at := func(dr, dc int) int { return dr*s.Cols + dc }
	// The losses of a move lie one step beyond the radius.
	s.visionReach = isqrt(s.opt.ViewRadius2) + 1
	inView := make([]bool, s.Rows*s.Cols)
	inView[0] = true
	s.visionOffsets = []int{0, 0}
	for _, o := range s.neighbourhoodOffsets(s.opt.ViewRadius2) {
		if !inView[at(o[0], o[1])] {
			inView[at(o[0], o[1])] = true
			s.visionOffsets = append(s.visionOffsets, o[0], o[1])
		}
	}
	s.revealCand = make([][]int, s.N)
	// For a move, only the squares entering and leaving sight change, as
	// in the engine's vision_offsets_cache.
	prev := make([]bool, s.Rows*s.Cols)
	for i, d := range directions {
		clear(prev)
		var prevList []int
		for j := 0; j < len(s.visionOffsets); j += 2 {
			r, c := mod(s.visionOffsets[j]-aimRow[d], s.Rows), mod(s.visionOffsets[j+1]-aimCol[d], s.Cols)
			if !prev[at(r, c)] {
				prev[at(r, c)] = true
				prevList = append(prevList, r, c)
			}
		}
		var gain, loss []int
		for j := 0; j < len(s.visionOffsets); j += 2 {
			if !prev[at(s.visionOffsets[j], s.visionOffsets[j+1])] {
				gain = append(gain, s.visionOffsets[j], s.visionOffsets[j+1])
			}
		}
		for j := 0; j < len(prevList); j += 2 {
			if !inView[at(prevList[j], prevList[j+1])] {
				loss = append(loss, prevList[j], prevList[j+1])
			}
		}
		s.visionGain[i] = s.newVisionSet(gain, s.visionReach)
		s.visionLoss[i] = s.newVisionSet(loss, s.visionReach)
	}
	s.visionAll = s.newVisionSet(s.visionOffsets, s.visionReach)
	s.initWrap(s.visionReach)
	s.vision = make([][]int32, s.N)
	for p := range s.vision {
		s.vision[p] = make([]int32, s.Rows*s.Cols)
	}
	s.updateVision()
	s.updateRevealed()
}

// visionSet is a list of offsets, given as (dr mod Rows, dc mod Cols)
// pairs, kept as signed square-index steps for squares at least reach
// from the map's edges, where none wraps (most squares of a big map), and
// as signed (dr, dc) pairs plus reach for the others: indexes into
// State.wrapRow and State.wrapCol, which do the wrapping.
type visionSet struct {
	steps []int
	wrap  []wrapPair
}

// wrapPair is a signed offset plus reach: dr+reach, dc+reach.
type wrapPair struct{ dr, dc int32 }

func (s *State) newVisionSet(offs []int, reach int) visionSet {
	var vs visionSet
	// An offset beyond reach is one that came round the map: as a signed
	// pair every offset is within reach.
	signed := func(o, n int) int {
		if o > reach {
			return o - n
		}
		return o
	}
	for i := 0; i < len(offs); i += 2 {
		vs.wrap = append(vs.wrap, wrapPair{int32(signed(offs[i], s.Rows) + reach), int32(signed(offs[i+1], s.Cols) + reach)})
	}
	if 2*reach >= s.Rows || 2*reach >= s.Cols {
		return vs // no square is that far from every edge
	}
	for i := 0; i < len(offs); i += 2 {
		vs.steps = append(vs.steps, signed(offs[i], s.Rows)*s.Cols+signed(offs[i+1], s.Cols))
	}
	return vs
}

// initWrap fills wrapRow and wrapCol: for r + dr + reach (dr within
// reach) the index of the first square of row (r + dr) mod Rows, and for
// c + dc + reach the column (c + dc) mod Cols.
func (s *State) initWrap(reach int) {
	s.wrapRow = make([]int32, s.Rows+2*reach+1)
	for i := range s.wrapRow {
		s.wrapRow[i] = int32(mod(i-reach, s.Rows) * s.Cols)
	}
	s.wrapCol = make([]int32, s.Cols+2*reach+1)
	for i := range s.wrapCol {
		s.wrapCol[i] = int32(mod(i-reach, s.Cols))
	}
}

func (s *State) addVision(owner, loc int, delta int32) {
	s.addVisionOffsets(owner, loc, delta, &s.visionAll)
}

// moveVision is an ant's move in direction d (dirIndex) to loc: its owner
// gains sight of the rim ahead and loses the rim behind.
func (s *State) moveVision(owner, loc, d int) {
	gain, loss := &s.visionGain[d], &s.visionLoss[d]
	if gain.steps == nil || loss.steps == nil || !s.inner(loc, s.visionReach) {
		s.addVisionOffsets(owner, loc, 1, gain)
		s.addVisionOffsets(owner, loc, -1, loss)
		return
	}
	v, rev, cand := s.vision[owner], s.revealed[owner], s.revealCand[owner]
	for _, st := range gain.steps {
		at := loc + st
		v[at]++
		if v[at] == 1 && !rev[at] {
			cand = append(cand, at)
		}
	}
	for _, st := range loss.steps {
		v[loc+st]--
	}
	s.revealCand[owner] = cand
}

// addVisionOffsets adds delta (1 or -1) to owner's count of ants seeing
// each square of set around loc. A square that comes into sight and was
// never revealed is a candidate for updateRevealed.
func (s *State) addVisionOffsets(owner, loc int, delta int32, set *visionSet) {
	v := s.vision[owner]
	rev := s.revealed[owner]
	cand := s.revealCand[owner]
	if set.steps != nil && s.inner(loc, s.visionReach) {
		// No offset wraps: plain index steps, one loop per sign.
		if delta < 0 {
			for _, st := range set.steps {
				v[loc+st] += delta
			}
			return
		}
		for _, st := range set.steps {
			at := loc + st
			v[at] += delta
			if v[at] == delta && !rev[at] {
				cand = append(cand, at)
			}
		}
		s.revealCand[owner] = cand
		return
	}
	rows, cols := s.wrapRow[s.row(loc):], s.wrapCol[s.col(loc):]
	if delta < 0 {
		for _, o := range set.wrap {
			v[rows[o.dr]+cols[o.dc]] += delta
		}
		return
	}
	for _, o := range set.wrap {
		at := rows[o.dr] + cols[o.dc]
		v[at] += delta
		if v[at] == delta && !rev[at] {
			cand = append(cand, int(at))
		}
	}
	s.revealCand[owner] = cand
}

// updateVision brings the counts up to date after a turn from the
// turn's moves, as the engine does with its vision_offsets_cache: each
// ant that moved gains and loses sight of a rim of squares, where it
// stands now, the ants born see their whole disc and the dead see no
// more. A dead ant that moved had its rims added: its whole disc where it
// died is what it saw, and is what goes.
func (s *State) updateVision() {
	for _, m := range s.moves {
		if m.dir != '-' {
			s.moveVision(int(m.owner), int(m.loc), dirIndex(m.dir))
		}
	}
	s.moves = s.moves[:0]
	for _, a := range s.spawned {
		if a.inCurrent {
			s.addVision(a.Owner, a.Loc, 1)
		}
	}
	clear(s.spawned)
	s.spawned = s.spawned[:0]
	for _, a := range s.killedAnts {
		s.addVision(a.Owner, a.Loc, -1)
	}
}

// updateRevealed does what the engine's row-major scan of every visible
// square does, looking only at the squares that can matter: squares that
// came into sight since the last scan (for water revealed once) and the
// squares of live ants (for first sightings of enemies).
func (s *State) updateRevealed() {
	if s.revealedWater == nil {
		s.revealedWater = make([][]int, s.N)
	}
	// The live ants as square<<4 | owner, listed once for all players
	// who do not know everybody yet.
	live := s.liveKeys[:0]
	listed := false
	for p := 0; p < s.N; p++ {
		v, rev, ids := s.vision[p], s.revealed[p], s.switchIDs[p]
		// Only the water needs the scan's row-major order: mark, then
		// sort what is water.
		wet := s.revealedWater[p][:0] // the lists are rebuilt each turn
		for _, loc := range s.revealCand[p] {
			if v[loc] > 0 && !rev[loc] {
				rev[loc] = true
				if s.grid[loc] == water {
					wet = append(wet, loc)
				}
			}
		}
		slices.Sort(wet)
		s.revealedWater[p] = wet
		s.revealCand[p] = s.revealCand[p][:0]
		if s.nextID(p) == s.N {
			continue // p knows everybody
		}
		// Enemies p sees for the first time get ids in row-major order.
		if !listed {
			for _, a := range s.currentAnts() {
				live = append(live, a.Loc<<4|a.Owner)
			}
			listed = true
		}
		seen := s.revealAnts[:0]
		for _, k := range live {
			if ids[k&15] < 0 && v[k>>4] > 0 {
				seen = append(seen, k>>4)
			}
		}
		slices.Sort(seen)
		for _, loc := range seen {
			if val := s.grid[loc]; ids[val] < 0 {
				ids[val] = s.nextID(p)
			}
		}
		s.revealAnts = seen[:0]
	}
	s.liveKeys = live[:0]
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
func (s *State) Visible(p, loc int) bool { return s.vision[p][loc] > 0 }

// change is one line of state: a hill, a live ant or a dead one, with its
// text written once: "ilk row col 0\n" in the first n bytes of line, the
// owner's digit at n-2 to be set for each player.
type change struct {
	ilk  byte
	own  int8
	n    uint8
	loc  int32
	line [lineMax]byte
}

// lineMax bounds a line of state: "a 99999 99999 9\n" (NewState refuses
// maps with 100000 rows or columns).
const lineMax = 16

// stateChanges lists standing hills, live ants and the ants killed this
// turn, each kind sorted by row, column and owner; the food lines
// (foodLines) go at foodPos, before the dead. The list is shared until the
// board changes; callers must not modify it.
func (s *State) stateChanges() []change {
	if s.changesValid {
		return s.changes
	}
	s.changes = s.changes[:0]
	// Hills and the dead are few, and several dead can share a square:
	// sorted by one int key per entry, square index times 16 plus
	// owner+1, which sorts as (row, col, owner).
	keys := s.changeKeys[:0]
	part := func(ilk byte) {
		slices.Sort(keys)
		for _, k := range keys {
			s.addChange(ilk, k>>4, k&15-1)
		}
		keys = keys[:0]
	}
	for _, h := range s.Hills {
		if h.KilledBy < 0 {
			keys = append(keys, h.Loc<<4|(h.Owner+1))
		}
	}
	part('h')
	// Live ants are many, one per square: a bit per square, read in
	// square order, sorts them without comparing.
	words := (s.Rows*s.Cols + 63) / 64
	if len(s.antBits) != words {
		s.antBits = make([]uint64, words)
	}
	cur := s.currentAnts()
	for _, a := range cur {
		s.antBits[a.Loc>>6] |= 1 << (a.Loc & 63)
	}
	s.changes = slices.Grow(s.changes, len(cur))
	for i, w := range s.antBits {
		if w == 0 {
			continue
		}
		s.antBits[i] = 0
		for w != 0 {
			loc := i<<6 | bits.TrailingZeros64(w)
			w &= w - 1
			s.addChange('a', loc, int(s.grid[loc]))
		}
	}
	// Food is kept sorted, with its text, as it comes and goes
	// (addFoodLine): its lines go here, between the ants and the dead.
	s.foodPos = len(s.changes)
	for _, a := range s.killedAnts {
		keys = append(keys, a.Loc<<4|(a.Owner+1))
	}
	part('d')
	s.changeKeys = keys
	s.changesValid = true
	return s.changes
}

// addChange appends a line of state.
func (s *State) addChange(ilk byte, loc, own int) {
	c := change{ilk: ilk, own: int8(own), loc: int32(loc)}
	r := s.row(loc)
	col := loc - r*s.Cols
	c.line[0], c.line[1] = ilk, ' '
	// "row " and "col " are at most 6 bytes each: written as 8-byte
	// words, each overwriting the spare bytes of the one before.
	k := 2
	binary.LittleEndian.PutUint64(c.line[k:], s.numWord[r])
	k += int(s.numLen[r])
	binary.LittleEndian.PutUint64(c.line[k:], s.numWord[col])
	k += int(s.numLen[col])
	c.line[k], c.line[k+1] = '0', '\n'
	c.n = uint8(k + 2)
	s.changes = append(s.changes, c)
}

// appendChange writes a line of state with owner id owner (0..9).
func (s *State) appendChange(b []byte, c *change, owner int) []byte {
	n := len(b)
	b = slices.Grow(b, lineMax)[:n+lineMax]
	*(*[lineMax]byte)(b[n:]) = c.line
	b[n+int(c.n)-2] = byte('0' + owner)
	return b[:n+int(c.n)]
}

// appendFoodLine writes the line of food on loc.
func (s *State) appendFoodLine(b []byte, loc int) []byte {
	b = append(b, 'f', ' ')
	b = s.appendNum(b, s.row(loc))
	b = append(b, ' ')
	b = s.appendNum(b, s.col(loc))
	return append(b, '\n')
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
		b = append(b, "w "...)
		b = s.appendNum(b, s.row(loc))
		b = append(b, ' ')
		b = s.appendNum(b, s.col(loc))
		b = append(b, '\n')
	}
	ids := s.switchIDs[p]
	vis := s.vision[p]
	changes := s.stateChanges()
	for i := 0; i <= len(changes); i++ {
		if i == s.foodPos { // the food p sees
			text, ends := s.foodLines()
			start := int32(0)
			for j, loc := range s.foodSorted {
				if vis[loc] > 0 {
					b = append(b, text[start:ends[j]]...)
				}
				start = ends[j]
			}
		}
		if i == len(changes) {
			break
		}
		c := &changes[i]
		if !(vis[c.loc] > 0 || (c.ilk == 'd' && int(c.own) == p)) {
			continue
		}
		id := ids[c.own]
		if id < 0 {
			id = s.nextID(p)
			ids[c.own] = id
		}
		b = s.appendChange(b, c, id)
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
	changes := s.stateChanges()
	text, _ := s.foodLines()
	for i, c := range changes {
		if i == s.foodPos {
			b = append(b, text...)
		}
		b = s.appendChange(b, &changes[i], int(c.own))
	}
	if s.foodPos == len(changes) {
		b = append(b, text...)
	}
	return b
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
