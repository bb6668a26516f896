package antsbot

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSymmetryFinds reveals the official maps of testdata to the bot a
// ring at a time around player 0's hills, as explorers would: while
// little is seen no symmetry is believed, and once one is, the enemy
// hills it implies are exactly the other players' hills (one symmetry
// for two players, one per enemy for more). The maps cover translation
// (random walk), mirroring (cell maze) and diagonal turns (mazes).
func TestSymmetryFinds(t *testing.T) {
	tested := 0
	for _, tm := range testMaps(t) {
		m, name := tm.m, tm.name
		if m.Rows*m.Cols > 100*100 {
			continue
		}
		tested++
		p := DefaultParams()
		p.Rows, p.Cols = m.Rows, m.Cols
		w := newWorld(p)
		water := make([]bool, w.n)
		for _, i := range m.Water {
			water[i] = true
		}
		var want []int
		for _, h := range m.Hills {
			if h.Owner == 0 {
				w.home = append(w.home, h.Loc)
				w.hills[h.Loc] = 0
			} else {
				want = append(want, h.Loc)
			}
		}
		slices.Sort(want)
		s := newSymmetry(w, 1)
		found := -1
		for radius := 4; radius <= max(m.Rows, m.Cols); radius += 2 {
			// Everything within radius steps (as the crow flies, rows
			// and columns apart) of our hills is seen.
			for i := range w.n {
				for _, h := range w.home {
					dr := abs(i/w.cols - h/w.cols)
					dc := abs(i%w.cols - h%w.cols)
					if min(dr, w.rows-dr) <= radius && min(dc, w.cols-dc) <= radius {
						w.lastSeen[i] = 0
						w.water[i] = water[i]
					}
				}
			}
			for range 8 {
				s.update(w, time.Time{})
			}
			got := s.enemyHills(w)
			if radius == 4 && len(got) > 0 {
				t.Errorf("%s: with only the squares near our hills seen, enemy hills believed at %v", name, got)
			}
			for _, h := range got {
				if !slices.Contains(want, h) {
					t.Fatalf("%s: an enemy hill believed at %v, the map has them at %v", name, got, want)
				}
			}
			if slices.Equal(got, want) {
				found = radius
				break
			}
		}
		if found < 0 {
			t.Errorf("%s: not every enemy hill found with the whole map seen (%d candidates left)", name, len(s.cands))
		}
		t.Logf("%s (%dx%d, %d players): found with %d rows and columns round our hills seen", name, m.Rows, m.Cols, m.Players, found)
	}
	if tested < 4 {
		t.Fatalf("only %d maps tested", tested)
	}
}

// BenchmarkSymmetryUpdate times the first test of a cell maze's size
// (134x196, 105,000 candidates), the dearest turn: later turns test
// only the candidates left.
func BenchmarkSymmetryUpdate(b *testing.B) {
	p := DefaultParams()
	p.Rows, p.Cols = 134, 196
	w := newWorld(p)
	w.home = []int{51*w.cols + 87}
	for i := range w.n {
		if (i*7919)%5 == 0 {
			w.water[i] = true
		}
		if i/w.cols < 40 {
			w.lastSeen[i] = 0
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		s := newSymmetry(w, 1)
		s.update(w, time.Time{})
	}
}

// TestSymmetryFrom checks tuning.symmetryFrom: the enemy hill a believed
// symmetry implies draws an ant near it only from that turn on; before,
// the ant goes on exploring.
func TestSymmetryFrom(t *testing.T) {
	rows := landRows(20, 40)
	rows[2] = "..0" + strings.Repeat(".", 37)
	rows[5] = ".........." + "a" + strings.Repeat(".", 29)
	for _, tc := range []struct {
		turn, from int
		raze       bool
	}{
		{turn: 1, from: 0, raze: true},
		{turn: 1, from: 200, raze: false},
		{turn: 200, from: 200, raze: true},
	} {
		b, obs := scene(t, rows...)
		b.tune.symmetry, b.tune.symmetryFrom = true, tc.from
		b.sym = newSymmetry(b.w, 1)
		// Half the map down and across: our hill at 2,2 implies one at
		// 12,22, 19 steps from the ant and out of its view.
		b.sym.cands = []symCandidate{{t: transform{dr: 10, dc: 20}, matched: symMatched, confirmed: true}}
		obs.Turn = tc.turn
		moves(t, b, obs)
		if got := b.sym.enemyHills(b.w); len(got) != 1 || b.w.loc(got[0]) != (Loc{12, 22}) {
			t.Fatalf("implied enemy hills %v, want 12,22", got)
		}
		if raze := b.role[0] == roleRaze; raze != tc.raze {
			t.Errorf("turn %d, symmetryFrom %d: the ant marches on the implied hill: %v, want %v", tc.turn, tc.from, raze, tc.raze)
		}
	}
}
