package antsbot

import (
	"testing"
	"time"
)

// TestSimStrength plays Bot against each sample strategy in the
// in-process simulator on generated 2- and 4-player maps.
func TestSimStrength(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("plays whole games (TestStrength covers them under the race detector)")
	}
	p := DefaultParams()
	total, totalWins := 0, 0
	for _, name := range SampleNames() {
		wins, games := 0, 0
		for g := range 4 {
			players := 2
			size := 48
			if g%2 == 1 {
				players, size = 4, 64
			}
			text := genMap(t, players, int64(100+g), size, size)
			s := newSim(t, text, p, int64(g))
			pls := []Player{New()}
			for i := 1; i < players; i++ {
				sp, _ := NewSample(name, int64(g*10+i))
				pls = append(pls, sp)
			}
			score := s.play(pls, 250, 200*time.Millisecond)
			won := true
			for i := 1; i < players; i++ {
				if score[i] >= score[0] {
					won = false
				}
			}
			games++
			if won {
				wins++
			}
			t.Logf("%s game %d (%dp): scores %v ants %v turn %d", name, g, players, score, s.counts(), s.turn)
		}
		t.Logf("%s: won %d of %d", name, wins, games)
		total, totalWins = total+games, totalWins+wins
	}
	if totalWins*10 < total*9 {
		t.Fatalf("won %d of %d games, want at least 90%%", totalWins, total)
	}
}
