package ants

import (
	"fmt"

	"arena/game/ants/pyrandom"
)

// pendingFood is the engine's pending_food: a dict from square to count
// that keeps its keys in first-insertion order (food is placed in that
// order, which decides the order of the replay's food list).
type pendingFood struct {
	count []int
	keys  []int
}

func (p *pendingFood) init(size int) { p.count = make([]int, size) }

func (p *pendingFood) add(loc int) {
	if p.count[loc] == 0 {
		p.keys = append(p.keys, loc)
	}
	p.count[loc]++
}

// placeFood puts food on every pending square that is land now.
func (s *State) placeFood() {
	keys := s.pending.keys
	kept := keys[:0]
	for _, loc := range keys {
		if s.grid[loc] == land {
			s.addFood(loc)
			s.pending.count[loc]--
		}
		if s.pending.count[loc] > 0 {
			kept = append(kept, loc)
		}
	}
	s.pending.keys = kept
}

// doFood places amount food with the chosen method and returns what it
// could not place yet.
func (s *State) doFood(amount int) (int, error) {
	switch s.opt.Food {
	case "none":
		return amount, nil
	case "random":
		return s.doFoodRandom(amount), nil
	case "sections":
		return s.doFoodSections(amount), nil
	case "symmetric":
		return s.doFoodSymmetric(amount)
	}
	return 0, fmt.Errorf("unknown food method %q", s.opt.Food)
}

func (s *State) doFoodRandom(amount int) int {
	for i := 0; i < amount; i++ {
		for {
			r := int(s.rng.Randrange(0, int64(s.Rows)))
			c := int(s.rng.Randrange(0, int64(s.Cols)))
			if loc := r*s.Cols + c; s.grid[loc] == land {
				s.pending.add(loc)
				break
			}
		}
	}
	s.placeFood()
	return 0
}

// accessMapLists is access_map(): the squares each player reaches first by
// BFS from the starting ants, in the engine's dict order.
func (s *State) accessMapLists() [][]int {
	if s.accessMapBuilt {
		return s.accessMap
	}
	size := s.Rows * s.Cols
	dist := make([]int, size)
	players := make([]uint16, size) // bit set of players reaching first
	var order []int                 // dict insertion order of `players`
	inOrder := make([]bool, size)
	var queue []int
	for loc, v := range s.initialMap {
		switch {
		case v >= 0:
			dist[loc] = 0
			players[loc] |= 1 << v
			order = append(order, loc)
			inOrder[loc] = true
			queue = append(queue, loc)
		case v != water:
			dist[loc] = -1
		default:
			dist[loc] = -2
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range []byte{'n', 'e', 's', 'w'} {
			nl := s.destination(c, aimRow[d], aimCol[d])
			switch {
			case dist[nl] == -2:
				continue
			case dist[nl] == -1:
				dist[nl] = dist[c] + 1
				players[nl] |= players[c]
				if !inOrder[nl] {
					inOrder[nl] = true
					order = append(order, nl)
				}
				queue = append(queue, nl)
			case dist[nl] == dist[c]+1:
				players[nl] |= players[c]
				if !inOrder[nl] {
					inOrder[nl] = true
					order = append(order, nl)
				}
			}
		}
	}
	s.accessMap = make([][]int, s.N)
	for _, loc := range order {
		set := players[loc]
		if set != 0 && set&(set-1) == 0 {
			p := 0
			for set>>p != 1 {
				p++
			}
			s.accessMap[p] = append(s.accessMap[p], loc)
		}
	}
	s.accessMapBuilt = true
	return s.accessMap
}

func (s *State) doFoodSections(amount int) int {
	left := amount % s.N
	sections := s.accessMapLists()
	for i := 0; i < amount/s.N; i++ {
		for p := 0; p < s.N; p++ {
			sq := sections[p]
			if len(sq) == 0 {
				continue
			}
			loc := sq[s.rng.Choice(len(sq))]
			if s.grid[loc] == land {
				s.pending.add(loc)
			}
		}
	}
	s.placeFood()
	return left
}

// orientation is one hill with the aim (0..7: identity, flips, transposes)
// that maps player 0's first hill's view of the map onto it.
type orientation struct {
	loc, aim int
	enemy    map[int]int // true owner seen from hill 0 -> owner seen here
}

func offsetAim(dr, dc, aim int) (int, int) {
	switch aim {
	case 1:
		return -dr, dc
	case 2:
		return dr, -dc
	case 3:
		return -dr, -dc
	case 4:
		return dc, dr
	case 5:
		return -dc, dr
	case 6:
		return dc, -dr
	case 7:
		return -dc, -dr
	}
	return dr, dc
}

// mapSimilar is map_similar: does the map seen from loc2 with aim look
// like the map seen from loc1, with player's ants where player 0's are?
func (s *State) mapSimilar(loc1, loc2, aim, player int) map[int]int {
	enemy := map[int]int{}
	r1, c1 := s.row(loc1), s.col(loc1)
	r2, c2 := s.row(loc2), s.col(loc2)
	wrap := func(v, n int) int {
		if v >= n || v < 0 {
			v = mod(v, n)
		}
		return v
	}
	for r := 0; r < s.Rows; r++ {
		row0 := wrap(r1+r, s.Rows) * s.Cols
		for c := 0; c < s.Cols; c++ {
			ar, ac := offsetAim(r, c, aim)
			i0 := s.grid[row0+wrap(c1+c, s.Cols)]
			i1 := s.grid[wrap(r2+ar, s.Rows)*s.Cols+wrap(c2+ac, s.Cols)]
			switch {
			case i0 == 0 && i1 != player:
				return nil
			case i0 > 0 && (i1 < 0 || i1 == player):
				return nil
			case i0 < 0 && i1 != i0:
				return nil
			}
			if i0 >= 0 {
				enemy[i0] = i1
			}
		}
	}
	return enemy
}

func (s *State) mapSymmetry() ([][]orientation, error) {
	var hills0 []*Hill
	for _, h := range s.Hills {
		if h.Owner == 0 {
			hills0 = append(hills0, h)
		}
	}
	ident := map[int]int{}
	for i := 0; i < s.N; i++ {
		ident[i] = i
	}
	orients := [][]orientation{{{loc: hills0[0].Loc, aim: 0, enemy: ident}}}
	for p := 1; p < s.N; p++ {
		var ph []*Hill
		for _, h := range s.Hills {
			if h.Owner == p {
				ph = append(ph, h)
			}
		}
		if len(ph) != len(hills0) {
			return nil, fmt.Errorf("map is not symmetric: player 0 has %d hills while player %d has %d", len(hills0), p, len(ph))
		}
		var next [][]orientation
		for _, h := range ph {
			for aim := 0; aim < 8; aim++ {
				em := s.mapSimilar(hills0[0].Loc, h.Loc, aim, p)
				if em == nil {
					continue
				}
				for _, o := range orients {
					n := append(append([]orientation(nil), o...), orientation{h.Loc, aim, em})
					next = append(next, n)
				}
			}
		}
		orients = next
		if len(orients) == 0 {
			return nil, fmt.Errorf("map is not symmetric: player %d has no orientation that matches player 0", p)
		}
	}
	var valid [][]orientation
	for _, o := range orients {
		type fix struct{ loc, v int }
		var fixes []fix
		for _, x := range o {
			dr, dc := offsetAim(1, 2, x.aim)
			l := s.destination(x.loc, dr, dc)
			fixes = append(fixes, fix{l, s.grid[l]})
			s.grid[l] = food
		}
		ok := true
		for _, x := range o {
			if s.mapSimilar(o[0].loc, x.loc, x.aim, x.enemy[0]) == nil {
				ok = false
				break
			}
		}
		if ok {
			valid = append(valid, o)
		}
		for i := len(fixes) - 1; i >= 0; i-- {
			s.grid[fixes[i].loc] = fixes[i].v
		}
	}
	if len(valid) == 0 {
		return nil, fmt.Errorf("map is not symmetric: there are no valid orientation sets")
	}
	return valid, nil
}

// initialVisionSquares: squares reachable without crossing water within
// viewradius2 of some hill.
func (s *State) initialVisionSquares() []bool {
	seen := make([]bool, s.Rows*s.Cols)
	for _, h := range s.Hills {
		queue := []int{h.Loc}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			seen[c] = true
			for _, d := range []byte{'n', 'e', 's', 'w'} {
				nl := s.destination(c, aimRow[d], aimCol[d])
				if !seen[nl] && s.grid[nl] != water && s.distance(h.Loc, nl) <= s.opt.ViewRadius2 {
					seen[nl] = true // the engine queues duplicates; the set it builds is the same
					queue = append(queue, nl)
				}
			}
		}
	}
	return seen
}

// symmetricFoodSets is get_symmetric_food_sets: the map cut into sets of
// squares at the same offset from every player's hill.
func (s *State) symmetricFoodSets(starting bool) ([][]int, error) {
	if !s.symmetryDone {
		valid, err := s.mapSymmetry()
		if err != nil {
			return nil, err
		}
		s.symmetry = valid[s.rng.Choice(len(valid))]
		s.symmetryDone = true
	}
	size := s.Rows * s.Cols
	visited := make([]bool, size)
	var vision []bool
	if starting {
		vision = s.initialVisionSquares()
	}
	ant0 := s.symmetry[0].loc
	var sets [][]int
	items := make([][2]int, len(s.symmetry))
	var uniq [][2]int
	var locs []int
	var orderer pyrandom.SetOrderer
	sets = make([][]int, 0, size/max(len(s.symmetry), 1)+1)
	// every square is in at most one set: one backing array holds them all
	slab := make([]int, 0, size)
	for loc := 0; loc < size; loc++ {
		if visited[loc] || s.hillAt[loc] != nil || (starting && !vision[loc]) {
			continue
		}
		or, oc := s.row(loc)-s.row(ant0), s.col(loc)-s.col(ant0)
		for i, x := range s.symmetry {
			dr, dc := offsetAim(or, oc, x.aim)
			d := s.destination(x.loc, dr, dc)
			items[i] = [2]int{s.row(d), s.col(d)}
		}
		uniq = orderer.Order(uniq[:0], items)
		locs = locs[:0]
		for _, u := range uniq {
			locs = append(locs, u[0]*s.Cols+u[1])
		}
		tooClose := false
		for _, l2 := range locs[1:] {
			if s.distance(locs[0], l2) == 1 {
				tooClose = true
				break
			}
		}
		if tooClose {
			continue
		}
		if !starting || len(locs) == s.N {
			for _, l := range locs {
				visited[l] = true
			}
			start := len(slab)
			slab = append(slab, locs...)
			sets = append(sets, slab[start:len(slab):len(slab)])
		}
	}
	return sets, nil
}

// setDeque is the engine's collections.deque of food sets, as a ring: the
// nil entry is its sentinel. Index 0 is the left end.
type setDeque struct {
	buf  [][]int
	head int
	n    int
}

func newSetDeque(sets [][]int) *setDeque {
	d := &setDeque{buf: make([][]int, len(sets)+2)}
	for _, s := range sets {
		d.pushRight(s)
	}
	return d
}

func (d *setDeque) at(i int) *[]int { return &d.buf[(d.head+i)%len(d.buf)] }

func (d *setDeque) grow() {
	if d.n < len(d.buf) {
		return
	}
	nb := make([][]int, 2*len(d.buf)+1)
	for i := 0; i < d.n; i++ {
		nb[i] = *d.at(i)
	}
	d.buf, d.head = nb, 0
}

func (d *setDeque) pushRight(s []int) {
	d.grow()
	*d.at(d.n) = s
	d.n++
}

func (d *setDeque) pushLeft(s []int) {
	d.grow()
	d.head = (d.head - 1 + len(d.buf)) % len(d.buf)
	d.buf[d.head] = s
	d.n++
}

func (d *setDeque) popRight() []int {
	d.n--
	p := d.at(d.n)
	s := *p
	*p = nil
	return s
}

// cycleSets is the loop shared by do_food_visible and do_food_symmetric:
// sets are taken from the right and put back on the left; reaching the
// sentinel reshuffles the deque (random.shuffle on the deque).
func (s *State) cycleSets(d *setDeque, amount int) int {
	for {
		set := d.popRight()
		if set == nil {
			s.rng.Shuffle(d.n, func(i, j int) { a, b := d.at(i), d.at(j); *a, *b = *b, *a })
			d.pushLeft(nil)
			set = d.popRight()
			if set == nil {
				// No sets at all: the engine would fail here; place nothing.
				d.pushRight(nil)
				s.placeFood()
				return amount
			}
		}
		if len(set) > amount {
			d.pushRight(set)
			s.placeFood()
			return amount
		}
		amount -= len(set)
		d.pushLeft(set)
		for _, l := range set {
			s.pending.add(l)
		}
	}
}

func (s *State) doFoodVisible(amount int) (int, error) {
	if !s.visibleBuilt {
		sets, err := s.symmetricFoodSets(true)
		if err != nil {
			return 0, err
		}
		s.visibleSets = newSetDeque(append(sets, nil))
		s.visibleBuilt = true
	}
	return s.cycleSets(s.visibleSets, amount), nil
}

func (s *State) doFoodSymmetric(amount int) (int, error) {
	if !s.foodSetsBuilt {
		sets, err := s.symmetricFoodSets(false)
		if err != nil {
			return 0, err
		}
		s.foodSets = newSetDeque(append(sets, nil))
		s.foodSetsBuilt = true
	}
	return s.cycleSets(s.foodSets, amount), nil
}
