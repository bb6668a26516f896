package pointsbot

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"arena/game/points"
)

// Limits of one search: it stops at whichever comes first.
type Limits struct {
	Time time.Duration // 0 = no time limit
	// MaxTime, when above Time, lets a search whose choice is unstable at
	// Time (the move visited most is not the one that scores best) go on
	// until it is stable or MaxTime is up: time a clock can spare.
	MaxTime   time.Duration
	Playouts  int     // 0 = no playout limit
	MaxNodes  int     // tree size cap; 0 = 1<<20
	Radius    int     // candidate points lie this close to a dot; 0 = 2
	Expand    int     // visits before a leaf grows children; 0 = 8
	RaveEquiv float64 // RAVE equivalence; 0 = 1000
	Threads   int     // trees grown side by side; 0 = 1
}

// Engine searches Points positions with Monte Carlo tree search.
type Engine struct {
	rng   *rand.Rand
	nodes []node
	sim   *points.Field
	seq   []int32 // cells played in the current simulation, from the root
	at    []int32 // at[cell] = index in seq + 1, 0 = not played
	cand  []int32
	order []int32
	pos   []int32 // position of each candidate cell in cand (-1: none)
	tune  tuning
	// helpers grow the other trees of a search with Limits.Threads above
	// one, each on its own copy of the field (root).
	helpers []*Engine
	root    *points.Field
	// Stats of the last search.
	Playouts int           // simulations run (all trees)
	Nodes    int           // trees' size at the end (all trees)
	Depth    int           // deepest descent into a tree
	Elapsed  time.Duration // the search's time
	Settled  bool          // the search stopped early: its choice could no longer change
	Extended bool          // a tree went on past Limits.Time, its choice unstable
	Visits   float64       // visits of the move chosen (with the prior's virtual ones)
	WinRate  float64       // that move's mean result for the side to move, 0 to 1
}

// PlayoutRate is the last search's playouts per second (0 without
// playouts).
func (e *Engine) PlayoutRate() float64 {
	if e.Playouts == 0 || e.Elapsed <= 0 {
		return 0
	}
	return float64(e.Playouts) / e.Elapsed.Seconds()
}

type node struct {
	move       int32 // cell played to reach this node
	first, num int32 // children: nodes[first : first+num]
	n, w       float32
	an, aw     float32
}

// tuning holds the search's constants; the SPRT harness
// (TestSPRTVariant) compares versions of them.
type tuning struct {
	explore float64 // UCT exploration constant
	// reply is the chance that a playout's move answers the last dot
	// (replyTo) instead of taking the next point of its random order.
	reply float32
}

// defaultTuning is the search as released. Measured with
// TestSPRTVariant (20x20 field, random openings near the centre, colours
// swapped, 1000 playouts a move, 200 games each unless said):
//   - RAVE's equivalence (Limits.RaveEquiv) 1000 against 300: +47 ± 44
//     Elo; 3000 against 1000: −22 ± 50.
//   - exploration 0.1 against 0.2: +67 ± 48; 0.03 against 0.1: +33 ± 47.
//   - replies in the playouts (reply 0.5) at equal playouts, with the old
//     constants, +151 ± 50 (196 games); they cost a third or more of the
//     playout rate, so they were measured at equal time too (30 ms a
//     move, two games at a time, nothing else running): +18 ± 38 (330
//     games) with the old constants, +94 ± 50 with the new ones.
//   - tried and dropped: seeding every node the tree grows (not only the
//     root) with virtual wins for captures and defences, −23 ± 43 (208
//     games); keeping the tree between moves: the subtree the move
//     chosen and the reply lead to holds 1–8 % of the playouts with the
//     old constants and 1.4–1.7 % with the new ones (a whole 20x20 game
//     at 30 ms a move; the move chosen gets ~18 %), too little to pay.
//   - at equal time (30 ms a move, 200 games each, no gain): growing a
//     node after 3 visits instead of 8, −37 ± 65 (112 games, stopped),
//     after 16, −2 ± 44; last-good-reply with forgetting in the playouts
//     (after the ring replies, before the random order), −28 ± 43; a
//     tenth of the playout's result from its margin (±10 dots), +10 ±
//     49; replies to three moves in four instead of one in two, +14 ± 47.
//   - at the real size (39x32, 30 ms a move) these defaults scored 19/0/1
//     against the release before them (20 games).
func defaultTuning() tuning {
	return tuning{explore: 0.03, reply: 0.5}
}

// New returns an engine whose random choices follow seed.
func New(seed uint64) *Engine {
	return &Engine{rng: rand.New(rand.NewPCG(seed, 0x646f7473)), tune: defaultTuning()}
}

// candidates lists the free points within radius r (Chebyshev) of a dot;
// on an empty field, the centre (or any free point).
func (e *Engine) candidates(f *points.Field, r int) []int32 {
	e.cand = e.cand[:0]
	w, h := f.Width(), f.Height()
	if len(e.pos) != f.Cells() {
		e.pos = make([]int32, f.Cells())
	}
	// pos marks points near a dot (1) before it numbers the candidates.
	for i := range e.pos {
		e.pos[i] = -1
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if d := f.Dot(f.Index(points.Point{X: x, Y: y})); d != points.Red && d != points.Blue {
				continue
			}
			for yy := max(y-r, 0); yy <= min(y+r, h-1); yy++ {
				for xx := max(x-r, 0); xx <= min(x+r, w-1); xx++ {
					e.pos[f.Index(points.Point{X: xx, Y: yy})] = 0
				}
			}
		}
	}
	for i := range e.pos {
		if e.pos[i] == 0 && f.CanPut(i) {
			e.pos[i] = int32(len(e.cand))
			e.cand = append(e.cand, int32(i))
		} else {
			e.pos[i] = -1
		}
	}
	if len(e.cand) == 0 {
		if i := f.Index(points.Point{X: w / 2, Y: h / 2}); f.CanPut(i) {
			e.cand = append(e.cand, int32(i))
		} else {
			for i := 0; i < f.Cells(); i++ {
				if f.CanPut(i) {
					e.cand = append(e.cand, int32(i))
					break
				}
			}
		}
	}
	return e.cand
}

// Best returns the move the search likes most for the side to move, or
// ok false when no point is free.
//
// With lim.Threads above one it grows that many trees side by side (root
// parallelism: each its own playouts and random choices, the root's
// children's visits and wins summed at the end) and picks by the summed
// visits. A fixed lim.Playouts is shared out among the trees, so with a
// playout budget the result depends only on the seed, never on timing.
func (e *Engine) Best(ctx context.Context, f *points.Field, lim Limits) (points.Point, bool) {
	start := time.Now()
	e.Playouts, e.Nodes, e.Depth, e.Visits, e.WinRate, e.Settled, e.Extended = 0, 0, 0, 0, 0, false, false
	defer func() { e.Elapsed = time.Since(start) }()
	if f.Free() == 0 {
		return points.Point{}, false
	}
	set := lim.withDefaults()
	cand := e.candidates(f, set.Radius)
	if len(cand) == 1 {
		return f.PointOf(int(cand[0])), true
	}
	threads := max(lim.Threads, 1)
	if lim.Playouts > 0 {
		threads = min(threads, lim.Playouts)
	}
	trees := []*Engine{e}
	s := newSettle(threads)
	if threads > 1 {
		for len(e.helpers) < threads-1 {
			// Seeded from this engine's generator, so a seed fixes
			// every tree's random choices.
			e.helpers = append(e.helpers, New(e.rng.Uint64()))
		}
		var wg sync.WaitGroup
		for i, h := range e.helpers[:threads-1] {
			h.tune = e.tune
			if h.root == nil {
				h.root = f.Clone()
			} else {
				h.root.CopyFrom(f)
			}
			h.candidates(h.root, set.Radius)
			h.Depth, h.Extended = 0, false
			share := set
			share.Playouts = playoutShare(lim.Playouts, threads, i+1)
			wg.Go(func() { h.grow(ctx, h.root, share, start, s, i+1) })
			trees = append(trees, h)
		}
		set.Playouts = playoutShare(lim.Playouts, threads, 0)
		e.grow(ctx, f, set, start, s, 0)
		wg.Wait()
	} else {
		e.grow(ctx, f, set, start, s, 0)
	}
	// Every tree gave the root the same children in the same order (the
	// candidates and the prior depend on the field alone).
	root := e.nodes[0]
	best, bestN, bestW := root.first, float32(-1), float32(0)
	for c := int32(0); c < root.num; c++ {
		var n, w float32
		for _, t := range trees {
			nd := t.nodes[t.nodes[0].first+c]
			n, w = n+nd.n, w+nd.w
		}
		if n > bestN {
			best, bestN, bestW = root.first+c, n, w
		}
	}
	e.Settled = s.done.Load()
	for _, t := range trees[1:] {
		e.Extended = e.Extended || t.Extended
		e.Playouts += t.Playouts
		e.Nodes += t.Nodes
		e.Depth = max(e.Depth, t.Depth)
	}
	if bestN > 0 {
		e.Visits, e.WinRate = float64(bestN), float64(bestW)/float64(bestN)
	}
	return f.PointOf(int(e.nodes[best].move)), true
}

// playoutShare is tree i's part of a budget of playouts shared by n
// trees (0 stays 0: no budget).
func playoutShare(playouts, n, i int) int {
	if playouts <= 0 {
		return 0
	}
	share := playouts / n
	if i < playouts%n {
		share++
	}
	return share
}

// unstable reports whether the root's most visited child is not the one
// with the best mean result among the children visited at least an
// eighth as often: the search has found a better move but not yet
// confirmed it, and a few more playouts decide which to play.
func (e *Engine) unstable() bool {
	root := e.nodes[0]
	lead := root.first
	for c := root.first; c < root.first+root.num; c++ {
		if e.nodes[c].n > e.nodes[lead].n {
			lead = c
		}
	}
	l := e.nodes[lead]
	if l.n <= 0 {
		return false
	}
	for c := root.first; c < root.first+root.num; c++ {
		if nd := e.nodes[c]; c != lead && nd.n >= l.n/8 && nd.n > 0 && nd.w/nd.n > l.w/l.n {
			return true
		}
	}
	return false
}

// settle lets the trees of a search under a time budget stop as soon as
// the move they choose together can no longer change, so the time left
// is saved for later moves (the clock keeps it) instead of spent on a
// foregone choice. A tree's choice is settled when the root child it has
// visited most leads the next one by more visits than the tree is
// expected to run in the time left (a quarter more, for safety): the
// runner-up cannot catch up even with every remaining playout. When
// every tree has settled on the same child, that child has the most
// visits summed over the trees whatever they would still do, so the move
// is the one the whole budget would have chosen. Searches bounded by
// playouts never stop early: their result depends only on the seed.
type settle struct {
	leader []atomic.Int32 // per tree: the root child it settled on, -1 while unsettled
	done   atomic.Bool
}

func newSettle(trees int) *settle {
	s := &settle{leader: make([]atomic.Int32, trees)}
	for i := range s.leader {
		s.leader[i].Store(-1)
	}
	return s
}

// check records whether tree's choice in e is settled with about
// remaining playouts left to it, and ends the search when every tree
// has settled on the same child.
func (s *settle) check(e *Engine, tree int, remaining float64) {
	root := e.nodes[0]
	first, second, lead := float32(-1), float32(-1), int32(-1)
	for c := int32(0); c < root.num; c++ {
		n := e.nodes[root.first+c].n
		switch {
		case n > first:
			first, second, lead = n, first, c
		case n > second:
			second = n
		}
	}
	if float64(first-second) <= 1.25*remaining+32 {
		lead = -1
	}
	s.leader[tree].Store(lead)
	if lead < 0 {
		return
	}
	for i := range s.leader {
		if s.leader[i].Load() != lead {
			return
		}
	}
	s.done.Store(true)
}

// withDefaults returns lim with every zero setting replaced by its default.
func (lim Limits) withDefaults() Limits {
	if lim.Radius <= 0 {
		lim.Radius = 2
	}
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = 1 << 20
	}
	if lim.Expand <= 0 {
		lim.Expand = 8
	}
	if lim.RaveEquiv <= 0 {
		lim.RaveEquiv = 1000
	}
	return lim
}

// grow runs one tree's search of f from scratch (its candidates already
// listed in e.cand) until lim's playouts are done, its time since start
// is up, the trees' choice is settled (see settle) or ctx ends; it
// leaves Playouts, Nodes and Depth. It is tree number tree of the search.
func (e *Engine) grow(ctx context.Context, f *points.Field, lim Limits, start time.Time, s *settle, tree int) {
	if e.sim == nil {
		e.sim = f.Clone()
	}
	if len(e.at) != f.Cells() {
		e.at = make([]int32, f.Cells())
	}
	e.nodes = append(e.nodes[:0], node{move: -1})
	e.expand(0, f)
	e.prior(f)
	me := f.Next()
	e.Playouts = 0
	for {
		if lim.Playouts > 0 && e.Playouts >= lim.Playouts {
			break
		}
		if e.Playouts&31 == 0 && e.Playouts > 0 {
			if ctx.Err() != nil || s.done.Load() {
				break
			}
			if lim.Time > 0 {
				el := time.Since(start)
				if el >= lim.Time {
					if el >= lim.MaxTime || !e.unstable() {
						break
					}
					e.Extended = true
				} else if lim.Playouts == 0 && e.Playouts >= 64 {
					s.check(e, tree, float64(e.Playouts)/el.Seconds()*(lim.Time-el).Seconds())
				}
			}
		}
		e.simulate(f, me, lim.MaxNodes, lim.Expand, lim.RaveEquiv)
		e.Playouts++
	}
	e.Nodes = len(e.nodes)
}

// expand gives node i one child per candidate point free in f.
func (e *Engine) expand(i int32, f *points.Field) {
	first := int32(len(e.nodes))
	for _, c := range e.cand {
		if f.CanPut(int(c)) {
			e.nodes = append(e.nodes, node{move: c})
		}
	}
	e.nodes[i].first, e.nodes[i].num = first, int32(len(e.nodes))-first
}

// prior seeds the root's children with what one move does: points that
// capture, and points where the opponent would capture (to defend).
func (e *Engine) prior(f *points.Field) {
	me := f.Next()
	root := e.nodes[0]
	g := f.Clone()
	for c := root.first; c < root.first+root.num; c++ {
		m := int(e.nodes[c].move)
		g.CopyFrom(f)
		g.Put(m)
		gain := (g.Score(me) - f.Score(me)) - (g.Score(me.Opp()) - f.Score(me.Opp()))
		// The same point played by the opponent.
		g.CopyFrom(f)
		g.PutColor(m, me.Opp())
		threat := (g.Score(me.Opp()) - f.Score(me.Opp())) - (g.Score(me) - f.Score(me))
		v := float32(gain + threat)
		if v > 0 {
			nd := &e.nodes[c]
			virt := float32(20) * min(v, 5)
			nd.n += virt
			nd.w += virt
		}
	}
}

// replyTo is the playout's answer to the dot just put on last: a free
// candidate next to it where the side to move could close a ring, else
// one where the side that just moved could (to block it), else -1.
func (e *Engine) replyTo(f *points.Field, last int32) int32 {
	toMoveRed := f.Next() == points.Red
	block := int32(-1)
	for _, d := range f.Neighbours() {
		c := int(last) + d
		if e.pos[c] < 0 || !f.CanPut(c) {
			continue
		}
		red, blue := f.MayCloseEither(c)
		if toMoveRed && red || !toMoveRed && blue {
			return int32(c)
		}
		if block < 0 && (red || blue) {
			block = int32(c)
		}
	}
	return block
}

// simulate runs one descent, playout and update.
func (e *Engine) simulate(f *points.Field, me points.Color, maxNodes, expand int, k float64) {
	sim := e.sim
	sim.CopyFrom(f)
	e.seq = e.seq[:0]
	path := [128]int32{}
	depth := 0
	cur := int32(0)
	path[0] = 0
	for {
		nd := &e.nodes[cur]
		if nd.num == 0 {
			if nd.n >= float32(expand) && len(e.nodes)+len(e.cand) <= maxNodes && depth < len(path)-1 {
				e.expand(cur, sim)
				nd = &e.nodes[cur]
			}
			if nd.num == 0 {
				break
			}
		}
		c := e.pick(cur, k)
		m := e.nodes[c].move
		sim.Put(int(m))
		e.seq = append(e.seq, m)
		e.at[m] = int32(len(e.seq))
		cur = c
		depth++
		path[depth] = cur
		if depth == len(path)-1 {
			break
		}
	}
	e.Depth = max(e.Depth, depth)
	// Playout: the free candidates in random order.
	e.order = append(e.order[:0], e.cand...)
	for i := len(e.order) - 1; i > 0; i-- {
		j := e.rng.IntN(i + 1)
		e.order[i], e.order[j] = e.order[j], e.order[i]
	}
	last := int32(-1)
	if len(e.seq) > 0 {
		last = e.seq[len(e.seq)-1]
	}
	next := 0
	for {
		m := int32(-1)
		if e.tune.reply > 0 && last >= 0 && e.rng.Float32() < e.tune.reply {
			m = e.replyTo(sim, last)
		}
		if m < 0 {
			for next < len(e.order) && !sim.CanPut(int(e.order[next])) {
				next++
			}
			if next == len(e.order) {
				break
			}
			m = e.order[next]
			next++
		}
		sim.Put(int(m))
		e.seq = append(e.seq, m)
		e.at[m] = int32(len(e.seq))
		last = m
	}
	d := sim.Score(me) - sim.Score(me.Opp())
	res := float32(0.5) // for me
	if d > 0 {
		res = 1
	} else if d < 0 {
		res = 0
	}
	// Update: node at depth t was reached by the move of the player who
	// moved at ply t-1; from the root (me to move), ply 0 is mine.
	for t := depth; t >= 0; t-- {
		nd := &e.nodes[path[t]]
		nd.n++
		mover := t%2 == 1 // the move into this node was mine
		if mover {
			nd.w += res
		} else {
			nd.w += 1 - res
		}
		// AMAF for the children of this node: moves played later in the
		// simulation by the player to move here.
		for c := nd.first; c < nd.first+nd.num; c++ {
			ch := &e.nodes[c]
			idx := int(e.at[ch.move]) - 1
			if idx < t || (idx-t)%2 != 0 {
				continue
			}
			ch.an++
			if t%2 == 0 {
				ch.aw += res
			} else {
				ch.aw += 1 - res
			}
		}
	}
	for _, m := range e.seq {
		e.at[m] = 0
	}
}

// pick chooses the child of node i with the best RAVE-blended value.
func (e *Engine) pick(i int32, k float64) int32 {
	nd := e.nodes[i]
	best, bestV := nd.first, -1.0
	logN := math.Log(float64(nd.n) + 1)
	for c := nd.first; c < nd.first+nd.num; c++ {
		ch := &e.nodes[c]
		var v float64
		n := float64(ch.n)
		q := 0.5
		if n > 0 {
			q = float64(ch.w) / n
		}
		if ch.an > 0 {
			beta := math.Sqrt(k / (3*n + k))
			q = (1-beta)*q + beta*float64(ch.aw)/float64(ch.an)
		}
		v = q + e.tune.explore*math.Sqrt(logN/(n+1)) + e.rng.Float64()*1e-6
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}
