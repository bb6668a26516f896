package gomokubot

import (
	"context"
	"fmt"
	"time"

	"arena/game/gomoku"
)

// Scores. A forced win in n plies scores scoreWin-n; anything at or above
// winMin is a proven win, at or below -winMin a proven loss.
const (
	scoreWin = 30000
	winMin   = 29000
	infinity = 32000
	maxPly   = 96
	// maxBreadth is how many quiet moves an inner node tries (14, not
	// 18: see the package doc for the trials).
	maxBreadth = 14
	// vcfDepth is the longest chain of fours a VCF probe follows.
	vcfDepth = 24
	// vcfCacheBits sizes the table of positions known to have no VCF.
	vcfCacheBits = 16
	// softShare is the share of the budget after which an iteration
	// starts only when the last ones predict that it ends inside the
	// budget.
	softShare = 0.6
)

// SearchInfo describes a finished search.
type SearchInfo struct {
	// Depth is the last fully searched depth (0: the move needed no
	// search or came from the static order).
	Depth int
	// Nodes counts the positions visited.
	Nodes int64
	// Score is the evaluation for the side that moved, in engine units;
	// beyond ±29000 it is a proven win or loss.
	Score int
	// Elapsed is the wall time the search took, and Budget the time it
	// was given.
	Elapsed, Budget time.Duration
	// Reason says how the move was found: "five", "block", "vcf",
	// "search", "static", "opening" or "none" (no empty square).
	Reason string
}

// NPS returns the nodes searched per second.
func (i SearchInfo) NPS() int64 {
	if i.Elapsed <= 0 {
		return 0
	}
	return int64(float64(i.Nodes) / i.Elapsed.Seconds())
}

// String formats the info as the MESSAGE line the brains print.
func (i SearchInfo) String() string {
	return fmt.Sprintf("depth %d nodes %d nps %d score %d time %d of %d ms (%s)", i.Depth, i.Nodes, i.NPS(), i.Score,
		i.Elapsed.Milliseconds(), i.Budget.Milliseconds(), i.Reason)
}

// move is a candidate square with its ordering score.
type move struct {
	sq    int32
	score int32
}

// Search picks a move for colour me within budget (wall time; 0 or less
// answers at once from the static move order). It always returns a legal
// square unless the board is full, in which case the point is (-1,-1).
// ctx cancels the search early; the best move found so far is returned.
func (e *Engine) Search(ctx context.Context, me gomoku.Stone, budget time.Duration) (gomoku.Point, SearchInfo) {
	if ctx == nil {
		ctx = context.Background()
	}
	if me != gomoku.White {
		me = gomoku.Black
	}
	st := &e.search
	e.begin(ctx, budget)
	sq, info := e.think(uint8(me), budget)
	info.Nodes = st.nodes
	info.Elapsed, info.Budget = time.Since(st.start), budget
	st.ctx = nil
	if sq < 0 {
		return gomoku.Point{X: -1, Y: -1}, info
	}
	return e.point(sq), info
}

// begin starts the clock of a search that may run for budget.
func (e *Engine) begin(ctx context.Context, budget time.Duration) {
	st := &e.search
	st.ctx = ctx
	st.maxNodes = e.MaxNodes
	st.start = time.Now()
	st.deadline = st.start.Add(budget)
	st.nodes = 0
	st.stop = false
	if st.vcfFail == nil {
		st.vcfFail = make([]uint64, 1<<vcfCacheBits)
	}
}

// think is Search on padded indices.
func (e *Engine) think(me uint8, budget time.Duration) (int, SearchInfo) {
	opp := 3 - me
	if e.empty == 0 {
		return -1, SearchInfo{Reason: "none"}
	}
	if e.cnt[me-1][lvFive] > 0 {
		return e.findLevel(me, lvFive), SearchInfo{Score: scoreWin - 1, Reason: "five"}
	}
	if n := e.cnt[opp-1][lvFive]; n > 0 {
		sq := e.findLevel(opp, lvFive)
		if e.legal(sq, me) {
			score := 0
			if n > 1 {
				score = -(scoreWin - 2)
			}
			return sq, SearchInfo{Score: score, Reason: "block"}
		}
	}
	if e.stone == 0 {
		return e.centre(me), SearchInfo{Reason: "opening"}
	}
	if e.stone == 1 {
		if sq := e.reply(me); sq >= 0 {
			return sq, SearchInfo{Reason: "opening"}
		}
	}
	moves := e.rootMoves(me)
	if len(moves) == 0 {
		return e.anyMove(me), SearchInfo{Reason: "static"}
	}
	info := SearchInfo{Reason: "static", Score: int(moves[0].score)}
	if budget <= 0 || len(moves) == 1 {
		return int(moves[0].sq), info
	}
	st := &e.search
	share := func(f float64) time.Time { return st.start.Add(time.Duration(float64(budget) * f)) }

	// A victory by continuous fours ends the thinking.
	var line []int32
	ok := false
	e.limited(share(0.15), 0.15, func() { line, ok = e.findVCF(me, e.nodeShare(200000, 0.15)) })
	if ok && len(line) > 0 {
		return int(line[0]), SearchInfo{Score: scoreWin - len(line), Reason: "vcf"}
	}
	if st.stop {
		return int(moves[0].sq), info
	}
	// So does one by continuous threats (fours and open threes).
	// While an attack found by it goes on, it may take most of the time:
	// losing the thread of a won attack is the costliest mistake.
	if e.tune.vct > 0 {
		var res pnsResult
		f, nodes, limit := 0.25, 0.08, e.tune.vct
		if st.attacking {
			f, nodes, limit = 0.6, 0.5, 4*limit
		}
		e.limited(share(f), f, func() { res = e.findVCT(me, e.nodeShare(limit, nodes), e.tune.vctPly) })
		st.attacking = res.won && len(res.line) > 0
		if st.attacking {
			return int(res.line[0]), SearchInfo{Score: scoreWin - len(res.line) - 20, Reason: "vct"}
		}
		if st.stop {
			return int(moves[0].sq), info
		}
	}
	// Against the opponent's VCF keep only the moves that stop it, and
	// without one against its VCT.
	e.limited(share(0.35), 0.35, func() {
		if line, ok = e.findVCF(opp, e.nodeShare(100000, 0.1)); ok {
			moves = e.threatDefences(me, moves, append([]int32(nil), line...), false, vcfDepth, 20000)
			return
		}
		if e.tune.vctDef > 0 {
			if res := e.findVCT(opp, e.nodeShare(e.tune.vctDef, 0.05), e.tune.vctPly); res.won {
				moves = e.vctDefences(me, moves, append([]int32(nil), res.line...))
			}
		}
	})
	if st.stop {
		return int(moves[0].sq), info
	}
	return e.deepen(me, moves, budget)
}

// nodeShare caps a threat search's node budget at a share of MaxNodes.
func (e *Engine) nodeShare(limit int64, share float64) int64 {
	if e.MaxNodes > 0 {
		return max(min(limit, int64(float64(e.MaxNodes)*share)), 1)
	}
	return limit
}

// vctDefences drops the root moves after which the opponent still wins
// by threats (line is its current win): squares of the line, own fours and
// own threes are checked first, each with a small VCF and proof-number
// search, until the node or time share runs out. Moves not checked stay;
// if every move loses, all stay.
func (e *Engine) vctDefences(me uint8, moves []move, line []int32) []move {
	st := &e.search
	opp := 3 - me
	onLine := make(map[int32]bool, len(line))
	for _, sq := range line {
		onLine[sq] = true
	}
	urgent := func(m move) bool {
		ci := e.info(int(m.sq), me)
		return onLine[m.sq] || ci.four || ci.three
	}
	order := make([]int, 0, len(moves))
	for i, m := range moves {
		if urgent(m) {
			order = append(order, i)
		}
	}
	for i, m := range moves {
		if !urgent(m) {
			order = append(order, i)
		}
	}
	per := max(e.nodeShare(e.tune.vctDef, 0.05)/4, 100)
	lost := make([]bool, len(moves))
	for _, i := range order {
		if st.stop {
			break
		}
		sq := int(moves[i].sq)
		e.put(sq, me)
		// The opponent, to move now, must not win by fours, nor by
		// threats.
		_, l := e.findVCF(opp, per)
		if !l && !st.stop {
			l = e.findVCT(opp, per, e.tune.vctPly).won
		}
		e.take(sq)
		lost[i] = l
	}
	keep := make([]move, 0, len(moves))
	for i, m := range moves {
		if !lost[i] {
			keep = append(keep, m)
		}
	}
	if len(keep) == 0 {
		return moves
	}
	return keep
}

// limited runs f with the deadline moved forward to until (and, with
// MaxNodes, the node limit to share of it), then restores them; a stop
// caused only by the earlier limits is forgotten.
func (e *Engine) limited(until time.Time, share float64, f func()) {
	st := &e.search
	saved, savedNodes := st.deadline, st.maxNodes
	if until.Before(saved) {
		st.deadline = until
	}
	if e.MaxNodes > 0 {
		st.maxNodes = int64(float64(e.MaxNodes) * share)
	}
	f()
	st.deadline, st.maxNodes = saved, savedNodes
	if st.stop && time.Now().Before(saved) && st.ctx.Err() == nil && (st.maxNodes == 0 || st.nodes < st.maxNodes) {
		st.stop = false
	}
}

// deepen runs the iterative-deepening search over the root moves.
func (e *Engine) deepen(me uint8, moves []move, budget time.Duration) (int, SearchInfo) {
	st := &e.search
	e.ensureTT()
	e.ttAge++
	soft := e.softLimit(budget)
	info := SearchInfo{Reason: "static", Score: int(moves[0].score)}
	best := int(moves[0].sq)
	limit := maxPly - 8
	if e.MaxDepth > 0 {
		limit = min(limit, e.MaxDepth)
	}
	var last, prev time.Duration // how long the last two iterations took
	for d := 1; d <= limit; d++ {
		began := time.Since(st.start)
		st.iter = d
		i, score, done := e.rootSearch(me, moves, d)
		if !done {
			if i > 0 {
				best = int(moves[i].sq)
				info.Score = score
			}
			break
		}
		best = int(moves[i].sq)
		info = SearchInfo{Depth: d, Score: score, Reason: "search"}
		if e.Log != nil {
			fmt.Fprintf(e.Log, "depth %d best %v score %d nodes %d time %v\n", d, e.point(best), score, st.nodes, time.Since(st.start).Round(time.Millisecond))
		}
		// Put the best move first for the next iteration.
		m := moves[i]
		copy(moves[1:i+1], moves[:i])
		moves[0] = m
		prev, last = last, time.Since(st.start)-began
		if score >= winMin || score <= -winMin || !deeper(time.Since(st.start), last, prev, soft, budget) {
			break
		}
	}
	return best, info
}

// softLimit is how far into budget a new iteration starts even when it is
// not expected to finish: all of it when the time saved would be lost
// (TurnOnly), else tuning.soft of it.
func (e *Engine) softLimit(budget time.Duration) time.Duration {
	if e.TurnOnly {
		return budget
	}
	return time.Duration(float64(budget) * e.tune.soft)
}

// deeper reports whether to start the next iteration after elapsed, the
// last two taking last and prev: while it is expected to finish inside
// budget, or while it is early (before soft): the best move is searched
// first, so an iteration cut off by the clock can still only improve the
// move.
func deeper(elapsed, last, prev, soft, budget time.Duration) bool {
	return elapsed+nextIteration(last, prev) <= budget || elapsed <= soft
}

// nextIteration predicts how long the next iteration takes from the last
// two: the last one times their growth factor, held between 1.5 and 6
// (tiny early iterations say little about it).
func nextIteration(last, prev time.Duration) time.Duration {
	growth := 3.0
	if prev > time.Millisecond {
		growth = min(max(float64(last)/float64(prev), 1.5), 6)
	}
	return time.Duration(float64(last) * growth)
}

// rootSearch searches every root move to depth d. It returns the index of
// the best move, its score and whether the iteration finished; an
// unfinished iteration still reports a move that beat the first one.
func (e *Engine) rootSearch(me uint8, moves []move, d int) (int, int, bool) {
	st := &e.search
	opp := 3 - me
	alpha, beta := -infinity, infinity
	best, bestScore := 0, -infinity
	for i, m := range moves {
		sq := int(m.sq)
		e.put(sq, me)
		var s int
		if i == 0 {
			s = -e.negamax(opp, d-1, -beta, -alpha, 1)
		} else {
			s = -e.negamax(opp, d-1, -alpha-1, -alpha, 1)
			if s > alpha && !st.stop {
				s = -e.negamax(opp, d-1, -beta, -alpha, 1)
			}
		}
		e.take(sq)
		if st.stop {
			return best, bestScore, false
		}
		if s > bestScore {
			best, bestScore = i, s
			alpha = max(alpha, s)
		}
	}
	return best, bestScore, true
}

// checkTime sets the stop flag once the deadline passed or the context
// ended.
func (e *Engine) checkTime() {
	st := &e.search
	if time.Now().After(st.deadline) || st.ctx.Err() != nil {
		st.stop = true
	}
}

// tick counts a node, stops at the node limit and looks at the clock
// every 1024 nodes.
func (e *Engine) tick() bool {
	st := &e.search
	st.nodes++
	if st.maxNodes > 0 && st.nodes >= st.maxNodes {
		st.stop = true
	}
	if st.nodes&1023 == 0 {
		e.checkTime()
	}
	return st.stop
}

// negamax is the principal-variation alpha-beta search; me is to move.
func (e *Engine) negamax(me uint8, depth, alpha, beta, ply int) int {
	if e.tick() {
		return 0
	}
	opp := 3 - me
	if e.cnt[me-1][lvFive] > 0 {
		return scoreWin - ply
	}
	if e.empty == 0 {
		return 0
	}
	if ply >= maxPly-1 {
		return e.evaluate(me)
	}
	if n := e.cnt[opp-1][lvFive]; n > 0 {
		// The opponent threatens five: the block is forced and costs no
		// depth (see fiveAfter for where the five is found).
		sq := e.fiveAfter(opp)
		if n > 1 || !e.legal(sq, me) {
			return -(scoreWin - ply - 1)
		}
		e.put(sq, me)
		s := -e.negamax(opp, depth, -beta, -alpha, ply+1)
		e.take(sq)
		return s
	}
	if depth <= 0 {
		return e.leaf(me, ply)
	}
	if a := -(scoreWin - ply - 2); a > alpha {
		// Nobody can win before ply+3 here.
		alpha = a
		if alpha >= beta {
			return alpha
		}
	}
	if b := scoreWin - ply - 1; b < beta {
		beta = b
		if alpha >= beta {
			return alpha
		}
	}
	key := e.ttKey(me)
	ttMove := -1
	if ent, ok := e.probe(key); ok {
		ttMove = int(ent.move)
		if int(ent.depth) >= depth {
			s := ttScore(int(ent.score), ply)
			switch {
			case ent.bound == bExact,
				ent.bound == bLower && s >= beta,
				ent.bound == bUpper && s <= alpha:
				return s
			}
		}
	}
	moves, limit := e.genMoves(me, ply, depth, ttMove)
	alpha0 := alpha
	best, bestSq := -infinity, -1
	searched := 0
	// Beyond the first limit moves go on only while every move so far
	// loses: a loss must not be claimed from a cut list.
	for k := 0; k < len(moves) && (k < limit || best <= -winMin); k++ {
		pickBest(moves, k)
		sq := int(moves[k].sq)
		if !e.legal(sq, me) {
			continue
		}
		// Threat extensions: the attacker's four (and, optionally, open
		// three) costs no depth while the line is at most twice the
		// iteration's depth, so forced attacks are read further than
		// quiet play.
		ext := 0
		if (e.tune.ext4 || e.tune.ext3) && ply < 2*e.search.iter {
			mi := e.info(sq, me)
			if (e.tune.ext4 && mi.four) || (e.tune.ext3 && mi.three && e.fours(opp) == 0) {
				ext = 1
			}
		}
		reduce := 0
		if e.tune.lmr && searched >= 3 && depth >= 3 && !e.info(sq, me).four && e.info(sq, opp).level < lvF3 {
			reduce = 1
		}
		e.put(sq, me)
		var s int
		nd := depth - 1 + ext
		if searched == 0 {
			s = -e.negamax(opp, nd, -beta, -alpha, ply+1)
		} else {
			s = -e.negamax(opp, nd-reduce, -alpha-1, -alpha, ply+1)
			if reduce > 0 && s > alpha && !e.search.stop {
				s = -e.negamax(opp, nd, -alpha-1, -alpha, ply+1)
			}
			if s > alpha && s < beta && !e.search.stop {
				s = -e.negamax(opp, nd, -beta, -alpha, ply+1)
			}
		}
		e.take(sq)
		if e.search.stop {
			return 0
		}
		searched++
		if s > best {
			best, bestSq = s, sq
			if s > alpha {
				alpha = s
				if alpha >= beta {
					break
				}
			}
		}
	}
	if searched == 0 {
		return e.evaluate(me)
	}
	bound := bExact
	switch {
	case best <= alpha0:
		bound = bUpper
	case best >= beta:
		bound = bLower
	}
	e.store(key, depth, best, ply, bound, bestSq)
	return best
}

// fours counts colour c's empty squares that make a four or better.
func (e *Engine) fours(c uint8) int32 {
	n := &e.cnt[c-1]
	return n[lvB4] + n[lv43] + n[lvFlex4] + n[lvFive]
}

// leaf scores a quiet position at the search horizon.
func (e *Engine) leaf(me uint8, ply int) int {
	opp := 3 - me
	if e.cnt[me-1][lvFlex4] > 0 && e.fours(opp) == 0 && e.hasLegal(me, lvFlex4) {
		// An open four the opponent cannot answer with a four.
		return scoreWin - ply - 3
	}
	if e.tune.leafVCF > 0 && e.fours(me) > 0 {
		if won, length := e.leafAttack(me, false, 8, e.tune.leafVCF); won {
			return scoreWin - ply - length - 1
		}
	}
	if e.tune.leafVCT > 0 && e.leafThreats(me) {
		if won, length := e.leafAttack(me, true, leafDepth, e.tune.leafVCT); won {
			return scoreWin - ply - length - 1
		}
	}
	return e.evaluate(me)
}

// leafDepth is the most attacking moves a threat search at the horizon
// follows.
const leafDepth = 6

// leafThreats is the cheap test of whether a threat search at the horizon
// is worth its nodes: the opponent has no four to interpose, and me can
// make a double threat (a four and an open three, two open threes) or,
// with tuning.vctWide, at least two threats of any kind.
func (e *Engine) leafThreats(me uint8) bool {
	if e.fours(3-me) > 0 {
		return false
	}
	mc := &e.cnt[me-1]
	if mc[lv33]+mc[lv43] > 0 {
		return true
	}
	return e.tune.vctWide && mc[lvF3]+mc[lvB4] >= 2
}

// leafAttack runs a depth-first threat search for me, to move, at the
// horizon (at most depth attacking moves and limit nodes), and returns
// whether it wins and in how many plies.
func (e *Engine) leafAttack(me uint8, threes bool, depth, limit int) (bool, int) {
	st := &e.search
	saved := st.vcfLimit
	st.vcfLimit, st.vcfNodes = int64(limit), 0
	n0 := len(st.vcfLine)
	won := e.attack(me, depth, threes)
	length := len(st.vcfLine) - n0
	st.vcfLine = st.vcfLine[:n0]
	st.vcfLimit = saved
	return won, length
}

// evaluate is the static score for the side to move: its sum less
// tuning.oppPct percent of the opponent's, plus threatBonus.
func (e *Engine) evaluate(me uint8) int {
	opp := 3 - me
	s := int(e.sum[me-1]) - int(e.sum[opp-1]*e.tune.oppPct/100) + e.threatBonus(me)
	return min(max(s, -(winMin-1)), winMin-1)
}

// threatBonus is the part of the evaluation that does not come from the
// weights: a double threat the side to move can make while the opponent
// has no four to interpose.
func (e *Engine) threatBonus(me uint8) int {
	opp := 3 - me
	if e.fours(opp) != 0 {
		return 0
	}
	mc := &e.cnt[me-1]
	switch {
	case mc[lvFlex4] > 0 || mc[lv43] > 0:
		return 3000
	case mc[lv33] > 0 && !e.renjuBlack(me) && e.cnt[opp-1][lvFlex4] == 0:
		return 1500
	}
	return 0
}

// hasLegal reports whether colour c has a legal square at level lv.
func (e *Engine) hasLegal(c uint8, lv uint8) bool {
	if !e.renjuBlack(c) {
		return e.cnt[c-1][lv] > 0
	}
	for _, i := range e.real {
		if e.cells[i] == cEmpty && e.level(int(i), c) == lv && e.legal(int(i), c) {
			return true
		}
	}
	return false
}

// genMoves lists the moves worth trying for me at ply, unsorted, and how
// many of the best of them to try (tuning.frontier where depth is 1, if
// set). When the opponent can make an open four (or two fours) next move,
// only own fours and squares that take part in the opponent's fours are
// listed, and all of them are tried.
func (e *Engine) genMoves(me uint8, ply, depth, ttMove int) ([]move, int) {
	opp := 3 - me
	threat := e.cnt[opp-1][lvFlex4] > 0 && e.hasLegal(opp, lvFlex4)
	buf := e.search.moves[ply][:0]
	// Every square listed is near a stone (a four has three more stones
	// in its five, one of them at most two squares away), so only the
	// stones' rectangle widened by two is read, row by row as e.real
	// lists it.
	r := e.stones.grown(2, e.w, e.h)
	for y := int(r.y0); y <= int(r.y1); y++ {
		row := e.index(0, y)
		for t := row + int(r.x0); t <= row+int(r.x1); t++ {
			if e.cells[t] != cEmpty || !threat && e.near[t] == 0 {
				continue
			}
			mi, oi := e.info(t, me), e.info(t, opp)
			if threat && !mi.four && !oi.four {
				continue
			}
			sc := int32(mi.score) + int32(oi.score)
			if t == ttMove {
				sc = 1 << 30
			}
			buf = append(buf, move{int32(t), sc})
		}
	}
	e.search.moves[ply] = buf
	if !threat && ply > 0 {
		if depth == 1 && e.tune.frontier > 0 {
			return buf, e.tune.frontier
		}
		return buf, e.tune.breadth
	}
	return buf, len(buf)
}

// pickBest moves the best-scored of ms[k:] to ms[k].
func pickBest(ms []move, k int) {
	b := k
	for i := k + 1; i < len(ms); i++ {
		if ms[i].score > ms[b].score {
			b = i
		}
	}
	ms[k], ms[b] = ms[b], ms[k]
}

// sortMoves orders moves by descending score (insertion sort: the lists
// are short).
func sortMoves(ms []move) {
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for j > 0 && ms[j-1].score < m.score {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = m
	}
}

// rootMoves lists the legal root moves, best first.
func (e *Engine) rootMoves(me uint8) []move {
	all, _ := e.genMoves(me, 0, 0, -1)
	sortMoves(all)
	out := make([]move, 0, len(all))
	for _, m := range all {
		if e.legal(int(m.sq), me) {
			out = append(out, m)
		}
	}
	return out
}

// centre returns the legal empty square nearest the centre.
func (e *Engine) centre(me uint8) int {
	cx, cy := (e.w-1)/2, (e.h-1)/2
	best, bestD := -1, 1<<30
	for _, i := range e.real {
		t := int(i)
		if e.cells[t] != cEmpty || !e.legal(t, me) {
			continue
		}
		p := e.point(t)
		d := (p.X-cx)*(p.X-cx) + (p.Y-cy)*(p.Y-cy)
		if d < bestD {
			best, bestD = t, d
		}
	}
	if best < 0 {
		return e.anyMove(me)
	}
	return best
}

// reply answers a lone opponent stone with a diagonal neighbour on the
// side of the centre (or a direct one), or returns -1.
func (e *Engine) reply(me uint8) int {
	stone := -1
	for _, i := range e.real {
		if c := e.cells[i]; c == cBlack || c == cWhite {
			stone = int(i)
		}
	}
	if stone < 0 || e.cells[stone] == me {
		return -1
	}
	p := e.point(stone)
	dx, dy := 1, 1
	if p.X >= e.w/2 {
		dx = -1
	}
	if p.Y >= e.h/2 {
		dy = -1
	}
	for _, d := range [][2]int{{dx, dy}, {0, dy}, {dx, 0}, {-dx, dy}, {dx, -dy}, {-dx, 0}, {0, -dy}, {-dx, -dy}} {
		q := gomoku.Point{X: p.X + d[0], Y: p.Y + d[1]}
		if e.onBoard(q) && e.cells[e.index(q.X, q.Y)] == cEmpty && e.legal(e.index(q.X, q.Y), me) {
			return e.index(q.X, q.Y)
		}
	}
	return -1
}

// anyMove returns the best-scored legal square, or any empty square if
// every one is a foul.
func (e *Engine) anyMove(me uint8) int {
	opp := 3 - me
	best, bestScore, fallback := -1, int32(-1), -1
	for _, i := range e.real {
		t := int(i)
		if e.cells[t] != cEmpty {
			continue
		}
		if fallback < 0 {
			fallback = t
		}
		if !e.legal(t, me) {
			continue
		}
		if sc := int32(e.info(t, me).score) + int32(e.info(t, opp).score); sc > bestScore {
			best, bestScore = t, sc
		}
	}
	if best < 0 {
		return fallback
	}
	return best
}
