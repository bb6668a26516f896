package gomokubot

// Proof-number threat-space search (VCT). The tree is the same as the
// depth-first threat search in vcf.go: the attacker plays fours and open
// threes, and blocks the defender's fours; the defender answers a four
// with its block and an open three with every square where the attacker
// would make a four (a superset of the real defences) or with a four of
// its own. Proof-number search expands the most-proving leaf each time,
// so it follows the narrowest lines first instead of a fixed depth: long
// forced wins with few defences are found with few nodes.

// pnInf is an infinite proof or disproof number.
const pnInf = 1 << 30

// pnsMaxDefences is how many defences an AND node may have; a threat that
// leaves more is treated as no threat (the search stays sound).
const pnsMaxDefences = 48

// pnNode is one node of the proof-number tree.
type pnNode struct {
	sq       int32 // the move that led here (-1 at the root)
	first    int32 // index of the first child, -1 until expanded
	n        int32 // number of children
	pn, dn   int32
	expanded bool
}

// pnsResult is what a proof-number VCT search found.
type pnsResult struct {
	won   bool
	line  []int32 // the attacker's moves and the defender's replies along one proof line
	nodes int64   // nodes created
}

// findVCT runs proof-number search for a victory by continuous threats
// (fours and open threes) for attacker, as if attacker were to move,
// creating at most limit nodes and following lines of at most maxPly
// plies. It stops early when the search's clock or context says so.
func (e *Engine) findVCT(attacker uint8, limit int64, maxPly int) pnsResult {
	st := &e.search
	tree := st.pnTree[:0]
	tree = append(tree, pnNode{sq: -1, first: -1, pn: 1, dn: 1})
	var path []int32
	res := pnsResult{}
	for tree[0].pn != 0 && tree[0].dn != 0 && int64(len(tree)) < limit {
		if e.tick() {
			break
		}
		// Descend to the most-proving node, playing the moves.
		cur := int32(0)
		path = path[:0]
		or := true
		for tree[cur].expanded {
			c := e.mostProving(tree, cur, or)
			sq := int(tree[c].sq)
			colour := attacker
			if !or {
				colour = 3 - attacker
			}
			e.put(sq, colour)
			st.nodes++
			path = append(path, c)
			cur, or = c, !or
		}
		tree = e.pnExpand(tree, cur, attacker, or, len(path), maxPly)
		// Back up the numbers and take the moves back.
		for i := len(path) - 1; i >= -1; i-- {
			node := int32(0)
			if i >= 0 {
				node = path[i]
			}
			pnUpdate(tree, node, (i+1)%2 == 0)
			if i >= 0 {
				e.take(int(tree[node].sq))
			}
		}
	}
	st.pnTree = tree
	res.nodes = int64(len(tree))
	if tree[0].pn != 0 {
		return res
	}
	// Follow the proof: a proven child at OR nodes, the first child at
	// AND nodes (all of them are proven).
	res.won = true
	cur, or := int32(0), true
	for tree[cur].expanded && tree[cur].n > 0 {
		next := int32(-1)
		for k := tree[cur].first; k < tree[cur].first+tree[cur].n; k++ {
			if !or || tree[k].pn == 0 {
				next = k
				break
			}
		}
		if next < 0 {
			break
		}
		res.line = append(res.line, tree[next].sq)
		cur, or = next, !or
	}
	return res
}

// mostProving picks the child of an expanded node to follow: the smallest
// proof number at OR nodes, the smallest disproof number at AND nodes.
func (e *Engine) mostProving(tree []pnNode, node int32, or bool) int32 {
	nd := &tree[node]
	best, bestVal := int32(-1), int32(pnInf+1)
	for k := nd.first; k < nd.first+nd.n; k++ {
		v := tree[k].dn
		if or {
			v = tree[k].pn
		}
		if v < bestVal {
			best, bestVal = k, v
		}
	}
	return best
}

// pnUpdate recomputes an expanded node's numbers from its children.
func pnUpdate(tree []pnNode, node int32, or bool) {
	nd := &tree[node]
	if !nd.expanded {
		return
	}
	if nd.n == 0 {
		return // a terminal node keeps its numbers
	}
	var sum int64
	least := int32(pnInf)
	for k := nd.first; k < nd.first+nd.n; k++ {
		ch := &tree[k]
		a, b := ch.pn, ch.dn
		if !or {
			a, b = ch.dn, ch.pn
		}
		least = min(least, a)
		sum = min(sum+int64(b), pnInf)
	}
	if or {
		nd.pn, nd.dn = least, int32(sum)
	} else {
		nd.dn, nd.pn = least, int32(sum)
	}
}

// pnExpand generates the children of leaf node (the board holds its
// position) and returns the grown tree. or says whether the attacker is
// to move; ply is the leaf's distance from the root.
func (e *Engine) pnExpand(tree []pnNode, node int32, attacker uint8, or bool, ply, maxPly int) []pnNode {
	proven := func() []pnNode {
		tree[node].expanded, tree[node].pn, tree[node].dn = true, 0, pnInf
		return tree
	}
	disproven := func() []pnNode {
		tree[node].expanded, tree[node].pn, tree[node].dn = true, pnInf, 0
		return tree
	}
	me, opp := attacker, 3-attacker
	var buf [pnsMaxDefences]int32
	var cost [pnsMaxDefences]int32 // the children's first proof numbers
	moves := buf[:0]
	if or {
		switch {
		case e.cnt[me-1][lvFive] > 0:
			return proven()
		case e.cnt[opp-1][lvFive] > 0:
			// The defender has a four: the attacker must block it.
			sq := e.fiveAfter(opp)
			if e.cnt[opp-1][lvFive] > 1 || !e.legal(sq, me) || ply >= maxPly {
				return disproven()
			}
			moves = append(moves, int32(sq))
		case ply >= maxPly:
			return disproven()
		default:
			// Open threes are too slow while the defender can make an
			// open four.
			threes := !e.hasLegal(opp, lvFlex4)
			cand := e.search.vcfMoves[0][:0]
			for _, i := range e.real {
				t := int(i)
				if e.cells[t] != cEmpty {
					continue
				}
				ci := e.info(t, me)
				if (ci.four || (threes && ci.three)) && e.legal(t, me) {
					cand = append(cand, move{int32(t), int32(ci.level)<<16 + int32(ci.score)})
				}
			}
			sortMoves(cand)
			e.search.vcfMoves[0] = cand
			for _, m := range cand {
				if len(moves) == len(buf) {
					break // the best-ordered threats are enough
				}
				// A four leaves one reply, an open three three or four,
				// a double three fewer that hold.
				c := int32(1)
				switch uint8(m.score >> 16) {
				case lvF3:
					c = 3
				case lv33:
					c = 2
				}
				cost[len(moves)] = c
				moves = append(moves, m.sq)
			}
		}
	} else {
		switch n := e.cnt[me-1][lvFive]; {
		case e.cnt[opp-1][lvFive] > 0:
			return disproven() // the defender completes five
		case n >= 2:
			return proven()
		case n == 1:
			sq := e.fiveAfter(me)
			if !e.legal(sq, opp) {
				return proven() // renju: the only block is a foul for Black
			}
			moves = append(moves, int32(sq))
		case !e.hasLegal(me, lvFlex4):
			return disproven() // the last move threatened nothing
		default:
			for _, i := range e.real {
				t := int(i)
				if e.cells[t] != cEmpty || (!e.info(t, me).four && !e.info(t, opp).four) || !e.legal(t, opp) {
					continue
				}
				if len(moves) == len(buf) {
					return disproven() // too many to check: assume a defence exists
				}
				moves = append(moves, i)
			}
		}
	}
	if len(moves) == 0 {
		return disproven()
	}
	first := int32(len(tree))
	for i, sq := range moves {
		// A new leaf's proof number guesses how many replies its move
		// leaves (1 where unknown); numbers only order the search, so
		// the guess cannot make a proof wrong. Leaves whose outcome is
		// plain at once are settled now.
		ch := pnNode{sq: sq, first: -1, pn: max(cost[i], 1), dn: 1}
		colour := me
		if !or {
			colour = opp
		}
		e.put(int(sq), colour)
		e.search.nodes++
		switch e.settled(me, !or) {
		case 1:
			ch.expanded, ch.pn, ch.dn = true, 0, pnInf
		case -1:
			ch.expanded, ch.pn, ch.dn = true, pnInf, 0
		}
		e.take(int(sq))
		tree = append(tree, ch)
	}
	nd := &tree[node]
	nd.expanded, nd.first, nd.n = true, first, int32(len(moves))
	return tree
}

// settled judges a new leaf at once where that is plain: 1 if the
// attacker me has won, -1 if it has lost the chance, 0 if the leaf must be
// searched. or says whether the attacker is to move.
func (e *Engine) settled(me uint8, or bool) int {
	opp := 3 - me
	if or {
		switch {
		case e.cnt[me-1][lvFive] > 0:
			return 1
		case e.cnt[opp-1][lvFive] > 0:
			return 0 // the block comes first
		case e.fours(opp) == 0 && e.hasLegal(me, lvFlex4):
			return 1 // an open four the defender cannot answer with a four
		}
		return 0
	}
	switch {
	case e.cnt[opp-1][lvFive] > 0:
		return -1 // the defender completes five
	case e.cnt[me-1][lvFive] >= 2:
		return 1
	case e.cnt[me-1][lvFive] == 0 && !e.hasLegal(me, lvFlex4):
		return -1 // the move threatened nothing
	}
	return 0
}
