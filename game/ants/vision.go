package ants

import (
	"sort"
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
	s.vision = make([][]int32, s.N)
	for p := range s.vision {
		s.vision[p] = make([]int32, s.Rows*s.Cols)
	}
	s.updateVision()
	s.updateRevealed()
}

func (s *State) addVision(owner, loc int, delta int32) {
	v := s.vision[owner]
	r, c := s.row(loc), s.col(loc)
	offs := s.visionOffsets
	for i := 0; i < len(offs); i += 2 {
		nr := r + offs[i]
		if nr >= s.Rows {
			nr -= s.Rows
		}
		nc := c + offs[i+1]
		if nc >= s.Cols {
			nc -= s.Cols
		}
		v[nr*s.Cols+nc] += delta
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
			s.addVision(a.Owner, s.previous(a), -1)
			s.addVision(a.Owner, a.Loc, 1)
		}
	}
	for _, a := range s.killedAnts {
		s.addVision(a.Owner, s.previous(a), -1)
	}
}

func (s *State) updateRevealed() {
	s.revealedWater = make([][]int, s.N)
	for p := 0; p < s.N; p++ {
		v, rev, ids := s.vision[p], s.revealed[p], s.switchIDs[p]
		for loc, n := range v {
			if n <= 0 {
				continue
			}
			if val := s.grid[loc]; val >= 0 && ids[val] < 0 {
				ids[val] = s.nextID(p)
			}
			if !rev[loc] {
				rev[loc] = true
				if s.grid[loc] == water {
					s.revealedWater[p] = append(s.revealedWater[p], loc)
				}
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
}

// stateChanges lists standing hills, live ants, food and the ants killed
// this turn, each kind sorted by row, column and owner.
func (s *State) stateChanges() []change {
	var out []change
	sortPart := func(part []change) {
		sort.Slice(part, func(i, j int) bool {
			a, b := part[i], part[j]
			if a.row != b.row {
				return a.row < b.row
			}
			if a.col != b.col {
				return a.col < b.col
			}
			return a.own < b.own
		})
	}
	add := func(part []change) {
		sortPart(part)
		out = append(out, part...)
	}
	var hs, as, fs, ds []change
	for _, h := range s.Hills {
		if h.KilledBy < 0 {
			hs = append(hs, change{'h', s.row(h.Loc), s.col(h.Loc), h.Owner})
		}
	}
	for _, a := range s.currentAnts() {
		as = append(as, change{'a', s.row(a.Loc), s.col(a.Loc), a.Owner})
	}
	for _, f := range s.currentFood {
		fs = append(fs, change{'f', s.row(f.Loc), s.col(f.Loc), -1})
	}
	for _, a := range s.killedAnts {
		ds = append(ds, change{'d', s.row(a.Loc), s.col(a.Loc), a.Owner})
	}
	add(hs)
	add(as)
	add(fs)
	add(ds)
	return out
}

func writeChange(b *strings.Builder, c change, owner int) {
	b.WriteByte(c.ilk)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(c.row))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(c.col))
	if c.ilk != 'f' {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(owner))
	}
	b.WriteByte('\n')
}

// PlayerState is what player p is told about the board (render_changes):
// newly seen water, then what it sees, owners renumbered for p. It
// assigns ids to enemies first seen here, as the engine does.
func (s *State) PlayerState(p int) string {
	var b strings.Builder
	for _, loc := range s.revealedWater[p] {
		b.WriteString("w ")
		b.WriteString(strconv.Itoa(s.row(loc)))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(s.col(loc)))
		b.WriteByte('\n')
	}
	ids := s.switchIDs[p]
	for _, c := range s.stateChanges() {
		loc := c.row*s.Cols + c.col
		if !(s.vision[p][loc] > 0 || (c.ilk == 'd' && c.own == p)) {
			continue
		}
		own := c.own
		if c.ilk != 'f' {
			if ids[own] < 0 {
				ids[own] = s.nextID(p)
			}
			own = ids[own]
		}
		writeChange(&b, c, own)
	}
	return b.String()
}

// FullState is get_state: everything, true owners (the stream format).
func (s *State) FullState() string {
	var b strings.Builder
	for _, c := range s.stateChanges() {
		writeChange(&b, c, c.own)
	}
	return b.String()
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
