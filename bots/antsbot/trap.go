package antsbot

import "slices"

// Traps: the combat search looks one turn ahead, so a lone ant keeps
// walking on wherever it is safe this turn, and enemies closing in from
// two sides catch it the turn after, whatever it does then. The 2011
// winner's bot hunts exactly such detached ants with every ant it has
// within ten steps. trapScores looks one turn further for a lone ant:
// after each of its moves and every reply of the enemies near it, can
// it still step somewhere no enemy can reach next turn?

// maxTrapFoes bounds the enemies a trap is looked for with (the nearest
// ones): their replies are tried in every combination.
const maxTrapFoes = 5

// trapReach2 is how near (squared) an enemy must be to matter within
// two turns: the attack radius plus two steps each.
func (b *Bot) trapReach2() int {
	r := b.attackSteps() + 4
	return r * r
}

// lonely reports whether our ant a has no other ant of ours within
// squared distance tuning.trapAlone2: no friend can share a fight with
// it in the next two turns, so the enemies' numbers alone decide.
func (b *Bot) lonely(a int) bool {
	sq := b.mine[a]
	for o, s := range b.mine {
		if o != a && b.w.dist2(sq, s) <= b.tune.trapAlone2 {
			return false
		}
	}
	return true
}

// trapScores scores each move of a lone ant at sq (index by direction,
// dirStay last; ok says which moves are open): the worst case, over the
// replies of the nearest enemies after which the ant is still alive, of
// the fewest enemies that can reach attack range of any square it can
// step to next turn, capped at two. Zero: it can always get away; one:
// at best it trades; two: it dies next turn. A move after which every
// reply kills it at once scores two as well.
func (b *Bot) trapScores(sq int) (scores [5]int, ok [5]bool, any bool) {
	w := b.w
	r2 := b.p.AttackRadius2
	// Our moves now.
	var moves [5]int
	for d := range 5 {
		t, open := b.step(sq, d)
		if !open || b.enemyAt[t] != 0 {
			continue
		}
		moves[d], ok[d] = t, true
	}
	// The squares reachable next turn from each move, numbered in next.
	var next []int
	var from [5]uint32 // per move: bits of next it can step to
	for d := range 5 {
		if !ok[d] {
			continue
		}
		for e := range 5 {
			t, open := b.step(moves[d], e)
			if !open {
				continue
			}
			k := slices.Index(next, t)
			if k < 0 {
				k = len(next)
				next = append(next, t)
			}
			from[d] |= 1 << k
		}
	}
	// The nearest enemies, each with its moves now: what each threatens
	// this turn (bits of our moves) and next turn (bits of next).
	type foe struct {
		sq   int
		dist int
	}
	reach := b.trapReach2()
	var foes []foe
	for _, e := range b.enemies {
		if d := w.dist2(sq, e); d <= reach {
			foes = append(foes, foe{e, d})
		}
	}
	if len(foes) == 0 {
		return scores, ok, false
	}
	slices.SortStableFunc(foes, func(x, y foe) int { return x.dist - y.dist })
	foes = foes[:min(len(foes), maxTrapFoes)]
	type option struct {
		on            uint32 // the bit of next it stands on, if any
		now, nextTurn uint32
	}
	opts := make([][]option, len(foes))
	for j, f := range foes {
		for d := range 5 {
			p, open := b.step(f.sq, d)
			if !open {
				continue
			}
			var o option
			if k := slices.Index(next, p); k >= 0 {
				o.on = 1 << k
			}
			for m := range 5 {
				if ok[m] && w.dist2(moves[m], p) <= r2 {
					o.now |= 1 << m
				}
			}
			for k, t := range next {
				for e := range 5 {
					if q, open := b.step(p, e); open && w.dist2(t, q) <= r2 {
						o.nextTurn |= 1 << k
						break
					}
				}
			}
			opts[j] = append(opts[j], o)
		}
	}
	// Every combination of the enemies' replies (an odometer).
	var worst [5]int
	var alive [5]bool
	pick := make([]int, len(foes))
	count := make([]int, len(next))
	for {
		var now, occupied uint32
		clear(count)
		for j, c := range pick {
			o := opts[j][c]
			now |= o.now
			occupied |= o.on
			for k := range next {
				if o.nextTurn&(1<<k) != 0 {
					count[k]++
				}
			}
		}
		for m := range 5 {
			if !ok[m] || now&(1<<m) != 0 {
				continue // the ant dies this turn: the combat search counts that
			}
			alive[m] = true
			fewest := 2
			open := from[m] &^ occupied // an enemy stands on the others
			for k := range next {
				if open&(1<<k) != 0 {
					fewest = min(fewest, count[k])
				}
			}
			worst[m] = max(worst[m], fewest)
		}
		j := 0
		for ; j < len(pick); j++ {
			if pick[j]++; pick[j] < len(opts[j]) {
				break
			}
			pick[j] = 0
		}
		if j == len(pick) {
			break
		}
	}
	for m := range 5 {
		switch {
		case !ok[m]:
		case !alive[m]:
			scores[m] = 2
		default:
			scores[m] = worst[m]
		}
		any = any || scores[m] > 0
	}
	return scores, ok, any
}

// trapPenalty is what a trap score costs, in ants.
func (b *Bot) trapPenalty(score int) float64 {
	switch score {
	case 2:
		return b.tune.trapW
	case 1:
		return b.tune.trapTradeW
	}
	return 0
}

// evade reorders the moves of lone ants on peaceful jobs so that they do
// not walk into a trap: among their preferred moves the untrapped ones
// come first, then the other untrapped steps, then the rest, least
// trapped first. Ants in battle get the same scores as a term of the
// combat search instead (fight).
func (b *Bot) evade() {
	if b.tune.trapW <= 0 || len(b.enemies) == 0 {
		return
	}
	b.traps = make(map[int][5]int)
	for a, sq := range b.mine {
		if !b.timeLeft() {
			return
		}
		if !b.lonely(a) {
			continue
		}
		scores, ok, any := b.trapScores(sq)
		if !any {
			continue
		}
		b.traps[a] = scores
		if b.role[a] == roleDefend || b.tune.trapFightOnly {
			continue // defenders stand between the enemy and the hill
		}
		prefs := b.pref[a]
		if len(prefs) == 0 {
			prefs = []int{dirStay}
		}
		if scores[prefs[0]] == 0 && ok[prefs[0]] {
			continue
		}
		order := slices.Clone(prefs)
		for d := range 5 {
			if ok[d] && !slices.Contains(order, d) {
				order = append(order, d)
			}
		}
		order = slices.DeleteFunc(order, func(d int) bool { return !ok[d] })
		slices.SortStableFunc(order, func(x, y int) int { return scores[x] - scores[y] })
		b.pref[a] = order
		b.stats.evaded++
	}
}
