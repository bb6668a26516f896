package antsbot

import "time"

// Combat under the focus rule: an ant dies when some enemy in its attack
// radius has no more enemies in range than it has itself. Numbers count,
// so the bot looks at each battle (our ants and enemy ants close enough
// to fight next turn) as a whole: it tries a few group plans for us
// (attack, hold, retreat) against a few for the enemy, simulates the
// focus rule for every pair, and keeps the plan with the best worst case.

// attackSteps is the attack radius rounded up to whole squares.
func (b *Bot) attackSteps() int {
	r := 0
	for r*r < b.p.AttackRadius2 {
		r++
	}
	return r
}

// engage2 is the squared distance within which two ants may be in attack
// range of each other after both have moved one step.
func (b *Bot) engage2() int {
	r := b.attackSteps() + 2
	return r * r
}

const (
	planAttack = iota
	planHold
	planRetreat
	numPlans
	// planProceed (ours only): every ant makes the move its peaceful job
	// (food, exploring, razing) wants.
	planProceed = numPlans
)

// battle is one group of our ants and enemy ants that can fight next
// turn.
type battle struct {
	mine    []int // ant indexes into Bot.mine
	enemies []int // squares
}

// battles groups ants that can meet next turn (union-find over pairs of
// opposing ants closer than engage2).
func (b *Bot) battles() []battle {
	w := b.w
	if len(b.enemies) == 0 || len(b.mine) == 0 {
		return nil
	}
	enemyIdx := make(map[int]int, len(b.enemies))
	for i, e := range b.enemies {
		enemyIdx[e] = i
	}
	m := len(b.mine)
	parent := make([]int, m+len(b.enemies))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	reach := offsets(b.engage2(), false, w.rows, w.cols)
	engaged := make([]bool, len(parent))
	for a, sq := range b.mine {
		for _, o := range reach {
			j := w.add(sq, o)
			if b.enemyAt[j] == 0 {
				continue
			}
			e := m + enemyIdx[j]
			engaged[a], engaged[e] = true, true
			if ra, re := find(a), find(e); ra != re {
				parent[ra] = re
			}
		}
	}
	groups := map[int]*battle{}
	var roots []int
	for i := range parent {
		if !engaged[i] {
			continue
		}
		r := find(i)
		g := groups[r]
		if g == nil {
			g = &battle{}
			groups[r] = g
			roots = append(roots, r)
		}
		if i < m {
			g.mine = append(g.mine, i)
		} else {
			g.enemies = append(g.enemies, b.enemies[i-m])
		}
	}
	out := make([]battle, 0, len(roots))
	for _, r := range roots {
		out = append(out, *groups[r])
	}
	return out
}

// combat plans every battle and fixes the moves of the ants in it. The
// time left and the evaluation budget are shared out evenly over the
// pieces of battle still to plan, so the first ones cannot starve the
// rest.
func (b *Bot) combat() {
	t0 := time.Now()
	defer func() { b.stats.combat += time.Since(t0) }()
	ahead := float64(len(b.mine)) >= b.tune.ahead*float64(len(b.enemies)) && len(b.mine) >= 10
	var pieces [][]battle
	total := 0
	for _, bt := range b.battles() {
		ps := b.split(bt)
		pieces = append(pieces, ps)
		total += len(ps)
	}
	b.stats.battles += len(pieces)
	done := 0
	for _, ps := range pieces {
		// The pieces of a big battle are planned one after the other;
		// the moves already chosen stand as support in the next ones.
		var decided []int // squares our ants of earlier pieces move to
		for _, part := range ps {
			left := total - done
			done++
			if !b.timeLeft() {
				// Out of time: hold still, the safest plan without looking.
				b.stats.held++
				for _, a := range part.mine {
					b.role[a], b.pref[a] = roleCombat, []int{dirStay}
					decided = append(decided, b.mine[a])
				}
				continue
			}
			until := time.Time{}
			if !b.deadline.IsZero() {
				until = time.Now().Add(time.Until(b.deadline) / time.Duration(left))
			}
			evals := max((b.evalBudget-b.evals)/left, 1)
			decided = append(decided, b.fight(part, ahead, decided, until, evals)...)
		}
	}
}

// maxBattle is the most ants one battle plan covers: a simulation costs
// the square of the ants in it, and a wide front is better judged piece
// by piece anyway.
const maxBattle = 48

// split cuts a big battle into pieces: our ants grouped by 8x8 blocks of
// the map, each with the enemies that can reach them.
func (b *Bot) split(bt battle) []battle {
	if len(bt.mine)+len(bt.enemies) <= maxBattle {
		return []battle{bt}
	}
	w := b.w
	const block = 8
	byBlock := map[int]*battle{}
	var keys []int
	for _, a := range bt.mine {
		sq := b.mine[a]
		k := (sq/w.cols/block)*(w.cols/block+1) + sq%w.cols/block
		p := byBlock[k]
		if p == nil {
			p = &battle{}
			byBlock[k] = p
			keys = append(keys, k)
		}
		p.mine = append(p.mine, a)
	}
	reach := b.engage2()
	out := make([]battle, 0, len(keys))
	for _, k := range keys {
		p := byBlock[k]
		for _, e := range bt.enemies {
			for _, a := range p.mine {
				if w.dist2(b.mine[a], e) <= reach {
					p.enemies = append(p.enemies, e)
					break
				}
			}
		}
		out = append(out, *p)
	}
	return out
}

// planMoves gives the squares the ants at from move to under plan,
// facing the ants at foe. Our own ants never share a destination.
func (b *Bot) planMoves(from, foe []int, plan int, ours bool) []int {
	w := b.w
	out := make([]int, len(from))
	used := map[int]bool{}
	for i, sq := range from {
		best, bestV := sq, 0
		first := true
		for _, dir := range [5]int{dirStay, dirN, dirE, dirS, dirW} {
			t := sq
			if dir != dirStay {
				t = int(w.nb[sq][dir])
				if !b.passable(t) || (ours && b.enemyAt[t] != 0) {
					continue
				}
			}
			if ours && used[t] {
				continue
			}
			var v int
			switch plan {
			case planHold:
				if dir != dirStay {
					continue
				}
			case planAttack:
				v = -nearest2(w, t, foe)
			case planRetreat:
				v = nearest2(w, t, foe)
			}
			if first || v > bestV {
				best, bestV, first = t, v, false
			}
		}
		out[i] = best
		used[best] = true
	}
	return out
}

// proceedMoves gives the squares our ants would move to doing their
// peaceful jobs: the first of their preferred moves that is open, never
// onto an enemy or a square another of them takes.
func (b *Bot) proceedMoves(ants []int) []int {
	w := b.w
	out := make([]int, len(ants))
	used := map[int]bool{}
	for i, a := range ants {
		sq := b.mine[a]
		out[i] = sq
		for _, dir := range b.pref[a] {
			t := sq
			if dir != dirStay {
				t = int(w.nb[sq][dir])
				if !b.passable(t) || b.enemyAt[t] != 0 {
					continue
				}
			}
			if !used[t] {
				out[i] = t
				break
			}
		}
		used[out[i]] = true
	}
	return out
}

func nearest2(w *world, sq int, others []int) int {
	best := 1 << 30
	for _, o := range others {
		best = min(best, w.dist2(sq, o))
	}
	return best
}
