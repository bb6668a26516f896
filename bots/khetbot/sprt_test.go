package khetbot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/game/khet"
	"arena/internal/sprttest"
)

// sprtOpening returns the n-th opening: the Classic setup after four
// random plies drawn from a fixed sequence, kept only when a depth-3
// search scores it within 40 units for either side and nobody lost a
// piece.
func sprtOpening(t testing.TB, n int) []khet.Move {
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

// releaseBeforeQuiescence is the search as the release before the
// quiescence search and the Scarabs' advance played.
func releaseBeforeQuiescence() tuning {
	t := releaseBeforeNull()
	t.quiesce, t.w.scarabAdvance, t.w.beamNear = false, 0, 6
	return t
}

// releaseBeforeNull is the search as the release before the null move
// and the Pharaoh's exposure were adopted (0e2d634).
func releaseBeforeNull() tuning {
	t := defaultTuning()
	t.nullMove, t.w.exposed, t.w.exposedOwn = false, 0, 0
	return t
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
	// The last release, and the search before the quiescence search
	// (the one before).
	out["last"] = releaseBeforeNull()
	out["prev"] = releaseBeforeQuiescence()
	add("lmr", func(t *tuning) { t.lmr = true })
	add("calm", func(t *tuning) { t.calmLMR = true })
	add("calm6", func(t *tuning) { t.calmLMR, t.calmFrom = true, 6 })
	add("calm2", func(t *tuning) { t.calmLMR, t.calmDeep = true, 12 })
	add("calm4", func(t *tuning) { t.calmLMR, t.calmDepth = true, 4 })
	add("danger", func(t *tuning) { t.dangerExt = true })
	add("nonull", func(t *tuning) { t.nullMove = false })
	add("null3", func(t *tuning) { t.nullR = 3 })
	add("q2", func(t *tuning) { t.quiesceDepth = 2 })
	add("q4", func(t *tuning) { t.quiesceDepth = 4 })
	add("evade", func(t *tuning) { t.quiesceEvade = true })
	out["plain"] = standIn()
	plainq := standIn()
	plainq.quiesce = true
	out["plainq"] = plainq
	add("near12", func(t *tuning) { t.w.beamNear = 12 })
	add("scarab10", func(t *tuning) { t.w.scarabAdvance = 10 })
	add("guard16", func(t *tuning) { t.w.guard = 16 })
	add("own40", func(t *tuning) { t.w.threatOwn = 40 })
	add("scarab20", func(t *tuning) { t.w.scarabAdvance = 20 })
	add("s10n12", func(t *tuning) { t.w.scarabAdvance, t.w.beamNear = 10, 12 })
	add("s20n12", func(t *tuning) { t.w.scarabAdvance, t.w.beamNear = 20, 12 })
	return out
}

// sprtTuning is the version of the search named by spec: a name from
// sprtTunings, or weights changed from the defaults, such as
// "w:beamNear=12,guard=0".
func sprtTuning(spec string) (tuning, error) {
	if v, ok := sprtTunings()[spec]; ok {
		return v, nil
	}
	list, ok := strings.CutPrefix(spec, "w:")
	if !ok {
		return tuning{}, fmt.Errorf("%q is neither a version in sprtTunings nor w:NAME=VALUE,...", spec)
	}
	v := defaultTuning()
	fields := map[string]*int{
		"threatOwn": &v.w.threatOwn, "threatOpp": &v.w.threatOpp,
		"pharaohThreat": &v.w.pharaohThreat, "pharaohDanger": &v.w.pharaohDanger,
		"beamNear": &v.w.beamNear, "guard": &v.w.guard,
		"scarabAdvance": &v.w.scarabAdvance, "exposed": &v.w.exposed, "exposedOwn": &v.w.exposedOwn,
	}
	for _, kv := range strings.Split(list, ",") {
		name, value, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(value)
		f, ok := fields[name]
		if !ok || err != nil {
			return tuning{}, fmt.Errorf("%q: want a weight's name=integer", kv)
		}
		*f = n
	}
	return v, nil
}

// TestSPRTVariant runs the SPRT of TestSPRT between two versions of the
// search (sprtTunings) at the same node budget per move (KHET_NODES,
// default 20000; KHET_NODES_OLD gives the old version another; a version
// is a name from sprtTunings or weights, see sprtTuning; KHET_SPRT_FIRST
// skips openings):
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
	nodesOld := nodes
	if n, _ := strconv.ParseInt(os.Getenv("KHET_NODES_OLD"), 10, 64); n > 0 {
		nodesOld = n
	}
	a, errA := sprtTuning(os.Getenv("KHET_SPRT_NEW"))
	b, errB := sprtTuning(os.Getenv("KHET_SPRT_OLD"))
	if errA != nil || errB != nil {
		t.Fatal("KHET_SPRT_NEW and KHET_SPRT_OLD: ", errors.Join(errA, errB))
	}
	// KHET_SPRT_FIRST skips that many openings, to extend a finished
	// test with new games.
	first, _ := strconv.Atoi(os.Getenv("KHET_SPRT_FIRST"))
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) {
		op := sprtOpening(t, first+i)
		return sprtVariantGame(t, op, a, b, nodes, nodesOld, true), sprtVariantGame(t, op, a, b, nodes, nodesOld, false)
	})
	t.Logf("%s at %d vs %s at %d nodes/move: %v", os.Getenv("KHET_SPRT_NEW"), nodes, os.Getenv("KHET_SPRT_OLD"), nodesOld, r)
}

// TestWriteOpenings writes KHET_OPENINGS openings of sprtOpening (from
// number KHET_OPENINGS_FIRST on) to the file KHET_OPENINGS_OUT, one a
// line in the protocol's notation, for "arena sprt khet --opening":
//
//	KHET_OPENINGS=1000 KHET_OPENINGS_OUT=$PWD/testdata/khet/openings.txt go test -run TestWriteOpenings ./bots/khetbot/
func TestWriteOpenings(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KHET_OPENINGS"))
	path := os.Getenv("KHET_OPENINGS_OUT")
	if n == 0 || path == "" {
		t.Skip("set KHET_OPENINGS=<count> and KHET_OPENINGS_OUT=<file> to write openings")
	}
	first, _ := strconv.Atoi(os.Getenv("KHET_OPENINGS_FIRST"))
	var b strings.Builder
	fmt.Fprintf(&b, "# Khet openings for arena --opening: the classic setup after four random plies, kept when\n")
	fmt.Fprintf(&b, "# arena's bot scores the position within 40 (of a Pyramid's 100) at depth 3 and no piece is lost.\n")
	fmt.Fprintf(&b, "# Openings %d to %d of bots/khetbot's sprtOpening (TestWriteOpenings).\n", first, first+n-1)
	for i := range n {
		var moves []string
		for _, m := range sprtOpening(t, first+i) {
			moves = append(moves, m.String())
		}
		fmt.Fprintln(&b, strings.Join(moves, " "))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
