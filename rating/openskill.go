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
// Online Ranking" (JMLR 12, 2011), with the tie weights A_q of openskill.py and
// without the additive dynamics term tau: a tournament rates fixed programs,
// whose strength does not drift between games.
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
	// sumQ[q] is the strength of everyone placed at q's rank or worse (the
	// players q could have lost to in the Plackett–Luce order), tied[q] how
	// many share q's rank.
	sumQ := make([]float64, k)
	tied := make([]float64, k)
	for q := range k {
		for i := range k {
			if ranks[i] >= ranks[q] {
				sumQ[q] += e[i]
			}
			if ranks[i] == ranks[q] {
				tied[q]++
			}
		}
	}
	for i, s := range skills {
		omega, delta := 0.0, 0.0
		for q := range k {
			if ranks[q] > ranks[i] {
				continue
			}
			quot := e[i] / sumQ[q]
			if q == i {
				omega += (1 - quot) / tied[q]
			} else {
				omega -= quot / tied[q]
			}
			delta += quot * (1 - quot) / tied[q]
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
