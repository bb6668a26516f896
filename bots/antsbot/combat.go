package antsbot

// Combat under the focus rule: an ant dies when some enemy in its attack
// radius has no more enemies in range than it has itself. Numbers count,
// so the bot looks at each battle (our ants and enemy ants close enough
// to fight next turn) as a whole: it tries a few group plans for us
// (attack, hold, retreat) against a few for the enemy, simulates the
// focus rule for every pair, and keeps the plan with the best worst case.

// engage2 is the squared distance within which two ants may be in attack
// range of each other after both have moved one step.
func (b *Bot) engage2() int {
	r := 0
	for (r+1)*(r+1) <= b.p.AttackRadius2 {
		r++
	}
	if r*r < b.p.AttackRadius2 {
		r++ // ceil(sqrt(attackradius2))
	}
	return (r + 2) * (r + 2)
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

// combat plans every battle and fixes the moves of the ants in it.
func (b *Bot) combat() {
	ahead := 2*len(b.mine) >= 3*len(b.enemies) && len(b.mine) >= 10
	for _, bt := range b.battles() {
		if !b.timeLeft() {
			// Out of time: hold still, the safest plan without looking.
			for _, a := range bt.mine {
				b.role[a], b.pref[a] = roleCombat, []int{dirStay}
			}
			continue
		}
		for _, part := range b.split(bt) {
			if !b.timeLeft() {
				for _, a := range part.mine {
					b.role[a], b.pref[a] = roleCombat, []int{dirStay}
				}
				continue
			}
			b.fight(part, ahead)
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

// fight chooses the plan for one battle.
func (b *Bot) fight(bt battle, ahead bool) {
	w := b.w
	mySq := make([]int, len(bt.mine))
	for i, a := range bt.mine {
		mySq[i] = b.mine[a]
	}
	// An even trade is a loss by default (in a game of several players
	// it feeds the others, and near its hill the enemy replaces its dead
	// at once); kills are worth more when we have far more ants (trading
	// wins the game) and next to our own hills (defence).
	killW, lossW := 1.0, 1.0
	if ahead {
		killW = 1.2
	}
	for h, o := range w.hills {
		for _, e := range bt.enemies {
			if o == 0 && w.dist2(h, e) <= 100 {
				killW = max(killW, 1.5)
			}
		}
	}
	var myPlans [numPlans + 1][]int
	var enPlans [numPlans][]int
	for p := range numPlans {
		myPlans[p] = b.planMoves(mySq, bt.enemies, p, true)
		enPlans[p] = b.planMoves(bt.enemies, mySq, p, false)
	}
	myPlans[planProceed] = b.proceedMoves(bt.mine)
	best, bestScore := planHold, -1e18
	for p := range numPlans + 1 {
		// The worst case decides; the average breaks ties, so that an
		// attack the enemy can only escape by running still goes ahead.
		worst, sum := 1e18, 0.0
		for q := range numPlans {
			myDead, enDead, razed := b.simulate(myPlans[p], enPlans[q], bt.enemies)
			s := killW*float64(enDead) - lossW*float64(myDead) + 2.5*float64(razed)
			worst = min(worst, s)
			sum += s
		}
		worst += 0.25 * sum / numPlans
		// Ties: press on when ahead, otherwise hold ground.
		switch {
		case p == planAttack && ahead:
			worst += 0.01
		case p == planProceed:
			worst += 0.008
		case p == planHold:
			worst += 0.005
		}
		b.logf("turn %d battle %d v %d plan %d value %.3f", b.turn, len(bt.mine), len(bt.enemies), p, worst)
		if worst > bestScore {
			best, bestScore = p, worst
		}
	}
	for i, a := range bt.mine {
		b.role[a] = roleCombat
		t := myPlans[best][i]
		dir := dirStay
		for d := range 4 {
			if int(w.nb[mySq[i]][d]) == t {
				dir = d
			}
		}
		b.pref[a] = []int{dir, dirStay}
	}
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

// simulate applies collisions and the focus rule to our ants at mine and
// enemy ants at theirs (whose owners come from their starting squares
// from). It returns the dead on each side and how many of our surviving
// ants stand on enemy hills.
func (b *Bot) simulate(mine, theirs, from []int) (myDead, enDead, razed int) {
	w := b.w
	type ant struct{ sq, owner int }
	all := make([]ant, 0, len(mine)+len(theirs))
	for _, sq := range mine {
		all = append(all, ant{sq, 0})
	}
	for i, sq := range theirs {
		all = append(all, ant{sq, b.owner[from[i]]})
	}
	// Collisions: ants sharing a square all die.
	count := map[int]int{}
	for _, a := range all {
		count[a.sq]++
	}
	alive := all[:0:0]
	for _, a := range all {
		if count[a.sq] > 1 {
			if a.owner == 0 {
				myDead++
			} else {
				enDead++
			}
			continue
		}
		alive = append(alive, a)
	}
	r2 := b.p.AttackRadius2
	near := make([][]int, len(alive))
	for i := range alive {
		for j := i + 1; j < len(alive); j++ {
			if alive[i].owner != alive[j].owner && w.dist2(alive[i].sq, alive[j].sq) <= r2 {
				near[i] = append(near[i], j)
				near[j] = append(near[j], i)
			}
		}
	}
	for i, a := range alive {
		weak := len(near[i])
		dies := false
		for _, j := range near[i] {
			if len(near[j]) <= weak {
				dies = true
				break
			}
		}
		switch {
		case dies && a.owner == 0:
			myDead++
		case dies:
			enDead++
		case a.owner == 0:
			if o, ok := w.hills[a.sq]; ok && o != 0 {
				razed++
			}
		}
	}
	return myDead, enDead, razed
}
