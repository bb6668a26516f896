package pyrandom

// The Ants engine builds each symmetric food set with list(set(...)) of
// (row, col) tuples, so the order of food placement (and, with three or
// more players, which squares are too close to each other) depends on
// CPython's tuple hash and on how its set table probes. This file
// reproduces both for tuples of small ints (CPython 3.8+, 64-bit).

const (
	xxPrime1 uint64 = 11400714785074694791
	xxPrime2 uint64 = 14029467366897019727
	xxPrime5 uint64 = 2870177450012600261
)

// intHash is hash(int) for ints that fit in 61 bits, as CPython computes it
// (the value modulo 2**61-1, keeping the sign, with -1 mapped to -2).
func intHash(v int64) int64 {
	const mod = (1 << 61) - 1
	if v >= 0 && v < mod {
		return v // rows and columns: hash(n) is n (the hot path of TupleHash)
	}
	neg := v < 0
	a := v
	if neg {
		a = -v
	}
	h := a % mod
	if neg {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h
}

// TupleHash is hash((a, b)) for two ints.
func TupleHash(a, b int64) int64 {
	acc := xxPrime5
	for _, item := range [2]int64{a, b} {
		lane := uint64(intHash(item))
		acc += lane * xxPrime2
		acc = acc<<31 | acc>>33
		acc *= xxPrime1
	}
	acc += 2 ^ (xxPrime5 ^ 3527539)
	if acc == ^uint64(0) {
		return 1546275796
	}
	return int64(acc)
}

type setEntry struct {
	key  [2]int
	hash int64
	used bool
}

const linearProbes = 9

// SetOrder returns list(set(items)) for (row, col) tuples inserted in the
// given order: duplicates dropped, the survivors in CPython's table order.
func SetOrder(items [][2]int) [][2]int {
	return SetOrderInto(nil, items)
}

// SetOrderInto is SetOrder appending to dst (to reuse its memory).
func SetOrderInto(dst [][2]int, items [][2]int) [][2]int {
	var o SetOrderer
	return o.Order(dst, items)
}

// SetOrderer computes SetOrder again and again without allocating: it
// keeps its hash table between calls. The zero value is ready to use.
type SetOrderer struct {
	small [8]setEntry
	big   []setEntry
}

// Order is SetOrder appending to dst.
func (o *SetOrderer) Order(dst [][2]int, items [][2]int) [][2]int {
	if len(items) == 2 {
		return order2(dst, items[0], items[1])
	}
	return o.general(dst, items)
}

// general runs CPython's set table for any number of items.
func (o *SetOrderer) general(dst [][2]int, items [][2]int) [][2]int {
	o.small = [8]setEntry{}
	table := o.small[:]
	fill := 0
	for _, it := range items {
		h := TupleHash(int64(it[0]), int64(it[1]))
		if !setContains(table, it, h) {
			setInsert(table, it, h)
			fill++
			mask := len(table) - 1
			if fill*5 >= mask*3 {
				table = o.resize(table, fill)
			}
		}
	}
	for _, e := range table {
		if e.used {
			dst = append(dst, e.key)
		}
	}
	return dst
}

func setContains(table []setEntry, key [2]int, hash int64) bool {
	mask := uint64(len(table) - 1)
	perturb := uint64(hash)
	i := uint64(hash) & mask
	for {
		probes := 0
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		for j := uint64(0); j <= uint64(probes); j++ {
			e := table[i+j]
			if !e.used {
				return false
			}
			if e.hash == hash && e.key == key {
				return true
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & mask
	}
}

// setInsert places a key known to be absent, probing as set_add_entry and
// set_insert_clean do (without dummies, both find the same free slot).
func setInsert(table []setEntry, key [2]int, hash int64) {
	mask := uint64(len(table) - 1)
	perturb := uint64(hash)
	i := uint64(hash) & mask
	for {
		probes := 0
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		for j := uint64(0); j <= uint64(probes); j++ {
			if !table[i+j].used {
				table[i+j] = setEntry{key: key, hash: hash, used: true}
				return
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & mask
	}
}

func (o *SetOrderer) resize(old []setEntry, used int) []setEntry {
	minused := used * 4
	if used > 50000 {
		minused = used * 2
	}
	size := 8
	for size <= minused {
		size <<= 1
	}
	// old may be o.big itself: build the new table apart.
	table := make([]setEntry, size)
	if cap(o.big) >= size && &old[0] != &o.big[:1][0] {
		table = o.big[:size]
		clear(table)
	}
	for _, e := range old {
		if e.used {
			setInsert(table, e.key, e.hash)
		}
	}
	o.big = table
	return table
}

// order2 is SetOrder for two items, the common case (two players): the
// first goes to its home slot of the 8-slot table, the second probes
// (one slot per round at this size) until it finds another free slot.
func order2(dst [][2]int, a, b [2]int) [][2]int {
	if a == b {
		return append(dst, a)
	}
	sa := uint64(TupleHash(int64(a[0]), int64(a[1]))) & 7
	hb := uint64(TupleHash(int64(b[0]), int64(b[1])))
	i, perturb := hb&7, hb
	for i == sa {
		perturb >>= 5
		i = (i*5 + 1 + perturb) & 7
	}
	if sa < i {
		return append(dst, a, b)
	}
	return append(dst, b, a)
}
