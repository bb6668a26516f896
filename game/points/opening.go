package points

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Opening names a starting position: crosses (2x2 squares with the same
// colour on a diagonal) played as the first dots, alternating colours, red
// first, so red moves next.
type Opening string

// The openings.
const (
	Empty        Opening = "empty"
	Cross        Opening = "cross"  // one cross in the centre (oppai-rs, playdots)
	TwoCrosses   Opening = "cross2" // two crosses side by side (oppai-rs)
	ThreeCrosses Opening = "cross3" // oppai-rs' triple cross
	FourCrosses  Opening = "cross4" // four crosses at fixed places (notago, KataGoDots)
	RandomCross  Opening = "random" // four crosses placed at random from the seed (notago)
)

// Openings lists the openings in the order the CLI shows them.
var Openings = []Opening{Empty, Cross, TwoCrosses, ThreeCrosses, FourCrosses, RandomCross}

// ParseOpening reads an opening name; "1".."4" are the numbers of crosses.
func ParseOpening(s string) (Opening, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "empty", "0", "none":
		return Empty, nil
	case "cross", "1", "cross1":
		return Cross, nil
	case "cross2", "2":
		return TwoCrosses, nil
	case "cross3", "3":
		return ThreeCrosses, nil
	case "cross4", "4":
		return FourCrosses, nil
	case "random", "random4", "cross4-random":
		return RandomCross, nil
	}
	return "", fmt.Errorf("opening %q: want empty, cross, cross2, cross3, cross4 or random", s)
}

// Points returns the opening's dots for a w x h field in the order they
// are played (seed only matters for RandomCross), or an error when the
// field is too small for it.
func (o Opening) Points(w, h int, seed int64) ([]Point, error) {
	w2, h2 := w/2, h/2
	var pts []Point
	switch o {
	case Empty:
		return nil, nil
	case Cross:
		pts = []Point{{w2 - 1, h2 - 1}, {w2 - 1, h2}, {w2, h2}, {w2, h2 - 1}}
	case TwoCrosses:
		pts = []Point{{w2 - 2, h2 - 1}, {w2 - 2, h2}, {w2 - 1, h2}, {w2 - 1, h2 - 1},
			{w2, h2}, {w2, h2 - 1}, {w2 + 1, h2 - 1}, {w2 + 1, h2}}
	case ThreeCrosses:
		pts = []Point{{w2 - 1, h2 - 1}, {w2 - 1, h2}, {w2, h2}, {w2, h2 - 1},
			{w2 + 1, h2 - 1}, {w2, h2 - 2}, {w2, h2 + 1}, {w2 + 1, h2}}
	case FourCrosses:
		dx := int(math.Round(float64(w) * 11 / 39))
		dy := int(math.Round(float64(h) * 10 / 32))
		for _, c := range []Point{{dx, dy}, {w - 2 - dx, dy}, {w - 2 - dx, h - 2 - dy}, {dx, h - 2 - dy}} {
			pts = append(pts, crossAt(c, false)...)
		}
	case RandomCross:
		return randomCrosses(w, h, seed)
	default:
		return nil, fmt.Errorf("unknown opening %q", string(o))
	}
	if !quiet(w, h, pts) {
		return nil, fmt.Errorf("opening %s does not fit a %dx%d field", o, w, h)
	}
	return pts, nil
}

// randomCrosses places four crosses around the centre at random distances
// (notago's rule: U[4,7)/39 of the width, U[4,7)/32 of the height, one per
// quadrant), drawing again while they overlap or capture (small fields).
func randomCrosses(w, h int, seed int64) ([]Point, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x706f696e7473))
	cx, cy := w/2-1, h/2-1
	for try := 0; try < 200; try++ {
		var pts []Point
		for _, q := range []Point{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			ox := int(math.Round((4 + 3*rng.Float64()) / 39 * float64(w)))
			oy := int(math.Round((4 + 3*rng.Float64()) / 32 * float64(h)))
			c := Point{min(max(cx+q.X*ox, 0), w-2), min(max(cy+q.Y*oy, 0), h-2)}
			pts = append(pts, crossAt(c, rng.IntN(2) == 1)...)
		}
		if quiet(w, h, pts) {
			return pts, nil
		}
	}
	return nil, fmt.Errorf("opening %s does not fit a %dx%d field", RandomCross, w, h)
}

// quiet reports whether the dots are distinct, on the field and capture
// nothing when played in order.
func quiet(w, h int, pts []Point) bool {
	f, err := NewField(w, h, Standard)
	if err != nil {
		return false
	}
	for _, p := range pts {
		caps, err := f.Play(p)
		if err != nil || len(caps) > 0 || f.Free() == 0 {
			return false
		}
	}
	return true
}

// crossAt returns the four dots of a cross whose top-left corner is c:
// red on the main diagonal (or the other one when flipped).
func crossAt(c Point, flip bool) []Point {
	if flip {
		return []Point{{c.X + 1, c.Y}, {c.X, c.Y}, {c.X, c.Y + 1}, {c.X + 1, c.Y + 1}}
	}
	return []Point{{c.X, c.Y}, {c.X + 1, c.Y}, {c.X + 1, c.Y + 1}, {c.X, c.Y + 1}}
}
