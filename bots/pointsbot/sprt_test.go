package pointsbot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// sprtGame plays one game from opening between two tunings, each within
// its limits (playouts or time a move), the first one red when aRed, and
// returns the first one's score.
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

// sprtVersions are the named versions of the search TestSPRTVariant
// compares; others are given as changes to the defaults (parseVersion).
func sprtVersions() map[string]sprtVersion {
	return map[string]sprtVersion{
		"base": {tune: defaultTuning()},
		// The release before RAVE's equivalence went from 300 to 1000,
		// UCT's exploration from 0.2 to 0.03 and the playouts answered
		// the last dot.
		"last": {tune: releaseBeforeRave(), lim: Limits{RaveEquiv: 300}},
		// A stand-in for kurnevsky's opai built from its published
		// settings: plain UCT (no RAVE: an equivalence so small that
		// AMAF counts only before a node's first visit), exploration
		// about UCB1-tuned's with its constant 1, children after two
		// visits, candidates within three lines of a dot, random
		// playouts.
		"opai": {tune: tuning{explore: 0.5}, lim: Limits{RaveEquiv: 1e-9, Expand: 2, Radius: 3}},
	}
}

// releaseBeforeRave is the tuning of the "last" version: the defaults
// with the old exploration and no replies in the playouts.
func releaseBeforeRave() tuning {
	t := defaultTuning()
	t.explore, t.reply = 0.2, 0
	return t
}

// parseVersion reads a version given as changes to the defaults, such
// as "k=1000,explore=0.1,reply=0.5,threads=2".
func parseVersion(spec string) (sprtVersion, error) {
	v := sprtVersion{tune: defaultTuning()}
	for _, kv := range strings.Split(spec, ",") {
		name, value, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return v, fmt.Errorf("%q is neither a version in sprtVersions nor NAME=NUMBER,...", spec)
		}
		switch name {
		case "k":
			v.lim.RaveEquiv = x
		case "expand":
			v.lim.Expand = int(x)
		case "radius":
			v.lim.Radius = int(x)
		case "explore":
			v.tune.explore = x
		case "reply":
			v.tune.reply = float32(x)
		case "threads":
			v.lim.Threads = int(x)
		default:
			return v, fmt.Errorf("%q: no setting %q (k, expand, radius, explore, reply, threads)", spec, name)
		}
	}
	return v, nil
}

// TestSPRTVariant runs an SPRT (elo0 0, elo1 5, pentanomial) of the
// search version POINTS_SPRT_NEW against POINTS_SPRT_OLD (names from
// sprtVersions; "base" is the default), POINTS_PLAYOUTS playouts a move
// each (POINTS_PLAYOUTS_OLD for the old one when set), on openings from
// POINTS_SPRT_FIRST on, until it decides or POINTS_SPRT pairs are played.
// With POINTS_TIME (milliseconds) both think that long a move instead
// (the old one POINTS_TIME_OLD when set), to weigh a change's cost in
// speed (run it with nothing else on the machine):
//
//	POINTS_SPRT=400 POINTS_SPRT_NEW=explore=0.1 POINTS_SIZE=20x20 POINTS_PLAYOUTS=1000 go test -run 'TestSPRTVariant$' -v -timeout 10h ./bots/pointsbot/
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
			var err error
			if v, err = parseVersion(name); err != nil {
				t.Fatalf("%s: %v", env, err)
			}
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
	if ms, _ := strconv.Atoi(os.Getenv("POINTS_TIME")); ms > 0 {
		// Time instead of playouts: only meaningful with nothing else
		// running.
		msOld, _ := strconv.Atoi(os.Getenv("POINTS_TIME_OLD"))
		if msOld <= 0 {
			msOld = ms
		}
		limNew.Playouts, limOld.Playouts = 0, 0
		limNew.Time, limOld.Time = time.Duration(ms)*time.Millisecond, time.Duration(msOld)*time.Millisecond
	}
	r := sprttest.Run(t, maxPairs, func(i int) (float64, float64) {
		op := sprtOpening(t, w, h, first+i)
		return sprtGame(t, w, h, op, vNew.tune, vOld.tune, limNew, limOld, true),
			sprtGame(t, w, h, op, vNew.tune, vOld.tune, limNew, limOld, false)
	})
	t.Logf("%s (%v) vs %s (%v): %v", os.Getenv("POINTS_SPRT_NEW"), budget(limNew), os.Getenv("POINTS_SPRT_OLD"), budget(limOld), r)
}

// budget says what a side may spend on a move.
func budget(lim Limits) string {
	if lim.Time > 0 {
		return lim.Time.String() + " a move"
	}
	return strconv.Itoa(lim.Playouts) + " playouts a move"
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
