// Package pointsref holds the reference opponents Points players are
// measured against: a random player and a greedy one ("capture if
// possible, else play next to the last dot"). The strength tests and the
// pointstest program share them so both measure against the same thing.
package pointsref

import (
	"math/rand/v2"

	"arena/game/points"
)

// Free lists the points a dot may still be played on.
func Free(f *points.Field) []points.Point {
	var free []points.Point
	for y := 0; y < f.Height(); y++ {
		for x := 0; x < f.Width(); x++ {
			if p := (points.Point{X: x, Y: y}); f.Check(p) == nil {
				free = append(free, p)
			}
		}
	}
	return free
}

// Random plays a free point chosen at random (last is unused; it keeps
// the signature of Greedy).
func Random(f *points.Field, _ points.Point, rng *rand.Rand) points.Point {
	free := Free(f)
	return free[rng.IntN(len(free))]
}

// Greedy plays the dot that gains most in captures if any gains, else a
// free point next to the last dot, else any free point.
func Greedy(f *points.Field, last points.Point, rng *rand.Rand) points.Point {
	free := Free(f)
	me := f.Next()
	g := f.Clone()
	best, gain := points.Point{}, 0
	for _, p := range free {
		g.CopyFrom(f)
		g.Put(g.Index(p))
		d := (g.Score(me) - f.Score(me)) - (g.Score(me.Opp()) - f.Score(me.Opp()))
		if d > gain {
			best, gain = p, d
		}
	}
	if gain > 0 {
		return best
	}
	var near []points.Point
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if p := (points.Point{X: last.X + dx, Y: last.Y + dy}); f.Check(p) == nil {
				near = append(near, p)
			}
		}
	}
	if len(near) > 0 {
		return near[rng.IntN(len(near))]
	}
	return free[rng.IntN(len(free))]
}
