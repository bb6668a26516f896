package antsbot

import "slices"

// The world is the bot's memory of the map: a torus of rows x cols
// squares addressed by index r*cols+c, with water, when each square was
// last seen, remembered food and hills.

// Directions in the order of the protocol's letters; dirStay is "no
// order".
const (
	dirN = iota
	dirE
	dirS
	dirW
	dirStay
)

var dirLetter = [4]byte{'n', 'e', 's', 'w'}

var dirDelta = [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

type offset struct{ dr, dc int }

type world struct {
	rows, cols, n int
	// nb[i][d] is the square one step from i in direction d.
	nb       [][4]int32
	water    []bool
	lastSeen []int32 // turn the square was last in view; -1 never
	visible  []bool
	// food remembers squares with food: the turn it was last seen.
	food map[int]int
	// isFood mirrors the keys of food for fast lookups.
	isFood []bool
	// hills remembers hills: square -> owner (0 = ours).
	hills map[int]int
	// home lists every square where we have seen a hill of ours, razed
	// or not, in the order seen.
	home []int

	viewOff   []offset
	attackOff []offset
	spawnOff  []offset // where an ant gathers food from, its own square excluded
	attackR2  int
}

func newWorld(p Params) *world {
	w := &world{rows: p.Rows, cols: p.Cols, n: p.Rows * p.Cols, attackR2: p.AttackRadius2,
		food: map[int]int{}, hills: map[int]int{}}
	w.nb = make([][4]int32, w.n)
	for r := range w.rows {
		for c := range w.cols {
			i := r*w.cols + c
			for d, dd := range dirDelta {
				w.nb[i][d] = int32(w.wrapIdx(r+dd[0], c+dd[1]))
			}
		}
	}
	w.water = make([]bool, w.n)
	w.visible = make([]bool, w.n)
	w.isFood = make([]bool, w.n)
	w.lastSeen = make([]int32, w.n)
	for i := range w.lastSeen {
		w.lastSeen[i] = -1
	}
	w.viewOff = offsets(p.ViewRadius2, true, w.rows, w.cols)
	w.attackOff = offsets(p.AttackRadius2, false, w.rows, w.cols)
	w.spawnOff = offsets(p.SpawnRadius2, false, w.rows, w.cols)
	return w
}

// offsets lists the offsets within squared radius r2, the centre
// included only if centre is set. Offsets that would wrap onto the same
// square twice on a tiny map are kept once.
func offsets(r2 int, centre bool, rows, cols int) []offset {
	var out []offset
	seen := map[[2]int]bool{}
	m := 0
	for m*m <= r2 {
		m++
	}
	for dr := -m; dr <= m; dr++ {
		for dc := -m; dc <= m; dc++ {
			d2 := dr*dr + dc*dc
			if d2 > r2 || (d2 == 0 && !centre) {
				continue
			}
			k := [2]int{((dr % rows) + rows) % rows, ((dc % cols) + cols) % cols}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, offset{dr, dc})
		}
	}
	return out
}

func (w *world) wrapIdx(r, c int) int {
	r %= w.rows
	if r < 0 {
		r += w.rows
	}
	c %= w.cols
	if c < 0 {
		c += w.cols
	}
	return r*w.cols + c
}

func (w *world) idx(l Loc) int { return l.Row*w.cols + l.Col }

// dirTo is the direction of the step from square from to square to,
// dirStay when to is not a neighbour (or is from itself).
func (w *world) dirTo(from, to int) int {
	for d := range 4 {
		if int(w.nb[from][d]) == to {
			return d
		}
	}
	return dirStay
}

func (w *world) loc(i int) Loc { return Loc{i / w.cols, i % w.cols} }

// add returns the square at offset o from i.
func (w *world) add(i int, o offset) int {
	return w.wrapIdx(i/w.cols+o.dr, i%w.cols+o.dc)
}

// dist2 is the engine's squared distance on the torus.
func (w *world) dist2(a, b int) int {
	dr := a/w.cols - b/w.cols
	if dr < 0 {
		dr = -dr
	}
	dc := a%w.cols - b%w.cols
	if dc < 0 {
		dc = -dc
	}
	dr = min(dr, w.rows-dr)
	dc = min(dc, w.cols-dc)
	return dr*dr + dc*dc
}

// update takes in one turn's observation. mine and enemies are the
// squares of our ants and of enemy ants (with owners).
func (w *world) update(obs *Observation, mine []int) {
	for _, l := range obs.Water {
		w.water[w.idx(l)] = true
	}
	clear(w.visible)
	t := int32(obs.Turn)
	for _, a := range mine {
		for _, o := range w.viewOff {
			j := w.add(a, o)
			w.visible[j] = true
			w.lastSeen[j] = t
		}
	}
	// Food and hills in view are exactly what the engine sent; out of
	// view they are remembered (food for a while only: others eat it).
	for i, seen := range w.food {
		if w.visible[i] || obs.Turn-seen > 40 {
			delete(w.food, i)
		}
	}
	for _, l := range obs.Food {
		w.food[w.idx(l)] = obs.Turn
	}
	clear(w.isFood)
	for i := range w.food {
		w.isFood[i] = true
	}
	for i := range w.hills {
		if w.visible[i] {
			delete(w.hills, i)
		}
	}
	for _, h := range obs.Hills {
		i := w.idx(h.Loc)
		w.hills[i] = h.Owner
		if h.Owner == 0 && !slices.Contains(w.home, i) {
			w.home = append(w.home, i)
		}
	}
}
