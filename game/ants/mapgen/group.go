package mapgen

import (
	"fmt"
	"math/rand/v2"
)

// group is a symmetry group of the torus with one element per player;
// elems[0] is the identity and elems[p] takes player 0's squares to
// player p's.
type group struct {
	rows, cols, players int
	elems               []func(r, c int) (int, int)
	// orbitRep[i] is the smallest square index in the orbit of i.
	orbitRep []int
}

func newGroup(sym string, players, rows, cols int, rng *rand.Rand) (*group, error) {
	g := &group{rows: rows, cols: cols, players: players}
	switch sym {
	case Translate:
		if cols%players != 0 {
			return nil, fmt.Errorf("mapgen: translate symmetry needs cols divisible by %d players, got %d", players, cols)
		}
		dc := cols / players
		dr := 0
		if rows%players == 0 {
			// A diagonal shift puts the neighbours of a player at
			// different rows, which makes less boring maps.
			dr = rng.IntN(players) * rows / players
		}
		for p := range players {
			g.elems = append(g.elems, func(r, c int) (int, int) {
				return wrap(r+p*dr, rows), wrap(c+p*dc, cols)
			})
		}
	case Rotate:
		switch {
		case players == 2:
			g.elems = append(g.elems, identity, func(r, c int) (int, int) { return rows - 1 - r, cols - 1 - c })
		case players == 4 && rows == cols:
			rot := func(r, c int) (int, int) { return c, rows - 1 - r }
			g.elems = append(g.elems, identity, rot,
				func(r, c int) (int, int) { return rot(rot(r, c)) },
				func(r, c int) (int, int) { r, c = rot(r, c); r, c = rot(r, c); return rot(r, c) })
		default:
			return nil, fmt.Errorf("mapgen: rotate symmetry needs 2 players, or 4 on a square map (got %d players, %dx%d)", players, rows, cols)
		}
	case Mirror:
		h := func(r, c int) (int, int) { return r, cols - 1 - c }
		v := func(r, c int) (int, int) { return rows - 1 - r, c }
		switch players {
		case 2:
			if rng.IntN(2) == 0 {
				g.elems = append(g.elems, identity, h)
			} else {
				g.elems = append(g.elems, identity, v)
			}
		case 4:
			g.elems = append(g.elems, identity, h, v, func(r, c int) (int, int) { return rows - 1 - r, cols - 1 - c })
		default:
			return nil, fmt.Errorf("mapgen: mirror symmetry needs 2 or 4 players, got %d", players)
		}
	default:
		return nil, fmt.Errorf("mapgen: unknown symmetry %q (want translate, rotate or mirror)", sym)
	}
	g.orbitRep = make([]int, rows*cols)
	for i := range g.orbitRep {
		rep := i
		for _, j := range g.images(i) {
			rep = min(rep, j)
		}
		g.orbitRep[i] = rep
	}
	return g, nil
}

func identity(r, c int) (int, int) { return r, c }

// images returns the square i as seen by each player: images(i)[p] is
// the image of i under element p.
func (g *group) images(i int) []int {
	out := make([]int, len(g.elems))
	for p, e := range g.elems {
		r, c := e(i/g.cols, i%g.cols)
		out[p] = r*g.cols + c
	}
	return out
}

// orbit returns the distinct images of i.
func (g *group) orbit(i int) []int {
	imgs := g.images(i)
	out := imgs[:0]
	for _, x := range imgs {
		dup := false
		for _, y := range out {
			dup = dup || x == y
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}
