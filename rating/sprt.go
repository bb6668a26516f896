package rating

import "math"

// Pentanomial counts game pairs (same opening, colours swapped) by the pair's
// score for A: index 0 = 0 points, 1 = 0.5, 2 = 1, 3 = 1.5, 4 = 2.
type Pentanomial [5]int

// Add counts one game pair from A's scores in its two games, each 1, 0.5
// or 0. Any other score is refused: nothing is counted and Add reports
// false.
func (p *Pentanomial) Add(first, second float64) bool {
	half := func(s float64) (int, bool) {
		switch s {
		case 0:
			return 0, true
		case 0.5:
			return 1, true
		case 1:
			return 2, true
		}
		return 0, false
	}
	a, okA := half(first)
	b, okB := half(second)
	if !okA || !okB {
		return false
	}
	p[a+b]++
	return true
}

// Pairs is the number of game pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// stats returns the mean score per game and the variance of the per-game
// score of one pair (the pair's points divided by 2).
func (p Pentanomial) stats() (mu, variance float64) {
	n := float64(p.Pairs())
	for i, c := range p {
		mu += float64(c) / n * float64(i) / 4
	}
	for i, c := range p {
		d := float64(i)/4 - mu
		variance += float64(c) / n * d * d
	}
	return mu, variance
}

// Elo returns the logistic Elo difference of A over B and the half-width of
// its 95 % interval from the pair counts, as fastchess reports it
// (elo_pentanomial.cpp): the same transformation as Score.Elo, but with the
// variance measured over pairs, which removes the opening's share of the
// noise. Limits as Score.Elo: no pairs gives 0 ± +Inf, a clean sweep ±Inf,
// an interval reaching a score of 0 or 1 (or no spread) margin +Inf.
func (p Pentanomial) Elo() (diff, margin float64) {
	return p.interval(eloFromScore)
}

// NElo is the normalized Elo difference fastchess and fishtest report:
// (mu - 0.5)/sqrt(2·variance)·800/ln 10, the score excess in units of the
// per-game standard deviation, with its 95 % half-width. It is 0 ± +Inf
// without pairs; when every pair scored the same it is ±Inf (or 0 for an
// even score) ± +Inf.
func (p Pentanomial) NElo() (diff, margin float64) {
	if p.Pairs() == 0 {
		return 0, math.Inf(1)
	}
	mu, variance := p.stats()
	if variance == 0 {
		// Every pair scored the same: no spread to measure the excess in.
		return eloFromScore(mu), math.Inf(1)
	}
	return p.interval(func(s float64) float64 {
		return (s-0.5)/math.Sqrt(2*variance)*800/math.Ln10 + 0
	})
}

func (p Pentanomial) interval(f func(float64) float64) (diff, margin float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return 0, math.Inf(1)
	}
	mu, variance := p.stats()
	diff = f(mu)
	sd := math.Sqrt(variance / n)
	lo, hi := mu-z95*sd, mu+z95*sd
	if mu <= 0 || mu >= 1 {
		return eloFromScore(mu), math.Inf(1)
	}
	if sd == 0 || lo <= 0 || hi >= 1 {
		return diff, math.Inf(1)
	}
	return diff, (f(hi) - f(lo)) / 2
}

// LOS is the likelihood of superiority from the pair counts, with the
// normal approximation fastchess uses: Φ((mu-0.5)/sd of the mean). It is
// 0.5 without pairs, and 0 or 1 when the results have no spread.
func (p Pentanomial) LOS() float64 {
	n := float64(p.Pairs())
	if n == 0 {
		return 0.5
	}
	mu, variance := p.stats()
	if variance == 0 {
		switch {
		case mu > 0.5:
			return 1
		case mu < 0.5:
			return 0
		}
		return 0.5
	}
	return phi((mu - 0.5) / math.Sqrt(variance/n))
}

// LLR is the generalised log-likelihood ratio of H1 (A is elo1 stronger than
// B) against H0 (A is elo0 stronger), with elo0 and elo1 in logistic Elo, as
// fishtest computes it for pentanomial results (LLR_logistic in
// server/fishtest/stats/LLRcalc.py; Michel Van den Bergh's GSPRT).
//
// The model: the five pair outcomes have unknown probabilities; H0 and H1
// only fix the expected score per game, s = 1/(1+10^(-elo/400)). For each
// hypothesis the maximum-likelihood distribution with that expectation is
// found (it is p_i/(1+x·(a_i-s)) for the observed frequencies p_i, pair
// scores a_i = 0, 1/4, ... 1 per game, and x solving the secular equation),
// and the LLR is N times the expected log ratio of the two. As fishtest does,
// an empty cell is given a count of 0.001 so that the solution exists.
func (p Pentanomial) LLR(elo0, elo1 float64) float64 {
	var counts [5]float64
	n := 0.0
	for i, c := range p {
		counts[i] = float64(c)
		if c <= 0 {
			counts[i] = 1e-3
		}
		n += counts[i]
	}
	var freq, score [5]float64
	for i := range counts {
		freq[i] = counts[i] / n
		score[i] = float64(i) / 4
	}
	s0, s1 := scoreFromElo(elo0), scoreFromElo(elo1)
	x0 := secular(freq[:], score[:], s0)
	x1 := secular(freq[:], score[:], s1)
	llr := 0.0
	for i := range freq {
		// log(p1_i/p0_i) with p_k,i = freq_i/(1+x_k(a_i-s_k)).
		llr += freq[i] * (math.Log1p(x0*(score[i]-s0)) - math.Log1p(x1*(score[i]-s1)))
	}
	return n * llr
}

// secular solves sum_i p_i·(a_i-s)/(1+x·(a_i-s)) = 0 for x, the Lagrange
// multiplier of the maximum-likelihood distribution with mean s. The left
// side decreases strictly in x on the interval where every 1+x(a_i-s) is
// positive, so bisection on that interval finds the unique root.
func secular(p, a []float64, s float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, ai := range a {
		d := ai - s
		switch {
		case d > 0:
			lo = math.Max(lo, -1/d)
		case d < 0:
			hi = math.Min(hi, -1/d)
		}
	}
	f := func(x float64) float64 {
		sum := 0.0
		for i, ai := range a {
			d := ai - s
			sum += p[i] * d / (1 + x*d)
		}
		return sum
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		// s at or beyond an end of the scores: no distribution on them has
		// that mean, and the limit is the nearer end.
		return 0
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// SPRTBounds returns the stopping bounds of the sequential probability ratio
// test for error rates alpha (false H1) and beta (false H0): stop and accept
// H0 when LLR <= lower = log(beta/(1-alpha)), accept H1 when
// LLR >= upper = log((1-beta)/alpha). alpha = beta = 0.05 gives ±2.944.
func SPRTBounds(alpha, beta float64) (lower, upper float64) {
	return math.Log(beta / (1 - alpha)), math.Log((1 - beta) / alpha)
}
