package rating

import "math"

// z95 is the two-sided 95 % quantile of the standard normal distribution.
var z95 = phiInv(0.975)

// Score is a two-player result count from one side's view.
type Score struct{ Wins, Draws, Losses int }

// Games is the number of games counted.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Points is the side's score: a win counts 1 and a draw 1/2.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Elo returns the Elo difference the score implies and the half-width of its
// 95 % interval, as cutechess-cli computes them (projects/lib/src/elo.cpp):
// the mean score mu = (W + D/2)/N gives diff = -400·log10(1/mu - 1); the
// per-game standard deviation of the trinomial W/D/L distribution, divided
// by sqrt(N), moves mu to its 2.5 % and 97.5 % quantiles, and the margin is
// half the Elo distance between the two.
//
// The cases the formula cannot express are mapped to limits instead of NaN:
// no games gives 0 ± +Inf; all wins (or all losses) gives ±Inf ± +Inf; an
// interval whose end reaches a score of 0 or 1, or results with no spread
// at all (every game drawn), give margin +Inf: the normal approximation
// says nothing there.
func (s Score) Elo() (diff, margin float64) {
	n := float64(s.Games())
	if n == 0 {
		return 0, math.Inf(1)
	}
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	mu := w + d/2
	diff = eloFromScore(mu)
	if mu <= 0 || mu >= 1 {
		return diff, math.Inf(1)
	}
	dev := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	stdev := math.Sqrt(dev) / math.Sqrt(n)
	lo, hi := mu-z95*stdev, mu+z95*stdev
	if stdev == 0 || lo <= 0 || hi >= 1 {
		return diff, math.Inf(1)
	}
	return diff, (eloFromScore(hi) - eloFromScore(lo)) / 2
}

// LOS is the likelihood of superiority: the probability that this side is
// the stronger one. Draws carry no information about that, so it uses wins
// and losses only with the normal approximation cutechess and fastchess use:
// 0.5 + 0.5·erf((W-L)/sqrt(2(W+L))). With no decisive game it is 0.5.
func (s Score) LOS() float64 {
	wl := float64(s.Wins + s.Losses)
	if wl == 0 {
		return 0.5
	}
	return 0.5 + 0.5*math.Erf(float64(s.Wins-s.Losses)/math.Sqrt(2*wl))
}

// eloFromScore is the logistic Elo difference that gives the expected score
// mu; it is ±Inf at 1 and 0.
func eloFromScore(mu float64) float64 {
	switch {
	case mu >= 1:
		return math.Inf(1)
	case mu <= 0:
		return math.Inf(-1)
	}
	// Adding +0 turns the -0 of an even score into 0 for printing.
	return -400*math.Log10(1/mu-1) + 0
}

// scoreFromElo is the expected score of a side rated diff Elo above its
// opponent in the logistic model.
func scoreFromElo(diff float64) float64 {
	return 1 / (1 + math.Pow(10, -diff/400))
}

// phiInv is the quantile function of the standard normal distribution.
func phiInv(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// phi is the cumulative distribution function of the standard normal
// distribution.
func phi(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}
