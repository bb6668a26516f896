package pointsbot

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"arena/game/points"
	"arena/internal/pointsref"
)

// opponent is a test player: random, or greedy ("capture if possible,
// else next to the last dot").
type opponent func(f *points.Field, last points.Point, rng *rand.Rand) points.Point

// playMatch plays games between the engine and opp, colours alternating,
// and returns the engine's wins, draws and losses.
func playMatch(t *testing.T, games, w, h int, lim Limits, opp opponent) (wins, draws, losses int) {
	for g := 0; g < games; g++ {
		s, _ := points.NewState(points.Config{Width: w, Height: h})
		pts, _ := points.Cross.Points(w, h, 0)
		s.PlayOpening(pts)
		e := New(uint64(g + 1))
		rng := rand.New(rand.NewPCG(uint64(g), 99))
		engineColor := points.Red
		if g%2 == 1 {
			engineColor = points.Blue
		}
		last := pts[len(pts)-1]
		for !s.Over() {
			var p points.Point
			if s.ToMove() == engineColor {
				p, _ = e.Best(context.Background(), s.Field(), lim)
			} else {
				p = opp(s.Field(), last, rng)
			}
			if _, err := s.Play(p); err != nil {
				t.Fatal(err)
			}
			last = p
		}
		switch s.Outcome().Winner {
		case engineColor:
			wins++
		case points.None:
			draws++
		default:
			losses++
		}
		t.Logf("game %d: engine %v, %d:%d, %s", g+1, engineColor, s.Score(engineColor), s.Score(engineColor.Opp()), s.Outcome().Reason)
	}
	return
}

// TestStrength: at least 95 % of 20 games against the random player and
// 75 % against the greedy one, with a fixed playout budget (no timing).
func TestStrength(t *testing.T) {
	if raceEnabled {
		t.Skip("pure computation; too slow under the race detector")
	}
	lim := Limits{Playouts: 100}
	for _, c := range []struct {
		name string
		opp  opponent
		need int
	}{{"random", pointsref.Random, 19}, {"greedy", pointsref.Greedy, 15}} {
		t0 := time.Now()
		w, d, l := playMatch(t, 20, 16, 16, lim, c.opp)
		t.Logf("against %s: %d wins, %d draws, %d losses in %v", c.name, w, d, l, time.Since(t0).Round(time.Millisecond))
		if w < c.need {
			t.Errorf("against %s: %d wins of 20, want at least %d", c.name, w, c.need)
		}
	}
}
