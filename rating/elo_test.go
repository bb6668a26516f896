package rating

import (
	"math"
	"testing"
)

// Values worked by hand from cutechess-cli's formulas (elo.cpp):
// mu = (W + D/2)/N; diff = -400·log10(1/mu - 1); per-game variance
// w(1-mu)² + d(1/2-mu)² + l·mu²; stdev = sqrt(variance/N); margin = half the
// Elo distance between mu ± 1.959964·stdev.
//
// 60/20/20: mu = 0.7, diff = -400·log10(3/7) = 147.1907; variance =
// 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16, stdev = 0.4/10 = 0.04; mu spans
// 0.621601..0.778399, i.e. 86.2139..218.2407 Elo, margin 66.0134.
// LOS = 0.5 + 0.5·erf(40/sqrt(160)).
func TestScoreEloHandValues(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		s            Score
		diff, margin float64
		los          float64
	}{
		{Score{60, 20, 20}, 147.19071411783776, 66.01338122038528, 0.9999961278917845},
		{Score{20, 20, 60}, -147.19071411783773, 66.0133812203853, 3.8721082155079856e-06},
		{Score{10, 80, 10}, 0, 30.531864321710678, 0.5},
		{Score{43, 31, 26}, 59.643107748035064, 57.58252131291229, 0.9796493227219409},
		{Score{5, 3, 0}, 254.72883903486968, 287.31902301744225, 0.9873263406612658},
		// Limits instead of NaN.
		{Score{}, 0, inf, 0.5},
		{Score{Wins: 3}, inf, inf, 0.5 + 0.5*math.Erf(3/math.Sqrt(6))},
		{Score{Losses: 2, Draws: 1}, -400 * math.Log10(5), inf, 0.5 + 0.5*math.Erf(-2/math.Sqrt(4))},
		{Score{Losses: 4}, math.Inf(-1), inf, 0.5 + 0.5*math.Erf(-4/math.Sqrt(8))},
		{Score{Draws: 7}, 0, inf, 0.5}, // no spread at all: interval undefined
		{Score{1, 0, 1}, 0, inf, 0.5},  // interval reaches score 0 and 1
	}
	for _, tc := range tests {
		diff, margin := tc.s.Elo()
		if !same(diff, tc.diff, 1e-9) || !same(margin, tc.margin, 1e-9) {
			t.Errorf("%+v.Elo() = %v ± %v, want %v ± %v", tc.s, diff, margin, tc.diff, tc.margin)
		}
		if los := tc.s.LOS(); !same(los, tc.los, 1e-12) {
			t.Errorf("%+v.LOS() = %v, want %v", tc.s, los, tc.los)
		}
	}
}

func same(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= tol
}

func TestScoreHelpers(t *testing.T) {
	s := Score{3, 4, 5}
	if s.Games() != 12 || s.Points() != 5 {
		t.Errorf("%+v: games %d points %v", s, s.Games(), s.Points())
	}
}
