package khetbot

import (
	"slices"
	"time"

	"arena/game/khet"
)

// Scores are centipawn-like integers from the side to move's view.
const (
	mate     = 30000
	mateSoon = mate - 1000 // scores beyond this are wins or losses found by search
	inf      = mate + 1
	maxPly   = 64
)

// Limits bound one search. Zero fields are unlimited.
type Limits struct {
	Soft  time.Duration // after this, start only an iteration that is predicted to end before Hard
	Hard  time.Duration // abort the search at this
	Depth int
	Nodes int64
}

// Result is what a search found.
type Result struct {
	Move  khet.Move
	Score int
	Depth int // last completed iteration
	Nodes int64
	Time  time.Duration
	PV    []khet.Move
}

// NPS is the search speed in nodes per second.
func (r Result) NPS() float64 {
	if r.Time <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Time.Seconds()
}

// Engine searches Khet positions: alpha-beta (principal variation search)
// with iterative deepening, a transposition table, and move ordering by
// the table's move, laser captures, killer moves and history. It keeps its
// table between moves of one game.
type Engine struct {
	tt      []ttEntry
	ttMask  uint64
	killers [maxPly][2]khet.Move
	history [2][khet.Width * khet.Height * 11]int32

	// seen counts the game's positions by hash: reaching one again is
	// scored as a draw (threefold repetition is near, and a winning side
	// should make progress instead).
	seen map[uint64]int
	// maxPlies is the game's ply limit and plies the plies played before
	// the root; the search scores the limit as a draw.
	maxPlies, plies int

	path     [maxPly + 1]uint64
	nodes    int64
	start    time.Time
	lim      Limits
	stopped  bool
	moveBufs [maxPly + 1][]khet.Move
	// sortBufs are the pickers' room to sort a node's remaining moves.
	sortBufs [maxPly + 1]sortBuf
	scores   [maxPly + 1][]int32
	beamBuf  []khet.Square
	// kept is each side's material and Scarabs in the position searched,
	// kept as the search plays and takes back moves (see play).
	kept kept
	// rootDepth is the depth of the iteration under way.
	rootDepth int
	// verify makes every leaf check material against a count of the
	// board (tests).
	verify bool

	tune tuning
	// passed[ply] is set when the move into ply was a pass: two passes
	// in a row would search nothing.
	passed [maxPly + 1]bool
}

// tuning holds the search's switches, which the in-process SPRT
// (sprt_test.go) compares one against another.
type tuning struct {
	// lmr reduces by one ply the late quiet moves of a node (neither the
	// table's move, nor a killer, nor one whose laser took a piece),
	// searching them again at full depth when they beat alpha. Off: at
	// 20k nodes a move it lost (W/D/L 62/97/89 in 248 games, -38 ± 33
	// Elo): a quiet move that blocks or opens a beam is often the point.
	lmr bool
	// calmLMR reduces by a ply, from the calmFrom-th move of a node on
	// (counted from 0, the table's move first), the moves that touch
	// neither side's beam as it stands and take nothing: they change what
	// no laser hits, and they are most of a node's hundred moves. A
	// reduced move that beats alpha is searched again at full depth;
	// killers are not reduced. calmDeep > 0 reduces by two from the
	// calmDeep-th move on where 5 plies or more are left. Off: from the
	// third move it halves the nodes to depth 6 (8 balanced openings:
	// 7.29M -> 3.58M) and won at equal nodes, 200,000 a move against
	// 200,000, 612 games 347/25/240, +61.4 ± 27.3 Elo; but its nodes cost
	// more (more of them generate and order moves: 5.5 % instead of 3.4 %
	// to depth 6), 27 % fewer a second at a fixed 140 ms, so at equal
	// time it gains 0.4 to 0.7 ply and no clear strength: 150,000 nodes
	// against 205,000, -48 ± 51 over 160 games (64/10/86); as real
	// processes at 200 ms a move on testdata/khet/openings.txt against
	// the release, +29.8 ± 44.3 over 222 games (112/17/93).
	calmLMR            bool
	calmFrom, calmDeep int
	// calmDepth is the least depth left at which calm moves are reduced.
	// 4 instead of 3 (so that no reduced move lands one ply above the
	// horizon, where the extra interior nodes were), real processes at
	// 200 ms a move against the release with the calm reduction off:
	// +1.6 ± 45.6 over 216 games (104/9/103); left off too.
	calmDepth int
	// dangerExt searches one ply deeper below a node whose side to move
	// has its Pharaoh in the opponent's beam: it must block, dodge or
	// win at once, and the answer is easily misjudged at the horizon.
	// Off: even at 20k nodes a move (41/133/40 in 214 games, +1.6 ± 30
	// Elo), for the extra beam traced at every node.
	dangerExt bool
	// nullMove lets a node whose static score already beats beta pass
	// (khet.Board.Pass) and search the opponent's reply reduced by
	// nullR plies: if the side to move still beats beta with a free move
	// given away, the node is cut off without searching its moves. On,
	// R=2: at 20k nodes a move, without the quiescence search it stood
	// at W/D/L 48/109/57 after 214 games (-14.6 ± 32 Elo); with it and
	// the Scarabs' advance, 3000 games 1417/238/1345, +8.3 ± 8.5, LLR
	// 1.54 (undecided); together with the Pharaoh's exposure
	// (weights.exposed) against neither, H1 accepted after 3968 games,
	// 2009/167/1792, +19.0 ± 10.4 Elo. R=3 against 2: +0.9 ± 4.5 over
	// 1600 games (nearly every game the same at 20k nodes). Passing also
	// gives away the mover's shot, so it says less than in chess.
	nullMove bool
	nullR    int
	// quiesce searches, below the horizon, the moves whose laser takes
	// an enemy piece (up to quiesceDepth plies; see quiescence) instead
	// of scoring the leaf as it stands. On, at 3 plies: at 20k nodes a
	// move, 2 plies against none won an SPRT, H1 accepted after 438
	// games (W/D/L 229/143/66, +135.8 ± 25.7 Elo); 3 plies against 2,
	// 600 games 250/139/211, +22.6 ± 23.4; 4 against 2, +5.2 ± 21.9.
	quiesce      bool
	quiesceDepth int
	// quiesceEvade: a side whose Pharaoh stands in the enemy's beam may
	// not stand on the position's score in the quiescence search: all its
	// moves are searched. Off: against the 2-ply quiescence search
	// without it, 600 games 231/126/243, -6.9 ± 19.6 Elo (the evaluation
	// already charges a Pharaoh in the beam).
	quiesceEvade bool
	// plainMaterial scores leaves by material alone (an Anubis half a
	// Pyramid) and a little noise from the position's key: the
	// evaluation of the simplest alpha-beta players, such as khetai,
	// which the strength tests use as a stand-in opponent.
	plainMaterial bool
	// w weighs the evaluation's terms.
	w weights
}

// defaultTuning is the search as the bot plays.
func defaultTuning() tuning {
	return tuning{quiesce: true, quiesceDepth: 3, nullMove: true, nullR: 2, calmFrom: 3, calmDepth: 3, w: defaultWeights()}
}

// NewEngine makes an engine with a transposition table of about ttMB
// megabytes.
func NewEngine(ttMB int) *Engine {
	n := uint64(1)
	for n*2*ttEntrySize <= uint64(max(ttMB, 1))<<20 {
		n *= 2
	}
	e := &Engine{tt: make([]ttEntry, n), ttMask: n - 1, seen: map[uint64]int{}, maxPlies: khet.DefaultMaxPlies, tune: defaultTuning()}
	for i := range e.moveBufs {
		e.moveBufs[i] = make([]khet.Move, 0, 128)
		e.scores[i] = make([]int32, 0, 128)
		e.sortBufs[i] = sortBuf{keys: make([]uint64, 0, 128), moves: make([]khet.Move, 0, 128)}
	}
	return e
}

// Seen records a position of the game (for repetitions).
func (e *Engine) Seen(hash uint64) { e.seen[hash]++ }

// SetGame tells the engine the ply limit and how many plies were played.
func (e *Engine) SetGame(plies, maxPlies int) { e.plies, e.maxPlies = plies, maxPlies }

// Search finds a move for the side to move on b (which it leaves as it
// found it). It returns a legal move whenever one exists.
func (e *Engine) Search(b *khet.Board, lim Limits) Result {
	e.start, e.lim, e.nodes, e.stopped = time.Now(), lim, 0, false
	e.killers = [maxPly][2]khet.Move{}
	for c := range e.history {
		for i := range e.history[c] {
			e.history[c][i] /= 8
		}
	}
	root := b.Moves(nil)
	var res Result
	if len(root) == 0 {
		return res
	}
	res.Move = root[0]
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > maxPly-1 {
		maxDepth = maxPly - 1
	}
	e.path[0] = b.Hash()
	e.kept = keptOf(b)
	var last, prev time.Duration // how long the last two iterations took
	for depth := 1; depth <= maxDepth; depth++ {
		began := time.Since(e.start)
		e.rootDepth = depth
		score := e.rootSearch(b, depth, &res)
		if e.stopped {
			break
		}
		prev, last = last, time.Since(e.start)-began
		res.Score, res.Depth = score, depth
		if score > mateSoon || score < -mateSoon {
			break // a forced result: deeper search cannot change the move
		}
		if !lim.deeper(time.Since(e.start), last, prev) {
			break
		}
	}
	res.Nodes, res.Time = e.nodes, time.Since(e.start)
	res.PV = e.pv(b, res.Move)
	return res
}

// deeper reports whether to start the next iteration after elapsed, the
// last two taking last and prev: while it is expected to finish before
// Hard, or while it is early (before Soft): then the deeper search of the
// best move, searched first, and of any move that beats it is worth the
// rest of the time even if the depth is cut off at Hard.
func (lim Limits) deeper(elapsed, last, prev time.Duration) bool {
	finishes := lim.Hard <= 0 || elapsed+nextIteration(last, prev) <= lim.Hard
	early := lim.Soft <= 0 || elapsed <= lim.Soft
	return finishes || early
}

// nextIteration predicts how long the next iteration takes from the last
// two: the last one times their growth factor, which is held between 2
// and 8 (tiny early iterations say little about it).
func nextIteration(last, prev time.Duration) time.Duration {
	growth := 4.0
	if prev > time.Millisecond {
		growth = min(max(float64(last)/float64(prev), 2), 8)
	}
	return time.Duration(float64(last) * growth)
}

// rootSearch searches every root move to depth and keeps the best in res
// (only when the iteration completes or the best move improved).
func (e *Engine) rootSearch(b *khet.Board, depth int, res *Result) int {
	moves := e.ordered(b, 0, res.Move)
	alpha, beta := -inf, inf
	best := khet.Move{}
	for i, m := range moves {
		u := e.play(b, m)
		e.path[1] = b.Hash()
		var score int
		if i == 0 {
			score = -e.search(b, depth-1, 1, -beta, -alpha)
		} else {
			score = -e.search(b, depth-1, 1, -alpha-1, -alpha)
			if score > alpha && !e.stopped {
				score = -e.search(b, depth-1, 1, -beta, -alpha)
			}
		}
		e.takeBack(b, m, u)
		if e.stopped {
			if best != (khet.Move{}) {
				// The iteration found a better move than the last one
				// before it ran out of time: keep it.
				res.Move = best
			}
			return alpha
		}
		if score > alpha {
			alpha, best = score, m
		}
	}
	res.Move = best
	e.store(b.Hash(), depth, alpha, boundExact, best, 0)
	return alpha
}

// enter counts a node at ply and reports whether it ends there: the
// clock ran out (stopped, score 0) or a Pharaoh is gone (a mate score).
func (e *Engine) enter(b *khet.Board, ply int) (score int, over bool) {
	e.nodes++
	if e.nodes&1023 == 0 && e.outOfTime() {
		e.stopped = true
		return 0, true
	}
	me := b.ToMove()
	switch {
	case !b.PharaohAlive(me):
		return -mate + ply, true
	case !b.PharaohAlive(me.Other()):
		return mate - ply, true
	}
	return 0, false
}

// search is the negamax alpha-beta search below the root.
func (e *Engine) search(b *khet.Board, depth, ply, alpha, beta int) int {
	if score, over := e.enter(b, ply); over {
		return score
	}
	me := b.ToMove()
	h := b.Hash()
	if e.repeated(h, ply) || (e.maxPlies > 0 && e.plies+ply >= e.maxPlies) {
		return 0
	}
	if depth <= 0 || ply >= maxPly-1 {
		if e.tune.quiesce && ply < maxPly-1 {
			return e.quiescence(b, ply, alpha, beta, e.tune.quiesceDepth)
		}
		return e.leaf(b)
	}
	var ttMove khet.Move
	if ent, ok := e.probe(h); ok {
		ttMove = ent.move
		if int(ent.depth) >= depth {
			s := fromTT(int(ent.score), ply)
			switch {
			case ent.flag == boundExact:
				return s
			case ent.flag == boundLower && s >= beta:
				return s
			case ent.flag == boundUpper && s <= alpha:
				return s
			}
		}
	}
	if e.tune.dangerExt && ply < 2*e.rootDepth && e.inDanger(b, me) {
		depth++
	}
	if e.tune.nullMove && depth >= 3 && !e.passed[ply] && beta > -mateSoon && beta < mateSoon &&
		e.leaf(b) >= beta && !e.inDanger(b, me) {
		b.Pass()
		e.path[ply+1] = b.Hash()
		e.passed[ply+1] = true
		score := -e.search(b, depth-1-e.tune.nullR, ply+1, -beta, -beta+1)
		e.passed[ply+1] = false
		b.Pass()
		if e.stopped {
			return 0
		}
		if score >= beta {
			return beta
		}
	}
	// The table's move is searched before the others are generated: it
	// often refutes the node alone.
	first := ttMove != (khet.Move{}) && e.usable(b, ttMove)
	var moves picker
	origAlpha := alpha
	best, bestMove := -inf, khet.Move{}
	var calm struct {
		traced   bool
		own, opp beamSquares
	}
	for i := 0; ; i++ {
		var m khet.Move
		if i == 0 && first {
			m = ttMove
		} else {
			if i == 0 || i == 1 && first {
				moves = e.scored(b, ply, ttMove)
				if first {
					moves.drop(ttMove)
				}
			}
			var ok bool
			if m, ok = moves.pick(); !ok {
				break
			}
		}
		reduce := 0
		if e.tune.calmLMR && depth >= e.tune.calmDepth && i >= e.tune.calmFrom && m != e.killers[ply][0] && m != e.killers[ply][1] {
			if !calm.traced {
				calm.own, _ = e.beamOf(b, me)
				calm.opp, _ = e.beamOf(b, me.Other())
				calm.traced = true
			}
			if !calm.own.touches(b, m) && !calm.opp.touches(b, m) {
				reduce = 1
				if e.tune.calmDeep > 0 && i >= e.tune.calmDeep && depth >= 5 {
					reduce = 2
				}
			}
		}
		u := e.play(b, m)
		e.path[ply+1] = b.Hash()
		quiet := !u.Removed().IsPiece()
		if !quiet {
			reduce = 0
		}
		var score int
		if i == 0 {
			score = -e.search(b, depth-1, ply+1, -beta, -alpha)
		} else {
			if e.tune.lmr && depth >= 3 && i >= 3 && quiet && m != e.killers[ply][0] && m != e.killers[ply][1] {
				reduce = 1
			}
			score = -e.search(b, depth-1-reduce, ply+1, -alpha-1, -alpha)
			if reduce > 0 && score > alpha && !e.stopped {
				score = -e.search(b, depth-1, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta && !e.stopped {
				score = -e.search(b, depth-1, ply+1, -beta, -alpha)
			}
		}
		e.takeBack(b, m, u)
		if e.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			if quiet {
				e.killers[ply][1] = e.killers[ply][0]
				e.killers[ply][0] = m
				e.history[me][historyIndex(m)] += int32(depth * depth)
			}
			break
		}
	}
	flag := boundExact
	switch {
	case best <= origAlpha:
		flag = boundUpper
	case best >= beta:
		flag = boundLower
	}
	e.store(h, depth, best, flag, bestMove, ply)
	return best
}

// leaf scores the position at the search's horizon as it stands.
func (e *Engine) leaf(b *khet.Board) int {
	if e.verify && !e.kept.same(b) {
		panic("khetbot: material or Scarabs kept by the search differ from the board's")
	}
	if e.tune.plainMaterial {
		return plainMaterialScore(b)
	}
	return evaluateWith(b, &e.kept, e.tune.w)
}

// plainMaterialScore is the leaf score of tuning.plainMaterial.
func plainMaterialScore(b *khet.Board) int {
	var side [2]int
	for y := range khet.Height {
		for x := range khet.Width {
			if p := b.At(x, y); p.IsPiece() {
				switch p.Kind() {
				case khet.Pyramid:
					side[p.Color()] += 100
				case khet.Anubis:
					side[p.Color()] += 50
				}
			}
		}
	}
	me := b.ToMove()
	return side[me] - side[me.Other()] + int(b.Hash()>>59)
}

// quiescence searches the captures below the horizon: the side to move
// may stand on the position's score or play a move whose laser takes an
// enemy piece, for up to left more plies. Of the moves that leave the
// beam alone (which all take the piece the beam hits now, if any), only
// the best ordered one is searched: they differ only in what else they
// do, which this search does not look at.
func (e *Engine) quiescence(b *khet.Board, ply, alpha, beta, left int) int {
	if score, over := e.enter(b, ply); over {
		return score
	}
	me := b.ToMove()
	stand := e.leaf(b)
	if left <= 0 || ply >= maxPly-1 {
		return stand
	}
	var moves []khet.Move
	best := stand
	if e.tune.quiesceEvade && e.inDanger(b, me) {
		moves, best = e.ordered(b, ply, khet.Move{}), -inf
	} else {
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		moves = e.captures(b, ply)
	}
	for _, m := range moves {
		u := e.play(b, m)
		score := -e.quiescence(b, ply+1, -beta, -alpha, left-1)
		e.takeBack(b, m, u)
		if e.stopped {
			return 0
		}
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// captures returns the moves at ply whose laser takes an enemy piece,
// best first, with one move only of those that leave the beam alone.
func (e *Engine) captures(b *khet.Board, ply int) []khet.Move {
	moves := b.Moves(e.moveBufs[ply][:0])
	scores := e.scores[ply][:0]
	me := b.ToMove()
	beam, hit := e.beamOf(b, me)
	standing := hit.IsPiece() && hit.Color() != me
	var still khet.Move // the best-ordered move that leaves the beam alone
	stillScore := int32(-1 << 31)
	n := 0
	for _, m := range moves {
		if sameTurn(b, m) {
			continue
		}
		if !beam.touches(b, m) {
			if !standing {
				continue
			}
			if s := e.history[me][historyIndex(m)]; s > stillScore {
				still, stillScore = m, s
			}
			continue
		}
		u := b.Make(m)
		r := u.Removed()
		b.Unmake(u)
		if r.IsPiece() && r.Color() != me {
			moves[n] = m
			n++
			scores = append(scores, captureOrder(r, me, 0))
		}
	}
	moves = moves[:n]
	if standing && still != (khet.Move{}) {
		moves = append(moves, still)
		scores = append(scores, captureOrder(hit, me, 0))
	}
	e.moveBufs[ply], e.scores[ply] = moves, scores
	p := picker{moves: moves, scores: scores}
	for _, ok := p.pick(); ok; _, ok = p.pick() {
	}
	return p.moves
}

// inDanger reports whether c's Pharaoh stands in the other side's beam.
func (e *Engine) inDanger(b *khet.Board, c khet.Color) bool {
	path, r := b.Beam(c.Other(), e.beamBuf[:0])
	e.beamBuf = path
	return r.IsPiece() && r.Kind() == khet.Pharaoh && r.Color() == c
}

// play makes move m on b, takes what its laser removes off the material
// count and follows a Scarab that steps.
func (e *Engine) play(b *khet.Board, m khet.Move) khet.Undo {
	if from, to, ok := scarabStep(b, m); ok {
		e.kept.moveScarab(b.ToMove(), from, to)
	}
	u := b.Make(m)
	if r := u.Removed(); r.IsPiece() {
		e.kept.material[r.Color()] -= pieceValue[r.Kind()]
	}
	return u
}

// takeBack undoes what play did for move m.
func (e *Engine) takeBack(b *khet.Board, m khet.Move, u khet.Undo) {
	if r := u.Removed(); r.IsPiece() {
		e.kept.material[r.Color()] += pieceValue[r.Kind()]
	}
	b.Unmake(u)
	if from, to, ok := scarabStep(b, m); ok {
		e.kept.moveScarab(b.ToMove(), to, from)
	}
}

// scarabStep reports whether m steps a Scarab (rather than turning one,
// or moving another piece), and from and to which square.
func scarabStep(b *khet.Board, m khet.Move) (from, to khet.Square, ok bool) {
	x, y := int(m.X), int(m.Y)
	dx, dy, step := m.Act.Step()
	if !step || b.At(x, y).Kind() != khet.Scarab {
		return 0, 0, false
	}
	return khet.SquareAt(x, y), khet.SquareAt(x+dx, y+dy), true
}

// repeated reports whether the position at ply was seen before in the game
// or earlier on the search path with the same side to move.
func (e *Engine) repeated(h uint64, ply int) bool {
	if e.seen[h] > 0 {
		return true
	}
	for p := ply - 2; p >= 0; p -= 2 {
		if e.path[p] == h {
			return true
		}
	}
	return false
}

func (e *Engine) outOfTime() bool {
	if e.lim.Nodes > 0 && e.nodes >= e.lim.Nodes {
		return true
	}
	return e.lim.Hard > 0 && time.Since(e.start) >= e.lim.Hard
}

func historyIndex(m khet.Move) int {
	return (int(m.Y)*khet.Width+int(m.X))*11 + int(m.Act)
}

// Move ordering scores.
const (
	orderTT      = 1 << 30
	orderWin     = 1 << 29
	orderCapture = 1 << 24
	orderKiller  = 1 << 22
	orderLoss    = -(1 << 29)
)

// ordered returns the legal moves at ply, best first: the table's move,
// moves whose laser hits the enemy Pharaoh, captures by value, killers,
// then by history; moves that destroy the mover's own pieces go last. A
// Scarab turned either way is the same mirror, so only the clockwise turn
// is searched.
//
// What a move's laser removes is found without playing the move when the
// move changes no square of the mover's beam as it stands: the beam then
// runs as before and hits what it hits now. Only the few moves that touch
// the beam (and the Sphinx's turns) are played, which is most of the
// ordering's cost otherwise.
func (e *Engine) ordered(b *khet.Board, ply int, ttMove khet.Move) []khet.Move {
	p := e.scored(b, ply, ttMove)
	for _, ok := p.pick(); ok; _, ok = p.pick() {
	}
	return p.moves
}

// scored generates the legal moves at ply with their ordering scores (see
// ordered), for a picker to hand out best first.
func (e *Engine) scored(b *khet.Board, ply int, ttMove khet.Move) picker {
	moves := b.Moves(e.moveBufs[ply][:0])
	n := 0
	for _, m := range moves {
		if sameTurn(b, m) {
			continue
		}
		moves[n] = m
		n++
	}
	moves = moves[:n]
	scores := e.scores[ply][:0]
	me := b.ToMove()
	beam, hit := e.beamOf(b, me)
	for _, m := range moves {
		var s int32
		switch {
		case m == ttMove:
			s = orderTT
		case m == e.killers[ply][0]:
			s = orderKiller + 1
		case m == e.killers[ply][1]:
			s = orderKiller
		default:
			s = min(e.history[me][historyIndex(m)], orderKiller-1)
		}
		r := hit
		if beam.touches(b, m) {
			u := b.Make(m)
			r = u.Removed()
			b.Unmake(u)
		}
		if r.IsPiece() && m != ttMove {
			s = captureOrder(r, me, s)
		}
		scores = append(scores, s)
	}
	e.moveBufs[ply], e.scores[ply] = moves, scores
	return picker{moves: moves, scores: scores, buf: &e.sortBufs[ply]}
}

// captureOrder is the ordering score of a move of side me whose laser
// removes piece r, given its quiet score s: a win, a capture by value,
// or, for the mover's own piece, a loss ranked last.
func captureOrder(r khet.Piece, me khet.Color, s int32) int32 {
	v := int32(pieceValue[r.Kind()])
	switch {
	case r.Color() != me && r.Kind() == khet.Pharaoh:
		return orderWin
	case r.Color() != me:
		return orderCapture + v
	case r.Kind() == khet.Pharaoh:
		return orderLoss - 1
	}
	return orderLoss + s/2 - v
}

// sameTurn reports whether m turns a Scarab anticlockwise: the same
// mirror as the clockwise turn, which alone is searched.
func sameTurn(b *khet.Board, m khet.Move) bool {
	return m.Act == khet.RotateCCW && b.At(int(m.X), int(m.Y)).Kind() == khet.Scarab
}

// picker hands out a node's moves best first, in the order a stable sort
// by score would give, choosing each only when the search asks for it:
// most nodes are cut off after a move or two, and sorting all of them
// cost more than the rest of the ordering. A node that goes on past
// pickSelect moves (one that fails low searches them all, and choosing
// each of a hundred moves by a scan of the rest is quadratic) has the
// rest sorted at once, when buf gives room for it.
type picker struct {
	moves  []khet.Move
	scores []int32
	next   int
	buf    *sortBuf
	sorted bool
}

// pickSelect is how many moves a picker chooses one by one before it
// sorts the rest. Sorting after 4 (instead of never) is the same tree at
// 0.91x the time (BenchmarkSearchOpenings, median of 8: 987 -> 902 ms for
// 2,849,399 nodes).
const pickSelect = 4

// sortBuf is the room a picker sorts in: keys packing each move's score
// and place, and a copy of the moves.
type sortBuf struct {
	keys  []uint64
	moves []khet.Move
}

// drop removes move m from the moves to hand out.
func (p *picker) drop(m khet.Move) {
	for i := p.next; i < len(p.moves); i++ {
		if p.moves[i] == m {
			p.moves = append(p.moves[:i], p.moves[i+1:]...)
			p.scores = append(p.scores[:i], p.scores[i+1:]...)
			return
		}
	}
}

// usable reports whether a move from the table is legal here and one the
// generator would give (a Scarab is only turned clockwise): a table entry
// may belong to another position with the same key.
func (e *Engine) usable(b *khet.Board, m khet.Move) bool {
	return !sameTurn(b, m) && b.Check(m) == nil
}

// pick returns the best move not handed out yet (the first of equals),
// false when none is left.
func (p *picker) pick() (khet.Move, bool) {
	k := p.next
	if k >= len(p.moves) {
		return khet.Move{}, false
	}
	if !p.sorted && k >= pickSelect && p.buf != nil {
		p.sortRest()
	}
	if p.sorted {
		p.next++
		return p.moves[k], true
	}
	best := k
	for i := k + 1; i < len(p.scores); i++ {
		if p.scores[i] > p.scores[best] {
			best = i
		}
	}
	m, s := p.moves[best], p.scores[best]
	// Shift rather than swap, so that equal scores keep their order.
	copy(p.moves[k+1:best+1], p.moves[k:best])
	copy(p.scores[k+1:best+1], p.scores[k:best])
	p.moves[k], p.scores[k] = m, s
	p.next++
	return m, true
}

// sortRest sorts the moves not handed out yet by score, best first,
// equal scores in their order (what choosing them one by one gives): each
// key is the score, flipped to sort descending, above the move's place.
func (p *picker) sortRest() {
	k := p.next
	keys := p.buf.keys[:0]
	for i := k; i < len(p.scores); i++ {
		desc := ^(uint32(p.scores[i]) ^ 1<<31)
		keys = append(keys, uint64(desc)<<32|uint64(i))
	}
	slices.Sort(keys)
	moves := append(p.buf.moves[:0], p.moves[k:]...)
	for j, key := range keys {
		p.moves[k+j] = moves[int(uint32(key))-k]
		p.scores[k+j] = int32(^uint32(key>>32) ^ 1<<31)
	}
	p.buf.keys, p.buf.moves = keys, moves
	p.sorted = true
}

// beamSquares is a set of squares (by their khet.Square number).
type beamSquares [2]uint64

func (s *beamSquares) add(sq khet.Square) { s[sq>>6&1] |= 1 << (sq & 63) }

func (s beamSquares) has(sq khet.Square) bool { return s[sq>>6&1]&(1<<(sq&63)) != 0 }

// beamOf returns the squares c's beam crosses (up to and with the piece
// it ends at) and the piece it would destroy if fired now (0 if none).
func (e *Engine) beamOf(b *khet.Board, c khet.Color) (beamSquares, khet.Piece) {
	path, hit := b.Beam(c, e.beamBuf[:0])
	e.beamBuf = path
	var set beamSquares
	for _, sq := range path {
		set.add(sq)
	}
	return set, hit
}

// touches reports whether move m may change the mover's beam: it turns
// the Sphinx, or moves a piece from or to a square of the beam.
func (s beamSquares) touches(b *khet.Board, m khet.Move) bool {
	x, y := int(m.X), int(m.Y)
	if s.has(khet.SquareAt(x, y)) || b.At(x, y).Kind() == khet.Sphinx {
		return true
	}
	dx, dy, step := m.Act.Step()
	return step && s.has(khet.SquareAt(x+dx, y+dy))
}

// pv follows the table from the root to list the expected line.
func (e *Engine) pv(b *khet.Board, first khet.Move) []khet.Move {
	c := b.Clone()
	line := []khet.Move{first}
	u := c.Make(first)
	_ = u
	for len(line) < 12 && c.PharaohAlive(khet.Silver) && c.PharaohAlive(khet.Red) {
		ent, ok := e.probe(c.Hash())
		if !ok || c.Check(ent.move) != nil {
			break
		}
		line = append(line, ent.move)
		c.Make(ent.move)
	}
	return line
}
