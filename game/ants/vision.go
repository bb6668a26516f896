package ants

import (
	"slices"
	"strconv"
	"strings"
)

// Fog of war as the engine computes it: a per-player counter of the live
// ants that see each square (viewradius2, own square included), water
// revealed once, and enemy ids renumbered per player by first sighting.

func (s *State) initVision() {
	seen := map[[2]int]bool{{0, 0}: true}
	s.visionOffsets = []int{0, 0}
	for _, o := range s.neighbourhoodOffsets(s.opt.ViewRadius2) {
		if !seen[o] {
			seen[o] = true
			s.visionOffsets = append(s.visionOffsets, o[0], o[1])
		}
	}
	s.revealCand = make([][]int, s.N)
	// For a move, only the squares entering and leaving sight change, as
	// in the engine's vision_offsets_cache.
	inView := map[[2]int]bool{}
	for i := 0; i < len(s.visionOffsets); i += 2 {
		inView[[2]int{s.visionOffsets[i], s.visionOffsets[i+1]}] = true
	}
	s.visionGain, s.visionLoss = map[byte][]int{}, map[byte][]int{}
	for _, d := range []byte{'n', 'e', 's', 'w'} {
		prev := map[[2]int]bool{}
		for o := range inView {
			prev[[2]int{mod(o[0]-aimRow[d], s.Rows), mod(o[1]-aimCol[d], s.Cols)}] = true
		}
		for i := 0; i < len(s.visionOffsets); i += 2 {
			o := [2]int{s.visionOffsets[i], s.visionOffsets[i+1]}
			if !prev[o] {
				s.visionGain[d] = append(s.visionGain[d], o[0], o[1])
			}
		}
		for o := range prev {
			if !inView[o] {
				s.visionLoss[d] = append(s.visionLoss[d], o[0], o[1])
			}
		}
	}
	s.vision = make([][]int32, s.N)
	for p := range s.vision {
		s.vision[p] = make([]int32, s.Rows*s.Cols)
	}
	s.updateVision()
	s.updateRevealed()
}

func (s *State) addVision(owner, loc int, delta int32) {
	s.addVisionOffsets(owner, loc, delta, s.visionOffsets)
}

func (s *State) addVisionOffsets(owner, loc int, delta int32, offs []int) {
	v := s.vision[owner]
	rev := s.revealed[owner]
	r, c := s.row(loc), s.col(loc)
	for i := 0; i < len(offs); i += 2 {
		nr := r + offs[i]
		if nr >= s.Rows {
			nr -= s.Rows
		}
		nc := c + offs[i+1]
		if nc >= s.Cols {
			nc -= s.Cols
		}
		at := nr*s.Cols + nc
		v[at] += delta
		if delta > 0 && v[at] == delta && !rev[at] {
			// newly in sight and never revealed: a candidate for
			// updateRevealed (it may leave sight again in this pass)
			s.revealCand[owner] = append(s.revealCand[owner], at)
		}
	}
}

// previous is where an ant stood before its last order.
func (s *State) previous(a *Ant) int {
	d := a.Orders[len(a.Orders)-1]
	if d == '-' {
		return a.Loc
	}
	return s.destination(a.Loc, -aimRow[d], -aimCol[d])
}

func (s *State) updateVision() {
	for _, a := range s.currentAnts() {
		if len(a.Orders) == 0 {
			s.addVision(a.Owner, a.Loc, 1)
			continue
		}
		if d := a.Orders[len(a.Orders)-1]; d != '-' {
			s.addVisionOffsets(a.Owner, a.Loc, 1, s.visionGain[d])
			s.addVisionOffsets(a.Owner, a.Loc, -1, s.visionLoss[d])
		}
	}
	for _, a := range s.killedAnts {
		s.addVision(a.Owner, s.previous(a), -1)
	}
}

// updateRevealed does what the engine's row-major scan of every visible
// square does, looking only at the squares that can matter: squares that
// came into sight since the last scan (for water revealed once) and the
// squares of live ants (for first sightings of enemies).
func (s *State) updateRevealed() {
	s.revealedWater = make([][]int, s.N)
	var ants []int
	for p := 0; p < s.N; p++ {
		v, rev, ids := s.vision[p], s.revealed[p], s.switchIDs[p]
		cand := s.revealCand[p]
		slices.Sort(cand)
		for i, loc := range cand {
			if v[loc] <= 0 || rev[loc] || (i > 0 && cand[i-1] == loc) {
				continue
			}
			rev[loc] = true
			if s.grid[loc] == water {
				s.revealedWater[p] = append(s.revealedWater[p], loc)
			}
		}
		s.revealCand[p] = cand[:0]
		if s.nextID(p) == s.N {
			continue // p knows everybody
		}
		if ants == nil {
			for _, a := range s.currentAnts() {
				ants = append(ants, a.Loc)
			}
			slices.Sort(ants)
		}
		for _, loc := range ants {
			if val := s.grid[loc]; v[loc] > 0 && ids[val] < 0 {
				ids[val] = s.nextID(p)
			}
		}
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
func (s *State) Visible(p, loc int) bool { return s.vision[p][loc] > 0 }

type change struct {
	ilk           byte
	row, col, own int
	start, end    int32 // "ilk row col" in State.changeText
}

// stateChanges lists standing hills, live ants, food and the ants killed
// this turn, each kind sorted by row, column and owner. The list is shared
// until the board changes; callers must not modify it.
func (s *State) stateChanges() []change {
	if s.changesValid {
		return s.changes
	}
	out := s.changes[:0]
	// Each kind is sorted by (row, col, owner): one int key per entry,
	// square index times 16 plus owner+1, sorts the same way.
	keys := s.changeKeys[:0]
	text := s.changeText[:0]
	part := func(ilk byte) {
		slices.Sort(keys)
		for _, k := range keys {
			loc, own := k>>4, int(k&15)-1
			c := change{ilk: ilk, row: loc / s.Cols, col: loc % s.Cols, own: own, start: int32(len(text))}
			// "a ROW COL" once per turn; the owner digit is added per reader
			text = append(text, ilk, ' ')
			text = strconv.AppendInt(text, int64(c.row), 10)
			text = append(text, ' ')
			text = strconv.AppendInt(text, int64(c.col), 10)
			c.end = int32(len(text))
			out = append(out, c)
		}
		keys = keys[:0]
	}
	for _, h := range s.Hills {
		if h.KilledBy < 0 {
			keys = append(keys, h.Loc<<4|(h.Owner+1))
		}
	}
	part('h')
	for _, a := range s.currentAnts() {
		keys = append(keys, a.Loc<<4|(a.Owner+1))
	}
	part('a')
	// Food changes seldom: its sorted lines are kept between turns.
	if s.foodDirty {
		saved, savedText := out, text
		out, text = s.foodChanges[:0], s.foodText[:0]
		for _, f := range s.liveFood() {
			keys = append(keys, f.Loc<<4)
		}
		part('f')
		s.foodChanges, s.foodText = out, text
		out, text = saved, savedText
		s.foodDirty = false
	}
	base := int32(len(text))
	text = append(text, s.foodText...)
	for _, c := range s.foodChanges {
		c.start += base
		c.end += base
		out = append(out, c)
	}
	for _, a := range s.killedAnts {
		keys = append(keys, a.Loc<<4|(a.Owner+1))
	}
	part('d')
	s.changeKeys = keys
	s.changeText = text
	s.changes, s.changesValid = out, true
	return out
}

// appendChange writes one line of state; owners are ids 0..9.
func (s *State) appendChange(b []byte, c change, owner int) []byte {
	b = append(b, s.changeText[c.start:c.end]...)
	if c.ilk != 'f' {
		b = append(b, ' ', byte('0'+owner))
	}
	return append(b, '\n')
}

// PlayerState is what player p is told about the board (render_changes):
// newly seen water, then what it sees, owners renumbered for p. It
// assigns ids to enemies first seen here, as the engine does.
func (s *State) PlayerState(p int) string {
	b := s.textBuf[:0]
	for _, loc := range s.revealedWater[p] {
		b = append(b, "w "...)
		b = strconv.AppendInt(b, int64(s.row(loc)), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(s.col(loc)), 10)
		b = append(b, '\n')
	}
	ids := s.switchIDs[p]
	vis := s.vision[p]
	for _, c := range s.stateChanges() {
		loc := c.row*s.Cols + c.col
		if !(vis[loc] > 0 || (c.ilk == 'd' && c.own == p)) {
			continue
		}
		own := c.own
		if c.ilk != 'f' {
			if ids[own] < 0 {
				ids[own] = s.nextID(p)
			}
			own = ids[own]
		}
		b = s.appendChange(b, c, own)
	}
	s.textBuf = b
	return string(b)
}

// FullState is get_state: everything, true owners (the stream format).
func (s *State) FullState() string {
	b := s.textBuf[:0]
	for _, c := range s.stateChanges() {
		b = s.appendChange(b, c, c.own)
	}
	s.textBuf = b
	return string(b)
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

func (s *State) renderGrid(grid []int, hills bool) []string {
	lines := make([]string, s.Rows)
	buf := make([]byte, s.Cols)
	for r := 0; r < s.Rows; r++ {
		for c := 0; c < s.Cols; c++ {
			loc := r*s.Cols + c
			v := grid[loc]
			if hills && s.hillAt[loc] != nil {
				if s.antAt[loc] != nil {
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
