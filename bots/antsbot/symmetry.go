package antsbot

import (
	"math/rand/v2"
	"slices"
	"time"
)

// The official maps are symmetric: each player's part is a copy of one
// tile, moved, mirrored or turned (cell mazes and random walks are
// translated by half the map, mazes mirrored across a diagonal), and the
// same map operation that takes our tile to an enemy's takes our hills
// to its hills. On the biggest maps neither side finds the other's hill
// in 500 turns by looking; knowing the symmetry, the bot knows where to
// go long before it sees the hill.
//
// symmetry keeps every operation of the torus that could be the map's
// (a translation, with the rows or columns or both mirrored, and on
// square maps the rows and columns exchanged first) and drops one as
// soon as it takes a seen square of water onto one of land or back,
// testing a few random seen squares a turn. Land next to land and water
// next to water make near misses (a shift by one square) match often,
// so only water counts: an operation that has taken symMatched sampled
// squares of water onto water is checked on every seen square, and
// believed when it takes at least symConfirm of water onto water
// without a single miss.

// symMatched and symConfirm: see above. A wrong operation survives the
// full check only where the seen ground is itself that symmetric, which
// a few hundred squares of water on an official map never are.
const (
	symMatched = 40
	symConfirm = 400
)

// symSamples is how many seen squares every candidate is tested on per
// turn; symTurnTime bounds the time a turn gives the test.
const (
	symSamples  = 32
	symTurnTime = 20 * time.Millisecond
)

// transform is one operation of the torus: (r, c) becomes (c, r) if swap,
// then each coordinate is negated if flipped, then shifted by (dr, dc).
type transform struct {
	swap, flipR, flipC bool
	dr, dc             int
}

func (t transform) apply(w *world, i int) int {
	r, c := i/w.cols, i%w.cols
	if t.swap {
		r, c = c, r
	}
	if t.flipR {
		r = -r
	}
	if t.flipC {
		c = -c
	}
	return w.wrapIdx(r+t.dr, c+t.dc)
}

type symCandidate struct {
	t         transform
	matched   int32 // sampled squares of water taken onto water
	confirmed bool  // passed the check on every seen square
}

// symmetry finds the map's symmetry from what the bot has seen.
type symmetry struct {
	cands  []symCandidate
	rng    *rand.Rand
	next   int   // the candidate the next turn's test starts from
	known  []int // scratch: the squares seen so far
	sample []int // scratch: this turn's test squares
	// gone holds the squares a believed symmetry put an enemy hill on
	// that were seen without one (never there, or razed).
	gone map[int]bool
}

func newSymmetry(w *world, seed uint64) *symmetry {
	s := &symmetry{rng: rand.New(rand.NewPCG(seed, 0x73796d)), gone: map[int]bool{}}
	swaps := []bool{false}
	if w.rows == w.cols {
		swaps = append(swaps, true)
	}
	for _, swap := range swaps {
		for _, flipR := range []bool{false, true} {
			for _, flipC := range []bool{false, true} {
				for dr := range w.rows {
					for dc := range w.cols {
						if !swap && !flipR && !flipC && dr == 0 && dc == 0 {
							continue // the identity
						}
						s.cands = append(s.cands, symCandidate{t: transform{swap, flipR, flipC, dr, dc}})
					}
				}
			}
		}
	}
	return s
}

// update tests the candidates on pairs of seen squares, dropping every
// one that takes water onto land or land onto water, or one of our hills
// onto water or onto one of our own hills; it works until until (zero:
// no bound) and goes on next turn where it stopped.
func (s *symmetry) update(w *world, until time.Time) {
	if len(s.cands) == 0 {
		return
	}
	s.known = s.known[:0]
	for i, t := range w.lastSeen {
		if t >= 0 {
			s.known = append(s.known, i)
		}
	}
	if len(s.known) == 0 {
		return
	}
	s.sample = s.sample[:0]
	for range symSamples {
		s.sample = append(s.sample, s.known[s.rng.IntN(len(s.known))])
	}
	seen := func(i int) bool { return w.lastSeen[i] >= 0 }
	if s.next >= len(s.cands) {
		s.next = 0
	}
	keep := s.cands[:s.next]
	i := s.next
	for ; i < len(s.cands); i++ {
		if (i-s.next)%1024 == 1023 && !until.IsZero() && time.Now().After(until) {
			break
		}
		c := s.cands[i]
		ok := true
		for _, h := range w.home {
			img := c.t.apply(w, h)
			if (seen(img) && w.water[img]) || slices.Contains(w.home, img) {
				ok = false
				break
			}
		}
		for _, q := range s.sample {
			if !ok {
				break
			}
			img := c.t.apply(w, q)
			if !seen(img) {
				continue
			}
			if w.water[q] != w.water[img] {
				ok = false
			} else if w.water[q] && c.matched < symMatched {
				c.matched++
			}
		}
		if ok && !c.confirmed && c.matched >= symMatched {
			c.confirmed, ok = s.check(w, c.t)
			if !c.confirmed {
				c.matched = 0 // not enough seen yet: sample again
			}
		}
		if ok {
			keep = append(keep, c)
		}
	}
	n := len(keep)
	keep = append(keep, s.cands[i:]...)
	s.cands = keep
	s.next = n
}

// check tests t on every seen square whose image is seen: sound is
// false at the first miss, confirmed true when no miss and at least
// symConfirm squares of water went onto water: fewer on a small map (a
// twelfth of its squares) or one with little water (three quarters of
// the water seen), never fewer than symMatched. Cell mazes are made of
// like cells: parts of them look symmetric in ways the whole is not,
// and a belief on too little water would send the army astray.
func (s *symmetry) check(w *world, t transform) (confirmed, sound bool) {
	water, seenWater := 0, 0
	for _, q := range s.known {
		if w.water[q] {
			seenWater++
		}
		img := t.apply(w, q)
		if w.lastSeen[img] < 0 {
			continue
		}
		if w.water[q] != w.water[img] {
			return false, false
		}
		if w.water[q] {
			water++
		}
	}
	return water >= max(symMatched, min(symConfirm, w.n/12, seenWater*3/4)), true
}

// enemyHills lists the squares where the symmetries believed put enemy
// hills (the images of ours), but for those seen without a hill.
func (s *symmetry) enemyHills(w *world) []int {
	var out []int
	for _, c := range s.cands {
		if !c.confirmed {
			continue
		}
		for _, h := range w.home {
			img := c.t.apply(w, h)
			if o, ok := w.hills[img]; w.visible[img] && (!ok || o == 0) {
				s.gone[img] = true
			}
			if !s.gone[img] && !slices.Contains(out, img) {
				out = append(out, img)
			}
		}
	}
	slices.Sort(out)
	return out
}
