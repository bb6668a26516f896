package pointsbot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"arena/game/points"
	"arena/internal/sprttest"
)

// sprtSize is the field of the SPRT games: POINTS_SIZE (WxH), 39x32 by
// default.
func sprtSize(t *testing.T) (w, h int) {
	w, h = 39, 32
	if s := os.Getenv("POINTS_SIZE"); s != "" {
		a, b, ok := strings.Cut(s, "x")
		var err1, err2 error
		w, err1 = strconv.Atoi(a)
		h, err2 = strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("POINTS_SIZE %q: want WxH", s)
		}
	}
	return w, h
}

// sprtOpening returns the n-th opening: the centre cross and then six
// dots (alternating colours, red first) drawn at random within four
// lines of the centre, without a capture.
func sprtOpening(t *testing.T, w, h, n int) []points.Point {
	rng := rand.New(rand.NewPCG(uint64(n)+900, 5))
	cross, err := points.Cross.Points(w, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	for {
		s, _ := points.NewState(points.Config{Width: w, Height: h})
		if err := s.PlayOpening(cross); err != nil {
			t.Fatal(err)
		}
		line := append([]points.Point(nil), cross...)
		for len(line) < len(cross)+6 {
			p := points.Point{X: w/2 - 4 + rng.IntN(8), Y: h/2 - 4 + rng.IntN(8)}
			if s.Field().Check(p) == nil {
				line = append(line, p)
				s.Field().Put(s.Field().Index(p))
			}
		}
		if s.Field().Score(points.Red) == 0 && s.Field().Score(points.Blue) == 0 {
			return line
		}
	}
}

// sprtGame plays one game from opening between two tunings with a
// playout budget each, the first one red when aRed, and returns the
// first one's score.
func sprtGame(t *testing.T, w, h int, opening []points.Point, tuneA, tuneB tuning, limA, limB Limits, aRed bool) float64 {
	s, err := points.NewState(points.Config{Width: w, Height: h, Grounding: os.Getenv("POINTS_GROUNDING") != ""})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PlayOpening(opening); err != nil {
		t.Fatal(err)
	}
	a, b := New(uint64(len(opening))*7+1), New(uint64(len(opening))*7+2)
	a.tune, b.tune = tuneA, tuneB
	aColour := points.Red
	if !aRed {
		aColour = points.Blue
	}
	for !s.Over() {
		eng, lim := b, limB
		if s.ToMove() == aColour {
			eng, lim = a, limA
		}
		p, ok := eng.Best(context.Background(), s.Field(), lim)
		if !ok {
			t.Fatal("no move on a field with free points")
		}
		if _, err := s.Play(p); err != nil {
			t.Fatalf("illegal move %v: %v", p, err)
		}
	}
	switch s.Outcome().Winner {
	case aColour:
		return 1
	case points.None:
		return 0.5
	default:
		return 0
	}
}

// sprtVersion is one version of the search: its tuning and the limits
// beyond the playout budget.
type sprtVersion struct {
	tune tuning
	lim  Limits
}

// sprtVersions are the versions of the search TestSPRTVariant compares.
func sprtVersions() map[string]sprtVersion {
	out := map[string]sprtVersion{}
	add := func(name string, f func(t *tuning, lim *Limits)) {
		v := sprtVersion{tune: defaultTuning()}
		f(&v.tune, &v.lim)
		out[name] = v
	}
	add("base", func(t *tuning, lim *Limits) {})
	add("explore1", func(t *tuning, lim *Limits) { t.explore = 0.1 })
	add("explore3", func(t *tuning, lim *Limits) { t.explore = 0.3 })
	add("prior", func(t *tuning, lim *Limits) { t.priorAll = true })
	add("prior5", func(t *tuning, lim *Limits) { t.priorAll, t.priorWins = true, 5 })
	add("reply5", func(t *tuning, lim *Limits) { t.reply = 0.5 })
	add("reply25", func(t *tuning, lim *Limits) { t.reply = 0.25 })
	add("reply9", func(t *tuning, lim *Limits) { t.reply = 0.9 })
	add("k100", func(t *tuning, lim *Limits) { lim.RaveEquiv = 100 })
	add("k1000", func(t *tuning, lim *Limits) { lim.RaveEquiv = 1000 })
	add("expand4", func(t *tuning, lim *Limits) { lim.Expand = 4 })
	add("expand16", func(t *tuning, lim *Limits) { lim.Expand = 16 })
	return out
}

// TestSPRTVariant runs an SPRT (elo0 0, elo1 5, pentanomial) of the
// search version POINTS_SPRT_NEW against POINTS_SPRT_OLD (names from
// sprtVersions; "base" is the default), POINTS_PLAYOUTS playouts a move
// each (POINTS_PLAYOUTS_OLD for the old one when set), on openings from
// POINTS_SPRT_FIRST on, until it decides or POINTS_SPRT pairs are played:
//
//	POINTS_SPRT=400 POINTS_SPRT_NEW=explore3 POINTS_PLAYOUTS=1000 go test -run 'TestSPRTVariant$' -v -timeout 10h ./bots/pointsbot/
func TestSPRTVariant(t *testing.T) {
	maxPairs, _ := strconv.Atoi(os.Getenv("POINTS_SPRT"))
	if maxPairs == 0 {
		t.Skip("set POINTS_SPRT=<max pairs> to run an SPRT")
	}
	versions := sprtVersions()
	pick := func(env, def string) sprtVersion {
		name := os.Getenv(env)
		if name == "" {
			name = def
		}
		v, ok := versions[name]
		if !ok {
			t.Fatalf("%s=%q: not a version in sprtVersions", env, name)
		}
		return v
	}
	vNew, vOld := pick("POINTS_SPRT_NEW", "base"), pick("POINTS_SPRT_OLD", "base")
	playouts, _ := strconv.Atoi(os.Getenv("POINTS_PLAYOUTS"))
	if playouts <= 0 {
		playouts = 1000
	}
	playoutsOld, _ := strconv.Atoi(os.Getenv("POINTS_PLAYOUTS_OLD"))
	if playoutsOld <= 0 {
		playoutsOld = playouts
	}
	first, _ := strconv.Atoi(os.Getenv("POINTS_SPRT_FIRST"))
	w, h := sprtSize(t)
	limNew, limOld := vNew.lim, vOld.lim
	limNew.Playouts, limOld.Playouts = playouts, playoutsOld
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) {
		op := sprtOpening(t, w, h, first+i)
		return sprtGame(t, w, h, op, vNew.tune, vOld.tune, limNew, limOld, true),
			sprtGame(t, w, h, op, vNew.tune, vOld.tune, limNew, limOld, false)
	})
	t.Logf("%s (%d playouts) vs %s (%d): %v", os.Getenv("POINTS_SPRT_NEW"), playouts, os.Getenv("POINTS_SPRT_OLD"), playoutsOld, r)
}

// TestSPRTOpenings checks that the SPRT's openings are legal, quiet and
// all different.
func TestSPRTOpenings(t *testing.T) {
	seen := map[string]bool{}
	for n := range 50 {
		op := sprtOpening(t, 39, 32, n)
		s, _ := points.NewState(points.Config{Width: 39, Height: 32})
		if err := s.PlayOpening(op); err != nil {
			t.Fatalf("opening %d: %v", n, err)
		}
		key := fmt.Sprint(op)
		if seen[key] {
			t.Fatalf("opening %d repeats an earlier one", n)
		}
		seen[key] = true
	}
}
