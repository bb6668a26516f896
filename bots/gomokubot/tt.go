package gomokubot

// defaultTTBits sizes the transposition table: 2^20 entries of 16 bytes.
const defaultTTBits = 20

// Bound kinds stored in the table.
const (
	bNone uint8 = iota
	bExact
	bLower
	bUpper
)

// ttEntry is one transposition-table slot.
type ttEntry struct {
	key   uint64
	move  int16
	score int16
	depth int8
	bound uint8
}

// setTTBits sets the transposition table size to 2^bits slots; the table
// itself is allocated by the first search that needs it.
func (e *Engine) setTTBits(bits int) {
	bits = min(max(bits, 10), 24)
	if e.ttBits != bits {
		e.ttBits = bits
		e.tt = nil
	}
}

// ensureTT allocates the transposition table.
func (e *Engine) ensureTT() {
	if len(e.tt) != 1<<e.ttBits {
		e.tt = make([]ttEntry, 1<<e.ttBits)
	}
}

// SetMemory sizes the transposition table to use at most about a quarter
// of maxBytes (0: the default size of 16 MiB).
func (e *Engine) SetMemory(maxBytes int64) {
	if maxBytes <= 0 {
		e.setTTBits(defaultTTBits)
		return
	}
	bits := defaultTTBits
	for bits > 10 && int64(16)<<bits > maxBytes/4 {
		bits--
	}
	e.setTTBits(bits)
}

// clearTT forgets every stored position (in the transposition table and
// the VCF cache) by changing the salt mixed into every key.
func (e *Engine) clearTT() {
	e.salt = e.salt*6364136223846793005 + 1442695040888963407
}

// ttKey mixes the side to move and the salt into the position hash.
func (e *Engine) ttKey(me uint8) uint64 {
	k := e.hash ^ e.salt
	if me == cWhite {
		k ^= 0x5bd1e9955bd1e995
	}
	return k
}

// probe returns the slot for key if it holds that position.
func (e *Engine) probe(key uint64) (*ttEntry, bool) {
	ent := &e.tt[key&uint64(len(e.tt)-1)]
	return ent, ent.key == key && ent.bound != bNone
}

// store records a search result, converting mate scores to be relative to
// this node.
func (e *Engine) store(key uint64, depth, score, ply int, bound uint8, move int) {
	ent := &e.tt[key&uint64(len(e.tt)-1)]
	if ent.key == key && int(ent.depth) > depth && bound != bExact {
		return
	}
	if score >= winMin {
		score += ply
	} else if score <= -winMin {
		score -= ply
	}
	*ent = ttEntry{key: key, move: int16(move), score: int16(score), depth: int8(min(depth, 127)), bound: bound}
}

// ttScore converts a stored score back to this ply.
func ttScore(score, ply int) int {
	if score >= winMin {
		return score - ply
	}
	if score <= -winMin {
		return score + ply
	}
	return score
}
