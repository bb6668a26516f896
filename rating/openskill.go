package rating

import (
	"fmt"
	"math"
)

// OpenSkill's defaults (openskill.py, openskill.js): a new player is
// N(25, (25/3)²), the performance noise is beta = 25/6, and kappa keeps a
// variance from shrinking to nothing in one update.
const (
	defaultMu    = 25.0
	defaultSigma = 25.0 / 3
	plBeta       = 25.0 / 6
	plKappa      = 0.0001
)

// Skill is an OpenSkill (Weng–Lin) rating: mean and uncertainty; Ordinal() = Mu - 3*Sigma.
type Skill struct{ Mu, Sigma float64 }

// Ordinal is the conservative estimate Mu - 3·Sigma that OpenSkill ranks
// players by: a player with few games is ranked low until its uncertainty
// shrinks.
func (s Skill) Ordinal() float64 { return s.Mu - 3*s.Sigma }

// DefaultSkill is the rating of a player who has not played: Mu 25, Sigma 25/3.
func DefaultSkill() Skill { return Skill{Mu: defaultMu, Sigma: defaultSigma} }

// PlackettLuce updates the skills of the players of one N-player game (one
// player per team) given their ranks (1 = best, equal ranks = tie; only the
// order of the numbers matters), with OpenSkill's defaults (beta = 25/6,
// kappa = 0.0001). It returns new skills in the order of the input and leaves
// the input alone. A game of fewer than two players changes nothing.
//
// It is Algorithm 4 of Weng & Lin, "A Bayesian Approximation Method for
// Online Ranking" (JMLR 12, 2011), without the additive dynamics term tau:
// a tournament rates fixed programs, whose strength does not drift between
// games. Without ties it gives openskill.py's and openskill.js's numbers.
//
// A tie is the average of the updates for every order the tied players
// could have finished in (each equally likely), computed exactly. The
// paper's tie weights (dividing each term by the size of the tied group,
// as openskill.js does) let a player placed behind a tie gain as much as
// the tied winners: four equal players scoring 7, 4, 7 and 0 would leave
// the third above the two who shared first place. Averaging the orders
// keeps every tied player above those behind it and below those before it.
// A tied group of more than maxExactTie players falls back to the paper's
// weights (the orders to average grow as 2^size).
//
// It panics if skills and ranks differ in length.
func PlackettLuce(skills []Skill, ranks []int) []Skill {
	if len(skills) != len(ranks) {
		panic(fmt.Sprintf("rating.PlackettLuce: %d skills but %d ranks", len(skills), len(ranks)))
	}
	out := make([]Skill, len(skills))
	copy(out, skills)
	k := len(skills)
	if k < 2 {
		return out
	}
	c2 := 0.0
	for _, s := range skills {
		c2 += s.Sigma*s.Sigma + plBeta*plBeta
	}
	c := math.Sqrt(c2)
	// Shift the exponents by the largest mean so that exp cannot overflow;
	// every quantity below is a ratio of these terms, so the shift cancels.
	top := math.Inf(-1)
	for _, s := range skills {
		top = math.Max(top, s.Mu)
	}
	e := make([]float64, k)
	for i, s := range skills {
		e[i] = math.Exp((s.Mu - top) / c)
	}
	// behind[q] is the strength of everyone placed strictly worse than q;
	// mates[q] the others sharing q's rank.
	behind := make([]float64, k)
	mates := make([][]int, k)
	for q := range k {
		for i := range k {
			switch {
			case ranks[i] > ranks[q]:
				behind[q] += e[i]
			case ranks[i] == ranks[q] && i != q:
				mates[q] = append(mates[q], i)
			}
		}
	}
	for i, s := range skills {
		var omega, delta float64
		for q := range k {
			if ranks[q] > ranks[i] {
				continue
			}
			o, d := plTerm(i, q, e, behind[q], mates[q])
			omega += o
			delta += d
		}
		s2 := s.Sigma * s.Sigma
		gamma := s.Sigma / c
		omega *= s2 / c
		delta *= gamma * s2 / c2
		out[i] = Skill{
			Mu:    s.Mu + omega,
			Sigma: s.Sigma * math.Sqrt(math.Max(1-delta, plKappa)),
		}
	}
	return out
}

// maxExactTie is the largest tied group whose finishing orders
// PlackettLuce averages exactly.
const maxExactTie = 12

// plTerm is what player q's place contributes to player i's update, for
// q placed no worse than i: Weng & Lin's terms for "q chosen among those
// not yet placed", where those not yet placed are everyone behind q's rank
// plus the members of q's tied group that finish after q. Over the orders
// of the tied group, the set A of mates after q has probability
// |A|!·(m-|A|)!/(m+1)! for m mates, and q comes before a tied i only when
// i is in A.
func plTerm(i, q int, e []float64, behind float64, mates []int) (omega, delta float64) {
	m := len(mates)
	if m == 0 || m+1 > maxExactTie {
		// No tie, or a tie too large to average: the paper's weights.
		rest := behind + e[q]
		for _, s := range mates {
			rest += e[s]
		}
		quot := e[i] / rest
		if q == i {
			omega = (1 - quot) / float64(m+1)
		} else {
			omega = -quot / float64(m+1)
		}
		return omega, quot * (1 - quot) / float64(m+1)
	}
	// weight[j] is the probability of one given set of j mates after q.
	weight := make([]float64, m+1)
	for j := range weight {
		weight[j] = 1 / float64(m+1) / binomial(m, j)
	}
	tiedWithI := -1 // i's position among q's mates, if i is one of them
	for b, s := range mates {
		if s == i {
			tiedWithI = b
		}
	}
	for set := 0; set < 1<<m; set++ {
		if tiedWithI >= 0 && set&(1<<tiedWithI) == 0 {
			continue // q finished after i in these orders
		}
		rest, size := behind+e[q], 0
		for b, s := range mates {
			if set&(1<<b) != 0 {
				rest += e[s]
				size++
			}
		}
		w := weight[size]
		quot := e[i] / rest
		if q == i {
			omega += w * (1 - quot)
		} else {
			omega -= w * quot
		}
		delta += w * quot * (1 - quot)
	}
	return omega, delta
}

// binomial is n choose k as a float.
func binomial(n, k int) float64 {
	r := 1.0
	for j := 1; j <= k; j++ {
		r = r * float64(n-k+j) / float64(j)
	}
	return r
}

// Ranking is the outcome of one N-player game: Players[k] finished at rank
// Ranks[k] (1 = best, equal ranks = tie).
type Ranking struct{ Players, Ranks []int }

// FitPlackettLuce rates all players over a whole event by sequential
// PlackettLuce updates, in the order of the games, every player starting
// from DefaultSkill. It panics on a game whose Players and Ranks differ in
// length or that names a player outside 0..players-1, or the same player
// twice.
func FitPlackettLuce(players int, games []Ranking) []Skill {
	skills := make([]Skill, players)
	for i := range skills {
		skills[i] = DefaultSkill()
	}
	seen := make([]int, players)
	for g, game := range games {
		if len(game.Players) != len(game.Ranks) {
			panic(fmt.Sprintf("rating.FitPlackettLuce: game %d has %d players but %d ranks", g, len(game.Players), len(game.Ranks)))
		}
		in := make([]Skill, len(game.Players))
		for k, p := range game.Players {
			if p < 0 || p >= players {
				panic(fmt.Sprintf("rating.FitPlackettLuce: game %d names player %d of %d", g, p, players))
			}
			if seen[p] == g+1 {
				panic(fmt.Sprintf("rating.FitPlackettLuce: game %d names player %d twice", g, p))
			}
			seen[p] = g + 1
			in[k] = skills[p]
		}
		for k, s := range PlackettLuce(in, game.Ranks) {
			skills[game.Players[k]] = s
		}
	}
	return skills
}
