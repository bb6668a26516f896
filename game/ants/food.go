package ants

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"arena/game/ants/pyrandom"
)

// pendingFood is the engine's pending_food: a dict from square to count
// that keeps its keys in first-insertion order (food is placed in that
// order, which decides the order of the replay's food list).
type pendingFood struct {
	count []int32
	keys  []int
}

func (p *pendingFood) init(size int) { p.count = make([]int32, size) }

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
		for _, d := range directions {
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
	// The square seen from loc2 moves by a unit step per row and per
	// column of the scan: follow it with steps instead of wrapping
	// offsetAim(r, c, aim) for every square.
	rowStepR, rowStepC := offsetAim(1, 0, aim)
	colStepR, colStepC := offsetAim(0, 1, aim)
	startR, startC := s.row(loc2), s.col(loc2) // seen from loc2 at (r, 0)
	for r := 0; r < s.Rows; r++ {
		row0 := wrap(r1+r, s.Rows) * s.Cols
		c0 := c1
		pr, pc := startR, startC
		for c := 0; c < s.Cols; c++ {
			i0 := int(s.grid[row0+c0])
			i1 := int(s.grid[pr*s.Cols+pc])
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
			if c0++; c0 == s.Cols {
				c0 = 0
			}
			pr, pc = unitStep(pr, colStepR, s.Rows), unitStep(pc, colStepC, s.Cols)
		}
		startR, startC = unitStep(startR, rowStepR, s.Rows), unitStep(startC, rowStepC, s.Cols)
	}
	return enemy
}

// unitStep is v+d modulo n for v in [0, n) and d in -1..1.
func unitStep(v, d, n int) int {
	v += d
	if v < 0 {
		v += n
	} else if v >= n {
		v -= n
	}
	return v
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
		type fix struct {
			loc int
			v   int8
		}
		var fixes []fix
		for _, x := range o {
			dr, dc := offsetAim(1, 2, x.aim)
			l := s.destination(x.loc, dr, dc)
			fixes = append(fixes, fix{l, s.grid[l]})
			s.grid[l] = food
		}
		ok := true
		// o[0] is player 0's hill as is: the map is always similar to itself.
		for _, x := range o[1:] {
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
	var queue []int
	for _, h := range s.Hills {
		queue = append(queue[:0], h.Loc)
		for i := 0; i < len(queue); i++ {
			c := queue[i]
			seen[c] = true
			for _, d := range directions {
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

// foodSets are the sets of squares of get_symmetric_food_sets, all in one
// array without pointers (the collector need not look into it): set i is
// locs[start[i]:start[i+1]].
type foodSets struct {
	locs  []int32
	start []int32
}

func (f *foodSets) set(i int32) []int32 { return f.locs[f.start[i]:f.start[i+1]] }

// FoodCache keeps what symmetric food costs at the start of a game, for
// the other games on the same map: the map's valid symmetries (one of
// them is drawn per game) and the food sets of each. A runner of many
// games makes one and hands it to each game (State.UseFoodCache); the
// games may run at once. A game takes an entry only when its board at
// the start is the one the entry was made from, so a game gets the same
// food with any cache as with none.
type FoodCache struct {
	mu      sync.Mutex
	entries []*foodCacheEntry // the most recently made last
}

// foodCacheMax bounds the maps a FoodCache keeps (a runner generating a
// map per game would otherwise fill it without end).
const foodCacheMax = 16

// NewFoodCache returns an empty cache.
func NewFoodCache() *FoodCache { return &FoodCache{} }

// foodCacheEntry is one board: what the symmetry search read (the map as
// a byte per square, ants on their hills, and the hills), and what
// followed from it. Nothing in it changes once stored.
type foodCacheEntry struct {
	rows, cols int
	grid       []byte
	hills      []int // loc<<4 | owner+1, in the map's order
	valid      [][]orientation
	sets       map[foodSetsKey]*foodSets
}

// foodSetsKey names the food sets of one symmetry (its index in valid):
// of the whole map, or of the squares in sight at the start for a
// viewradius2.
type foodSetsKey struct {
	choice      int
	starting    bool
	viewRadius2 int
}

// UseFoodCache makes the game take its symmetric food sets from c and
// leave them there; call it before StartGame. nil: no cache.
func (s *State) UseFoodCache(c *FoodCache) { s.foodCache = c }

// hillKeysInOrder is the hills as loc<<4 | owner+1, in the map's order.
func (s *State) hillKeysInOrder() []int {
	keys := make([]int, len(s.Hills))
	for i, h := range s.Hills {
		keys[i] = h.Loc<<4 | (h.Owner + 1)
	}
	return keys
}

// find returns the entry made from s's board as it is now, or nil.
func (c *FoodCache) find(s *State) *foodCacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.findLocked(s.Rows, s.Cols, s.hillKeysInOrder(), s.gridBytes[:len(s.grid)])
}

func (c *FoodCache) findLocked(rows, cols int, hills []int, grid []byte) *foodCacheEntry {
	for _, e := range c.entries {
		if e.rows == rows && e.cols == cols && slices.Equal(e.hills, hills) && bytes.Equal(e.grid, grid) {
			return e
		}
	}
	return nil
}

// add stores the entry for s's board as it is now, with its valid
// symmetries, and returns it (or the one another game stored first).
func (c *FoodCache) add(s *State, valid [][]orientation) *foodCacheEntry {
	e := &foodCacheEntry{rows: s.Rows, cols: s.Cols, grid: append([]byte(nil), s.gridBytes[:len(s.grid)]...),
		hills: s.hillKeysInOrder(), valid: valid, sets: map[foodSetsKey]*foodSets{}}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.findLocked(e.rows, e.cols, e.hills, e.grid); old != nil {
		return old
	}
	if len(c.entries) == foodCacheMax {
		c.entries = slices.Delete(c.entries, 0, 1)
	}
	c.entries = append(c.entries, e)
	return e
}

func (c *FoodCache) sets(e *foodCacheEntry, k foodSetsKey) *foodSets {
	c.mu.Lock()
	defer c.mu.Unlock()
	return e.sets[k]
}

func (c *FoodCache) putSets(e *foodCacheEntry, k foodSetsKey, sets *foodSets) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.sets[k] == nil {
		e.sets[k] = sets
	}
}

// validSymmetries is mapSymmetry, from the cache when it has the board.
func (s *State) validSymmetries() ([][]orientation, error) {
	if s.foodCache != nil {
		if e := s.foodCache.find(s); e != nil {
			s.foodEntry = e
			return e.valid, nil
		}
	}
	valid, err := s.mapSymmetry()
	if err != nil {
		return nil, err
	}
	if s.foodCache != nil {
		s.foodEntry = s.foodCache.add(s, valid)
		valid = s.foodEntry.valid
	}
	return valid, nil
}

// symmetricFoodSets is get_symmetric_food_sets: the map cut into sets of
// squares at the same offset from every player's hill; from the cache
// when it has them.
func (s *State) symmetricFoodSets(starting bool) (*foodSets, error) {
	if !s.symmetryDone {
		valid, err := s.validSymmetries()
		if err != nil {
			return nil, err
		}
		s.symmetryChoice = s.rng.Choice(len(valid))
		s.symmetry = valid[s.symmetryChoice]
		s.symmetryDone = true
	}
	if s.foodEntry == nil {
		return s.makeFoodSets(starting), nil
	}
	k := foodSetsKey{choice: s.symmetryChoice, starting: starting}
	if starting {
		k.viewRadius2 = s.opt.ViewRadius2
	}
	if sets := s.foodCache.sets(s.foodEntry, k); sets != nil {
		return sets, nil
	}
	sets := s.makeFoodSets(starting)
	s.foodCache.putSets(s.foodEntry, k, sets)
	return sets, nil
}

// makeFoodSets works out the food sets of s.symmetry.
func (s *State) makeFoodSets(starting bool) *foodSets {
	size := s.Rows * s.Cols
	visited := make([]bool, size)
	var vision []bool
	if starting {
		vision = s.initialVisionSquares()
	}
	ant0 := s.symmetry[0].loc
	r0, c0 := s.row(ant0), s.col(ant0)
	hillRow := make([]int, len(s.symmetry))
	hillCol := make([]int, len(s.symmetry))
	for i, x := range s.symmetry {
		hillRow[i], hillCol[i] = s.row(x.loc), s.col(x.loc)
	}
	items := make([][2]int, len(s.symmetry))
	var uniq [][2]int
	var orderer pyrandom.SetOrderer
	// Every square is in at most one set: of the map, or at the start of
	// the squares in sight.
	room := size
	if starting {
		room = 0
		for _, v := range vision {
			if v {
				room++
			}
		}
	}
	sets := &foodSets{locs: make([]int32, 0, room), start: make([]int32, 1, room/max(len(s.symmetry), 1)+2)}
	// The same squares in the same order as a loop over loc, without a
	// division per square (the hot loop of the game's start).
	for r, loc := 0, 0; r < s.Rows; r++ {
		for c := 0; c < s.Cols; c, loc = c+1, loc+1 {
			if visited[loc] || s.hillOn(loc) != nil || (starting && !vision[loc]) {
				continue
			}
			or, oc := r-r0, c-c0
			for i, x := range s.symmetry {
				dr, dc := offsetAim(or, oc, x.aim)
				items[i] = [2]int{wrap(hillRow[i]+dr, s.Rows), wrap(hillCol[i]+dc, s.Cols)}
			}
			uniq = orderer.Order(uniq[:0], items)
			tooClose := false
			for _, u := range uniq[1:] {
				if s.adjacent(uniq[0], u) {
					tooClose = true
					break
				}
			}
			if tooClose {
				continue
			}
			if !starting || len(uniq) == s.N {
				for _, u := range uniq {
					l := u[0]*s.Cols + u[1]
					visited[l] = true
					sets.locs = append(sets.locs, int32(l))
				}
				sets.start = append(sets.start, int32(len(sets.locs)))
			}
		}
	}
	return sets
}

// wrap is v modulo n, for v within one map size of the range.
func wrap(v, n int) int {
	switch {
	case v < 0:
		v += n
	case v >= n:
		v -= n
	}
	if v < 0 || v >= n {
		v = mod(v, n)
	}
	return v
}

// adjacent reports whether squares a and b (row, col) are at distance 1.
func (s *State) adjacent(a, b [2]int) bool {
	dr := a[0] - b[0]
	if dr < 0 {
		dr = -dr
	}
	dr = min(dr, s.Rows-dr)
	dc := a[1] - b[1]
	if dc < 0 {
		dc = -dc
	}
	dc = min(dc, s.Cols-dc)
	return dr*dr+dc*dc == 1
}

// setDeque is the engine's collections.deque of food sets (set ids), as a
// ring: -1 is its sentinel (the None at its end). Index 0 is the left end.
type setDeque struct {
	sets *foodSets
	buf  []int32
	head int
	n    int
}

const noSet = -1

func newSetDeque(sets *foodSets) *setDeque {
	n := len(sets.start) - 1
	d := &setDeque{sets: sets, buf: make([]int32, n+2)}
	for i := 0; i < n; i++ {
		d.pushRight(int32(i))
	}
	d.pushRight(noSet)
	return d
}

func (d *setDeque) at(i int) *int32 {
	i += d.head
	if i >= len(d.buf) {
		i -= len(d.buf)
	}
	return &d.buf[i]
}

func (d *setDeque) grow() {
	if d.n < len(d.buf) {
		return
	}
	nb := make([]int32, 2*len(d.buf)+1)
	for i := 0; i < d.n; i++ {
		nb[i] = *d.at(i)
	}
	d.buf, d.head = nb, 0
}

func (d *setDeque) pushRight(s int32) {
	d.grow()
	*d.at(d.n) = s
	d.n++
}

func (d *setDeque) pushLeft(s int32) {
	d.grow()
	d.head = (d.head - 1 + len(d.buf)) % len(d.buf)
	d.buf[d.head] = s
	d.n++
}

func (d *setDeque) popRight() int32 {
	d.n--
	p := d.at(d.n)
	s := *p
	*p = noSet
	return s
}

// cycleSets is the loop shared by do_food_visible and do_food_symmetric:
// sets are taken from the right and put back on the left; reaching the
// sentinel reshuffles the deque (random.shuffle on the deque).
func (s *State) cycleSets(d *setDeque, amount int) int {
	for {
		id := d.popRight()
		if id == noSet {
			s.rng.Shuffle(d.n, func(i, j int) { a, b := d.at(i), d.at(j); *a, *b = *b, *a })
			d.pushLeft(noSet)
			id = d.popRight()
			if id == noSet {
				// No sets at all: the engine would fail here; place nothing.
				d.pushRight(noSet)
				s.placeFood()
				return amount
			}
		}
		set := d.sets.set(id)
		if len(set) > amount {
			d.pushRight(id)
			s.placeFood()
			return amount
		}
		amount -= len(set)
		d.pushLeft(id)
		for _, l := range set {
			s.pending.add(int(l))
		}
	}
}

func (s *State) doFoodVisible(amount int) (int, error) {
	if !s.visibleBuilt {
		sets, err := s.symmetricFoodSets(true)
		if err != nil {
			return 0, err
		}
		s.visibleSets = newSetDeque(sets)
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
		s.foodSets = newSetDeque(sets)
		s.foodSetsBuilt = true
	}
	return s.cycleSets(s.foodSets, amount), nil
}
