package gomokubot

// defaultTTBits sizes the transposition table: 2^20 entries of 16 bytes,
// in buckets of two.
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
	age   uint8 // the search that stored it (Engine.ttAge)
}

// ttBucket is where a key may be stored: slot 0 keeps the deepest result
// of the current search, slot 1 the latest of the others. With one slot,
// the many shallow results near the horizon overwrite the few deep ones
// above them: a depth-8 search of the benchmark position took 1.40
// times the nodes in a table of half the size. A bucket is 32 bytes, so
// it never straddles a cache line.
type ttBucket [2]ttEntry

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
	if len(e.tt) != 1<<(e.ttBits-1) {
		e.tt = make([]ttBucket, 1<<(e.ttBits-1))
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

// probe returns the slot holding key's position, if one does.
func (e *Engine) probe(key uint64) (*ttEntry, bool) {
	if e.tune.ttOneSlot {
		ent := e.oneSlot(key)
		return ent, ent.key == key && ent.bound != bNone
	}
	b := &e.tt[key&uint64(len(e.tt)-1)]
	for i := range b {
		if ent := &b[i]; ent.key == key && ent.bound != bNone {
			return ent, true
		}
	}
	return nil, false
}

// store records a search result, converting mate scores to be relative to
// this node. A result for a position already in the bucket replaces it
// unless it is shallower and not exact; otherwise it goes to slot 0 when
// it is at least as deep as what is there or that is from an earlier
// search (which then moves to slot 1), else to slot 1.
func (e *Engine) store(key uint64, depth, score, ply int, bound uint8, move int) {
	var ent *ttEntry
	if e.tune.ttOneSlot {
		ent = e.oneSlot(key)
	} else {
		b := &e.tt[key&uint64(len(e.tt)-1)]
		switch {
		case b[0].key == key:
			ent = &b[0]
		case b[1].key == key:
			ent = &b[1]
		case depth >= int(b[0].depth) || b[0].age != e.ttAge:
			b[1] = b[0]
			ent = &b[0]
		default:
			ent = &b[1]
		}
	}
	if ent.key == key && int(ent.depth) > depth && bound != bExact {
		return
	}
	if score >= winMin {
		score += ply
	} else if score <= -winMin {
		score -= ply
	}
	*ent = ttEntry{key: key, move: int16(move), score: int16(score), depth: int8(min(depth, 127)), bound: bound, age: e.ttAge}
}

// oneSlot is key's slot in the table as it was before buckets (one slot a
// key, the same memory), kept to measure the buckets against.
func (e *Engine) oneSlot(key uint64) *ttEntry {
	i := key & uint64(2*len(e.tt)-1)
	return &e.tt[i>>1][i&1]
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
