package antsbot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// clash sets two armies of n ants each face to face on a map of the
// in-process simulator (open, or with corridor a band of nine rows of
// land around the torus between water) and lets players a and b fight
// for turns turns, without food or spawning. It returns how many ants
// each side lost.
func clash(tb testing.TB, a, b Player, n int, seed int64, turns int, corridor bool, turnTime time.Duration) (lostA, lostB int) {
	tb.Helper()
	const rows, cols = 40, 48
	var text strings.Builder
	fmt.Fprintf(&text, "rows %d\ncols %d\nplayers 2\n", rows, cols)
	for r := range rows {
		row := []byte(strings.Repeat(".", cols))
		if corridor && (r < rows/2-4 || r > rows/2+4) {
			row = []byte(strings.Repeat("%", cols))
		}
		switch r {
		case 1:
			row[1] = '0' // out of sight and, in a corridor, out of reach
		case rows - 2:
			row[cols-2] = '1'
		}
		fmt.Fprintf(&text, "m %s\n", row)
	}
	s := newSim(tb, text.String(), DefaultParams(), seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 9))
	s.ants = map[int]int{}
	for owner, centre := range []int{cols/2 - 8, cols/2 + 8} {
		for placed := 0; placed < n; {
			r := rows/2 + rng.IntN(9) - 4
			c := centre + rng.IntN(7) - 3
			sq := r*cols + c
			if _, ok := s.ants[sq]; ok {
				continue
			}
			s.ants[sq] = owner
			placed++
		}
	}
	players := []Player{a, b}
	for _, pl := range players {
		pl.Start(s.p)
	}
	for range turns {
		clear(s.food)
		clear(s.hive)
		orders := make([][]Order, 2)
		for p, pl := range players {
			if s.alive(p) {
				orders[p] = pl.Turn(s.observe(p), time.Now().Add(turnTime))
			}
		}
		s.step(orders)
		clear(s.hive)
	}
	left := s.counts()
	return n - left[0], n - left[1]
}

// TestClashAgainstGroups lets the bot's army meet armies of the
// group-fighting sample (phalanx) and of its own kind: against phalanx
// it must kill more ants than it loses over the clashes, and against
// itself the exchange must stay even-handed in both seats.
func TestClashAgainstGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("plays several clashes of 40 turns")
	}
	lost, killed := 0, 0
	for seed := range int64(4) {
		ph, _ := NewSample("phalanx", seed+1)
		l, k := clash(t, New(), ph, 16, seed+1, 40, seed%2 == 1, 100*time.Millisecond)
		t.Logf("against phalanx, seed %d: lost %d, killed %d", seed+1, l, k)
		lost, killed = lost+l, killed+k
	}
	if killed <= lost {
		t.Fatalf("against phalanx armies of 16: lost %d ants, killed %d", lost, killed)
	}
}

// TestClashMeasure is a measurement, not a check: ANTSBOT_CLASHES
// clashes (default 20) of armies of ANTSBOT_ARMY ants (default 20)
// against phalanx and against hunter. Run it with ANTSBOT_LONG=1.
func TestClashMeasure(t *testing.T) {
	if os.Getenv("ANTSBOT_LONG") == "" {
		t.Skip("set ANTSBOT_LONG=1 to measure")
	}
	n, army := envInt("ANTSBOT_CLASHES", 20), envInt("ANTSBOT_ARMY", 20)
	for _, corridor := range []bool{false, true} {
		for _, opp := range []string{"phalanx", "hunter", "bot"} {
			lost, killed := 0, 0
			for seed := range int64(n) {
				var pl Player = New()
				if opp != "bot" {
					pl, _ = NewSample(opp, seed+1)
				}
				l, k := clash(t, New(), pl, army, seed+100, 60, corridor, 100*time.Millisecond)
				lost, killed = lost+l, killed+k
			}
			t.Logf("against %s (corridor %v): %d clashes of %d ants: lost %d, killed %d (%.2f lost per kill)",
				opp, corridor, n, army, lost, killed, float64(lost)/float64(max(killed, 1)))
		}
	}
}

// TestClashVariant is a measurement, not a check: the combat weights
// named by ANTSBOT_VARIANT against the defaults, in ANTSBOT_CLASHES pairs
// of clashes (default 50; armies of 3 to 26 ants, open field and
// corridor, each pair played from both sides). Only the evaluation budget
// bounds the search, so the load of the machine changes nothing.
func TestClashVariant(t *testing.T) {
	name := os.Getenv("ANTSBOT_VARIANT")
	if name == "" {
		t.Skip("set ANTSBOT_VARIANT to a name of tuningVariants to measure")
	}
	n := envInt("ANTSBOT_CLASHES", 50)
	variant := func() *Bot { return botWith(t, name) }
	lost, killed := 0, 0
	var diffs []float64 // per pair: the variant's kills less its losses
	for seed := range int64(n) {
		army := []int{3, 5, 8, 14, 20, 26}[seed%6]
		corridor := seed%12 >= 6
		l1, k1 := clash(t, variant(), New(), army, seed+1000, 60, corridor, 10*time.Second)
		k2, l2 := clash(t, New(), variant(), army, seed+1000, 60, corridor, 10*time.Second)
		lost, killed = lost+l1+l2, killed+k1+k2
		diffs = append(diffs, float64(k1+k2-l1-l2))
	}
	mean, sd := 0.0, 0.0
	for _, d := range diffs {
		mean += d
	}
	mean /= float64(len(diffs))
	for _, d := range diffs {
		sd += (d - mean) * (d - mean)
	}
	se := math.Sqrt(sd / float64(len(diffs)-1) / float64(len(diffs)))
	t.Logf("%s against the defaults: %d pairs: lost %d, killed %d (%.3f lost per kill); kills less losses a pair %+.2f ± %.2f (2 s.e.)",
		name, n, lost, killed, float64(lost)/float64(max(killed, 1)), mean, 2*se)
}
