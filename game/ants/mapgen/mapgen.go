// Package mapgen generates maps for Ants (the AI Challenge 2011 game) in
// the official .map format, so that a match needs no map files.
//
// A map is built from a symmetry group with one element per player
// (translations, a point rotation, or mirrors): every square's orbit under
// the group gets the same terrain, and player i's hills are the images of
// player 0's hills under the i-th element. That is what the official
// engine's symmetry check (and its symmetric food placement) expects.
// Water comes from random noise smoothed by a cellular automaton, which is
// itself symmetric because the smoothing rule commutes with torus
// translations, rotations and mirrors. Land that cannot be reached from the
// hills becomes water, so there are no islands.
//
// Options:
//
//	Players   int     number of players, 2..10 (required)
//	Seed      int64   the same seed and options give the same map
//	Rows      int     rows (default: chosen from the seed, about 2500 squares per player)
//	Cols      int     columns (default: chosen from the seed)
//	Symmetry  string  "translate" (any player count), "rotate" (2, or 4 on a square map),
//	                  "mirror" (2 or 4); default: chosen from the seed
//	Hills     int     hills per player, 1..3 (default 1)
//	Water     float64 share of squares seeded as water before smoothing (default 0.45, about 28% water after smoothing)
//	MinHillDistance int  shortest walk between hills of different players (default: from the map size)
package mapgen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Options describe the map to generate. The zero value of every field but
// Players means "choose for me".
type Options struct {
	Players         int
	Seed            int64
	Rows, Cols      int
	Symmetry        string
	Hills           int
	Water           float64
	MinHillDistance int
}

// Symmetry names accepted in Options.Symmetry.
const (
	Translate = "translate"
	Rotate    = "rotate"
	Mirror    = "mirror"
)

// MaxSide is the longest side the engine's map guidelines allow.
const MaxSide = 200

// attempts bounds the retries for one seed before giving up: a try fails
// when the hills end up too close or the land too small.
const attempts = 200

// Generate returns a map in the official .map format. The same options
// always give the same map.
func Generate(o Options) (string, error) {
	m, err := Build(o)
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

// Map is a generated map: Water[r][c] is true for water, Hills[p] lists
// player p's hills as (row, col).
type Map struct {
	Rows, Cols int
	Players    int
	Symmetry   string
	Seed       int64
	Water      [][]bool
	Hills      [][][2]int
}

// Build generates a map like Generate but returns it as data.
func Build(o Options) (*Map, error) {
	if o.Players < 2 || o.Players > 10 {
		return nil, fmt.Errorf("mapgen: players must be 2..10, got %d", o.Players)
	}
	if o.Hills == 0 {
		o.Hills = 1
	}
	if o.Hills < 1 || o.Hills > 3 {
		return nil, fmt.Errorf("mapgen: hills per player must be 1..3, got %d", o.Hills)
	}
	if o.Water == 0 {
		o.Water = 0.45
	}
	if o.Water < 0 || o.Water > 0.6 {
		return nil, fmt.Errorf("mapgen: water must be in 0..0.6, got %g", o.Water)
	}
	if (o.Rows == 0) != (o.Cols == 0) {
		return nil, errors.New("mapgen: give both rows and cols, or neither")
	}
	if o.Rows != 0 && (o.Rows < 8 || o.Cols < 8 || o.Rows > MaxSide || o.Cols > MaxSide) {
		return nil, fmt.Errorf("mapgen: rows and cols must be 8..%d, got %dx%d", MaxSide, o.Rows, o.Cols)
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x616e7473)) // "ants"
	sym := strings.ToLower(o.Symmetry)
	if sym == "" {
		sym = pickSymmetry(rng, o)
	}
	rows, cols := o.Rows, o.Cols
	if rows == 0 {
		rows, cols = pickSize(rng, sym, o.Players)
	}
	minDist := o.MinHillDistance
	if minDist == 0 {
		// About a third of the way across the map, capped at the
		// engine guideline's 20 steps.
		minDist = min(20, max(6, min(rows, cols)/3))
	}
	for range attempts {
		// The group is drawn again each try: a translation's diagonal
		// shift decides how far apart the hills can be.
		g, err := newGroup(sym, o.Players, rows, cols, rng)
		if err != nil {
			return nil, err
		}
		if m := try(rng, g, o, minDist); m != nil {
			m.Symmetry, m.Seed = sym, o.Seed
			return m, nil
		}
	}
	return nil, fmt.Errorf("mapgen: no valid %s map of %dx%d for %d players after %d tries (lower the water or the hill distance)",
		sym, rows, cols, o.Players, attempts)
}

// pickSymmetry chooses a symmetry the player count and size allow.
func pickSymmetry(rng *rand.Rand, o Options) string {
	choices := []string{Translate}
	if o.Players == 2 || (o.Players == 4 && o.Rows == o.Cols) {
		choices = append(choices, Rotate)
	}
	if o.Players == 2 || o.Players == 4 {
		choices = append(choices, Mirror)
	}
	return choices[rng.IntN(len(choices))]
}

// pickSize chooses dimensions with 1800..3600 squares per player that the
// symmetry can use.
func pickSize(rng *rand.Rand, sym string, players int) (rows, cols int) {
	area := players * (1800 + rng.IntN(1801))
	switch {
	case sym == Rotate && players == 4:
		side := isqrt(area)
		side = min(side-side%2, MaxSide)
		return side, side
	case sym == Translate:
		// Players sit side by side along the columns; rows are a
		// multiple of the player count so a diagonal shift is possible.
		tile := max(16, min(MaxSide/players, 24+rng.IntN(40)))
		cols = tile * players
		rows = area / cols
		rows = max(rows-rows%players, players*max(1, 24/players+1))
		for rows > MaxSide {
			rows -= players
		}
		return rows, cols
	default:
		side := isqrt(area)
		rows = side + rng.IntN(side/4+1) - side/8
		rows -= rows % 2
		cols = area / rows
		cols -= cols % 2
		return min(rows, MaxSide), min(cols, MaxSide)
	}
}

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// try makes one attempt; it returns nil when the result is not acceptable.
func try(rng *rand.Rand, g *group, o Options, minDist int) *Map {
	rows, cols := g.rows, g.cols
	n := rows * cols
	water := make([]bool, n)
	// Noise per orbit, so the start is already symmetric.
	for i := range n {
		if g.orbitRep[i] == i {
			w := rng.Float64() < o.Water
			for _, j := range g.orbit(i) {
				water[j] = w
			}
		}
	}
	for range 4 {
		water = smooth(water, rows, cols)
	}
	hills := placeHills(rng, g, water, o.Hills, minDist)
	if hills == nil {
		return nil
	}
	// Clear a small yard around every hill so that ants can leave it.
	for _, ph := range hills {
		for _, h := range ph {
			for dr := -2; dr <= 2; dr++ {
				for dc := -2; dc <= 2; dc++ {
					if dr*dr+dc*dc <= 5 {
						water[wrap(h/cols+dr, rows)*cols+wrap(h%cols+dc, cols)] = false
					}
				}
			}
		}
	}
	// Land the hills cannot reach becomes water: no islands.
	dist := bfs(water, rows, cols, hills[0][0])
	land := 0
	for i := range n {
		if !water[i] && dist[i] < 0 {
			water[i] = true
		}
		if !water[i] {
			land++
		}
	}
	if land < n*2/5 {
		return nil
	}
	// Every hill must be reachable, and hills of different players far
	// enough apart by walking.
	for p, ph := range hills {
		for _, h := range ph {
			if dist[h] < 0 {
				return nil
			}
			d := bfs(water, rows, cols, h)
			for q, qh := range hills {
				if q == p {
					continue
				}
				for _, k := range qh {
					if d[k] < minDist {
						return nil
					}
				}
			}
		}
	}
	m := &Map{Rows: rows, Cols: cols, Players: g.players, Water: make([][]bool, rows)}
	for r := range rows {
		m.Water[r] = water[r*cols : (r+1)*cols]
	}
	for _, ph := range hills {
		var hs [][2]int
		for _, h := range ph {
			hs = append(hs, [2]int{h / cols, h % cols})
		}
		m.Hills = append(m.Hills, hs)
	}
	return m
}

// placeHills picks player 0's hills on land and maps them to the other
// players; it returns hills[player][k] as square indexes, or nil.
func placeHills(rng *rand.Rand, g *group, water []bool, count, minDist int) [][]int {
	rows, cols := g.rows, g.cols
	hills := make([][]int, g.players)
	taken := map[int]bool{}
	for k := 0; k < count; k++ {
		placed := false
		for range 100 {
			h := rng.IntN(rows * cols)
			if water[h] {
				continue
			}
			imgs := g.images(h)
			if !distinct(imgs) || anyTaken(imgs, taken) {
				continue
			}
			// Straight-line distance first (cheap); walking distance
			// is checked once the terrain is final.
			ok := true
			for i, a := range imgs {
				for j, b := range imgs {
					if i != j && torusDist2(a, b, rows, cols) < minDist*minDist {
						ok = false
					}
				}
				for t := range taken {
					if torusDist2(a, t, rows, cols) < 36 {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			for p, a := range imgs {
				hills[p] = append(hills[p], a)
				taken[a] = true
			}
			placed = true
			break
		}
		if !placed {
			return nil
		}
	}
	return hills
}

func distinct(xs []int) bool {
	seen := map[int]bool{}
	for _, x := range xs {
		if seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func anyTaken(xs []int, taken map[int]bool) bool {
	for _, x := range xs {
		if taken[x] {
			return true
		}
	}
	return false
}

func wrap(x, n int) int {
	x %= n
	if x < 0 {
		x += n
	}
	return x
}

func torusDist2(a, b, rows, cols int) int {
	dr := abs(a/cols - b/cols)
	dc := abs(a%cols - b%cols)
	dr = min(dr, rows-dr)
	dc = min(dc, cols-dc)
	return dr*dr + dc*dc
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// smooth is one step of the cave automaton: a square becomes water when
// at least five of the nine squares around and on it are water.
func smooth(water []bool, rows, cols int) []bool {
	out := make([]bool, len(water))
	for r := range rows {
		for c := range cols {
			k := 0
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					if water[wrap(r+dr, rows)*cols+wrap(c+dc, cols)] {
						k++
					}
				}
			}
			out[r*cols+c] = k >= 5
		}
	}
	return out
}

// bfs returns walking distances from start over land on the torus (-1 for
// unreachable squares).
func bfs(water []bool, rows, cols, start int) []int {
	dist := make([]int, len(water))
	for i := range dist {
		dist[i] = -1
	}
	dist[start] = 0
	queue := []int{start}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		r, c := x/cols, x%cols
		for _, y := range [4]int{wrap(r-1, rows)*cols + c, r*cols + wrap(c+1, cols), wrap(r+1, rows)*cols + c, r*cols + wrap(c-1, cols)} {
			if !water[y] && dist[y] < 0 {
				dist[y] = dist[x] + 1
				queue = append(queue, y)
			}
		}
	}
	return dist
}

// String renders the map in the official format.
func (m *Map) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# map type: arena %s symmetry\n# random seed: %d\n", m.Symmetry, m.Seed)
	fmt.Fprintf(&b, "rows %d\ncols %d\nplayers %d\n", m.Rows, m.Cols, m.Players)
	grid := make([][]byte, m.Rows)
	for r := range m.Rows {
		grid[r] = make([]byte, m.Cols)
		for c := range m.Cols {
			grid[r][c] = '.'
			if m.Water[r][c] {
				grid[r][c] = '%'
			}
		}
	}
	for p, hs := range m.Hills {
		for _, h := range hs {
			grid[h[0]][h[1]] = byte('0' + p)
		}
	}
	for _, row := range grid {
		b.WriteString("m ")
		b.Write(row)
		b.WriteByte('\n')
	}
	return b.String()
}
