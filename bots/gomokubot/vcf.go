package gomokubot

import "time"

// findVCF looks for a victory by continuous fours for attacker, as if
// attacker were to move, visiting at most limit nodes. On success it
// returns the line: attacker's first four, the forced block, the next
// four, ... (the final five may be left out when the last four is open).
func (e *Engine) findVCF(attacker uint8, limit int64) ([]int32, bool) {
	st := &e.search
	st.vcfLimit = limit
	st.vcfNodes = 0
	st.vcfLine = st.vcfLine[:0]
	ok := e.vcf(attacker, vcfDepth)
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

// vcfAborted reports whether the current probe ran out of nodes or time.
func (e *Engine) vcfAborted() bool {
	st := &e.search
	return st.stop || st.vcfNodes > st.vcfLimit
}

// vcf reports whether me, to move, wins by fours within depth fours.
func (e *Engine) vcf(me uint8, depth int) bool {
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
		// The defender has a four: only a block that is itself a four
		// keeps the attack going.
		sq := e.findLevel(opp, lvFive)
		if n > 1 || !e.info(sq, me).four || !e.legal(sq, me) {
			return false
		}
		return e.vcfTry(me, sq, depth)
	}
	if depth <= 0 {
		return false
	}
	key := e.ttKey(me) ^ 0x2545f4914f6cdd1d
	slot := &st.vcfFail[key&(1<<vcfCacheBits-1)]
	if *slot&^0xFF == key&^0xFF && int(*slot&0xFF) >= depth {
		return false
	}
	buf := st.vcfMoves[depth][:0]
	for _, i := range e.real {
		t := int(i)
		if e.cells[t] != cEmpty {
			continue
		}
		if ci := e.info(t, me); ci.four {
			buf = append(buf, move{int32(t), int32(ci.level)<<16 + ci.score})
		}
	}
	sortMoves(buf)
	st.vcfMoves[depth] = buf
	for _, m := range buf {
		sq := int(m.sq)
		if !e.legal(sq, me) {
			continue
		}
		if e.vcfTry(me, sq, depth) {
			return true
		}
		if e.vcfAborted() {
			return false
		}
	}
	*slot = key&^0xFF | uint64(depth)
	return false
}

// vcfTry plays the four sq for me, the forced block, and continues.
func (e *Engine) vcfTry(me uint8, sq, depth int) bool {
	st := &e.search
	opp := 3 - me
	e.put(sq, me)
	n, block := e.fivesThrough(sq, me)
	win := false
	switch {
	case n >= 2:
		win = true
	case n == 1 && !e.legal(block, opp):
		// Renju: the only defence is a foul for Black.
		win = true
	case n == 1:
		e.put(block, opp)
		win = e.vcf(me, depth-1)
		e.take(block)
		if win {
			st.vcfLine = append(st.vcfLine, int32(block))
		}
	}
	e.take(sq)
	if win {
		st.vcfLine = append(st.vcfLine, int32(sq))
	}
	return win
}

// vcfDefences keeps the root moves after which the opponent no longer has
// a VCF (line is the opponent's current one). Squares of the line and own
// fours are tried first; if nothing helps, all moves are kept.
func (e *Engine) vcfDefences(me uint8, moves []move, line []int32) []move {
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
		_, lost := e.findVCF(opp, 20000)
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
