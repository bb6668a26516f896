package rating

import (
	"math"
	"testing"
)

// Published fishtest results from the time fishtest ran pentanomial SPRTs
// with logistic Elo bounds (written {elo0,elo1} in Stockfish's commit
// messages); fishtest prints the LLR rounded to two decimals.
func TestLLRPublishedFishtest(t *testing.T) {
	tests := []struct {
		name       string
		ptnml      Pentanomial
		elo0, elo1 float64
		llr        float64
	}{
		// official-stockfish/Stockfish#3209 (tests 5f9c7bbc..., 5f9d01f0...).
		{"PR3209 STC", Pentanomial{253, 4282, 17604, 4431, 286}, -0.25, 1.25, 2.94},
		{"PR3209 LTC", Pentanomial{58, 3302, 33130, 3518, 84}, 0.25, 1.25, 2.97},
		// official-stockfish/Stockfish#3098.
		{"PR3098 STC", Pentanomial{491, 7345, 29693, 7670, 465}, -0.25, 1.25, 2.96},
		{"PR3098 LTC", Pentanomial{53, 2220, 21459, 2445, 47}, 0.25, 1.25, 2.97},
		// official-stockfish/Stockfish#2493.
		{"PR2493 STC", Pentanomial{424, 2948, 5832, 3045, 460}, -1, 3, 2.94},
		{"PR2493 LTC", Pentanomial{1284, 17437, 55536, 18085, 1292}, 0, 2, 2.94},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.ptnml.LLR(tc.elo0, tc.elo1)
			if math.Abs(got-tc.llr) > 0.005 {
				t.Errorf("LLR = %.4f, fishtest printed %.2f", got, tc.llr)
			}
		})
	}
}

func TestSPRTBounds(t *testing.T) {
	lower, upper := SPRTBounds(0.05, 0.05)
	// fishtest prints these as (-2.94,2.94): log(0.05/0.95) = -log 19.
	near(t, "lower", lower, -math.Log(19), 1e-12)
	near(t, "upper", upper, math.Log(19), 1e-12)
	lower, upper = SPRTBounds(0.05, 0.1)
	near(t, "lower", lower, math.Log(0.1/0.95), 1e-12)
	near(t, "upper", upper, math.Log(0.9/0.05), 1e-12)
}

func TestLLRProperties(t *testing.T) {
	p := Pentanomial{10, 20, 40, 20, 10}
	near(t, "same hypotheses", p.LLR(3, 3), 0, 1e-12)
	// Swapping the hypotheses negates the ratio.
	near(t, "antisymmetric", p.LLR(0, 5)+p.LLR(5, 0), 0, 1e-9)
	// A symmetric result favours elo 0 over ±5 equally.
	near(t, "symmetric", p.LLR(0, 5), p.LLR(0, -5), 1e-9)
	if p.LLR(0, 5) >= 0 {
		t.Errorf("an even result supports elo1 = 5: LLR %v", p.LLR(0, 5))
	}
	// More of the same evidence moves the LLR further in the same direction.
	strong := Pentanomial{5, 20, 40, 25, 10}
	double := Pentanomial{10, 40, 80, 50, 20}
	if !(strong.LLR(0, 5) > 0 && double.LLR(0, 5) > strong.LLR(0, 5)) {
		t.Errorf("LLR %v then %v", strong.LLR(0, 5), double.LLR(0, 5))
	}
	// No pairs: only the regularising counts remain, and they are symmetric.
	near(t, "empty", Pentanomial{}.LLR(0, 5), Pentanomial{}.LLR(0, -5), 1e-12)
	// Extreme results stay finite.
	for _, q := range []Pentanomial{{0, 0, 0, 0, 100}, {100, 0, 0, 0, 0}, {0, 0, 100, 0, 0}} {
		if v := q.LLR(-10, 10); math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%v: LLR %v", q, v)
		}
	}
}

func TestPentanomialAdd(t *testing.T) {
	var p Pentanomial
	for _, pair := range [][2]float64{{1, 1}, {1, 0.5}, {0.5, 0.5}, {1, 0}, {0, 0.5}, {0, 0}, {0.5, 1}} {
		if !p.Add(pair[0], pair[1]) {
			t.Errorf("Add%v refused", pair)
		}
	}
	if p != (Pentanomial{1, 1, 2, 2, 1}) || p.Pairs() != 7 {
		t.Errorf("counts %v", p)
	}
	for _, pair := range [][2]float64{{0.7, 0}, {1, 1.5}, {1.5, 0.5}, {-0.5, 0}, {math.NaN(), 0}} {
		if p.Add(pair[0], pair[1]) {
			t.Errorf("Add%v accepted", pair)
		}
	}
}

func BenchmarkPentanomialLLR(b *testing.B) {
	p := Pentanomial{253, 4282, 17604, 4431, 286}
	for b.Loop() {
		p.LLR(-0.25, 1.25)
	}
}

// Results fastchess printed for pentanomial counts, in match reports
// published with engine changes ("Elo: 27.02 +/- 15.81, nElo: 32.26 +/-
// 18.79 / LOS: 99.96 %" and so on); fastchess rounds to two decimals.
func TestPentanomialEloPublishedFastchess(t *testing.T) {
	tests := []struct {
		p                    Pentanomial
		elo, eloErr          float64
		nelo, neloErr, losPc float64
	}{
		{Pentanomial{73, 79, 296, 91, 118}, 27.02, 15.81, 32.26, 18.79, 99.96},
		{Pentanomial{40, 67, 295, 123, 54}, 25.25, 13.92, 36.44, 20.01, 99.98},
		{Pentanomial{19, 23, 269, 81, 108}, 83.57, 16.15, 115.89, 21.53, 100.00},
		{Pentanomial{578, 1352, 1985, 1283, 564}, -2.92, 5.02, -3.70, 6.34, 12.65},
	}
	for _, tc := range tests {
		elo, eloErr := tc.p.Elo()
		nelo, neloErr := tc.p.NElo()
		los := tc.p.LOS() * 100
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"Elo", elo, tc.elo}, {"Elo error", eloErr, tc.eloErr}, {"nElo", nelo, tc.nelo}, {"nElo error", neloErr, tc.neloErr}, {"LOS %", los, tc.losPc}} {
			if math.Abs(c.got-c.want) > 0.005 {
				t.Errorf("%v: %s = %.4f, fastchess printed %.2f", tc.p, c.what, c.got, c.want)
			}
		}
	}
}

func TestPentanomialLimits(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		p            Pentanomial
		elo, margin  float64
		nelo, nerror float64
		los          float64
	}{
		{Pentanomial{}, 0, inf, 0, inf, 0.5},
		{Pentanomial{0, 0, 0, 0, 7}, inf, inf, inf, inf, 1},
		{Pentanomial{3, 0, 0, 0, 0}, math.Inf(-1), inf, math.Inf(-1), inf, 0},
		{Pentanomial{0, 0, 9, 0, 0}, 0, inf, 0, inf, 0.5},
	} {
		elo, margin := tc.p.Elo()
		nelo, nerror := tc.p.NElo()
		if !same(elo, tc.elo, 1e-12) || !same(margin, tc.margin, 0) || !same(nelo, tc.nelo, 1e-12) || !same(nerror, tc.nerror, 0) || !same(tc.p.LOS(), tc.los, 0) {
			t.Errorf("%v: Elo %v ± %v, nElo %v ± %v, LOS %v", tc.p, elo, margin, nelo, nerror, tc.p.LOS())
		}
	}
}
