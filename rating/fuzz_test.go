package rating

import (
	"math"
	"testing"
)

// FuzzBradleyTerry feeds arbitrary game lists (three bytes a game: first,
// second, result) and checks the fit either refuses them or returns a
// consistent estimate: finite centred ratings inside their intervals and a
// LOS matrix whose opposite entries add to 1.
func FuzzBradleyTerry(f *testing.F) {
	f.Add([]byte{0, 1, 2, 1, 0, 1, 0, 2, 0})
	f.Add([]byte{0, 1, 2, 0, 1, 2, 0, 1, 2})
	f.Add([]byte{0, 1, 1, 1, 2, 1, 2, 3, 0, 3, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		const players = 5
		var g []Game
		for k := 0; k+2 < len(data) && len(g) < 200; k += 3 {
			g = append(g, Game{First: int(data[k] % players), Second: int(data[k+1] % players), Score: float64(data[k+2]%3) / 2})
		}
		for _, opt := range []BTOptions{DefaultBTOptions(), {Advantage: 32.8, DrawElo: 97.3, EstimateDraw: true}} {
			est, err := BradleyTerry(players, g, opt)
			if err != nil {
				continue
			}
			sum := 0.0
			for i := range players {
				e := est.Elo[i]
				if !finite(e) || !(est.Low[i] <= e && e <= est.High[i]) {
					t.Fatalf("%+v: player %d: %v in [%v, %v]", opt, i, e, est.Low[i], est.High[i])
				}
				sum += e
				for j := range players {
					if l := est.LOS[i][j]; !(l >= 0 && l <= 1) || math.Abs(l+est.LOS[j][i]-1) > 1e-9 {
						t.Fatalf("%+v: LOS[%d][%d] = %v, LOS[%d][%d] = %v", opt, i, j, l, j, i, est.LOS[j][i])
					}
				}
			}
			if math.Abs(sum) > 1e-6 || !finite(est.Advantage) || !(est.DrawElo >= 0) {
				t.Fatalf("%+v: sum %v advantage %v draw %v", opt, sum, est.Advantage, est.DrawElo)
			}
		}
	})
}

// FuzzPlackettLuce checks an update from arbitrary skills and ranks stays
// finite and never grows an uncertainty.
func FuzzPlackettLuce(f *testing.F) {
	f.Add([]byte{25, 8, 1, 25, 8, 2, 25, 8, 3})
	f.Add([]byte{200, 1, 1, 0, 50, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		var skills []Skill
		var ranks []int
		for k := 0; k+2 < len(data) && len(skills) < 16; k += 3 {
			skills = append(skills, Skill{Mu: float64(int(data[k]) - 100), Sigma: float64(data[k+1])/8 + 0.01})
			ranks = append(ranks, int(data[k+2]%5))
		}
		for i, s := range PlackettLuce(skills, ranks) {
			if !finite(s.Mu) || !(s.Sigma > 0 && s.Sigma <= skills[i].Sigma) {
				t.Fatalf("player %d: %+v -> %+v", i, skills[i], s)
			}
		}
	})
}
