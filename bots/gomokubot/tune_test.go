package gomokubot

import (
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"arena/game/gomoku"
)

// variant is one engine configuration in a tuning match.
type variant struct {
	name string
	tune tuning
	w    *weights
}

// matchGames plays n openings, each with both colours, between a and b
// and returns a's score (win 1, draw 0.5).
func matchGames(t *testing.T, a, b variant, n int, size int, rule gomoku.Rule, budget time.Duration) float64 {
	var mu sync.Mutex
	score := 0.0
	t.Run(a.name, func(t *testing.T) {
		for g := 0; g < 2*n; g++ {
			t.Run(strconv.Itoa(g), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(g/2)+100, 9))
				r := newReferee(size, size, rule)
				c := size / 2
				r.play(gomoku.Point{X: c, Y: c})
				r.play(gomoku.Point{X: c + rng.IntN(3) - 1, Y: c - 1 - rng.IntN(2)})
				for {
					p := gomoku.Point{X: c + rng.IntN(5) - 2, Y: c + rng.IntN(5) - 2}
					if r.empty(p) {
						r.play(p)
						break
					}
				}
				pa := newEnginePlayer(t, r, budget, 0)
				pb := newEnginePlayer(t, r, budget, 0)
				pa.e.tune, pb.e.tune = a.tune, b.tune
				if a.w != nil {
					pa.e.comb = buildComb(*a.w)
					pa.e.rebuild()
				}
				if b.w != nil {
					pb.e.comb = buildComb(*b.w)
					pb.e.rebuild()
				}
				aColour := gomoku.Black
				black, white := player(pa), player(pb)
				if g%2 == 1 {
					aColour = gomoku.White
					black, white = pb, pa
				}
				playGame(t, r, black, white, size*size)
				s := 0.5
				switch r.winner {
				case aColour:
					s = 1
				case aColour.Opponent():
					s = 0
				}
				mu.Lock()
				score += s
				mu.Unlock()
			})
		}
	})
	return score
}

// TestTuneMatch plays tuning matches between engine configurations on
// 15x15 freestyle from random three-stone openings, each opening with both
// colours. It runs only when GOMOKU_TUNE is set to the number of openings
// (GOMOKU_MS sets the time per move, default 50 ms), e.g.
//
//	GOMOKU_TUNE=40 go test -run TestTuneMatch -v ./bots/gomokubot/
func TestTuneMatch(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("GOMOKU_TUNE"))
	if n == 0 {
		t.Skip("set GOMOKU_TUNE=<openings> to run tuning matches")
	}
	ms, _ := strconv.Atoi(os.Getenv("GOMOKU_MS"))
	if ms == 0 {
		ms = 50
	}
	base := variant{name: "base", tune: defaultTuning()}
	for _, v := range tuneVariants() {
		start := time.Now()
		s := matchGames(t, v, base, n, 15, gomoku.Freestyle, time.Duration(ms)*time.Millisecond)
		t.Logf("%s vs base: %.1f/%d (%v)", v.name, s, 2*n, time.Since(start).Round(time.Second))
	}
}

// tuneVariants lists the configurations TestTuneMatch plays against the
// defaults; edit it to try an idea.
func tuneVariants() []variant {
	var out []variant
	add := func(name string, f func(t *tuning, w *weights)) {
		t, w := defaultTuning(), defaultWeights()
		f(&t, &w)
		out = append(out, variant{name: name, tune: t, w: &w})
	}
	add("lmr", func(t *tuning, w *weights) { t.lmr = true })
	add("vct6", func(t *tuning, w *weights) { t.vct = 6 })
	add("open threes x1.5", func(t *tuning, w *weights) { w.pat[pF3] = w.pat[pF3] * 3 / 2 })
	return out
}
