package contest

import (
	"math"
	"math/rand/v2"

	"arena/rating"
)

// Entrant is one participant on the ladder as matchmaking sees it.
type Entrant struct {
	Skill   rating.Skill
	Games   int // games played
	Playing int // games it is in right now
}

// busyPenalty is how far (in rating points) a game in progress pushes an
// entrant away: a bot already playing is picked only when there is no
// one else.
const busyPenalty = 1000

// Pick chooses the n entrants of the ladder's next game, as the AI
// Challenge's TrueSkill matchmaker did, with OpenSkill ratings: the seed
// is the entrant the ladder knows least about (the highest uncertainty,
// then the fewest games), and its opponents are those whose rating is
// closest to the seed's, favouring uncertain ones (|Δmu| - sigma), with
// a little noise so that equal entrants take turns. It returns indexes
// into es, the seed first, or nil when there are fewer than n entrants.
// It runs in O(len(es)·n), with no allocation beyond its result.
func Pick(es []Entrant, n int, rng *rand.Rand) []int {
	if n < 1 || len(es) < n {
		return nil
	}
	seed, best := -1, math.Inf(-1)
	for i, e := range es {
		// Sigma dominates; the games and the noise break ties.
		score := e.Skill.Sigma - float64(e.Games)*1e-6 - float64(e.Playing)*busyPenalty + rng.Float64()*1e-3
		if score > best {
			seed, best = i, score
		}
	}
	picked := make([]int, 1, n)
	picked[0] = seed
	costs := make([]float64, 1, n)
	mu := es[seed].Skill.Mu
	for i, e := range es {
		if i == seed {
			continue
		}
		c := math.Abs(e.Skill.Mu-mu) - e.Skill.Sigma + float64(e.Playing)*busyPenalty + rng.Float64()*0.5
		if len(picked) < n {
			picked, costs = append(picked, i), append(costs, c)
			continue
		}
		// Replace the worst picked opponent if this one is better.
		worst := 1
		for k := 2; k < n; k++ {
			if costs[k] > costs[worst] {
				worst = k
			}
		}
		if c < costs[worst] {
			picked[worst], costs[worst] = i, c
		}
	}
	return picked
}
