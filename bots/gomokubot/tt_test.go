package gomokubot

import (
	"testing"
	"unsafe"

	"arena/game/gomoku"
)

// TestTTBuckets checks which results a bucket keeps: the deepest of the
// current search in slot 0, the latest of the rest in slot 1, results of
// an earlier search giving way first, and a position stored again in its
// own slot.
func TestTTBuckets(t *testing.T) {
	if size := unsafe.Sizeof(ttBucket{}); size != 32 {
		t.Errorf("a bucket is %d bytes, want 32 (half a cache line)", size)
	}
	e := NewEngine(15, 15, gomoku.Freestyle)
	e.setTTBits(10)
	e.ensureTT()
	n := uint64(len(e.tt))
	key := func(i uint64) uint64 { return 7 + i*n } // all in bucket 7
	depthOf := func(k uint64) int {
		ent, ok := e.probe(k)
		if !ok {
			return -1
		}
		return int(ent.depth)
	}
	type step struct {
		what  string
		key   uint64
		depth int
		bound uint8
		age   bool // start a new search first
	}
	steps := []step{
		{"deep", key(1), 8, bLower, false},
		{"shallow", key(2), 1, bUpper, false},
		{"another shallow", key(3), 1, bUpper, false},
		{"the deep one shallower, not exact", key(1), 2, bUpper, false},
		{"a new search's shallow", key(4), 1, bUpper, true},
	}
	want := []map[uint64]int{
		{key(1): 8},
		{key(1): 8, key(2): 1},
		{key(1): 8, key(2): -1, key(3): 1},
		{key(1): 8, key(3): 1},
		{key(1): 8, key(3): -1, key(4): 1}, // slot 0 was old: the deep one moves to slot 1
	}
	for i, s := range steps {
		if s.age {
			e.ttAge++
		}
		e.store(s.key, s.depth, 0, 0, s.bound, 0)
		for k, d := range want[i] {
			if got := depthOf(k); got != d {
				t.Errorf("after %s: key %d holds depth %d, want %d", s.what, k, got, d)
			}
		}
	}
	if b := &e.tt[7]; b[0].key != key(4) || b[1].key != key(1) {
		t.Errorf("bucket holds %d and %d, want %d then %d", b[0].key, b[1].key, key(4), key(1))
	}
	// An exact result replaces a deeper bound of the same position.
	e.store(key(1), 3, 5, 0, bExact, 0)
	if ent, ok := e.probe(key(1)); !ok || ent.depth != 3 || ent.bound != bExact {
		t.Errorf("exact result not stored over a deeper bound: %+v", ent)
	}
}
