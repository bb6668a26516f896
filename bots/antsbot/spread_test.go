package antsbot

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSpreadOut: an explorer steps towards the side of its ring unseen
// the longest, and the next explorer of the turn, beside it, goes
// another way than the first, whose ring it finds claimed.
func TestSpreadOut(t *testing.T) {
	rows := openRows(40)
	b, obs := scene(t, rows...)
	b.tune.spread = 11
	b.Turn(obs, time.Time{})
	w := b.w
	b.turn = 30
	// Columns 0-19 were seen at turn 29, the east half at turn 5.
	for i := range w.n {
		w.lastSeen[i] = 5
		if i%w.cols < 20 {
			w.lastSeen[i] = 29
		}
	}
	explore := b.field([]int{w.idx(Loc{20, 39})}, w.n)
	if got := b.spreadOut(w.idx(Loc{20, 20}), explore); got[0] != dirE {
		t.Errorf("an explorer between a seen west and an unseen east steps %q first, want e (moves %v)", dirLetter[got[0]], got)
	}

	// Everything unseen alike: two explorers side by side part.
	b.turn = 31
	for i := range w.n {
		w.lastSeen[i] = 1
	}
	first := b.spreadOut(w.idx(Loc{10, 10}), explore)[0]
	second := b.spreadOut(w.idx(Loc{10, 11}), explore)[0]
	if first == second {
		t.Errorf("two explorers side by side both step %q", dirLetter[first])
	}
	if b.turn++; b.spreadOut(w.idx(Loc{10, 11}), explore)[0] != first {
		t.Errorf("a turn later the second explorer, alone, does not take the best step %q: claims last one turn", dirLetter[first])
	}
}

// BenchmarkSpreadOut times one explorer's choice on an open map (a ring
// of eleven steps: about 250 squares searched).
func BenchmarkSpreadOut(b *testing.B) {
	rows := openRows(60)
	bot, obs := scene(b, rows...)
	bot.tune.spread = 11
	bot.Turn(obs, time.Time{})
	explore := bot.field([]int{0}, bot.w.n)
	sq := bot.w.idx(Loc{30, 30})
	for b.Loop() {
		bot.turn++
		bot.spreadOut(sq, explore)
	}
}

// TestSpreadAll: the first explorers take a square each of the lattice
// unless spreadAll lets spread place them too.
func TestSpreadAll(t *testing.T) {
	rows := openRows(40)
	rows[20] = strings.Repeat(".", 19) + "aa" + strings.Repeat(".", 19)
	for _, all := range []bool{false, true} {
		b, obs := scene(t, rows...)
		b.tune.spread, b.tune.spreadAll = 11, all
		b.Turn(obs, time.Time{})
		// Turn 12: what the ants saw at turn 1 is stale.
		obs.Turn = 12
		b.Turn(obs, time.Time{})
		spread := slices.Contains(b.claimed, int32(12+1))
		if spread != all {
			t.Errorf("spreadAll %v: explorers placed by spread %v", all, spread)
		}
	}
}

// openRows is an n x n scene of land.
func openRows(n int) []string { return landRows(n, n) }
