package ants

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"unsafe"

	"arena/game/ants/pyrandom"
)

// Square contents of the engine's map. Hills are kept apart (State.hills),
// so an empty hill reads as land, exactly as in ants.py.
const (
	land  = -2
	food  = -3
	water = -4
)

// Scoring constants of the official engine.
const (
	hillPoints = 2
	razePoints = -1
)

// Directions: the order of AIM in ants.py. Indexed by the order letter
// (arrays, not maps: they are read for every move and every BFS step).
var aimRow = [256]int{'n': -1, 'e': 0, 's': 1, 'w': 0}
var aimCol = [256]int{'n': 0, 'e': 1, 's': 0, 'w': -1}

// directions are the order letters in AIM's order.
var directions = [4]byte{'n', 'e', 's', 'w'}

// Ant is one ant, alive or dead.
type Ant struct {
	// What every turn reads and writes comes first, in one cache line.
	Loc, Owner int
	id         int32 // index in State.antList plus one
	// Its orders (one of n e s w - per turn alive) are in the rows
	// ordFrom..ordFrom+ordN-1 of State.orderLog, at column slot: an Ant
	// holds no pointer, so the collector never looks inside one.
	slot, ordFrom, ordN int32
	moveTurn            int32 // doOrders: the turn moveIdx is for
	moveIdx             int32
	currentSlot         int32
	inCurrent           bool
	Killed              bool
	InitialLoc          int
	SpawnTurn           int
	DieTurn             int
}

// Food is one piece of food ever placed.
type Food struct {
	Loc, StartTurn int
	EndTurn        int   // 0 while it lies on the map
	Owner          int   // -1 unless gathered
	slot           int   // index in State.currentFood
	gatherStamp    int   // doGather: an ant is near, this turn
	id             int32 // index in State.AllFood plus one
}

// Hill is one hill.
type Hill struct {
	Loc, Owner  int
	EndTurn     int // 0 while standing
	KilledBy    int // -1 while standing
	RazePoints  bool
	LastTouched int
	id          int32 // index in State.Hills plus one
}

// State is the referee of one game: the rules of ants.py, phase for
// phase, drawing random numbers in the same order. It does no I/O.
type State struct {
	opt  Options
	rng  *pyrandom.Rand
	Rows int
	Cols int
	N    int // players

	EngineSeed, PlayerSeed                   int64
	FoodRate, FoodTurn, FoodStart, FoodVisib int
	foodExtraNum                             int64 // food_extra * food_turn

	Turn     int
	colRecip uint64 // recipBelow16(Cols) when Rows*Cols < 2^16, else 0 (row)
	grid     []int8 // owner of the live ant, or land/food/water (a byte a square: the map is scanned often)
	// gridBytes is grid's memory, eight spare bytes included, as bytes
	// (enemyNear reads it eight squares at a time).
	gridBytes []byte
	enemyScan *enemyScan // doAttackFocus' filter, built on first use
	blocks    blockGrid  // doAttackFocus' first filter

	antAt      []int32 // live ant per square: its id, 0 for none (antOn)
	antList    []*Ant  // every ant ever, by id-1
	current    []*Ant  // live ants in the engine's dict order (holes compacted lazily)
	holes      int
	killedAnts []*Ant
	AllAnts    []*Ant

	AllFood     []*Food
	foodAt      []int32 // food per square: its id, 0 for none (foodOn)
	currentFood []*Food // engine dict order, holes (nil) compacted lazily by liveFood
	foodHoles   int
	pending     pendingFood

	Hills  []*Hill
	hillAt []int32 // hill per square: its id, 0 for none (hillOn)

	hive        []int
	HiveHistory [][]int
	Score       []int
	Bonus       []int
	ScoreHist   [][]int

	Cutoff         string
	cutoffBot      int // owner, food or land
	cutoffTurns    int
	hillKill       bool
	winningBot     []int
	WinningTurn    int
	rankingBots    []int
	rankingSet     bool
	RankingTurn    int
	killed         []bool
	orders         [][]order
	landArea       int
	initialMap     []int8
	originalMap    []int8           // scenario: the map as given
	neighbourhoods []*neighbourhood // by radius, built on first use

	vision        [][]uint64 // per player: a bit per square in sight (vision.go)
	revealed      [][]uint64 // per player: a bit per square ever in sight
	waterBits     []uint64   // a bit per square of water
	visionSpans   []visionSpan
	visionSteps   []int     // visionSpans' steps and masks, apart (markDisc's inner loop)
	visionZeros   []int     // 63 - 2w: the zeros above a span's mask
	visionGap     int       // markRun: ants of a run no further apart than this
	visionMaxExt  int       // nor than this from its first
	visionReach   int       // no square in sight is further in rows or columns
	visionPlain   bool      // every span of the disc fits in a word
	discWords     []uint64  // markRun: a lone ant's whole disc as words, per bit phase (discLen each); nil: spans
	discLen       int       // words per phase in discWords
	discBits      int       // the disc's extent in bits from its first square
	discMin       int       // the disc's first square from the ant's (negative)
	edgeWords     []uint64  // markRun: a lone ant's disc near the left or right edge, from its first row's start, per phase and column; nil: spans
	edgeLen       int       // words per disc in edgeWords
	edgePhase     [64]int16 // the index in edgeWords of a first row's bit phase, -1 for none
	revealedWater [][]int
	wrapRow       []int32   // for r + dr + visionReach: the first square of row (r + dr) mod Rows
	revealAnts    []int     // updateRevealed's buffer
	ownerAnts     [][]int32 // per player: the squares of its live ants, row-major (updateVision), of owners not met by all
	allMet        bool      // every player has an id for every other: no more first sightings
	switchIDs     [][]int   // per player: engine id -> perspective id, -1 unknown

	// symmetric food
	symmetry       []orientation
	symmetryChoice int // symmetry's index among the valid ones
	symmetryDone   bool
	foodCache      *FoodCache      // nil: none
	foodEntry      *foodCacheEntry // this game's board in foodCache
	foodSets       *setDeque
	foodSetsBuilt  bool
	visibleSets    *setDeque
	visibleBuilt   bool
	accessMap      [][]int
	accessMapBuilt bool

	// The state lines' sorted parts (state.go's text functions): the
	// standing hills and this turn's dead as keys loc<<4 | owner+1,
	// sorted, valid while keysValid; the live ants and the food as a bit
	// per square, read in square order.
	hillKeys, deadKeys []int
	keysValid          bool
	antMap             []uint64 // live ants as of antMapGen
	antMapGen          uint64
	foodMap            []uint64 // squares with food, kept as food comes and goes
	numWord            []uint64 // decimal text of 0..max(Rows, Cols)-1 and a space, little-endian
	numLen             []uint8  // its length
	textBuf            []byte   // reused by PlayerState and FullState
	trueIDs            []int    // 0..N-1: FullState's numbering of the players

	seen                     []int32 // DoMoves: squares ordered, marked with seenStamp
	seenStamp                int32
	moveCells                []moveCell // doOrders: arrivals per square
	moveStamp                int32
	gatherStamp              int
	gatherBuf                []*Food
	validLines               [][]string // DoMoves: per player, the valid lines' buffer
	attackWeak, attackStart  []int      // doAttackFocus' buffers
	attackEnemies            []*Ant
	spawnBuf                 []keyedHill
	sortedScores             []int // calcSignificantTurns' buffers
	spareRanking             []int
	spareWinning             []int
	cutoffKeys, cutoffCounts []int     // countCutoff's buffers
	live                     []int     // liveAnts: per player, the ants in current
	antGen                   uint64    // changes whenever a live ant comes, goes or moves
	moves                    []antMove // doOrders' buffer
	moveOrder                []int

	// orderLog is every ant's orders, a row per call of doOrders: the
	// live ants' order slots are its columns (a slot is taken at birth
	// and given back at death). Row i is orderLog[orderBlock[i]] from
	// orderRow[i], as wide as orderSlots was then. The rows fill blocks
	// of at least orderBlockSize bytes, never copied as they grow.
	orderLog   [][]byte
	orderBlock []int32
	orderRow   []int32
	orderSlots int32   // slots ever handed out
	freeSlots  []int32 // slots of dead ants, to hand out again
}

// orderBlockSize is the least size of a block of orderLog.
const orderBlockSize = 64 << 10

// orderRowBuf returns a fresh row of orderLog, orderSlots wide, and its
// index.
func (s *State) orderRowBuf() ([]byte, int32) {
	w := int(s.orderSlots)
	last := len(s.orderLog) - 1
	if last < 0 || cap(s.orderLog[last])-len(s.orderLog[last]) < w {
		s.orderLog = append(s.orderLog, make([]byte, 0, max(orderBlockSize, 4*w)))
		last++
	}
	blk := s.orderLog[last]
	n := len(blk)
	s.orderLog[last] = blk[:n+w]
	s.orderBlock = append(s.orderBlock, int32(last))
	s.orderRow = append(s.orderRow, int32(n))
	return blk[n : n+w], int32(len(s.orderRow) - 1)
}

// takeSlot hands out an order slot (a column of orderLog).
func (s *State) takeSlot() int32 {
	if n := len(s.freeSlots); n > 0 {
		k := s.freeSlots[n-1]
		s.freeSlots = s.freeSlots[:n-1]
		return k
	}
	s.orderSlots++
	return s.orderSlots - 1
}

// AntOrders is ant a's orders, one of n e s w - per turn it was alive
// at the moves (the replay's orders string).
func (s *State) AntOrders(a *Ant) string {
	return string(s.appendAntOrders(nil, a))
}

// appendAntOrders appends ant a's orders to b.
func (s *State) appendAntOrders(b []byte, a *Ant) []byte {
	for i := a.ordFrom; i < a.ordFrom+a.ordN; i++ {
		b = append(b, s.orderLog[s.orderBlock[i]][s.orderRow[i]+a.slot])
	}
	return b
}

// moveCell is what doOrders knows of a square: how many ants reach it
// this turn (while stamp is the turn's moveStamp) and the last of them.
type moveCell struct {
	stamp, count, ant int32
}

// antMove is one ant's move of the turn ('-' holds) and where it ends;
// the ant by its id (no pointer: writing one costs more while the
// collector runs).
type antMove struct {
	id, dest int32
	dir      byte
}

// order is a valid order: the ant's square, where it goes, the letter.
type order struct {
	loc, dest int32
	dir       byte
}

// NewState builds the game as Ants.__init__ does: draws the food
// parameters from engine_seed, places one ant per hill (or the scenario's
// ants and food) and computes the first vision.
func NewState(m *Map, opt Options) (*State, error) {
	opt = opt.withDefaults()
	s := &State{opt: opt, Rows: m.Rows, Cols: m.Cols, N: m.Players, live: make([]int, m.Players)}
	s.EngineSeed, s.PlayerSeed = opt.EngineSeed, opt.PlayerSeed
	s.rng = pyrandom.New(s.EngineSeed)
	draw := func(r [2]int) (int, error) {
		if r[1] < r[0] {
			return 0, fmt.Errorf("empty range %d..%d", r[0], r[1])
		}
		return int(s.rng.Randrange(int64(r[0]), int64(r[1])+1)), nil
	}
	var err error
	if s.FoodRate, err = draw(opt.FoodRate); err != nil {
		return nil, fmt.Errorf("food_rate: %w", err)
	}
	if s.FoodTurn, err = draw(opt.FoodTurn); err != nil {
		return nil, fmt.Errorf("food_turn: %w", err)
	}
	if s.FoodTurn == 0 {
		return nil, fmt.Errorf("food_turn: must not be 0")
	}
	if s.FoodStart, err = draw(opt.FoodStart); err != nil {
		return nil, fmt.Errorf("food_start: %w", err)
	}
	if s.FoodVisib, err = draw(opt.FoodVisible); err != nil {
		return nil, fmt.Errorf("food_visible: %w", err)
	}
	if m.Rows >= 100000 || m.Cols >= 100000 {
		return nil, fmt.Errorf("map: %dx%d is too big (under 100000 rows and columns)", m.Rows, m.Cols)
	}
	size := m.Rows * m.Cols
	if size < 1<<16 {
		s.colRecip = recipBelow16(m.Cols)
	}
	s.initNumbers()
	// Eight bytes to spare: enemyNear reads the map eight squares at a
	// time and may read past its last square (those bytes it ignores).
	s.grid = make([]int8, size, size+8)
	s.gridBytes = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s.grid))), size+8)
	for i := range s.grid {
		s.grid[i] = land
	}
	for _, w := range m.Water {
		s.grid[w] = water
	}
	s.landArea = size - len(m.Water)
	// Ids rather than pointers per square: the collector need not scan
	// these arrays, and writing them needs no write barrier.
	s.antAt = make([]int32, size)
	s.foodAt = make([]int32, size)
	s.hillAt = make([]int32, size)
	s.pending.init(size)
	s.foodMap = make([]uint64, (size+63)/64)
	s.hive = make([]int, s.N)
	s.HiveHistory = make([][]int, s.N)
	for i := range s.HiveHistory {
		s.HiveHistory[i] = []int{0}
	}
	s.cutoffBot = land
	for _, h := range m.Hills {
		hill := &Hill{Loc: h.Loc, Owner: h.Owner, KilledBy: -1}
		s.Hills = append(s.Hills, hill)
		hill.id = int32(len(s.Hills))
		s.hillAt[h.Loc] = hill.id
		if !opt.Scenario || len(m.Ants) == 0 {
			s.addAnt(hill)
		}
	}
	if opt.Scenario {
		for _, a := range m.Ants {
			if s.antOn(a.Loc) != nil {
				s.dropAnt(s.antOn(a.Loc))
			}
			s.addInitialAnt(a.Loc, a.Owner)
		}
		for _, f := range m.Food {
			if s.grid[f] != land {
				return nil, fmt.Errorf("scenario: food on an occupied square")
			}
			s.addFood(f)
		}
		s.originalMap = append([]int8(nil), s.grid...)
	}
	hills0 := 0
	for _, h := range s.Hills {
		if h.Owner == 0 {
			hills0++
		}
	}
	s.Score = make([]int, s.N)
	s.Bonus = make([]int, s.N)
	s.ScoreHist = make([][]int, s.N)
	for i := range s.Score {
		s.Score[i] = hills0
		s.ScoreHist[i] = []int{hills0}
	}
	s.initialMap = append([]int8(nil), s.grid...)
	s.killed = make([]bool, s.N)
	s.switchIDs = make([][]int, s.N)
	for i := range s.switchIDs {
		ids := make([]int, s.N)
		for j := range ids {
			ids[j] = -1
		}
		ids[i] = 0
		s.switchIDs[i] = ids
	}
	s.initVision()
	s.orders = make([][]order, s.N)
	return s, nil
}

// initNumbers writes the decimal text of every row and column number
// once: the state lines of every turn copy them instead of formatting.
func (s *State) initNumbers() {
	n := max(s.Rows, s.Cols)
	s.numWord = make([]uint64, n)
	s.numLen = make([]uint8, n)
	for i := 0; i < n; i++ {
		var w [8]byte
		t := append(strconv.AppendInt(w[:0], int64(i), 10), ' ')
		s.numWord[i] = binary.LittleEndian.Uint64(w[:])
		s.numLen[i] = uint8(len(t))
	}
}

// dropAnt removes an ant without recording a death (a scenario ant
// replacing the hill ant at the same square: the engine's dict overwrites).
func (s *State) dropAnt(a *Ant) {
	s.antAt[a.Loc] = 0
	s.removeCurrent(a)
	s.freeSlots = append(s.freeSlots, a.slot)
	for i, b := range s.AllAnts {
		if b == a {
			s.AllAnts = append(s.AllAnts[:i], s.AllAnts[i+1:]...)
			break
		}
	}
}

// row is loc / Cols: by a multiply when the map has fewer than 2^16
// squares (see colRecip), a division is slow.
func (s *State) row(loc int) int {
	if s.colRecip != 0 {
		return int(uint64(loc) * s.colRecip >> 32)
	}
	return loc / s.Cols
}

func (s *State) col(loc int) int { return loc - s.row(loc)*s.Cols }

// recipBelow16 is ceil(2^32 / d). For n and d below 2^16, n*m >> 32 is
// n / d: n*m/2^32 exceeds n/d by less than n/2^32 < 2^-16, less than the
// 1/d by which n/d falls short of the next integer.
func recipBelow16(d int) uint64 {
	return (1<<32 + uint64(d) - 1) / uint64(d)
}

func mod(a, b int) int {
	a %= b
	if a < 0 {
		a += b
	}
	return a
}

// destination is loc moved by (dr, dc) on the torus.
func (s *State) destination(loc, dr, dc int) int {
	r := s.row(loc)
	r, c := r+dr, loc-r*s.Cols+dc
	if r < 0 || r >= s.Rows {
		r = mod(r, s.Rows)
	}
	if c < 0 || c >= s.Cols {
		c = mod(c, s.Cols)
	}
	return r*s.Cols + c
}

// distance is the squared Euclidean distance on the torus.
func (s *State) distance(a, b int) int {
	dr := s.row(a) - s.row(b)
	if dr < 0 {
		dr = -dr
	}
	dr = min(dr, s.Rows-dr)
	dc := s.col(a) - s.col(b)
	if dc < 0 {
		dc = -dc
	}
	dc = min(dc, s.Cols-dc)
	return dr*dr + dc*dc
}

// neighbourhood is the offsets with 0 < d2 <= max2, in the engine's order
// and with its duplicates on maps smaller than the radius: as (dr mod
// Rows, dc mod Cols) pairs, and as signed square-index steps (dr*Cols+dc)
// for squares at least reach away from the map's edges, where no offset
// wraps.
type neighbourhood struct {
	max2  int
	offs  [][2]int
	steps []int
	reach int
}

// neighbourhoodOf returns the neighbourhood for max2, built once per State.
func (s *State) neighbourhoodOf(max2 int) *neighbourhood {
	for _, n := range s.neighbourhoods {
		if n.max2 == max2 {
			return n
		}
	}
	mx := isqrt(max2)
	n := &neighbourhood{max2: max2, reach: mx}
	for dr := -mx; dr <= mx; dr++ {
		for dc := -mx; dc <= mx; dc++ {
			if d := dr*dr + dc*dc; d > 0 && d <= max2 {
				n.offs = append(n.offs, [2]int{mod(dr, s.Rows), mod(dc, s.Cols)})
				n.steps = append(n.steps, dr*s.Cols+dc)
			}
		}
	}
	s.neighbourhoods = append(s.neighbourhoods, n)
	return n
}

// neighbourhoodOffsets are the offsets with 0 < d2 <= max, in the engine's
// order and with its duplicates on maps smaller than the radius.
func (s *State) neighbourhoodOffsets(max2 int) [][2]int {
	return s.neighbourhoodOf(max2).offs
}

// inner reports whether every square within reach of loc is on the map
// without wrapping.
func (s *State) inner(loc, reach int) bool {
	r := s.row(loc)
	c := loc - r*s.Cols
	return r >= reach && r+reach < s.Rows && c >= reach && c+reach < s.Cols
}

func isqrt(v int) int {
	r := 0
	for (r+1)*(r+1) <= v {
		r++
	}
	return r
}

// nearbyAnts lists the live ants at 0 < d2 <= max2 from loc whose owner is
// not exclude (-100 excludes nobody), as nearby_ants does.
func (s *State) nearbyAnts(loc, max2, exclude int, out []*Ant) []*Ant {
	n := s.neighbourhoodOf(max2)
	if s.inner(loc, n.reach) {
		// The common case: plain index steps, no wrapping.
		for _, st := range n.steps {
			if v := int(s.grid[loc+st]); v >= 0 && v != exclude {
				out = append(out, s.antOn(loc+st))
			}
		}
		return out
	}
	r, c := s.row(loc), s.col(loc)
	for _, o := range n.offs {
		nr := r + o[0]
		if nr >= s.Rows {
			nr -= s.Rows
		}
		nc := c + o[1]
		if nc >= s.Cols {
			nc -= s.Cols
		}
		v := int(s.grid[nr*s.Cols+nc])
		if v >= 0 && v != exclude {
			out = append(out, s.antOn(nr*s.Cols+nc))
		}
	}
	return out
}

// enemyScan covers the disc of squares with d2 <= max2 around a square
// with one row span per row, each read from the map as one 8-byte word:
// for radii up to 3 squares (max2 < 16) every span fits in a word.
type enemyScan struct {
	max2  int
	reach int
	spans []enemySpan // nil when a span does not fit in a word
}

// enemySpan is one row of the disc: the word at loc+off, of which the
// bytes under mask (their top bits) are in the disc.
type enemySpan struct {
	off  int
	mask uint64
}

func (s *State) newEnemyScan(max2 int) *enemyScan {
	reach := isqrt(max2)
	e := &enemyScan{max2: max2, reach: reach}
	if reach > 3 {
		return e
	}
	for dr := -reach; dr <= reach; dr++ {
		w := isqrt(max2 - dr*dr)
		var mask uint64
		for i := 0; i < 2*w+1; i++ {
			mask |= 0x80 << (8 * i)
		}
		e.spans = append(e.spans, enemySpan{off: dr*s.Cols - w, mask: mask})
	}
	return e
}

// enemyNear reports whether some live ant not owned by owner stands
// within the scan's disc around loc, a square at least scan.reach from
// every edge of the map. The disc holds loc itself, where owner's ant
// stands, so the answer is whether nearbyAnts(loc, max2, owner) lists any.
func (s *State) enemyNear(scan *enemyScan, loc, owner int) bool {
	const high, low = 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	own := uint64(owner) * 0x0101010101010101
	g := s.gridBytes
	for _, sp := range scan.spans {
		i := loc + sp.off
		x := binary.LittleEndian.Uint64(g[i : i+8])
		// Bytes 0..9 are ants (land, food and water are negative):
		// an enemy's byte has its top bit clear and differs from own.
		t := x ^ own
		differs := ((t & low) + low | t) & high
		if ^x&differs&sp.mask != 0 {
			return true
		}
	}
	return false
}

// currentAnts returns the live ants in the engine's dict order.
func (s *State) currentAnts() []*Ant {
	if s.holes > 0 {
		j := 0
		for _, a := range s.current {
			if a != nil {
				a.currentSlot = int32(j)
				s.current[j] = a
				j++
			}
		}
		clear(s.current[j:])
		s.current = s.current[:j]
		s.holes = 0
	}
	return s.current
}

func (s *State) pushCurrent(a *Ant) {
	s.antGen++
	s.live[a.Owner]++
	a.inCurrent = true
	a.currentSlot = int32(len(s.current))
	s.current = append(s.current, a)
}

func (s *State) removeCurrent(a *Ant) {
	if !a.inCurrent {
		return
	}
	s.antGen++
	s.live[a.Owner]--
	a.inCurrent = false
	s.current[a.currentSlot] = nil
	s.holes++
}

// newAnt makes an ant born now at loc and gives it its id.
func (s *State) newAnt(loc, owner int) *Ant {
	a := &Ant{Loc: loc, Owner: owner, InitialLoc: loc, SpawnTurn: s.Turn, slot: s.takeSlot()}
	s.antList = append(s.antList, a)
	a.id = int32(len(s.antList))
	return a
}

// antOn is the live ant on loc, or nil.
func (s *State) antOn(loc int) *Ant {
	if id := s.antAt[loc]; id != 0 {
		return s.antList[id-1]
	}
	return nil
}

// foodOn is the food on loc, or nil.
func (s *State) foodOn(loc int) *Food {
	if id := s.foodAt[loc]; id != 0 {
		return s.AllFood[id-1]
	}
	return nil
}

// hillOn is the hill on loc, or nil.
func (s *State) hillOn(loc int) *Hill {
	if id := s.hillAt[loc]; id != 0 {
		return s.Hills[id-1]
	}
	return nil
}

func (s *State) addAnt(h *Hill) *Ant {
	a := s.newAnt(h.Loc, h.Owner)
	s.grid[h.Loc] = int8(h.Owner)
	s.AllAnts = append(s.AllAnts, a)
	if old := s.antOn(h.Loc); old != nil {
		s.removeCurrent(old)
	}
	s.antAt[h.Loc] = a.id
	s.pushCurrent(a)
	h.LastTouched = s.Turn
	return a
}

func (s *State) addInitialAnt(loc, owner int) *Ant {
	a := s.newAnt(loc, owner)
	s.grid[loc] = int8(owner)
	s.AllAnts = append(s.AllAnts, a)
	s.antAt[loc] = a.id
	s.pushCurrent(a)
	return a
}

// killAnt is kill_ant: the square becomes land, the ant is dead this turn,
// and a death on a standing hill not owned by the cutoff leader stalls the
// cutoff counter.
func (s *State) killAnt(a *Ant) {
	s.grid[a.Loc] = land
	s.killedAnts = append(s.killedAnts, a)
	if !a.Killed { // its slot is free once its last order is written (doOrders writes before it kills)
		s.freeSlots = append(s.freeSlots, a.slot)
	}
	a.Killed = true
	a.DieTurn = s.Turn
	if h := s.hillOn(a.Loc); h != nil && h.Owner != s.cutoffBot && h.KilledBy < 0 {
		s.hillKill = true
	}
	if s.antOn(a.Loc) == a {
		s.antAt[a.Loc] = 0
		s.removeCurrent(a)
	}
}

func (s *State) addFood(loc int) {
	s.grid[loc] = food
	s.liveFood()
	s.foodMap[loc>>6] |= 1 << (loc & 63)
	f := &Food{Loc: loc, StartTurn: s.Turn, Owner: -1, slot: len(s.currentFood), id: int32(len(s.AllFood) + 1)}
	s.foodAt[loc] = f.id
	s.currentFood = append(s.currentFood, f)
	s.AllFood = append(s.AllFood, f)
}

func (s *State) removeFood(loc, owner int) {
	s.grid[loc] = land
	f := s.foodOn(loc)
	f.EndTurn = s.Turn
	if owner >= 0 {
		f.Owner = owner
		s.hive[owner]++
	}
	s.foodAt[loc] = 0
	s.foodMap[loc>>6] &^= 1 << (loc & 63)
	s.currentFood[f.slot] = nil // compacted by liveFood, keeping the order
	s.foodHoles++
}

// liveFood returns the food on the map in the engine's dict order.
func (s *State) liveFood() []*Food {
	if s.foodHoles > 0 {
		j := 0
		for _, f := range s.currentFood {
			if f != nil {
				f.slot = j
				s.currentFood[j] = f
				j++
			}
		}
		clear(s.currentFood[j:])
		s.currentFood = s.currentFood[:j]
		s.foodHoles = 0
	}
	return s.currentFood
}

func (s *State) razeHill(h *Hill, by int) {
	h.EndTurn = s.Turn
	h.KilledBy = by
	s.Score[by] += hillPoints
	if !h.RazePoints {
		h.RazePoints = true
		s.Score[h.Owner] += razePoints
	}
	s.cutoffTurns = 0
}

// IsAlive is is_alive: not killed by the engine and at least one ant.
func (s *State) IsAlive(p int) bool {
	return !s.killed[p] && s.liveAnts()[p] > 0
}

// liveAnts is the number of live ants of each player, kept as ants join
// and leave the live ants (the engine asks who is alive many times a
// turn).
func (s *State) liveAnts() []int {
	return s.live
}

// Ants counts the live ants of each player.
func (s *State) Ants() []int {
	return append([]int(nil), s.liveAnts()...)
}

func (s *State) remainingPlayers() []int {
	var out []int
	for p, n := range s.liveAnts() {
		if !s.killed[p] && n > 0 {
			out = append(out, p)
		}
	}
	return out
}

// remaining is len(remainingPlayers()).
func (s *State) remaining() int {
	n := 0
	for p := 0; p < s.N; p++ {
		if s.IsAlive(p) {
			n++
		}
	}
	return n
}

func (s *State) hasStandingHill(p int) bool {
	for _, h := range s.Hills {
		if h.KilledBy < 0 && h.Owner == p {
			return true
		}
	}
	return false
}

// KillPlayer is kill_player: the engine stops listening to p (crash,
// timeout, invalid orders under --strict), and p loses one point per hill
// not yet charged. Its ants stay.
func (s *State) KillPlayer(p int) {
	s.killed[p] = true
	for _, h := range s.Hills {
		if h.Owner == p && !h.RazePoints {
			h.RazePoints = true
			s.Score[p] += razePoints
		}
	}
}

// StartGame places the starting food (start_game).
func (s *State) StartGame() error {
	s.keysValid = false
	if s.opt.Food == "none" {
		return nil
	}
	starting := 0
	if s.FoodStart != 0 {
		starting = floorDiv(s.landArea, s.FoodStart) - s.FoodVisib*s.N
	}
	if s.FoodVisib > 0 {
		if _, err := s.doFoodVisible(s.FoodVisib * s.N); err != nil {
			return err
		}
	}
	_, err := s.doFood(starting)
	return err
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// StartTurn is start_turn.
func (s *State) StartTurn() {
	s.keysValid = false
	s.Turn++
	s.killedAnts = s.killedAnts[:0]
	for p := range s.revealedWater {
		s.revealedWater[p] = s.revealedWater[p][:0]
	}
	for p := range s.orders {
		s.orders[p] = s.orders[p][:0]
	}
	s.hillKill = false
}

// FinishTurn resolves the turn in the engine's phase order.
func (s *State) FinishTurn() error {
	s.keysValid = false
	s.doOrders()
	s.doAttack()
	s.doRazeHills()
	s.doSpawn()
	s.doGather()
	s.foodExtraNum += int64(s.FoodRate * s.N)
	foodNow := int(s.foodExtraNum / int64(s.FoodTurn))
	left, err := s.doFood(foodNow)
	if err != nil {
		return err
	}
	s.foodExtraNum -= int64(foodNow-left) * int64(s.FoodTurn)

	for i, sc := range s.Score {
		s.ScoreHist[i] = appendHistory(s.ScoreHist[i], sc, s.IsAlive(i), s.Turn)
	}
	for i, f := range s.hive {
		s.HiveHistory[i] = appendHistory(s.HiveHistory[i], f, s.IsAlive(i), s.Turn)
	}
	s.updateVision()
	s.updateRevealed()
	s.countCutoff()
	s.calcSignificantTurns()
	return nil
}

// appendHistory records a dead player's value only when it changes,
// padding the gap as the engine does.
func appendHistory(h []int, v int, alive bool, turn int) []int {
	if alive {
		return append(h, v)
	}
	if v != h[len(h)-1] {
		last := h[len(h)-1]
		for len(h) < turn {
			h = append(h, last)
		}
		h = append(h, v)
	}
	return h
}

func (s *State) countCutoff() {
	// pop_count is a dict: keys in order of first insertion. Few keys
	// (owners and food): two parallel slices searched in order.
	keys, counts := s.cutoffKeys[:0], s.cutoffCounts[:0]
	add := func(k, v int) {
		for i, x := range keys {
			if x == k {
				counts[i] += v
				return
			}
		}
		keys = append(keys, k)
		counts = append(counts, v)
	}
	// The owners in the order of their first live ant, with their counts
	// (liveAnts): the scan stops once every owner is seen.
	live := s.liveAnts()
	owners := 0
	for _, n := range live {
		if n > 0 {
			owners++
		}
	}
	for _, a := range s.currentAnts() {
		if owners == 0 {
			break
		}
		if !slices.Contains(keys, a.Owner) {
			keys = append(keys, a.Owner)
			counts = append(counts, live[a.Owner])
			owners--
		}
	}
	for _, h := range s.Hills {
		if h.KilledBy < 0 {
			add(h.Owner, s.hive[h.Owner])
		}
	}
	add(food, 0)
	counts[slices.Index(keys, food)] = len(s.liveFood())
	s.cutoffKeys, s.cutoffCounts = keys, counts
	total := 0
	for _, c := range counts {
		total += c
	}
	for i, k := range keys {
		if float64(counts[i]) >= float64(total)*s.opt.CutoffPercent {
			if s.cutoffBot == k {
				if !s.hillKill {
					s.cutoffTurns++
				}
			} else {
				s.cutoffBot = k
				s.cutoffTurns = 1
			}
			return
		}
	}
	s.cutoffBot = land
	s.cutoffTurns = 0
}

func (s *State) calcSignificantTurns() {
	sorted := append(s.sortedScores[:0], s.Score...)
	slices.SortFunc(sorted, func(a, b int) int { return cmp.Compare(b, a) })
	s.sortedScores = sorted
	// ranking and winning alternate with the previous turn's slices.
	ranking := s.spareRanking
	if len(ranking) != s.N {
		ranking = make([]int, s.N)
	}
	for i, x := range s.Score {
		for j, y := range sorted {
			if y == x {
				ranking[i] = j
				break
			}
		}
	}
	if !s.rankingSet || !equalInts(ranking, s.rankingBots) {
		s.RankingTurn = s.Turn
	}
	s.spareRanking = s.rankingBots
	s.rankingBots, s.rankingSet = ranking, true
	best := sorted[0]
	winning := s.spareWinning[:0]
	for p, x := range s.Score {
		if x == best {
			winning = append(winning, p)
		}
	}
	if s.winningBot == nil || !equalInts(winning, s.winningBot) {
		s.WinningTurn = s.Turn
	}
	s.spareWinning = s.winningBot
	s.winningBot = winning
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Rank is the engine's rank: each score's index in the scores sorted from
// high to low (ties share the better rank).
func Rank(scores []int) []int {
	sorted := append([]int(nil), scores...)
	sort.Sort(sort.Reverse(sort.IntSlice(sorted)))
	rank := make([]int, len(scores))
	for i, x := range scores {
		for j, y := range sorted {
			if y == x {
				rank[i] = j
				break
			}
		}
	}
	return rank
}

func (s *State) isRankStabilized() bool {
	for p := 0; p < s.N; p++ {
		if !s.IsAlive(p) || !s.hasStandingHill(p) {
			continue
		}
		maxScore := s.Score[p]
		for _, h := range s.Hills {
			if h.KilledBy < 0 && h.Owner != p {
				maxScore += hillPoints
			}
		}
		for o := 0; o < s.N; o++ {
			if o == p {
				continue
			}
			minScore := s.Score[o]
			for _, h := range s.Hills {
				if h.KilledBy < 0 && h.Owner == o {
					minScore += razePoints
				}
			}
			if (s.Score[p] < s.Score[o] && maxScore >= minScore) ||
				(s.Score[p] == s.Score[o] && maxScore > minScore) {
				return false
			}
		}
	}
	return true
}

// GameOver is game_over: it also sets the cutoff reason when it says yes.
func (s *State) GameOver() bool {
	left := s.remaining()
	switch {
	case left < 1:
		s.Cutoff = "extermination"
		return true
	case left == 1:
		s.Cutoff = "lone survivor"
		return true
	case s.cutoffTurns >= s.opt.CutoffTurn:
		if s.cutoffBot == food {
			s.Cutoff = "food not being gathered"
		} else {
			s.Cutoff = "ants not razing hills"
		}
		return true
	case s.isRankStabilized():
		s.Cutoff = "rank stabilized"
		return true
	}
	return false
}

// FinishGame gives the lone survivor its bonus and closes the game.
func (s *State) FinishGame() {
	s.keysValid = false
	players := s.remainingPlayers()
	if len(players) == 1 {
		w := players[0]
		for _, h := range s.Hills {
			if h.Owner == w {
				continue
			}
			if h.KilledBy < 0 {
				s.Bonus[w] += hillPoints
				h.KilledBy = w
			}
			if !h.RazePoints {
				s.Bonus[h.Owner] += razePoints
				h.RazePoints = true
			}
		}
		for p := range s.Score {
			s.Score[p] += s.Bonus[p]
		}
	}
	s.calcSignificantTurns()
	if s.Cutoff == "" {
		s.Cutoff = "turn limit reached"
	}
}

// doOrders moves every ant at once (ants without orders hold) and kills
// all ants that end on a shared square. Ants swapping squares pass through
// each other, as in the engine.
func (s *State) doOrders() {
	cur := s.currentAnts()
	moves := s.moves[:0]
	// In locals: the compiler would load them again after every store.
	grid, antAt, antList, turn := s.grid, s.antAt, s.antList, int32(s.Turn)
	// Orders are for squares of live ants (validated against this map):
	// antAt still shows them until the ants move.
	for _, os := range s.orders {
		for _, o := range os {
			id := antAt[o.loc]
			if id == 0 {
				continue
			}
			a := antList[id-1]
			if a.moveTurn == turn && int(a.moveIdx) < len(moves) && moves[a.moveIdx].id == id {
				moves[a.moveIdx].dir, moves[a.moveIdx].dest = o.dir, o.dest // a second order: the dict keeps the first place
				continue
			}
			a.moveTurn, a.moveIdx = turn, int32(len(moves))
			moves = append(moves, antMove{id: id, dir: o.dir, dest: o.dest})
		}
	}
	// The ants leave their squares and the list of live ants; those
	// without orders hold.
	clear(s.live) // every ant leaves; the survivors come back
	for _, a := range cur {
		grid[a.Loc] = land
		antAt[a.Loc] = 0
		a.inCurrent = false
		if !(a.moveTurn == turn && int(a.moveIdx) < len(moves) && moves[a.moveIdx].id == a.id) {
			moves = append(moves, antMove{id: a.id, dir: '-', dest: int32(a.Loc)})
		}
	}
	if s.moveCells == nil {
		s.moveCells = make([]moveCell, s.Rows*s.Cols)
	}
	s.moveStamp++
	stamp := s.moveStamp
	order := s.moveOrder[:0]
	collided := false
	// This turn's row of orders: every live ant has one, in its slot.
	row, rowIdx := s.orderRowBuf()
	cells := s.moveCells
	for _, m := range moves {
		a := antList[m.id-1]
		loc := int(m.dest)
		a.Loc = loc
		row[a.slot] = m.dir
		if a.ordN == 0 {
			a.ordFrom = rowIdx
		}
		a.ordN++
		cell := &cells[loc]
		if cell.stamp != stamp {
			*cell = moveCell{stamp: stamp}
			order = append(order, loc)
		}
		cell.count++
		cell.ant = m.id
		if cell.count > 1 {
			collided = true
		}
	}
	var together map[int][]*Ant
	if collided {
		together = map[int][]*Ant{}
		for _, m := range moves {
			if loc := int(m.dest); cells[loc].count > 1 {
				together[loc] = append(together[loc], s.antList[m.id-1])
			}
		}
	}
	s.current = s.current[:0]
	s.holes = 0
	s.antGen++
	// In the order the squares were first reached: a lone ant takes its
	// square and rejoins the live ants, ants sharing one die.
	for _, loc := range order {
		if cell := cells[loc]; cell.count == 1 {
			a := antList[cell.ant-1]
			antAt[loc] = a.id
			grid[loc] = int8(a.Owner)
			s.pushCurrent(a)
			continue
		}
		for _, a := range together[loc] {
			s.killAnt(a)
		}
	}
	s.moves, s.moveOrder = moves, order[:0]
}

func (s *State) doAttack() {
	switch s.opt.Attack {
	case "closest":
		s.doAttackClosest()
	case "support":
		s.doAttackSupport()
	case "damage":
		s.doAttackDamage()
	default:
		s.doAttackFocus()
	}
}

// doAttackFocus: an ant dies when an enemy within attackradius2 has at
// most as many enemies in range as it has itself.
func (s *State) doAttackFocus() {
	cur := s.currentAnts() // compacted: currentSlot is the index in cur
	// per ant: its enemies in range are enemies[start[i]:start[i+1]]
	weak := slices.Grow(s.attackWeak[:0], len(cur))[:len(cur)]
	start := slices.Grow(s.attackStart[:0], len(cur)+1)[:len(cur)+1]
	enemies := s.attackEnemies[:0]
	start[0] = 0
	if s.enemyScan == nil || s.enemyScan.max2 != s.opt.AttackRadius2 {
		s.enemyScan = s.newEnemyScan(s.opt.AttackRadius2)
	}
	scan := s.enemyScan
	blocks := s.ownerBlocks(cur, scan.reach)
	for i, a := range cur {
		// Most ants have no enemy in range: the owners of the blocks
		// around say so, or a quick look at the map, without listing
		// anything.
		if blocks != nil && !blocks.enemyNear(i, a.Owner) {
			start[i+1] = len(enemies)
			weak[i] = 0
			continue
		}
		if scan.spans != nil && s.inner(a.Loc, scan.reach) && !s.enemyNear(scan, a.Loc, a.Owner) {
			start[i+1] = len(enemies)
			weak[i] = 0
			continue
		}
		enemies = s.nearbyAnts(a.Loc, s.opt.AttackRadius2, a.Owner, enemies)
		start[i+1] = len(enemies)
		weak[i] = start[i+1] - start[i]
	}
	var kill []*Ant
	for i, a := range cur {
		w := weak[i]
		if w == 0 {
			continue
		}
		minE := -1
		for _, e := range enemies[start[i]:start[i+1]] {
			if we := weak[e.currentSlot]; minE < 0 || we < minE {
				minE = we
			}
		}
		if minE <= w {
			kill = append(kill, a)
		}
	}
	for _, a := range kill {
		s.killAnt(a)
	}
	s.attackWeak, s.attackStart, s.attackEnemies = weak, start, enemies
}

// ownerBlockSide is the side of the blocks of ownerBlocks: the last
// block of a row or column of blocks takes the squares left over, so no
// block is narrower.
const ownerBlockSide = 8

// blockGrid tells which players have live ants in each block of
// ownerBlockSide squares a side, and where each ant of a list stands.
type blockGrid struct {
	reach  int // the tables below are for it
	owners []uint16
	// For the squares reach rows up and down (columns left and right)
	// of a row (column), wrapped: their rows' (columns') part of the
	// block index.
	rowEnds, colEnds [][2]int32
	rowOf            []int32 // a row's part of the block index
	colOf            []int32
	rc               [][2]int32 // per ant of the list: row, column
}

// ownerBlocks fills s's blockGrid for the ants cur, or returns nil when
// the map is too small for its blocks or reach too long for them.
func (s *State) ownerBlocks(cur []*Ant, reach int) *blockGrid {
	if 2*reach+1 > ownerBlockSide || s.Rows < ownerBlockSide || s.Cols < ownerBlockSide {
		return nil
	}
	g := &s.blocks
	if g.owners == nil || g.reach != reach {
		bRows, bCols := s.Rows/ownerBlockSide, s.Cols/ownerBlockSide
		g.reach = reach
		g.owners = make([]uint16, bRows*bCols)
		g.rowOf, g.rowEnds = make([]int32, s.Rows), make([][2]int32, s.Rows)
		for r := range g.rowOf {
			g.rowOf[r] = int32(min(r/ownerBlockSide, bRows-1) * bCols)
		}
		for r := range g.rowOf {
			g.rowEnds[r] = [2]int32{g.rowOf[mod(r-reach, s.Rows)], g.rowOf[mod(r+reach, s.Rows)]}
		}
		g.colOf, g.colEnds = make([]int32, s.Cols), make([][2]int32, s.Cols)
		for c := range g.colOf {
			g.colOf[c] = int32(min(c/ownerBlockSide, bCols-1))
		}
		for c := range g.colOf {
			g.colEnds[c] = [2]int32{g.colOf[mod(c-reach, s.Cols)], g.colOf[mod(c+reach, s.Cols)]}
		}
	}
	clear(g.owners)
	rc := slices.Grow(g.rc[:0], len(cur))[:len(cur)]
	owners, rowOf, colOf, cols := g.owners, g.rowOf, g.colOf, s.Cols
	for i, a := range cur {
		r := s.row(a.Loc)
		c := a.Loc - r*cols
		rc[i] = [2]int32{int32(r), int32(c)}
		owners[rowOf[r]+colOf[c]] |= 1 << a.Owner
	}
	g.rc = rc
	return g
}

// enemyNear reports whether the blocks around ant i of the list hold an
// ant not owned by owner. Squares within reach of the ant span at most
// two blocks each way (a block is no narrower than 2*reach+1 squares,
// also across the map's edges), found from the ends of that range; false means
// no enemy is in range, true only that one may be.
func (g *blockGrid) enemyNear(i, owner int) bool {
	rc := g.rc[i]
	r, c := g.rowEnds[rc[0]], g.colEnds[rc[1]]
	o := g.owners
	return (o[r[0]+c[0]]|o[r[0]+c[1]]|o[r[1]+c[0]]|o[r[1]+c[1]])&^(1<<owner) != 0
}

// doAttackSupport: the engine's "support" mode; friends are never counted
// because nearby_ants already excludes the ant's owner.
func (s *State) doAttackSupport() {
	var kill []*Ant
	for _, a := range s.currentAnts() {
		e := s.nearbyAnts(a.Loc, s.opt.AttackRadius2, a.Owner, nil)
		if 0 < len(e) {
			kill = append(kill, a)
		}
	}
	for _, a := range kill {
		s.killAnt(a)
	}
}

// doAttackDamage: each ant deals 1/#enemies to each enemy in range; an
// ant with a total of at least 1 dies.
func (s *State) doAttackDamage() {
	type frac struct{ num, den int64 }
	damage := map[*Ant]*frac{}
	var order []*Ant
	for _, a := range s.currentAnts() {
		e := s.nearbyAnts(a.Loc, s.opt.AttackRadius2, a.Owner, nil)
		for _, en := range e {
			d := damage[en]
			if d == nil {
				d = &frac{0, 1}
				damage[en] = d
				order = append(order, en)
			}
			n := int64(len(e))
			d.num, d.den = d.num*n+d.den, d.den*n
			g := gcd(d.num, d.den)
			d.num, d.den = d.num/g, d.den/g
		}
	}
	for _, a := range order {
		if d := damage[a]; d.num >= d.den {
			s.killAnt(a)
		}
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// doAttackClosest: the engine's iterative "closest" mode.
func (s *State) doAttackClosest() {
	cur := append([]*Ant(nil), s.currentAnts()...)
	byDist := map[*Ant]map[int][]*Ant{}
	for _, a := range cur {
		m := map[int][]*Ant{}
		for _, e := range s.nearbyAnts(a.Loc, s.opt.AttackRadius2, a.Owner, nil) {
			d := s.distance(a.Loc, e.Loc)
			m[d] = append(m[d], e)
		}
		byDist[a] = m
	}
	for dist := 1; dist < s.opt.AttackRadius2; dist++ {
		for _, a := range cur {
			if len(byDist[a]) == 0 || a.Killed {
				continue
			}
			group := map[*Ant]bool{a: true}
			groupOrder := []*Ant{a}
			var find func(x *Ant)
			find = func(x *Ant) {
				for _, e := range byDist[x][dist] {
					if !e.Killed && !group[e] {
						group[e] = true
						groupOrder = append(groupOrder, e)
						find(e)
					}
				}
			}
			find(a)
			if len(groupOrder) > 1 {
				for _, x := range groupOrder {
					if !x.Killed {
						s.killAnt(x)
					}
				}
			}
		}
	}
}

func (s *State) doRazeHills() {
	for _, h := range s.Hills {
		a := s.antOn(h.Loc)
		if a == nil {
			continue
		}
		if a.Owner == h.Owner {
			h.LastTouched = s.Turn
		} else if h.KilledBy < 0 {
			s.razeHill(h, a.Owner)
		}
	}
}

// keyedHill is a hill with its random sort key (doSpawn).
type keyedHill struct {
	h *Hill
	r float64
}

// doSpawn: per player, standing hills sorted by (last_touched, random()),
// one random() per hill whether or not anything spawns.
func (s *State) doSpawn() {
	hs := s.spawnBuf[:0]
	for p := 0; p < s.N; p++ {
		hs = hs[:0]
		for _, h := range s.Hills {
			if h.Owner == p && h.KilledBy < 0 {
				hs = append(hs, keyedHill{h, s.rng.Random()})
			}
		}
		if s.hive[p] == 0 {
			continue // nothing to spawn: the order does not matter (the draws are made)
		}
		slices.SortStableFunc(hs, func(a, b keyedHill) int {
			if a.h.LastTouched != b.h.LastTouched {
				return cmp.Compare(a.h.LastTouched, b.h.LastTouched)
			}
			return cmp.Compare(a.r, b.r)
		})
		for _, k := range hs {
			if s.hive[p] > 0 && s.antOn(k.h.Loc) == nil {
				s.hive[p]--
				s.addAnt(k.h)
			}
		}
	}
	s.spawnBuf = hs[:0]
}

func (s *State) doGather() {
	foods := s.liveFood()
	cur := s.currentAnts()
	// Only food next to some ant can be gathered, and what becomes of one
	// piece does not depend on the others: when food outnumbers the ants,
	// look for it from the ants' side. The neighbourhood is symmetric, so
	// food near an ant has the ant in its own neighbourhood.
	cand := s.gatherBuf[:0]
	if len(foods) > len(cur) {
		s.gatherStamp++
		nb := s.neighbourhoodOf(s.opt.SpawnRadius2)
		for _, a := range cur {
			for _, o := range nb.offs {
				if f := s.foodOn(s.destination(a.Loc, o[0], o[1])); f != nil && f.gatherStamp != s.gatherStamp {
					f.gatherStamp = s.gatherStamp
					cand = append(cand, f)
				}
			}
		}
	} else {
		cand = append(cand, foods...)
	}
	var buf []*Ant
	for _, f := range cand {
		buf = s.nearbyAnts(f.Loc, s.opt.SpawnRadius2, -100, buf[:0])
		owner, many := -1, false
		for _, a := range buf {
			if owner < 0 {
				owner = a.Owner
			} else if a.Owner != owner {
				many = true
			}
		}
		switch {
		case owner >= 0 && !many:
			s.removeFood(f.Loc, owner)
		case many:
			s.removeFood(f.Loc, -1)
		}
	}
	s.gatherBuf = cand[:0]
}
