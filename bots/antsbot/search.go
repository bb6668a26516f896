package antsbot

import (
	"math"
	"time"
)

// The combat search. One battle (our ants and the enemy ants that can
// meet them next turn) becomes a skirmish: every ant has its candidate
// destinations (stay and the open steps), and a move-set gives each ant
// one of them. A move-set of ours is judged against a pool of enemy
// move-sets by the focus rule, exactly as the referee resolves a turn
// (collisions, then every ant with an enemy in range dies when one of
// those enemies has no more enemies in range than it has), and scored
// by kills and losses; its value is its worst score over the pool plus a
// quarter of its average (so that an attack the enemy can only escape by
// running still goes ahead).
//
// The search alternates two steps until neither finds anything or the
// clock or the evaluation budget runs out:
//
//   - ours: starting from the best of the simple group plans (attack,
//     hold, retreat, proceed), change one ant's move at a time while the
//     value against the pool improves (coordinate ascent);
//   - theirs: the enemy's best reply to our current move-set, found the
//     same way from each reply in the pool; the one that hurts us most
//     joins the pool if it hurts us more than every reply already there.
//
// The move-set played is the best of those the search settled on, judged
// against the final pool. Small terms break ties between equal exchanges:
// closing in (everywhere under tuning.press, else where we are locally
// stronger or defending, keeping away where weaker), and letting ants not
// in danger go on with their job.

// pair is two ants of one skirmish that can reach each other's attack
// range (foes) or square (same owner, for collisions only) next turn.
type pair struct {
	i, j int32
	foes bool
}

// skirmish is one battle prepared for search. Ants 0..nm-1 are ours, the
// rest the enemy's; a move-set is one candidate index per ant of a side.
type skirmish struct {
	rows, cols, r2 int
	nm             int
	owner          []int
	sq             [][]int32    // per ant: candidate squares; [0] is staying
	rc             [][][2]int32 // row and column of each candidate
	bonus          [][]float64  // per ant and candidate: raze value if alive there
	pairs          []pair

	killW, lossW float64
	avgShare     float64 // weight of the average over the pool, added to the worst
	rounds       int     // most alternations of improve and respond
	exact        int     // most enemy move-sets for which the best reply is found by trying them all (0: never)
	approach     float64 // per unit of squared distance to the nearest enemy (capped), per our ant
	proceed      []int8  // our ants: the candidate their peaceful job wants (-1: none)
	proceedW     float64
	// foodNear lists, per ant and candidate, the food (indexes 0..foods-1)
	// that an ant alive there would gather; foodW is a food gathered by
	// us, or taken from us by an enemy ant, against one ant lost (0: off).
	foodNear [][][]int16
	foods    int
	foodW    float64

	// Scratch for resolve and eval.
	ourFood, enFood []bool
	d2              []int32
	cnt             []int32
	dead            []bool
	collide         []bool
	near            []int32

	evals    int // evaluations so far
	maxEvals int
	replies  int  // enemy replies added to the pool
	stopped  bool // the search was cut short by the clock or the budget
	deadline time.Time
}

// approachCap caps the squared distance the approach term looks at.
const approachCap = 20

// newSkirmish sets up a skirmish of ants with these owners (ours first,
// nm of them) and candidate squares. Ants whose starting squares (the
// first candidate) are more than reach2 apart are never compared, nor
// are two ants of one owner unless friends is set (the search never
// sends two of them to one square).
func newSkirmish(rows, cols, r2, nm int, owner []int, cands [][]int32, reach2 int, friends bool) *skirmish {
	n := len(owner)
	def := defaultTuning()
	k := &skirmish{rows: rows, cols: cols, r2: r2, nm: nm, owner: owner, sq: cands,
		killW: 1, lossW: 1, avgShare: def.avgShare, rounds: def.rounds, maxEvals: 1 << 30}
	k.rc = make([][][2]int32, n)
	k.bonus = make([][]float64, n)
	for i, cs := range cands {
		k.rc[i] = make([][2]int32, len(cs))
		for m, s := range cs {
			k.rc[i][m] = [2]int32{s / int32(cols), s % int32(cols)}
		}
		k.bonus[i] = make([]float64, len(cs))
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			foes := owner[i] != owner[j]
			if !foes && !friends {
				continue
			}
			if k.dist2(k.rc[i][0], k.rc[j][0]) <= reach2 {
				k.pairs = append(k.pairs, pair{int32(i), int32(j), foes})
			}
		}
	}
	k.d2 = make([]int32, len(k.pairs))
	k.cnt = make([]int32, n)
	k.dead = make([]bool, n)
	k.collide = make([]bool, n)
	k.near = make([]int32, n)
	k.proceed = make([]int8, nm)
	for i := range k.proceed {
		k.proceed[i] = -1
	}
	return k
}

func (k *skirmish) dist2(a, b [2]int32) int {
	dr, dc := int(a[0]-b[0]), int(a[1]-b[1])
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	dr = min(dr, k.rows-dr)
	dc = min(dc, k.cols-dc)
	return dr*dr + dc*dc
}

// at is the row and column of ant i under the move-sets our and en.
func (k *skirmish) at(i int, our, en []int8) ([2]int32, int32) {
	m := 0
	if i < k.nm {
		m = int(our[i])
	} else {
		m = int(en[i-k.nm])
	}
	return k.rc[i][m], k.sq[i][m]
}

// resolve applies the referee's collision and focus rules to the ants
// at their chosen squares and leaves in k.dead who dies.
func (k *skirmish) resolve(our, en []int8) {
	clear(k.cnt)
	clear(k.collide)
	for i := range k.near {
		k.near[i] = approachCap
	}
	for p, pr := range k.pairs {
		a, sa := k.at(int(pr.i), our, en)
		b, sb := k.at(int(pr.j), our, en)
		if sa == sb {
			k.collide[pr.i], k.collide[pr.j] = true, true
			k.d2[p] = -1
			continue
		}
		d := int32(k.dist2(a, b))
		k.d2[p] = d
		if pr.foes {
			k.near[pr.i] = min(k.near[pr.i], d)
			k.near[pr.j] = min(k.near[pr.j], d)
		}
	}
	r2 := int32(k.r2)
	for p, pr := range k.pairs {
		if pr.foes && k.d2[p] >= 0 && k.d2[p] <= r2 && !k.collide[pr.i] && !k.collide[pr.j] {
			k.cnt[pr.i]++
			k.cnt[pr.j]++
		}
	}
	copy(k.dead, k.collide)
	for p, pr := range k.pairs {
		if pr.foes && k.d2[p] >= 0 && k.d2[p] <= r2 && !k.collide[pr.i] && !k.collide[pr.j] {
			if k.cnt[pr.j] <= k.cnt[pr.i] {
				k.dead[pr.i] = true
			}
			if k.cnt[pr.i] <= k.cnt[pr.j] {
				k.dead[pr.j] = true
			}
		}
	}
}

// eval scores our move-set against one enemy move-set, for us.
func (k *skirmish) eval(our, en []int8) float64 {
	k.evals++
	k.resolve(our, en)
	s := 0.0
	for i, dead := range k.dead {
		m := 0
		if i < k.nm {
			m = int(our[i])
		} else {
			m = int(en[i-k.nm])
		}
		switch {
		case dead && i < k.nm:
			s -= k.lossW
		case dead:
			s += k.killW
		default:
			s += k.bonus[i][m]
			if i < k.nm {
				s -= k.approach * float64(k.near[i])
				if int(k.proceed[i]) == m {
					s += k.proceedW
				}
			}
		}
	}
	if k.foods > 0 {
		s += k.foodW * k.foodScore(our, en)
	}
	return s
}

// foodScore counts, after k.resolve, the food our surviving ants gather
// less the food the enemy's gather: by the referee's rule a food with
// ants of both sides beside it is destroyed, which takes it from both.
func (k *skirmish) foodScore(our, en []int8) float64 {
	clear(k.ourFood)
	clear(k.enFood)
	for i, dead := range k.dead {
		if dead || k.foodNear[i] == nil {
			continue
		}
		m, got := 0, k.enFood
		if i < k.nm {
			m, got = int(our[i]), k.ourFood
		} else {
			m = int(en[i-k.nm])
		}
		for _, f := range k.foodNear[i][m] {
			got[f] = true
		}
	}
	n := 0
	for f := range k.foods {
		switch {
		case k.ourFood[f] && !k.enFood[f]:
			n++
		case k.enFood[f] && !k.ourFood[f]:
			n--
		}
	}
	return float64(n)
}

// setFood tells the skirmish where the food is and what it is worth:
// near(sq) lists the food squares an ant on sq would gather (those within
// the spawn radius). A battle's candidates are a few hundred squares at
// most, so the food beside them fits an int16 index.
func (k *skirmish) setFood(w float64, near func(sq int32) []int32) {
	index := map[int32]int16{}
	k.foodNear = make([][][]int16, len(k.sq))
	for i, cs := range k.sq {
		for m, s := range cs {
			for _, f := range near(s) {
				fi, ok := index[f]
				if !ok {
					fi = int16(len(index))
					index[f] = fi
				}
				if k.foodNear[i] == nil {
					k.foodNear[i] = make([][]int16, len(cs))
				}
				k.foodNear[i][m] = append(k.foodNear[i][m], fi)
			}
		}
	}
	k.foods, k.foodW = len(index), w
	k.ourFood = make([]bool, len(index))
	k.enFood = make([]bool, len(index))
}

// value is our move-set's worst score over the pool plus avgShare of
// its average; it also returns the index of the worst reply.
func (k *skirmish) value(our []int8, pool [][]int8) (float64, int) {
	worst, at, sum := 0.0, 0, 0.0
	for q, en := range pool {
		s := k.eval(our, en)
		if q == 0 || s < worst {
			worst, at = s, q
		}
		sum += s
	}
	return worst + k.avgShare*sum/float64(len(pool)), at
}

// busy reports whether the clock or the evaluation budget is spent; once
// it has said so, stopped is set.
func (k *skirmish) busy() bool {
	if k.evals >= k.maxEvals || (!k.deadline.IsZero() && time.Now().After(k.deadline)) {
		k.stopped = true
		return true
	}
	return false
}

// taken reports whether another ant of ant i's owner (on side set, whose
// first ant is base) already goes to square t.
func (k *skirmish) taken(set []int8, base, i int, t int32) bool {
	for j, m := range set {
		if j != i-base && k.owner[base+j] == k.owner[i] && k.sq[base+j][m] == t {
			return true
		}
	}
	return false
}

// improve changes one of our ants' moves at a time while that raises the
// value against the pool; it returns the final value.
func (k *skirmish) improve(our []int8, pool [][]int8) float64 {
	cur, _ := k.value(our, pool)
	for range 3 {
		better := false
		for i := range k.nm {
			if k.busy() {
				return cur
			}
			keep := our[i]
			for m := range k.sq[i] {
				if int8(m) == keep || k.taken(our, 0, i, k.sq[i][m]) {
					continue
				}
				our[i] = int8(m)
				if v, _ := k.value(our, pool); v > cur+1e-9 {
					cur, keep, better = v, int8(m), true
				}
			}
			our[i] = keep
		}
		if !better {
			break
		}
	}
	return cur
}

// respond looks for the enemy move-set that scores worst for us against
// our move-set, starting from from; it returns it and its score.
func (k *skirmish) respond(our, from []int8) ([]int8, float64) {
	en := append([]int8(nil), from...)
	cur := k.eval(our, en)
	for range 3 {
		better := false
		for j := range en {
			if k.busy() {
				return en, cur
			}
			i := k.nm + j
			keep := en[j]
			for m := range k.sq[i] {
				if int8(m) == keep || k.taken(en, k.nm, i, k.sq[i][m]) {
					continue
				}
				en[j] = int8(m)
				if s := k.eval(our, en); s < cur-1e-9 {
					cur, keep, better = s, int8(m), true
				}
			}
			en[j] = keep
		}
		if !better {
			break
		}
	}
	return en, cur
}

// replyCount is the number of enemy move-sets (collisions included),
// or 0 when it passes 1<<30.
func (k *skirmish) replyCount() int { return k.combos(k.nm, len(k.sq)) }

// moveCount is the number of our move-sets, likewise.
func (k *skirmish) moveCount() int { return k.combos(0, k.nm) }

// combos is the product of the candidate counts of ants from..to-1, or
// 0 when it passes 1<<30.
func (k *skirmish) combos(from, to int) int {
	n := 1
	for i := from; i < to; i++ {
		n *= len(k.sq[i])
		if n > 1<<30 {
			return 0
		}
	}
	return n
}

// bestReply tries every enemy move-set in which no two ants of one owner
// share a square and returns the one that scores worst for us against
// our move-set, and its score. A combination of moves the ascent of
// respond cannot find one ant at a time (two ants stepping in together,
// where either alone would be a losing trade for them) is found here.
func (k *skirmish) bestReply(our []int8) ([]int8, float64) {
	en := make([]int8, len(k.sq)-k.nm)
	best := append([]int8(nil), en...)
	low := k.eval(our, en)
	for n := 0; k.next(en, k.nm); n++ {
		if n&255 == 255 && k.busy() {
			break
		}
		if !k.clashes(en, k.nm) {
			if s := k.eval(our, en); s < low-1e-9 {
				low = s
				copy(best, en)
			}
		}
	}
	return best, low
}

// next steps the move-set set of the ants from base on to the next
// combination of their candidates, odometer style; it reports false
// once every combination has been seen (set is back to all zeros).
func (k *skirmish) next(set []int8, base int) bool {
	for j := range set {
		set[j]++
		if int(set[j]) < len(k.sq[base+j]) {
			return true
		}
		set[j] = 0
	}
	return false
}

// clashes reports whether two ants of one owner in the move-set set (of
// the ants from base) go to one square.
func (k *skirmish) clashes(set []int8, base int) bool {
	for j, m := range set {
		if k.taken(set, base, base+j, k.sq[base+j][m]) {
			return true
		}
	}
	return false
}

// maxMin tries every move-set of ours against every enemy reply and
// returns the one whose worst reply is best, starting from first (the
// ascent's choice, kept unless something is strictly better). A
// move-set's replies are cut off as soon as one is no better than the
// best worst case so far, and the reply that cut last is tried first.
func (k *skirmish) maxMin(first []int8) []int8 {
	best := append([]int8(nil), first...)
	killer, bestV := k.bestReply(best)
	our := make([]int8, k.nm)
	en := make([]int8, len(k.sq)-k.nm)
	for more := true; more; more = k.next(our, 0) {
		if k.busy() {
			break
		}
		if k.clashes(our, 0) || k.eval(our, killer) <= bestV+1e-9 {
			continue
		}
		// Every reply, until one is no better for us than bestV.
		low, cut := math.Inf(1), false
		clear(en)
		for e, more := 0, true; more && !cut; e, more = e+1, k.next(en, k.nm) {
			if e&255 == 255 && k.busy() {
				return best
			}
			if k.clashes(en, k.nm) {
				continue
			}
			if s := k.eval(our, en); s < low {
				low = s
				if s <= bestV+1e-9 {
					copy(killer, en)
					cut = true
				}
			}
		}
		if !cut {
			bestV = low
			copy(best, our)
		}
	}
	return best
}

// search finds our move-set from the starting plans (ours) against the
// enemy's starting plans (theirs).
func (k *skirmish) search(ours, theirs [][]int8) []int8 {
	pool := theirs
	best, bestV := ours[0], 0.0
	for p, our := range ours {
		if v, _ := k.value(our, pool); p == 0 || v > bestV {
			best, bestV = our, v
		}
	}
	cur := append([]int8(nil), best...)
	settled := [][]int8{best}
	for range k.rounds {
		if k.busy() {
			break
		}
		k.improve(cur, pool)
		settled = append(settled, append([]int8(nil), cur...))
		// The enemy's best reply, searched from every reply in the
		// pool: the one that hurts most joins it, if it hurts more than
		// the pool's worst case.
		_, worst := k.value(cur, pool)
		low := k.eval(cur, pool[worst])
		var found []int8
		if n := k.replyCount(); n > 0 && n <= k.exact {
			if reply, s := k.bestReply(cur); s < low-1e-9 {
				found = reply
			}
		} else {
			for q := range pool {
				if reply, s := k.respond(cur, pool[q]); s < low-1e-9 {
					found, low = reply, s
				}
			}
		}
		if found == nil {
			break // no reply hurts more than the pool's: cur stands
		}
		pool = append(pool, found)
		k.replies++
	}
	best, bestV = settled[0], 0.0
	for p, our := range settled {
		if v, _ := k.value(our, pool); p == 0 || v > bestV {
			best, bestV = our, v
		}
	}
	return best
}

// fight chooses the moves of our ants in one battle and returns the
// squares they move to. support lists squares our other ants (of pieces
// of the same battle already planned) move to: those near the battle's
// enemies count in it, standing there. The search stops at until (zero:
// no clock) or after evals evaluations.
func (b *Bot) fight(bt battle, ahead bool, support []int, until time.Time, evals int) []int {
	w := b.w
	reach := b.engage2()
	var helpers []int
	for _, sq := range support {
		for _, e := range bt.enemies {
			if w.dist2(sq, e) <= reach {
				helpers = append(helpers, sq)
				break
			}
		}
	}
	own := len(bt.mine)
	nm, ne := own+len(helpers), len(bt.enemies)
	owner := make([]int, 0, nm+ne)
	cands := make([][]int32, 0, nm+ne)
	mySq := make([]int, own)
	for i, a := range bt.mine {
		sq := b.mine[a]
		mySq[i] = sq
		owner = append(owner, 0)
		cs := []int32{int32(sq)}
		for d := range 4 {
			t := int(w.nb[sq][d])
			if b.passable(t) && b.enemyAt[t] == 0 {
				cs = append(cs, int32(t))
			}
		}
		cands = append(cands, cs)
	}
	for _, sq := range helpers {
		owner = append(owner, 0)
		cands = append(cands, []int32{int32(sq)})
	}
	for _, sq := range bt.enemies {
		owner = append(owner, b.owner[sq])
		cs := []int32{int32(sq)}
		for d := range 4 {
			if t := int(w.nb[sq][d]); b.passable(t) {
				cs = append(cs, int32(t))
			}
		}
		cands = append(cands, cs)
	}
	k := newSkirmish(w.rows, w.cols, b.p.AttackRadius2, nm, owner, cands, reach, false)
	k.deadline, k.maxEvals = until, evals
	defer func() { b.evals += k.evals }()

	// An even trade is a loss by default (in a game of several players
	// it feeds the others, and near its hill the enemy replaces its dead
	// at once); kills are worth more when we have far more ants (trading
	// wins the game) and next to our own hills (defence).
	home, atTheirs := false, false
	for h, o := range w.hills {
		if o != 0 && b.tune.killRazeW == 0 {
			continue // only killRazeW asks about the enemy's hills
		}
		for _, e := range bt.enemies {
			if w.dist2(h, e) <= 100 {
				home = home || o == 0
				atTheirs = atTheirs || o != 0
			}
		}
	}
	if b.tune.crowd > 0 && !ahead {
		ahead = b.crowded(bt.mine)
	}
	k.lossW = 1
	switch {
	case home:
		k.killW = b.tune.killHomeW
	case ahead:
		k.killW = b.tune.killAheadW
	case atTheirs && b.tune.killRazeW > 0:
		k.killW = b.tune.killRazeW
	default:
		k.killW = b.tune.killW
	}
	k.avgShare, k.rounds, k.exact = b.tune.avgShare, b.tune.rounds, b.tune.exactReplies
	// Tie-breaks, each far smaller than one ant over the whole battle.
	outnumbered := !home && ne-nm >= b.tune.roomMargin
	yield := !home && nm == 1 && b.tune.yieldAlone > 0 && ne >= b.tune.yieldAlone
	switch {
	case yield:
		k.approach = -b.tune.approach / approachCap
	case home || ahead || nm > ne || b.tune.press:
		k.approach = b.tune.approach / approachCap / float64(nm)
	case ne > nm:
		k.approach = -b.tune.approach / approachCap / float64(nm)
	}
	if b.tune.battleFoodW > 0 {
		var buf []int32
		k.setFood(b.tune.battleFoodW, func(sq int32) []int32 {
			buf = buf[:0]
			for _, o := range w.spawnOff {
				if f := w.add(int(sq), o); w.isFood[f] && w.visible[f] {
					buf = append(buf, int32(f))
				}
			}
			return buf
		})
	}
	k.proceedW = 0.3 / float64(nm)
	if yield {
		k.proceedW = 0 // a lone ant among several enemies drops its job
	}
	for i := range nm {
		for m, s := range cands[i] {
			if o, ok := w.hills[int(s)]; ok && o != 0 {
				k.bonus[i][m] = 2.5
			}
		}
	}
	for j := range ne {
		i := nm + j
		for m, s := range cands[i] {
			if o, ok := w.hills[int(s)]; ok && o == 0 {
				k.bonus[i][m] = -2.5
			}
		}
	}
	for i, a := range bt.mine {
		scores, ok := b.traps[a]
		if !ok {
			continue
		}
		for m, s := range cands[i] {
			k.bonus[i][m] -= b.trapPenalty(scores[w.dirTo(mySq[i], int(s))])
		}
	}
	if b.tune.roomW > 0 && outnumbered {
		// Where we are outnumbered, ants that live prefer the squares
		// they could run on from: an ant caught in a dead end by two
		// enemies dies next turn whatever it does then.
		room := make([]float64, 5)
		for i := range own {
			lo, hi := math.Inf(1), math.Inf(-1)
			for m, s := range cands[i] {
				room[m] = b.room(int(s), mySq[i])
				lo, hi = min(lo, room[m]), max(hi, room[m])
			}
			if hi > lo {
				for m := range cands[i] {
					k.bonus[i][m] += b.tune.roomW / float64(nm) * (room[m] - lo) / (hi - lo)
				}
			}
		}
	}
	// index turns squares into candidate indexes; our move-sets get the
	// helpers' only candidate at the end.
	index := func(i int, squares []int) []int8 {
		out := make([]int8, len(squares), len(squares)+len(helpers))
		if i == 0 {
			out = out[:len(squares)+len(helpers)]
		}
		for a, t := range squares {
			for m, s := range cands[i+a] {
				if int(s) == t {
					out[a] = int8(m)
				}
			}
		}
		return out
	}
	var ours, theirs [][]int8
	for p := range numPlans {
		ours = append(ours, index(0, b.planMoves(mySq, bt.enemies, p, true)))
		theirs = append(theirs, index(nm, b.planMoves(bt.enemies, mySq, p, false)))
	}
	proceed := index(0, b.proceedMoves(bt.mine))
	copy(k.proceed, proceed)
	ours = append(ours, proceed)
	// Hold first: it is the safe default when the search has no time.
	ours[0], ours[planHold] = ours[planHold], ours[0]

	best := k.search(ours, theirs)
	if n := k.replyCount(); b.tune.exactBattle > 0 && n > 0 && k.moveCount() <= b.tune.exactBattle/n {
		best = k.maxMin(best)
	}
	b.stats.pieces++
	b.stats.fighters += own
	b.stats.foes += ne
	b.stats.replies += k.replies
	if k.stopped {
		b.stats.cut++
	}
	v, _ := k.value(best, theirs)
	b.logf("turn %d battle %d (+%d) v %d: %d evals, value %.3f", b.turn, own, len(helpers), ne, k.evals, v)
	to := make([]int, own)
	for i, a := range bt.mine {
		b.role[a] = roleCombat
		t := int(cands[i][best[i]])
		to[i] = t
		b.pref[a] = []int{w.dirTo(mySq[i], t), dirStay}
	}
	return to
}

// roomSteps is how far room looks.
const roomSteps = 8

// room scores the ground around sq for an ant (now on self) that may have
// to run: every square within roomSteps steps over land counts
// roomSteps+1 less its distance, three times that for one of our other
// ants and minus three times for an enemy's. Open ground and friends
// raise it; dead ends and enemies lower it.
func (b *Bot) room(sq, self int) float64 {
	b.newSearch()
	b.visit(sq, 0, 0, dirStay)
	b.spread(roomSteps, nil)
	v := 0
	for _, q := range b.queue {
		x := roomSteps + 1 - int(b.dist[q])
		switch {
		case int(q) != self && b.ownAt[q] != 0:
			x *= 3
		case b.enemyAt[q] != 0:
			x *= -3
		}
		v += x
	}
	return float64(v)
}

// crowded reports whether one of these ants of ours has at least
// tuning.crowd others within five rows and five columns: a mass that
// can afford to trade.
func (b *Bot) crowded(ants []int) bool {
	w := b.w
	for _, a := range ants {
		r0, c0 := b.mine[a]/w.cols, b.mine[a]%w.cols
		n := 0
		for _, sq := range b.mine {
			dr, dc := abs(sq/w.cols-r0), abs(sq%w.cols-c0)
			if min(dr, w.rows-dr) <= 5 && min(dc, w.cols-dc) <= 5 {
				n++
			}
		}
		if n-1 >= b.tune.crowd {
			return true
		}
	}
	return false
}
