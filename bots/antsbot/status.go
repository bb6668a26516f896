package antsbot

import (
	"fmt"
	"strings"
	"time"
)

// turnStats counts what one turn's planning did, for the status line.
type turnStats struct {
	battles  int           // battles: groups of ants that can fight next turn
	pieces   int           // pieces of battle searched
	held     int           // pieces left holding still for want of time
	cut      int           // searches stopped by the clock or the evaluation budget
	fighters int           // our ants in the pieces searched
	foes     int           // enemy ants in them (one in two pieces counts twice)
	replies  int           // enemy replies the searches added to their pools
	combat   time.Duration // time in the combat stage
	evaded   int           // lone ants turned from a trap (evade)
}

// StatusLine describes the last turn, which took took of a budget of
// budget (0: the turn had no deadline):
//
//	turn 57: time 23ms of 500ms ants 34 enemies 12 food 3 battles 2 pieces 3 fighting 20 v 14 evals 12345 in 10ms eps 1234567 replies 5 cut 0 held 0 evaded 1
//
// ants are ours, enemies the enemy ants in view, food the food known;
// battles are the groups of ants that can fight next turn, pieces the
// parts of them searched one after the other (a big battle is cut into
// blocks), fighting our and the enemy's ants in those pieces; evals
// counts the combat search's evaluations of a move-set against an enemy
// reply, in the time the combat stage took, eps is evaluations per
// second of it, replies the enemy replies the searches found and added
// to their pools, cut the searches stopped by the clock or the
// evaluation budget, held the pieces left holding still for want of
// time, evaded the lone ants turned away from a trap (see evade).
func (b *Bot) StatusLine(took, budget time.Duration) string {
	s := &b.stats
	var sb strings.Builder
	fmt.Fprintf(&sb, "turn %d: time %v", b.turn, took.Round(10*time.Microsecond))
	if budget > 0 {
		fmt.Fprintf(&sb, " of %v", budget)
	}
	food := 0
	if b.w != nil {
		food = len(b.w.food)
	}
	eps := 0.0
	if b.evals > 0 && s.combat > 0 {
		eps = float64(b.evals) / s.combat.Seconds()
	}
	fmt.Fprintf(&sb, " ants %d enemies %d food %d battles %d pieces %d fighting %d v %d evals %d in %v eps %.0f replies %d cut %d held %d evaded %d",
		len(b.mine), len(b.enemies), food, s.battles, s.pieces, s.fighters, s.foes,
		b.evals, s.combat.Round(10*time.Microsecond), eps, s.replies, s.cut, s.held, s.evaded)
	return sb.String()
}
