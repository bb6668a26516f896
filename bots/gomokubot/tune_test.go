package gomokubot

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"arena/game/gomoku"
	"arena/internal/sprttest"
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
	add("vct", func(t *tuning, w *weights) { t.vct, t.vctDef = 100000, 20000 })
	add("open threes x1.5", func(t *tuning, w *weights) { w.pat[pF3] = w.pat[pF3] * 3 / 2 })
	return out
}

// The window of the side to move's depth-6 score that counts as a
// balanced opening: the move itself is worth a lot in freestyle, so the
// side to move should start a little behind.
var sprtLow, sprtHigh = envInt("GOMOKU_LOW", -300), envInt("GOMOKU_HIGH", -60)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// balancedOpening returns the n-th balanced opening: four stones in the
// centre 7x7 (Black to move) drawn from a fixed sequence, kept only when
// a depth-6 search scores it within 120 units (about an open two) for
// either side.
func balancedOpening(t testing.TB, n int) []gomoku.Point {
	rng := rand.New(rand.NewPCG(uint64(n)+1000, 7))
	for {
		var stones []gomoku.Point
		e := NewEngine(15, 15, gomoku.Freestyle)
		s := gomoku.Black
		for len(stones) < 4 {
			p := gomoku.Point{X: 4 + rng.IntN(7), Y: 4 + rng.IntN(7)}
			if e.At(p) != gomoku.Empty {
				continue
			}
			if err := e.Place(p, s); err != nil {
				t.Fatal(err)
			}
			stones = append(stones, p)
			s = s.Opponent()
		}
		// The judge stays the same whatever the defaults become, so
		// that every SPRT plays the same openings (and depth 6 stays
		// cheap: with threat extensions it reads much further).
		e.tune.ext4, e.tune.ext3 = false, false
		e.MaxDepth = 6
		_, info := e.Search(context.Background(), gomoku.Black, time.Minute)
		if info.Score > sprtLow && info.Score < sprtHigh {
			return stones
		}
	}
}

// sprtPair plays one opening twice, colours swapped, between a and b, each
// with nodes per move (and a minute of wall time, which it never needs),
// and returns a's two scores.
func sprtPair(t *testing.T, a, b variant, opening int, nodes, nodesB int64) (float64, float64) {
	var scores [2]float64
	var winners [2]gomoku.Stone
	stones := balancedOpening(t, opening)
	for g := 0; g < 2; g++ {
		r := newReferee(15, 15, gomoku.Freestyle)
		for _, p := range stones {
			if err := r.play(p); err != nil {
				t.Fatal(err)
			}
		}
		mk := func(v variant, n int64) *enginePlayer {
			p := newEnginePlayer(t, r, time.Minute, 0)
			p.e.tune = v.tune
			if v.w != nil {
				p.e.comb = buildComb(*v.w)
				p.e.rebuild()
			}
			p.e.MaxNodes = n
			if bits := envInt("GOMOKU_TTBITS", 0); bits > 0 {
				p.e.setTTBits(bits)
			}
			return p
		}
		pa, pb := mk(a, nodes), mk(b, nodesB)
		aColour := gomoku.Black
		black, white := player(pa), player(pb)
		if g == 1 {
			aColour = gomoku.White
			black, white = pb, pa
		}
		playGame(t, r, black, white, 15*15)
		winners[g] = r.winner
		scores[g] = 0.5
		switch r.winner {
		case aColour:
			scores[g] = 1
		case aColour.Opponent():
			scores[g] = 0
		}
	}
	// Which colour won each game shows how balanced the openings are.
	name := map[gomoku.Stone]string{gomoku.Empty: "nobody", gomoku.Black: "Black", gomoku.White: "White"}
	t.Logf("opening %d: %s won, then %s", opening, name[winners[0]], name[winners[1]])
	return scores[0], scores[1]
}

// TestSPRT runs a sequential probability ratio test (elo0 0, elo1 5,
// alpha = beta = 0.05, pentanomial, as fishtest) of the variant named by
// GOMOKU_SPRT_NEW (see sprtVariants) against the one named by
// GOMOKU_SPRT_OLD, at a fixed node budget per move (GOMOKU_NODES, default
// 20000) so that a loaded machine does not change the games, on balanced
// openings (balancedOpening; GOMOKU_SPRT_FIRST skips the first ones), each
// played with both colours, two games at a time, until the test decides or
// GOMOKU_SPRT pairs are played (GOMOKU_TTBITS sets both engines' table
// size, to see a budget's effect on a table as full as a longer one fills
// it):
//
//	GOMOKU_SPRT=150 GOMOKU_SPRT_NEW=vct GOMOKU_SPRT_OLD=base go test -run TestSPRT -v -timeout 30m ./bots/gomokubot/
func TestSPRT(t *testing.T) {
	maxPairs, _ := strconv.Atoi(os.Getenv("GOMOKU_SPRT"))
	if maxPairs == 0 {
		t.Skip("set GOMOKU_SPRT=<max pairs> to run an SPRT")
	}
	nodes, _ := strconv.ParseInt(os.Getenv("GOMOKU_NODES"), 10, 64)
	if nodes == 0 {
		nodes = 20000
	}
	// GOMOKU_NODES_OLD gives the old side a budget of its own, to measure
	// what more thinking time is worth.
	nodesB, _ := strconv.ParseInt(os.Getenv("GOMOKU_NODES_OLD"), 10, 64)
	if nodesB == 0 {
		nodesB = nodes
	}
	vs := sprtVariants()
	a, okA := vs[os.Getenv("GOMOKU_SPRT_NEW")]
	b, okB := vs[os.Getenv("GOMOKU_SPRT_OLD")]
	if !okA || !okB {
		t.Fatalf("GOMOKU_SPRT_NEW and GOMOKU_SPRT_OLD must name variants of %v", keys(vs))
	}
	// GOMOKU_SPRT_FIRST skips that many openings, to extend a finished
	// test with new games.
	first := envInt("GOMOKU_SPRT_FIRST", 0)
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) { return sprtPair(t, a, b, first+i, nodes, nodesB) })
	t.Logf("%s at %d vs %s at %d nodes/move: %v", a.name, nodes, b.name, nodesB, r)
}

// sprtVariants are the configurations TestSPRT can compare.
func sprtVariants() map[string]variant {
	out := map[string]variant{}
	add := func(name string, f func(t *tuning)) {
		t := defaultTuning()
		f(&t)
		out[name] = variant{name: name, tune: t}
	}
	// addW adds a variant with changed evaluation weights.
	addW := func(name string, f func(t *tuning, w *weights)) {
		t, w := defaultTuning(), defaultWeights()
		f(&t, &w)
		out[name] = variant{name: name, tune: t, w: &w}
	}
	add("base", func(t *tuning) {})
	add("novct", func(t *tuning) { t.vct, t.vctDef = 0, 0 })
	add("vct", func(t *tuning) { t.vct, t.vctDef = 100000, 20000 })
	add("vctroot", func(t *tuning) { t.vct, t.vctDef = 100000, 0 })
	add("vctdef", func(t *tuning) { t.vct, t.vctDef = 0, 20000 })
	add("leafvcf", func(t *tuning) { t.leafVCF = 300 })
	add("leafvct50", func(t *tuning) { t.leafVCT = 50 })
	add("leafvct200", func(t *tuning) { t.leafVCT = 200 })
	add("leafvctw50", func(t *tuning) { t.leafVCT, t.vctWide = 50, true })
	add("noext", func(t *tuning) { t.ext4 = false })
	add("lmr", func(t *tuning) { t.lmr = true })
	add("b12", func(t *tuning) { t.breadth = 12 })
	add("b24", func(t *tuning) { t.breadth = 24 })
	add("b18", func(t *tuning) { t.breadth = 18 }) // the default before the trials of 14 (now base)
	add("front10", func(t *tuning) { t.frontier = 10 })
	add("tt1", func(t *tuning) { t.ttOneSlot = true })
	add("ext34", func(t *tuning) { t.ext4, t.ext3 = true, true })
	addW("f3x1.5", func(t *tuning, w *weights) { w.pat[pF3] = w.pat[pF3] * 3 / 2 })
	addW("b3x1.5", func(t *tuning, w *weights) { w.pat[pB3] = w.pat[pB3] * 3 / 2 })
	addW("f2x1.5", func(t *tuning, w *weights) { w.pat[pF2] = w.pat[pF2] * 3 / 2 })
	addW("f2x0.7", func(t *tuning, w *weights) { w.pat[pF2] = w.pat[pF2] * 7 / 10 })
	addW("b3x0.7", func(t *tuning, w *weights) { w.pat[pB3] = w.pat[pB3] * 7 / 10 })
	addW("b4x1.3", func(t *tuning, w *weights) { w.pat[pB4] = w.pat[pB4] * 13 / 10 })
	addW("33x1.4", func(t *tuning, w *weights) { w.bonus[lv33] = w.bonus[lv33] * 14 / 10 })
	addW("opp80", func(t *tuning, w *weights) { t.oppPct = 80 })
	addW("opp50", func(t *tuning, w *weights) { t.oppPct = 50 })
	addW("texel", func(t *tuning, w *weights) { *w = texelWeights() })
	// texelhalf goes half way from the defaults to the learned weights.
	addW("texelhalf", func(t *tuning, w *weights) {
		l := texelWeights()
		for i := range w.pat {
			w.pat[i] = (w.pat[i] + l.pat[i]) / 2
		}
		for i := range w.bonus {
			w.bonus[i] = (w.bonus[i] + l.bonus[i]) / 2
		}
	})
	return out
}

// texelWeights are the weights TestTexelFit learned from 600 self-play
// games at 1500 nodes a move (TestTexelGen, seed 1): 9908 quiet positions,
// held-out loss 0.6632 with the defaults, 0.6330 with these.
func texelWeights() weights {
	return weights{
		pat: [nPat]int32{pDead: 0, pOL: 0, pB1: 0, pF1: 1, pB2: 1, pF2: 18, pB3: 80,
			pF3: 244, pB4: 342, pF4: 1710, pF5: 3000},
		bonus: [nLevel]int32{lv33: 669, lv43: 2258, lvFlex4: 3420, lvFive: 3000},
	}
}

func keys(m map[string]variant) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
