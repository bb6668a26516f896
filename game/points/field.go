package points

import (
	"errors"
	"fmt"
)

// Color is the colour of a dot or of the owner of a point. Red moves
// first (Points Battle: odd-numbered dots are red).
type Color uint8

// Colours. offBoard marks the padding around the field.
const (
	None     Color = 0
	Red      Color = 1
	Blue     Color = 2
	offBoard Color = 3
)

// Opp returns the other player's colour.
func (c Color) Opp() Color { return 3 - c }

// Side returns the match side of a colour: Red 0, Blue 1.
func (c Color) Side() int { return int(c) - 1 }

// ColorOf returns the colour of a match side.
func ColorOf(side int) Color { return Color(side + 1) }

func (c Color) String() string {
	switch c {
	case Red:
		return "red"
	case Blue:
		return "blue"
	}
	return "none"
}

// MarshalText writes a colour by name (JSON records).
func (c Color) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads "red", "blue" or "none".
func (c *Color) UnmarshalText(b []byte) error {
	switch string(b) {
	case "red":
		*c = Red
	case "blue":
		*c = Blue
	case "none":
		*c = None
	default:
		return fmt.Errorf("colour %q: want red or blue", b)
	}
	return nil
}

// Surround is the empty-enclosure rule (kurnevsky/opai SUR_COND).
type Surround uint8

// The empty-enclosure variants.
const (
	// Standard: an enclosure without live enemy dots is a "house"; an
	// enemy dot played into it is captured with the whole house unless
	// that dot captures something itself.
	Standard Surround = iota
	// Always: every enclosure is taken at once, empty or not.
	Always
	// AlwaysEnemy: like Standard, but the house owner captures an enemy
	// dot played into the house even when that dot captured something.
	AlwaysEnemy
)

var surroundNames = [...]string{"standard", "always", "always-enemy"}

func (s Surround) String() string {
	if int(s) < len(surroundNames) {
		return surroundNames[s]
	}
	return fmt.Sprintf("surround(%d)", int(s))
}

// ParseSurround reads a variant name.
func ParseSurround(s string) (Surround, error) {
	for i, n := range surroundNames {
		if s == n {
			return Surround(i), nil
		}
	}
	return 0, fmt.Errorf("surround %q: want standard, always or always-enemy", s)
}

// Field sizes accepted.
const (
	MinSize = 3
	MaxSize = 64
)

// Errors of Play.
var (
	ErrOffField = errors.New("point is off the field")
	ErrOccupied = errors.New("point holds a dot")
	ErrCaptured = errors.New("point is inside a captured area")
)

// Capture is one area a move took.
type Capture struct {
	By    Color   `json:"by"`
	Dots  int     `json:"dots"`            // live enemy dots taken
	Freed int     `json:"freed,omitempty"` // own dots freed from the enemy
	Area  []Point `json:"area"`            // every point that changed owner
}

// Field is the position of a game of Points with a fast incremental
// capture test: a move costs O(1) unless its dot cuts the region around it
// in two (a look at its eight neighbours tells); then the pieces are
// flooded in lockstep, depth first toward the nearest edge, so an open
// piece stops within a few points and a closed one costs its own area.
//
// Every point has a dot (none, red or blue; dots never move) and an owner:
// the colour of its live dot, or the player whose captured area holds it.
// A player's walls are the points it owns; an enclosure of player P is a
// 4-connected set of points P does not own that cannot reach the edge —
// the same as a closed 8-connected chain of P's live dots around it.
// Dead dots belong to the area that holds them, so they never form chains,
// and the score of P is the number of enemy dots P owns, which makes
// re-capture and freed prisoners fall out of the ownership change.
type Field struct {
	w, h, stride int
	surround     Surround
	dot, own     []Color
	// hint holds, per point and colour (bit 1<<c), "this point may lie in
	// an enclosure of c": set when an enclosure is left uncaptured (a
	// house); stale marks cost a flood, missing ones would be wrong.
	hint []uint8
	// uf is a union-find per colour over the points it owns, joined
	// across sides and corners: a dot can close a ring only if it touches
	// one component twice. Points lost to the enemy stay joined, which
	// only costs a needless flood now and then.
	uf    [3][]int32
	score [3]int
	free  int // points where a dot can go
	dots  int // dots placed
	stamp []uint32
	gen   uint32
	dirs  [8]int // N, NE, E, SE, S, SW, W, NW
	work  [4][]int32
	stack [4][]int32
	// toward[i] is the direction (0, 2, 4, 6) from cell i to the nearest
	// edge: floods go that way first, so an open region is found open
	// after a few cells.
	toward []uint8
	extra  []int32
	tq     []int32    // take's queue
	rec    *[]Capture // when set, captures are recorded here
}

// NewField returns an empty field of w columns and h rows.
func NewField(w, h int, s Surround) (*Field, error) {
	if w < MinSize || h < MinSize || w > MaxSize || h > MaxSize {
		return nil, fmt.Errorf("field %dx%d: sizes must be %d..%d", w, h, MinSize, MaxSize)
	}
	if int(s) >= len(surroundNames) {
		return nil, fmt.Errorf("unknown surround variant %d", s)
	}
	st := w + 2
	n := st * (h + 2)
	f := &Field{w: w, h: h, stride: st, surround: s, dot: make([]Color, n), own: make([]Color, n),
		hint: make([]uint8, n), stamp: make([]uint32, n), free: w * h}
	for i := range f.dot {
		x, y := i%st, i/st
		if x == 0 || y == 0 || x == w+1 || y == h+1 {
			f.dot[i] = offBoard
			f.own[i] = offBoard
		}
	}
	f.dirs = [8]int{-st, -st + 1, 1, st + 1, st, st - 1, -1, -st - 1}
	for _, c := range []Color{Red, Blue} {
		f.uf[c] = make([]int32, n)
		for i := range f.uf[c] {
			f.uf[c][i] = int32(i)
		}
	}
	f.toward = make([]uint8, n)
	for i := range f.toward {
		x, y := i%st-1, i/st-1
		k, d := uint8(0), y // north
		if e := w - 1 - x; e < d {
			k, d = 2, e
		}
		if e := h - 1 - y; e < d {
			k, d = 4, e
		}
		if x < d {
			k = 6
		}
		f.toward[i] = k
	}
	return f, nil
}

// Clone returns an independent copy.
func (f *Field) Clone() *Field {
	c := &Field{}
	c.CopyFrom(f)
	return c
}

// CopyFrom makes f a copy of src, reusing f's memory (for playouts).
func (f *Field) CopyFrom(src *Field) {
	if len(f.dot) != len(src.dot) {
		n := len(src.dot)
		f.dot, f.own, f.hint, f.stamp, f.gen = make([]Color, n), make([]Color, n), make([]uint8, n), make([]uint32, n), 0
		f.uf[Red], f.uf[Blue] = make([]int32, n), make([]int32, n)
	}
	copy(f.uf[Red], src.uf[Red])
	copy(f.uf[Blue], src.uf[Blue])
	copy(f.dot, src.dot)
	copy(f.own, src.own)
	copy(f.hint, src.hint)
	f.w, f.h, f.stride, f.surround, f.toward = src.w, src.h, src.stride, src.surround, src.toward
	f.score, f.free, f.dots, f.dirs = src.score, src.free, src.dots, src.dirs
	f.rec = nil
}

// Width and Height of the field.
func (f *Field) Width() int  { return f.w }
func (f *Field) Height() int { return f.h }

// Surround returns the empty-enclosure variant.
func (f *Field) Surround() Surround { return f.surround }

// Next returns the colour of the next dot: red after an even number.
func (f *Field) Next() Color {
	if f.dots%2 == 0 {
		return Red
	}
	return Blue
}

// Dots returns how many dots have been placed.
func (f *Field) Dots() int { return f.dots }

// Free returns how many points can still take a dot.
func (f *Field) Free() int { return f.free }

// Score returns the number of enemy dots c holds captured.
func (f *Field) Score(c Color) int { return f.score[c] }

// Index returns the cell index of a point (for the fast Put), or -1 when
// the point is off the field.
func (f *Field) Index(p Point) int {
	if p.X < 0 || p.Y < 0 || p.X >= f.w || p.Y >= f.h {
		return -1
	}
	return (p.Y+1)*f.stride + p.X + 1
}

// PointOf is the inverse of Index.
func (f *Field) PointOf(i int) Point { return Point{X: i%f.stride - 1, Y: i/f.stride - 1} }

// Cells returns the number of cell indices (including the padding).
func (f *Field) Cells() int { return len(f.dot) }

// DotAt returns the colour of the dot at a point (None if empty).
func (f *Field) DotAt(p Point) Color {
	if i := f.Index(p); i >= 0 {
		return f.dot[i]
	}
	return None
}

// OwnerAt returns the owner of a point: the colour of its live dot, the
// capturer of an area holding it, or None.
func (f *Field) OwnerAt(p Point) Color {
	if i := f.Index(p); i >= 0 {
		return f.own[i]
	}
	return None
}

// Dot and Owner are DotAt and OwnerAt by cell index.
func (f *Field) Dot(i int) Color   { return f.dot[i] }
func (f *Field) Owner(i int) Color { return f.own[i] }

// Neighbours returns the offsets of the eight neighbours of a cell,
// clockwise from north.
func (f *Field) Neighbours() [8]int { return f.dirs }

// CanPut reports whether a dot may go on cell i.
func (f *Field) CanPut(i int) bool { return f.dot[i] == None && f.own[i] == None }

// Check says why a dot may not go on p, or nil.
func (f *Field) Check(p Point) error {
	i := f.Index(p)
	switch {
	case i < 0:
		return fmt.Errorf("%v: %w", p, ErrOffField)
	case f.dot[i] != None:
		return fmt.Errorf("%v: %w", p, ErrOccupied)
	case f.own[i] != None:
		return fmt.Errorf("%v: %w", p, ErrCaptured)
	}
	return nil
}

// Play puts the next dot on p and returns the areas it captured.
func (f *Field) Play(p Point) ([]Capture, error) {
	if err := f.Check(p); err != nil {
		return nil, err
	}
	var caps []Capture
	f.rec = &caps
	f.Put(f.Index(p))
	f.rec = nil
	return caps, nil
}

// Put puts the next dot on cell i, which must satisfy CanPut, and reports
// whether the mover captured anything. It is the bots' fast path.
func (f *Field) Put(i int) bool { return f.PutColor(i, f.Next()) }

// PutColor puts a dot of colour p on cell i whatever the turn (set-ups and
// tests; the colour of the next dot still follows the number of dots).
func (f *Field) PutColor(i int, p Color) bool {
	o := p.Opp()
	inEnemy := f.hint[i]&(1<<o) != 0
	f.dot[i], f.own[i] = p, p
	f.free--
	f.dots++
	took := f.enclose(i, p)
	f.join(p, i)
	if inEnemy && (!took || f.surround == AlwaysEnemy) {
		// The dot went into a house of the opponent (or what may be one).
		cells, closed, _ := f.floodOne(i, o)
		if closed {
			f.take(o, cells)
		} else {
			for _, c := range cells {
				f.hint[c] &^= 1 << o
			}
		}
	}
	return took
}

func (f *Field) nextGen(n uint32) uint32 {
	if f.gen > ^uint32(0)-2*n {
		clear(f.stamp)
		f.gen = 0
	}
	g := f.gen + 1
	f.gen += n
	return g
}

// enclose finds the enclosures of p that touch cell i (just played) and
// captures those holding a live enemy dot (or all, under Always).
//
// An enclosure of p never holds a live enemy dot for longer than the move
// that closed it (it is captured then; an enemy dot entering it later is
// taken with it unless that dot captures, and a dot that captures opens
// the enclosure through the area it takes). So a dot that does not cut
// its region in two captures nothing: either the region was open and
// stays open, or it was closed and holds no enemy. Only cuts need a
// flood.
func (f *Field) enclose(i int, p Color) bool {
	// Local topology: the points around i that p does not own fall into
	// groups joined around the ring of eight neighbours; a single group
	// cannot have been cut off by this dot.
	var seeds [4]int
	n := 0
	first := -1 // index into seeds of the group that wraps around north
	for k := 0; k < 8; k += 2 {
		c := i + f.dirs[k]
		if f.own[c] == p {
			continue
		}
		prev := i + f.dirs[(k+6)%8] // the cardinal before, counter-clockwise
		diag := i + f.dirs[(k+7)%8]
		if k > 0 && f.own[prev] != p && f.own[diag] != p {
			continue // joined to the previous cardinal's group
		}
		if k == 0 {
			first = n
		}
		seeds[n] = c
		n++
	}
	// West joins north through north-west: the groups of north and the
	// last cardinal are one.
	if n >= 2 && first == 0 {
		w, nw := i+f.dirs[6], i+f.dirs[7]
		if f.own[w] != p && f.own[nw] != p && seeds[n-1] != seeds[0] {
			n-- // the last group wraps into north's
		}
	}
	if n < 2 || !f.closesLoop(i, p) {
		return false
	}
	return f.floodGroups(seeds[:n], p)
}

// closesLoop reports whether the walls of p around cell i (its points
// among the eight neighbours, in runs around the ring) include two runs
// of one component: only then can a dot on i close a ring. A corner
// point between two walls counts as wall: it separates nothing next to i.
func (f *Field) closesLoop(i int, p Color) bool {
	var walls uint8
	for k, d := range f.dirs {
		// 1 when the owner is p, without a branch: x^p-1 wraps only
		// for 0.
		walls |= (uint8(f.own[i+d]^p) - 1) >> 7 << k
	}
	return f.runsJoin(i, p, walls)
}

// runsJoin is closesLoop for the walls of p around i given as a set of
// neighbours (bit k: neighbour k).
func (f *Field) runsJoin(i int, p Color, walls uint8) bool {
	runs := &ringRuns[walls]
	if runs.n < 2 {
		return false
	}
	var roots [4]int32
	for r, k := range runs.start[:runs.n] {
		root := f.root(p, int32(i+f.dirs[k]))
		for _, q := range roots[:r] {
			if q == root {
				return true
			}
		}
		roots[r] = root
	}
	return false
}

// ringRun is where the runs of walls around a cell start: the
// neighbours' indices (0 north, clockwise), at most four.
type ringRun struct {
	n     uint8
	start [4]uint8
}

// ringRuns holds the runs for each set of walls among the eight
// neighbours (bit k: neighbour k). A run always starts at a real wall: a
// corner counts as wall only between two walls, so the one before it is
// a wall too.
var ringRuns = func() (t [256]ringRun) {
	for m := range 256 {
		w := m
		for k := 1; k < 8; k += 2 {
			if m&(1<<(k-1)) != 0 && m&(1<<((k+1)&7)) != 0 {
				w |= 1 << k
			}
		}
		for k := range 8 {
			if w&(1<<k) != 0 && w&(1<<((k+7)&7)) == 0 {
				t[m].start[t[m].n] = uint8(k)
				t[m].n++
			}
		}
	}
	return t
}()

// MayClose reports whether a dot of colour p on cell i could close a
// ring; when it is false, that dot captures nothing. It looks only at the
// eight neighbours and the walls' components, so bots can find every
// capture of a position without playing each point.
func (f *Field) MayClose(i int, p Color) bool { return f.closesLoop(i, p) }

// MayCloseEither is MayClose for both colours at once (one look at the
// neighbours).
func (f *Field) MayCloseEither(i int) (red, blue bool) {
	var wr, wb uint8
	for k, d := range f.dirs {
		// Red is 1 and Blue 2; the padding (3) is neither. No branch:
		// the owners around a point are as good as random.
		x := uint8(f.own[i+d])
		wr |= x &^ (x >> 1) & 1 << k
		wb |= x >> 1 &^ x & 1 << k
	}
	return f.runsJoin(i, Red, wr), f.runsJoin(i, Blue, wb)
}

func (f *Field) root(c Color, i int32) int32 {
	u := f.uf[c]
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// join adds cell i, now owned by c, to the components of c around it.
func (f *Field) join(c Color, i int) {
	for k := 0; k < 8; k++ {
		nb := i + f.dirs[k]
		if f.own[nb] != c {
			continue
		}
		a, b := f.root(c, int32(i)), f.root(c, int32(nb))
		if a != b {
			f.uf[c][a] = b
		}
	}
}

// floodGroups floods the seeds' regions of points p does not own in
// lockstep (one cell each in turn), so an open region stops as soon as it
// reaches the edge and the work stays proportional to the enclosed areas.
func (f *Field) floodGroups(seeds []int, p Color) bool {
	o := p.Opp()
	base := f.nextGen(8)
	n := len(seeds)
	var parent [4]int
	var open [4]bool
	var live [4]int
	find := func(g int) int {
		for parent[g] != g {
			g = parent[g]
		}
		return g
	}
	for g, s := range seeds {
		parent[g] = g
		f.work[g] = f.work[g][:0]
		f.stack[g] = f.stack[g][:0]
		if f.dot[s] == offBoard {
			open[g] = true
			continue
		}
		f.stamp[s] = base + uint32(g)
		f.work[g] = append(f.work[g], int32(s))
		f.stack[g] = append(f.stack[g], int32(s))
		if f.dot[s] == o && f.own[s] == o {
			live[g]++
		}
	}
	// Depth first, toward the nearest edge first: an open region usually
	// shows it within a few cells.
	for progress := true; progress; {
		progress = false
		for g := 0; g < n; g++ {
			r := find(g)
			st := f.stack[g]
			if open[r] || len(st) == 0 {
				continue
			}
			progress = true
			c := int(st[len(st)-1])
			st = st[:len(st)-1]
			t := f.toward[c]
			for j := 1; j <= 4; j++ {
				nb := c + f.dirs[(t+uint8(2*j))&7] // toward comes last, popped first
				switch {
				case f.dot[nb] == offBoard:
					open[r] = true
				case f.own[nb] == p:
				case f.stamp[nb] >= base && f.stamp[nb] < base+4:
					if h := find(int(f.stamp[nb] - base)); h != r {
						parent[h] = r
						open[r] = open[r] || open[h]
					}
				default:
					f.stamp[nb] = base + uint32(g)
					f.work[g] = append(f.work[g], int32(nb))
					st = append(st, int32(nb))
					if f.dot[nb] == o && f.own[nb] == o {
						live[g]++
					}
				}
				if open[r] {
					break
				}
			}
			f.stack[g] = st
		}
	}
	took := false
	for g := 0; g < n; g++ {
		if find(g) != g || open[g] {
			continue
		}
		cells, lv := f.extra[:0], 0
		for h := 0; h < n; h++ {
			if find(h) == g {
				cells = append(cells, f.work[h]...)
				lv += live[h]
			}
		}
		f.extra = cells
		if f.own[cells[0]] == p {
			continue // inside an area taken a moment ago
		}
		if lv > 0 || f.surround == Always {
			f.take(p, cells)
			took = true
			continue
		}
		for _, c := range cells {
			f.hint[c] |= 1 << p
		}
	}
	return took
}

// floodOne floods the region of points c does not own around cell i and
// reports whether it is closed (cannot reach the edge); the cells visited
// are returned (all of them when closed).
func (f *Field) floodOne(i int, c Color) (cells []int32, closed bool, live int) {
	mark := f.nextGen(1)
	cells = append(f.extra[:0], int32(i))
	f.stamp[i] = mark
	for h := 0; h < len(cells); h++ {
		x := int(cells[h])
		for k := 0; k < 8; k += 2 {
			nb := x + f.dirs[k]
			switch {
			case f.dot[nb] == offBoard:
				f.extra = cells
				return cells, false, live
			case f.own[nb] == c || f.stamp[nb] == mark:
			default:
				f.stamp[nb] = mark
				cells = append(cells, int32(nb))
				if f.dot[nb] == c.Opp() && f.own[nb] == c.Opp() {
					live++
				}
			}
		}
	}
	f.extra = cells
	return cells, true, live
}

// take gives player p the whole inside of the ring around the closed
// region cells: the region plus any pockets behind p's dots within it.
func (f *Field) take(p Color, cells []int32) {
	mark := f.nextGen(2)
	ext := mark + 1
	minX, minY, maxX, maxY := f.w+1, f.h+1, 0, 0
	for _, c := range cells {
		f.stamp[c] = mark
		x, y := int(c)%f.stride, int(c)/f.stride
		minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
	}
	minX, minY, maxX, maxY = minX-1, minY-1, maxX+1, maxY+1
	// The ring is the cells next to the region; flood the outside of
	// region and ring from the frame of the bounding box.
	blocked := func(c int) bool {
		if f.stamp[c] == mark {
			return true
		}
		for k := 0; k < 8; k += 2 {
			if f.stamp[c+f.dirs[k]] == mark {
				return true
			}
		}
		return false
	}
	q := f.tq[:0]
	push := func(x, y int) {
		c := y*f.stride + x
		if f.stamp[c] != ext && !blocked(c) {
			f.stamp[c] = ext
			q = append(q, int32(c))
		}
	}
	for x := minX; x <= maxX; x++ {
		push(x, minY)
		push(x, maxY)
	}
	for y := minY; y <= maxY; y++ {
		push(minX, y)
		push(maxX, y)
	}
	for h := 0; h < len(q); h++ {
		c := int(q[h])
		x, y := c%f.stride, c/f.stride
		if y > minY {
			push(x, y-1)
		}
		if y < maxY {
			push(x, y+1)
		}
		if x > minX {
			push(x-1, y)
		}
		if x < maxX {
			push(x+1, y)
		}
	}
	f.tq = q
	o := p.Opp()
	capt := Capture{By: p}
	for y := minY; y <= maxY; y++ {
		for x := minX; x <= maxX; x++ {
			c := y*f.stride + x
			if f.stamp[c] == ext || f.own[c] == p {
				continue
			}
			switch {
			case f.dot[c] == o && f.own[c] == o:
				f.score[p]++
				capt.Dots++
			case f.dot[c] == p: // p's prisoner goes free
				f.score[o]--
				capt.Freed++
			case f.dot[c] == None && f.own[c] == None:
				f.free--
			}
			f.own[c] = p
			f.join(p, c)
			if f.rec != nil {
				capt.Area = append(capt.Area, f.PointOf(c))
			}
		}
	}
	if f.rec != nil {
		*f.rec = append(*f.rec, capt)
	}
}

// Ground ends the game for player p by grounding: every group of points p
// owns that is not 4-connected to the edge through p's points goes to the
// opponent (its live dots count for the opponent, its prisoners go free).
// It returns the areas handed over.
func (f *Field) Ground(p Color) []Capture {
	var caps []Capture
	f.rec = &caps
	defer func() { f.rec = nil }()
	mark := f.nextGen(2)
	q := f.work[1][:0]
	for i := range f.own {
		if f.own[i] != p || f.stamp[i] == mark {
			continue
		}
		touches := false
		for k := 0; k < 8; k += 2 {
			if f.dot[i+f.dirs[k]] == offBoard {
				touches = true
			}
		}
		if touches {
			f.stamp[i] = mark
			q = append(q, int32(i))
		}
	}
	for h := 0; h < len(q); h++ {
		c := int(q[h])
		for k := 0; k < 8; k += 2 {
			nb := c + f.dirs[k]
			if f.own[nb] == p && f.stamp[nb] != mark {
				f.stamp[nb] = mark
				q = append(q, int32(nb))
			}
		}
	}
	f.work[1] = q
	var lost []int32
	for i := range f.own {
		if f.own[i] == p && f.stamp[i] != mark {
			lost = append(lost, int32(i))
		}
	}
	o := p.Opp()
	capt := Capture{By: o}
	for _, c := range lost {
		switch {
		case f.dot[c] == p:
			f.score[o]++
			capt.Dots++
		case f.dot[c] == o:
			f.score[p]--
			capt.Freed++
		}
		f.own[c] = o
		f.join(o, int(c))
		capt.Area = append(capt.Area, f.PointOf(int(c)))
	}
	if len(lost) > 0 {
		caps = append(caps, capt)
	}
	return caps
}

// String draws the field, one row a line: '.' free, 'x' and 'o' live red
// and blue dots, 'X' and 'O' dots inside the other colour's area, '+' and
// '-' empty points of red and blue areas.
func (f *Field) String() string {
	b := make([]byte, 0, (f.w+1)*f.h)
	for y := 0; y < f.h; y++ {
		for x := 0; x < f.w; x++ {
			i := f.Index(Point{x, y})
			d, o := f.dot[i], f.own[i]
			c := byte('.')
			switch {
			case d == Red && o == Blue:
				c = 'X'
			case d == Blue && o == Red:
				c = 'O'
			case d == Red:
				c = 'x'
			case d == Blue:
				c = 'o'
			case o == Red:
				c = '+'
			case o == Blue:
				c = '-'
			}
			b = append(b, c)
		}
		b = append(b, '\n')
	}
	return string(b)
}
