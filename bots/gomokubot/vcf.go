package gomokubot

import "time"

// Threat-space search. The attacker plays only threats: fours (VCF,
// victory by continuous fours) or, with threes enabled, also open threes
// (VCT, victory by continuous threats). The defender answers a four with
// the block and an open three with every square that takes part in one of
// the attacker's fours, or with a four of its own. The attack succeeds if
// every defence loses within depth attacking moves.

// findThreat looks for a forced win for attacker as if attacker were to
// move, visiting at most limit nodes and depth attacking moves. On success
// it returns the attacker's moves and the defender's replies along one
// line, first move first.
func (e *Engine) findThreat(attacker uint8, threes bool, depth int, limit int64) ([]int32, bool) {
	st := &e.search
	st.vcfLimit = limit
	st.vcfNodes = 0
	st.vcfLine = st.vcfLine[:0]
	ok := e.attack(attacker, depth, threes)
	st.vcfLimit = 0
	if !ok {
		return nil, false
	}
	line := st.vcfLine
	for i, j := 0, len(line)-1; i < j; i, j = i+1, j-1 {
		line[i], line[j] = line[j], line[i]
	}
	return line, true
}

// findVCF looks for a victory by continuous fours.
func (e *Engine) findVCF(attacker uint8, limit int64) ([]int32, bool) {
	return e.findThreat(attacker, false, vcfDepth, limit)
}

// threatAborted reports whether the current probe ran out of nodes or
// time.
func (e *Engine) threatAborted() bool {
	st := &e.search
	return st.stop || st.vcfNodes > st.vcfLimit
}

// attack reports whether me, to move, wins by threats within depth
// attacking moves.
func (e *Engine) attack(me uint8, depth int, threes bool) bool {
	st := &e.search
	st.vcfNodes++
	if e.tick() || st.vcfNodes > st.vcfLimit {
		return false
	}
	opp := 3 - me
	if e.cnt[me-1][lvFive] > 0 {
		st.vcfLine = append(st.vcfLine, int32(e.findLevel(me, lvFive)))
		return true
	}
	if n := e.cnt[opp-1][lvFive]; n > 0 {
		// The defender has a four: block it; in a pure VCF the block
		// must be a four itself.
		sq := e.fiveAfter(opp)
		if n > 1 || !e.legal(sq, me) || (!threes && !e.info(sq, me).four) {
			return false
		}
		return e.threatTry(me, sq, depth, threes)
	}
	if depth <= 0 {
		return false
	}
	salt := uint64(0x2545f4914f6cdd1d)
	if threes {
		salt = 0x9e3779b97f4a7c15
	}
	key := e.ttKey(me) ^ salt
	slot := &st.vcfFail[key&(1<<vcfCacheBits-1)]
	if *slot&^0xFF == key&^0xFF && int(*slot&0xFF) >= depth {
		return false
	}
	// Open threes are too slow while the defender can make an open four.
	threes = threes && !e.hasLegal(opp, lvFlex4)
	buf := st.vcfMoves[depth][:0]
	for _, i := range e.real {
		t := int(i)
		if e.cells[t] != cEmpty {
			continue
		}
		ci := e.info(t, me)
		if ci.four || (threes && ci.three) {
			buf = append(buf, move{int32(t), int32(ci.level)<<16 + int32(ci.score)})
		}
	}
	sortMoves(buf)
	st.vcfMoves[depth] = buf
	for _, m := range buf {
		sq := int(m.sq)
		if !e.legal(sq, me) {
			continue
		}
		if e.threatTry(me, sq, depth-1, threes) {
			return true
		}
		if e.threatAborted() {
			return false
		}
	}
	*slot = key&^0xFF | uint64(depth)
	return false
}

// threatTry plays sq for the attacker me and lets the defender answer.
func (e *Engine) threatTry(me uint8, sq, depth int, threes bool) bool {
	e.put(sq, me)
	win := e.defend(me, depth, threes)
	e.take(sq)
	if win {
		e.search.vcfLine = append(e.search.vcfLine, int32(sq))
	}
	return win
}

// defend reports whether the attacker me still wins with the defender to
// move.
func (e *Engine) defend(me uint8, depth int, threes bool) bool {
	st := &e.search
	opp := 3 - me
	if e.cnt[opp-1][lvFive] > 0 {
		return false // the defender completes five
	}
	switch n := e.cnt[me-1][lvFive]; {
	case n >= 2:
		return true
	case n == 1:
		sq := e.fiveAfter(me)
		if !e.legal(sq, opp) {
			return true // renju: the only block is a foul for Black
		}
		e.put(sq, opp)
		win := e.attack(me, depth, threes)
		e.take(sq)
		if win {
			st.vcfLine = append(st.vcfLine, int32(sq))
		}
		return win
	}
	if !threes || !e.hasLegal(me, lvFlex4) {
		return false // the last move threatened nothing
	}
	// Every square of the attacker's fours, and the defender's own fours.
	mark0 := len(st.vcfLine)
	var defences [64]int32
	nd := 0
	for _, i := range e.real {
		t := int(i)
		if e.cells[t] != cEmpty || (!e.info(t, me).four && !e.info(t, opp).four) {
			continue
		}
		if nd == len(defences) {
			return false // too many to check: assume a defence exists
		}
		defences[nd] = i
		nd++
	}
	first := int32(-1)
	for _, sq := range defences[:nd] {
		if !e.legal(int(sq), opp) {
			continue
		}
		mark := len(st.vcfLine)
		e.put(int(sq), opp)
		win := e.attack(me, depth, threes)
		e.take(int(sq))
		if !win {
			st.vcfLine = st.vcfLine[:mark0]
			return false
		}
		if first < 0 {
			// Keep the line of the first defence only.
			first = sq
			st.vcfLine = append(st.vcfLine, sq)
		} else {
			st.vcfLine = st.vcfLine[:mark]
		}
	}
	return true
}

// threatDefences keeps the root moves after which the opponent no longer
// has a forced win of the given kind (line is the opponent's current
// one). Squares of the line and own fours are tried first; if nothing
// helps, all moves are kept.
func (e *Engine) threatDefences(me uint8, moves []move, line []int32, threes bool, depth int, limit int64) []move {
	st := &e.search
	opp := 3 - me
	onLine := make(map[int32]bool, len(line))
	for _, sq := range line {
		onLine[sq] = true
	}
	ordered := make([]move, 0, len(moves))
	for _, m := range moves {
		if onLine[m.sq] || e.info(int(m.sq), me).four {
			ordered = append(ordered, m)
		}
	}
	for _, m := range moves {
		if !onLine[m.sq] && !e.info(int(m.sq), me).four {
			ordered = append(ordered, m)
		}
	}
	var keep []move
	for _, m := range ordered {
		if st.stop || time.Now().After(st.deadline) {
			break
		}
		sq := int(m.sq)
		e.put(sq, me)
		_, lost := e.findThreat(opp, threes, depth, limit)
		e.take(sq)
		if !lost && !st.stop {
			keep = append(keep, m)
		}
	}
	if len(keep) == 0 {
		return moves
	}
	return keep
}
