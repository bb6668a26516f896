package gomokubot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"arena/game/gomoku"
)

// pad is the number of wall squares kept around the board, enough for the
// five neighbours a line key looks at.
const pad = 5

// Errors returned by Place, Remove and Block.
var (
	ErrOffBoard = errors.New("square is off the board")
	ErrOccupied = errors.New("square is not empty")
	ErrNoStone  = errors.New("square holds no stone")
)

// Engine is a Gomoku position with its incremental pattern bookkeeping and
// the search that picks moves. It is not safe for concurrent use.
type Engine struct {
	// MaxDepth limits the iterative deepening (0: no limit).
	MaxDepth int
	// MaxNodes limits the nodes of one search, threat searches included
	// (0: no limit); with a long enough budget it makes the search
	// independent of the machine's speed and load.
	MaxNodes int64
	// Log, when set, receives one line per finished iteration.
	Log io.Writer
	// TurnOnly says that time left over from a move is lost (the turn
	// is the only limit), so the search uses its whole budget: a last
	// iteration cut off by the clock can still only improve the move.
	// Otherwise no iteration starts after tuning.soft of the budget
	// unless it is expected to finish, and the time saved goes to later
	// moves.
	TurnOnly bool

	w, h, stride int
	rule         gomoku.Rule
	dirs         [4]int
	reach        int // how far a stone changes line patterns: 4, or 5 when exactness or caro ends matter

	cells []uint8     // padded board: cEmpty, cBlack, cWhite, cWall
	keys  [][4]uint32 // per square and direction: its ten neighbours
	pat   [][2]uint16 // per empty square and colour: four packed line patterns
	near  []uint8     // stones within two squares (5x5 box)
	real  []int32     // indices of the board's squares, row by row
	plain []gomoku.Stone

	zob   [][3]uint64
	hash  uint64
	sum   [2]int32         // evaluation sums per colour
	cnt   [2][nLevel]int32 // empty squares per colour and level
	empty int              // empty squares
	last  int              // the square put last (see fiveAfter)
	stone int              // stones (not walls) on the board
	fives [2]int           // continuous games: fives completed per colour
	lines [2]*lineTable    // per colour
	// pairs caches both colours' line patterns of a key in one byte; see
	// linePair.
	pairs     []uint8
	pairShift uint32
	pairMask  uint32
	comb      *[1 << 16]cellInfo
	// stones holds every stone (not the walls); a take that is not
	// undone from a frame leaves it as it was, larger than it need be.
	stones rect
	// frames and undo let take reverse the searches' puts from saved
	// state (see take).
	frames []undoFrame
	undo   []undoEntry

	tune tuning

	tt     []ttBucket
	ttBits int
	ttAge  uint8  // counts searches, to tell this one's table entries
	salt   uint64 // mixed into table keys; changed to forget them

	search searchState
}

// NewEngine returns an engine for an empty width x height board (each side
// 5..32; other sizes are clamped) under rule.
func NewEngine(width, height int, rule gomoku.Rule) *Engine {
	width = min(max(width, gomoku.MinSize), gomoku.MaxSize)
	height = min(max(height, gomoku.MinSize), gomoku.MaxSize)
	e := &Engine{w: width, h: height, rule: rule, comb: combTable(), tune: defaultTuning()}
	e.stride = width + pad
	e.dirs = [4]int{1, e.stride, e.stride + 1, e.stride - 1}
	n := (height + 2*pad + 1) * e.stride
	e.cells = make([]uint8, n)
	e.keys = make([][4]uint32, n)
	e.pat = make([][2]uint16, n)
	e.near = make([]uint8, n)
	e.plain = make([]gomoku.Stone, width*height)
	e.zob = make([][3]uint64, n)
	rng := rand.New(rand.NewPCG(0x9e3779b97f4a7c15, uint64(width)<<8|uint64(height)))
	for i := range e.zob {
		e.zob[i] = [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64()}
	}
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			e.real = append(e.real, int32(e.index(x, y)))
		}
	}
	e.setTTBits(defaultTTBits)
	e.makeTables()
	e.Reset()
	return e
}

// Width returns the number of columns.
func (e *Engine) Width() int { return e.w }

// Height returns the number of rows.
func (e *Engine) Height() int { return e.h }

// Rule returns the rule the engine plays.
func (e *Engine) Rule() gomoku.Rule { return e.rule }

// Fives returns how many winning lines colour s completed (continuous
// games).
func (e *Engine) Fives(s gomoku.Stone) int {
	if s != gomoku.Black && s != gomoku.White {
		return 0
	}
	return e.fives[s-1]
}

// makeTables creates the line tables for the current rule.
func (e *Engine) makeTables() {
	e.reach = 4
	if e.rule&(gomoku.ExactFive|gomoku.Renju|gomoku.Caro) != 0 {
		e.reach = 5
	}
	e.lines[0] = newLineTable(ruleFor(e.rule, cBlack))
	e.lines[1] = e.lines[0]
	if white := ruleFor(e.rule, cWhite); white != e.lines[0].rule {
		e.lines[1] = newLineTable(white)
	}
	// Where a stone reaches four squares, the two outermost neighbours
	// of a key never change its patterns (TestPairIndex): leaving them
	// out of the index shrinks the table sixteenfold, to 64 KB, small
	// enough to stay in the cache during a search.
	e.pairShift, e.pairMask = 0, 1<<keyBits-1
	if e.reach == 4 {
		e.pairShift, e.pairMask = 2, 1<<(keyBits-4)-1
	}
	e.pairs = make([]uint8, e.pairMask+1)
}

// SetRule switches the rule and keeps the stones.
func (e *Engine) SetRule(rule gomoku.Rule) {
	if rule == e.rule {
		return
	}
	e.rule = rule
	e.makeTables()
	e.rebuild()
	e.clearTT()
}

// index returns the padded index of column x, row y.
func (e *Engine) index(x, y int) int { return (y+pad)*e.stride + x + pad }

// point returns the square of a padded index.
func (e *Engine) point(i int) gomoku.Point {
	return gomoku.Point{X: i%e.stride - pad, Y: i/e.stride - pad}
}

// onBoard reports whether p is a square of the board.
func (e *Engine) onBoard(p gomoku.Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < e.w && p.Y < e.h
}

// Reset empties the board (walls included) and the transposition table.
func (e *Engine) Reset() {
	for i := range e.cells {
		e.cells[i] = cWall
		e.near[i] = 0
	}
	for _, i := range e.real {
		e.cells[i] = cEmpty
	}
	for i := range e.plain {
		e.plain[i] = gomoku.Empty
	}
	e.hash = 0
	e.stone = 0
	e.fives = [2]int{}
	e.rebuild()
	e.clearTT()
}

// rebuild recomputes keys, patterns and sums from the cells.
func (e *Engine) rebuild() {
	e.forgetUndo()
	e.sum = [2]int32{}
	e.cnt = [2][nLevel]int32{}
	e.empty = 0
	e.stones = emptyRect
	for _, i := range e.real {
		t := int(i)
		if c := e.cells[t]; c == cBlack || c == cWhite {
			e.stones.add(e.point(t))
		}
		for d, off := range e.dirs {
			var k uint32
			for j := 0; j < 11; j++ {
				if j == 5 {
					continue
				}
				k |= uint32(e.cells[t+(j-5)*off]) << (2 * slotOf(j))
			}
			e.keys[t][d] = k
		}
		e.pat[t] = [2]uint16{}
		if e.cells[t] == cEmpty {
			e.empty++
			e.fillSquare(t)
		}
	}
}

// fillSquare computes the patterns of the empty square t from its keys
// and adds them to the sums.
func (e *Engine) fillSquare(t int) {
	for b := 0; b < 2; b++ {
		var p uint16
		for d := 0; d < 4; d++ {
			pair := e.linePair(e.keys[t][d])
			p |= uint16(pair>>(4*b)&0xF) << (4 * d)
		}
		e.pat[t][b] = p
		ci := &e.comb[p]
		e.sum[b] += int32(ci.score)
		e.cnt[b][ci.level]++
	}
}

// clearSquare removes the empty square t from the sums before it is
// occupied.
func (e *Engine) clearSquare(t int) {
	for b := 0; b < 2; b++ {
		ci := &e.comb[e.pat[t][b]]
		e.sum[b] -= int32(ci.score)
		e.cnt[b][ci.level]--
		e.pat[t][b] = 0
	}
}

// linePattern returns the line pattern for side b (0 Black, 1 White) of
// a line key. Tables are written from Black's point of view, so White's
// keys have their colours swapped first.
func (e *Engine) linePattern(b int, key uint32) uint8 {
	if b == 1 {
		key = swapColours(key)
	}
	return e.lines[b].get(key)
}

// swapColours exchanges the codes cBlack and cWhite in every 2-bit field
// of a line key.
func swapColours(key uint32) uint32 {
	const m = 0x55555
	d := (key ^ key>>1) & m
	return key ^ (d | d<<1)
}

// linePair returns both colours' line patterns of a key in one byte,
// Black's in the low four bits. It is what the incremental update reads:
// one small table instead of two large ones and no colour swap. Entries
// are filled on first use from the line tables (stored plus one: zero
// means not known yet).
func (e *Engine) linePair(key uint32) uint8 {
	i := key >> e.pairShift & e.pairMask
	if v := e.pairs[i]; v != 0 {
		return v - 1
	}
	v := e.linePattern(0, key) | e.linePattern(1, key)<<4
	e.pairs[i] = v + 1
	return v
}

// updateDir recomputes the patterns of empty square t along direction d.
func (e *Engine) updateDir(t, d int) {
	pair := e.linePair(e.keys[t][d])
	shift := 4 * d
	for b := 0; b < 2; b++ {
		old := e.pat[t][b]
		nw := old&^(0xF<<shift) | uint16(pair>>(4*b)&0xF)<<shift
		if nw == old {
			continue
		}
		oi, ni := &e.comb[old], &e.comb[nw]
		e.sum[b] += int32(ni.score) - int32(oi.score)
		e.cnt[b][oi.level]--
		e.cnt[b][ni.level]++
		e.pat[t][b] = nw
	}
}

// put places code c (a colour or cWall) on the empty square i.
func (e *Engine) put(i int, c uint8) {
	e.last = i
	e.frames = append(e.frames, undoFrame{sq: int32(i), from: int32(len(e.undo)), sum: e.sum, cnt: e.cnt, stones: e.stones})
	e.undo = append(e.undo, undoEntry{int32(i), e.pat[i]})
	e.clearSquare(i)
	e.cells[i] = c
	e.empty--
	e.hash ^= e.zob[i][c-1]
	for d, off := range e.dirs {
		for k := 1; k <= 5; k++ {
			t := i + k*off
			e.keys[t][d] |= uint32(c) << (2 * (5 - k))
			if e.cells[t] == cEmpty && k <= e.reach {
				e.undo = append(e.undo, undoEntry{int32(t), e.pat[t]})
				e.updateDir(t, d)
			}
			t = i - k*off
			e.keys[t][d] |= uint32(c) << (2 * (k + 4))
			if e.cells[t] == cEmpty && k <= e.reach {
				e.undo = append(e.undo, undoEntry{int32(t), e.pat[t]})
				e.updateDir(t, d)
			}
		}
	}
	if c == cWall {
		e.plain[e.plainIndex(i)] = gomoku.White
		return
	}
	e.stone++
	p := e.point(i)
	e.plain[p.Y*e.w+p.X] = gomoku.Stone(c)
	e.stones.add(p)
	for dy := -2; dy <= 2; dy++ {
		row := i + dy*e.stride
		for dx := -2; dx <= 2; dx++ {
			e.near[row+dx]++
		}
	}
}

// take empties the occupied square i. When i was the last square put
// since the board was last changed from outside a search (so always in
// the searches, which take back what they put in reverse order), the
// patterns and sums come back from what put saved; otherwise they are
// recomputed.
func (e *Engine) take(i int) {
	c := e.cells[i]
	e.cells[i] = cEmpty
	e.empty++
	e.hash ^= e.zob[i][c-1]
	for d, off := range e.dirs {
		for k := 1; k <= 5; k++ {
			e.keys[i+k*off][d] &^= 3 << (2 * (5 - k))
			e.keys[i-k*off][d] &^= 3 << (2 * (k + 4))
		}
	}
	if n := len(e.frames); n > 0 && e.frames[n-1].sq == int32(i) {
		f := &e.frames[n-1]
		for _, u := range e.undo[f.from:] {
			e.pat[u.sq] = u.pat
		}
		e.sum, e.cnt, e.stones = f.sum, f.cnt, f.stones
		e.undo = e.undo[:f.from]
		e.frames = e.frames[:n-1]
	} else {
		e.forgetUndo()
		for d, off := range e.dirs {
			for k := 1; k <= e.reach; k++ {
				if t := i + k*off; e.cells[t] == cEmpty {
					e.updateDir(t, d)
				}
				if t := i - k*off; e.cells[t] == cEmpty {
					e.updateDir(t, d)
				}
			}
		}
		e.fillSquare(i)
	}
	e.plain[e.plainIndex(i)] = gomoku.Empty
	if c == cWall {
		return
	}
	e.stone--
	for dy := -2; dy <= 2; dy++ {
		row := i + dy*e.stride
		for dx := -2; dx <= 2; dx++ {
			e.near[row+dx]--
		}
	}
}

// undoEntry is an empty square's patterns before a put changed them.
type undoEntry struct {
	sq  int32
	pat [2]uint16
}

// undoFrame is what take needs to reverse the put of sq without reading
// a line table: the sums and counts before it, and where in the undo
// entries its squares begin.
type undoFrame struct {
	sq     int32
	from   int32
	sum    [2]int32
	cnt    [2][nLevel]int32
	stones rect
}

// rect is a rectangle of squares in board coordinates, empty when x0 > x1.
type rect struct{ x0, y0, x1, y1 int16 }

// emptyRect holds no square.
var emptyRect = rect{x0: 1, y0: 1, x1: 0, y1: 0}

// add grows r to hold p.
func (r *rect) add(p gomoku.Point) {
	x, y := int16(p.X), int16(p.Y)
	if r.x0 > r.x1 {
		*r = rect{x, y, x, y}
		return
	}
	r.x0, r.x1 = min(r.x0, x), max(r.x1, x)
	r.y0, r.y1 = min(r.y0, y), max(r.y1, y)
}

// grown returns r widened by n squares on every side, cut to a w x h
// board (still empty if r is).
func (r rect) grown(n, w, h int) rect {
	if r.x0 > r.x1 {
		return r
	}
	m := int16(n)
	return rect{max(r.x0-m, 0), max(r.y0-m, 0), min(r.x1+m, int16(w-1)), min(r.y1+m, int16(h-1))}
}

// forgetUndo drops the saved frames: after a change from outside a search
// (a game move, a take-back, a blocked square) they no longer describe
// the board beneath them.
func (e *Engine) forgetUndo() {
	e.frames = e.frames[:0]
	e.undo = e.undo[:0]
}

// plainIndex maps a padded index to the row-major index of plain.
func (e *Engine) plainIndex(i int) int {
	return (i/e.stride-pad)*e.w + i%e.stride - pad
}

// At returns the stone on p (Empty for empty, off-board and blocked
// squares).
func (e *Engine) At(p gomoku.Point) gomoku.Stone {
	if !e.onBoard(p) {
		return gomoku.Empty
	}
	c := e.cells[e.index(p.X, p.Y)]
	if c == cBlack || c == cWhite {
		return gomoku.Stone(c)
	}
	return gomoku.Empty
}

// Blocked reports whether p is a blocked square (a wall).
func (e *Engine) Blocked(p gomoku.Point) bool {
	return e.onBoard(p) && e.cells[e.index(p.X, p.Y)] == cWall
}

// Stones returns the number of stones on the board (walls not counted).
func (e *Engine) Stones() int { return e.stone }

// EmptySquares returns the number of empty squares.
func (e *Engine) EmptySquares() int { return e.empty }

// Place puts a stone of colour s on the empty square p. In continuous
// games a five it completes becomes blocked squares and is counted.
func (e *Engine) Place(p gomoku.Point, s gomoku.Stone) error {
	if s != gomoku.Black && s != gomoku.White {
		return fmt.Errorf("place %v: colour %d is not a stone", p, s)
	}
	if !e.onBoard(p) {
		return fmt.Errorf("place %v: %w", p, ErrOffBoard)
	}
	i := e.index(p.X, p.Y)
	if e.cells[i] != cEmpty {
		return fmt.Errorf("place %v: %w", p, ErrOccupied)
	}
	e.put(i, uint8(s))
	if e.rule&gomoku.Continuous != 0 {
		e.blockFives(i)
	}
	e.forgetUndo()
	return nil
}

// Remove takes the stone off p (TAKEBACK).
func (e *Engine) Remove(p gomoku.Point) error {
	if !e.onBoard(p) {
		return fmt.Errorf("remove %v: %w", p, ErrOffBoard)
	}
	i := e.index(p.X, p.Y)
	if c := e.cells[i]; c != cBlack && c != cWhite {
		return fmt.Errorf("remove %v: %w", p, ErrNoStone)
	}
	e.take(i)
	e.forgetUndo()
	return nil
}

// Block turns p into a blocked square: a stone of a completed five in a
// continuous game ('#' in PLOCHA.DAT, field 3 in BOARD). A stone already
// there is replaced.
func (e *Engine) Block(p gomoku.Point) error {
	if !e.onBoard(p) {
		return fmt.Errorf("block %v: %w", p, ErrOffBoard)
	}
	i := e.index(p.X, p.Y)
	switch e.cells[i] {
	case cWall:
		return nil
	case cBlack, cWhite:
		e.take(i)
	}
	e.put(i, cWall)
	e.forgetUndo()
	return nil
}

// blockFives turns the winning lines through the stone on i into walls.
func (e *Engine) blockFives(i int) {
	c := e.cells[i]
	var run []int
	lines := 0
	for _, off := range e.dirs {
		lo, hi := i, i
		for e.cells[lo-off] == c {
			lo -= off
		}
		for e.cells[hi+off] == c {
			hi += off
		}
		n := (hi-lo)/off + 1
		if n < 5 || (n > 5 && e.rule&gomoku.ExactFive != 0) {
			continue
		}
		for t := lo; t <= hi; t += off {
			run = append(run, t)
		}
		lines++
	}
	e.fives[c-1] += lines
	for _, t := range run {
		if e.cells[t] != cWall {
			e.take(t)
			e.put(t, cWall)
		}
	}
}

// level returns the threat level of the empty square i for colour c.
func (e *Engine) level(i int, c uint8) uint8 { return e.comb[e.pat[i][c-1]].level }

// info returns the cellInfo of the empty square i for colour c.
func (e *Engine) info(i int, c uint8) *cellInfo { return &e.comb[e.pat[i][c-1]] }

// renjuBlack reports whether colour c is Black in a renju game.
func (e *Engine) renjuBlack(c uint8) bool {
	return c == cBlack && e.rule&gomoku.Renju != 0
}

// legal reports whether colour c may play the empty square i: always,
// except for Black's renju fouls.
func (e *Engine) legal(i int, c uint8) bool {
	if !e.renjuBlack(c) || !e.info(i, c).foul {
		return true
	}
	return gomoku.ForbiddenAt(e.plain, e.w, e.h, e.point(i)) == gomoku.NoFoul
}

// Legal reports whether colour s may play p now: p is an empty square
// and, for Black under renju, not a foul.
func (e *Engine) Legal(p gomoku.Point, s gomoku.Stone) bool {
	if !e.onBoard(p) || (s != gomoku.Black && s != gomoku.White) {
		return false
	}
	i := e.index(p.X, p.Y)
	return e.cells[i] == cEmpty && e.legal(i, uint8(s))
}

// findLevel returns an empty square where colour c reaches level lv, or
// -1.
func (e *Engine) findLevel(c uint8, lv uint8) int {
	for _, i := range e.real {
		if e.cells[i] == cEmpty && e.level(int(i), c) == lv {
			return int(i)
		}
	}
	return -1
}

// fiveAfter returns a square where colour c completes a five, or -1. A
// five that the stone put last made lies on that stone's lines, so those
// 32 squares are looked at first; the board only when they hold none.
// The searches call it where a five must be blocked: there c has just
// made it, and with more than one it does not matter which is found (the
// block loses).
func (e *Engine) fiveAfter(c uint8) int {
	if n, sq := e.fivesThrough(e.last, c); n > 0 {
		return sq
	}
	return e.findLevel(c, lvFive)
}

// fivesThrough counts the empty squares on the lines through i where
// colour c would complete a five, and returns one of them.
func (e *Engine) fivesThrough(i int, c uint8) (n, sq int) {
	sq = -1
	for _, off := range e.dirs {
		for k := -4; k <= 4; k++ {
			t := i + k*off
			if k == 0 || e.cells[t] != cEmpty {
				continue
			}
			if e.level(t, c) == lvFive {
				n++
				sq = t
			}
		}
	}
	return n, sq
}

// tuning holds the search and evaluation knobs. The defaults won tuning
// matches (see TestTuneMatch); the knobs that are off did not help at
// short time controls and stay for experiments.
type tuning struct {
	breadth   int     // quiet moves tried at inner nodes
	frontier  int     // quiet moves tried one ply above the horizon (0: breadth)
	oppPct    int32   // weight of the opponent's sum in the evaluation, percent
	leafVCF   int     // VCF node budget at the horizon (0: none)
	leafVCT   int     // node budget of a threat search (fours and open threes) at the horizon (0: none)
	vctWide   bool    // run it whenever the side to move has two threats, not only a double threat
	lmr       bool    // reduce late quiet moves
	ttOneSlot bool    // the table as it was: each key has one slot, always replaced (see ttBucket)
	ext4      bool    // a move that makes a four costs no depth (threat extension)
	ext3      bool    // nor does one that makes an open three while the opponent has no four
	vct       int64   // node budget of the root proof-number VCT search (0: none)
	vctPly    int     // longest line the VCT search follows
	vctDef    int64   // node budget of the search for the opponent's VCT (0: none)
	soft      float64 // share of the budget after which no iteration starts
}

// defaultTuning returns the tuned knobs.
func defaultTuning() tuning {
	return tuning{breadth: maxBreadth, oppPct: 65, soft: softShare, vctPly: 24, ext4: true}
}

// searchState is the per-search bookkeeping.
type searchState struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time
	nodes    int64
	maxNodes int64 // stop at this many nodes (0: no limit)
	stop     bool
	vcfLimit int64 // node budget of the current VCF probe (0: none)
	vcfNodes int64
	vcfLine  []int32
	vcfFail  []uint64 // positions known to have no VCF (key | depth)
	vcfMoves [vcfDepth + 1][]move
	pnTree   []pnNode // the proof-number VCT tree, kept for its memory
	iter     int      // depth of the current iteration (bounds the extensions)
	// attacking is set while the last move came from a proven VCT.
	attacking bool
	moves     [maxPly][]move
}
