package khetbot

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"arena/game/khet"
	"arena/internal/sprttest"
)

// sprtOpening returns the n-th opening: the Classic setup after four
// random plies drawn from a fixed sequence, kept only when a depth-3
// search scores it within 40 units for either side and nobody lost a
// piece.
func sprtOpening(t *testing.T, n int) []khet.Move {
	rng := rand.New(rand.NewPCG(uint64(n)+500, 3))
	for {
		s, err := khet.NewState(khet.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		var line []khet.Move
		pieces := len(s.Board().Pieces())
		for len(line) < 4 && !s.Over() {
			moves := s.Board().Moves(nil)
			m := moves[rng.IntN(len(moves))]
			if _, err := s.Play(m); err != nil {
				t.Fatal(err)
			}
			line = append(line, m)
		}
		if len(s.Board().Pieces()) != pieces || s.Over() {
			continue
		}
		res := NewEngine(1).Search(s.Board(), Limits{Depth: 3})
		if res.Score > -40 && res.Score < 40 {
			return line
		}
	}
}

// sprtGame plays one game from opening between two engines with node
// budgets, the first one Silver when aSilver, and returns the first one's
// score.
func sprtGame(t *testing.T, opening []khet.Move, nodesA, nodesB int64, aSilver bool) float64 {
	return sprtVariantGame(t, opening, defaultTuning(), defaultTuning(), nodesA, nodesB, aSilver)
}

// sprtVariantGame is sprtGame between two tunings of the search.
func sprtVariantGame(t *testing.T, opening []khet.Move, tuneA, tuneB tuning, nodesA, nodesB int64, aSilver bool) float64 {
	s, err := khet.NewState(khet.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	a, b := NewEngine(8), NewEngine(8)
	a.tune, b.tune = tuneA, tuneB
	seen := func() {
		a.Seen(s.Board().Hash())
		b.Seen(s.Board().Hash())
	}
	seen()
	for _, m := range opening {
		if _, err := s.Play(m); err != nil {
			t.Fatal(err)
		}
		seen()
	}
	aColour := khet.Silver
	if !aSilver {
		aColour = khet.Red
	}
	for !s.Over() {
		eng, nodes := b, nodesB
		if s.ToMove() == aColour {
			eng, nodes = a, nodesA
		}
		eng.SetGame(s.Plies(), khet.DefaultMaxPlies)
		res := eng.Search(s.Board(), Limits{Nodes: nodes, Hard: time.Minute})
		if _, err := s.Play(res.Move); err != nil {
			t.Fatalf("illegal move %v: %v", res.Move, err)
		}
		seen()
	}
	switch o := s.Outcome(); o.Winner {
	case int(aColour):
		return 1
	case -1:
		return 0.5
	default:
		return 0
	}
}

// TestSPRT runs a sequential probability ratio test (elo0 0, elo1 5,
// alpha = beta = 0.05, pentanomial) of the engine with KHET_NODES_NEW
// nodes a move against itself with KHET_NODES_OLD, on balanced openings
// (sprtOpening), each with both colours, two games at a time, until it
// decides or KHET_SPRT pairs are played. It measures what more thinking
// time is worth without letting the machine's load change the games:
//
//	KHET_SPRT=150 KHET_NODES_NEW=32000 KHET_NODES_OLD=20000 go test -run TestSPRT -v -timeout 30m ./bots/khetbot/
func TestSPRT(t *testing.T) {
	maxPairs, _ := strconv.Atoi(os.Getenv("KHET_SPRT"))
	if maxPairs == 0 {
		t.Skip("set KHET_SPRT=<max pairs> to run an SPRT")
	}
	nodesNew, _ := strconv.ParseInt(os.Getenv("KHET_NODES_NEW"), 10, 64)
	nodesOld, _ := strconv.ParseInt(os.Getenv("KHET_NODES_OLD"), 10, 64)
	if nodesNew <= 0 || nodesOld <= 0 {
		t.Fatal("set KHET_NODES_NEW and KHET_NODES_OLD")
	}
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) {
		op := sprtOpening(t, i)
		return sprtGame(t, op, nodesNew, nodesOld, true), sprtGame(t, op, nodesNew, nodesOld, false)
	})
	t.Logf("%d vs %d nodes/move: %v", nodesNew, nodesOld, r)
}

// sprtTunings are the versions of the search TestSPRTVariant compares.
func sprtTunings() map[string]tuning {
	out := map[string]tuning{}
	add := func(name string, f func(t *tuning)) {
		t := defaultTuning()
		f(&t)
		out[name] = t
	}
	add("base", func(t *tuning) {})
	add("lmr", func(t *tuning) { t.lmr = true })
	add("nolmr", func(t *tuning) { t.lmr = false })
	add("danger", func(t *tuning) { t.dangerExt = true })
	return out
}

// TestSPRTVariant runs the SPRT of TestSPRT between two versions of the
// search (sprtTunings) at the same node budget per move (KHET_NODES,
// default 20000):
//
//	KHET_SPRT=200 KHET_SPRT_NEW=lmr KHET_SPRT_OLD=base go test -run TestSPRTVariant -v -timeout 60m ./bots/khetbot/
func TestSPRTVariant(t *testing.T) {
	maxPairs, _ := strconv.Atoi(os.Getenv("KHET_SPRT"))
	if maxPairs == 0 {
		t.Skip("set KHET_SPRT=<max pairs> to run an SPRT")
	}
	nodes, _ := strconv.ParseInt(os.Getenv("KHET_NODES"), 10, 64)
	if nodes <= 0 {
		nodes = 20000
	}
	vs := sprtTunings()
	a, okA := vs[os.Getenv("KHET_SPRT_NEW")]
	b, okB := vs[os.Getenv("KHET_SPRT_OLD")]
	if !okA || !okB {
		t.Fatal("KHET_SPRT_NEW and KHET_SPRT_OLD must name versions in sprtTunings")
	}
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) {
		op := sprtOpening(t, i)
		return sprtVariantGame(t, op, a, b, nodes, nodes, true), sprtVariantGame(t, op, a, b, nodes, nodes, false)
	})
	t.Logf("%s vs %s at %d nodes/move: %v", os.Getenv("KHET_SPRT_NEW"), os.Getenv("KHET_SPRT_OLD"), nodes, r)
}
