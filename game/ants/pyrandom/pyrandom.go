// Package pyrandom reproduces the parts of CPython 3's random module (and
// of its set iteration order) that the AI Challenge 2011 Ants engine
// depends on, value for value: the Mersenne Twister seeded as
// random.seed(int) seeds it, random(), getrandbits, randrange, randint,
// choice, shuffle and sample with CPython 3.11's algorithms.
//
// The official engine draws food parameters, food placement, hill spawn
// order and the order it polls bots from one global generator; a referee
// that wants to send bots the same bytes for the same seed has to draw
// exactly the same numbers in exactly the same order.
package pyrandom

import (
	"math/big"
	"math/bits"
)

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Rand is one generator, like an instance of random.Random. The zero value
// is not seeded; use New or Seed.
type Rand struct {
	mt  [n]uint32
	mti int
}

// New returns a generator seeded as random.seed(seed).
func New(seed int64) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// Seed seeds as random.seed(seed) does for an int: the absolute value,
// split into 32-bit words, least significant first, through init_by_array.
func (r *Rand) Seed(seed int64) {
	r.SeedBig(big.NewInt(seed))
}

// SeedBig seeds with an integer of any size, as CPython does for ints.
func (r *Rand) SeedBig(seed *big.Int) {
	v := new(big.Int).Abs(seed)
	var key []uint32
	mask := big.NewInt(0xffffffff)
	for v.Sign() > 0 {
		key = append(key, uint32(new(big.Int).And(v, mask).Uint64()))
		v.Rsh(v, 32)
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	r.initByArray(key)
}

func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = n
}

func (r *Rand) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := n
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// Uint32 is genrand_uint32: the next raw 32-bit output.
func (r *Rand) Uint32() uint32 {
	if r.mti >= n {
		var k int
		for k = 0; k < n-m; k++ {
			y := (r.mt[k] & upperMask) | (r.mt[k+1] & lowerMask)
			r.mt[k] = r.mt[k+m] ^ (y >> 1) ^ (matrixA * (y & 1))
		}
		for ; k < n-1; k++ {
			y := (r.mt[k] & upperMask) | (r.mt[k+1] & lowerMask)
			r.mt[k] = r.mt[k+(m-n)] ^ (y >> 1) ^ (matrixA * (y & 1))
		}
		y := (r.mt[n-1] & upperMask) | (r.mt[0] & lowerMask)
		r.mt[n-1] = r.mt[m-1] ^ (y >> 1) ^ (matrixA * (y & 1))
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Random is random.random(): a float in [0, 1) with 53 random bits.
func (r *Rand) Random() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// Getrandbits is random.getrandbits(k) for 0 <= k <= 64.
func (r *Rand) Getrandbits(k int) uint64 {
	if k <= 0 {
		return 0
	}
	if k <= 32 {
		return uint64(r.Uint32() >> (32 - k))
	}
	// CPython fills 32-bit words least significant first and shortens the
	// last one.
	var v uint64
	for shift := 0; k > 0; shift, k = shift+32, k-32 {
		w := r.Uint32()
		if k < 32 {
			w >>= 32 - k
		}
		v |= uint64(w) << shift
	}
	return v
}

// Randbelow is _randbelow_with_getrandbits(n): uniform in [0, n), n > 0.
func (r *Rand) Randbelow(n uint64) uint64 {
	k := bits.Len64(n)
	v := r.Getrandbits(k)
	for v >= n {
		v = r.Getrandbits(k)
	}
	return v
}

// Randrange is random.randrange(start, stop) with step 1; it panics if the
// range is empty, as CPython raises ValueError.
func (r *Rand) Randrange(start, stop int64) int64 {
	if stop <= start {
		panic("pyrandom: empty range for randrange")
	}
	return start + int64(r.Randbelow(uint64(stop-start)))
}

// Randint is random.randint(a, b): a <= n <= b.
func (r *Rand) Randint(a, b int64) int64 {
	return r.Randrange(a, b+1)
}

// Choice is the index random.choice(seq) picks for a sequence of length n.
func (r *Rand) Choice(n int) int {
	if n <= 0 {
		panic("pyrandom: choice from an empty sequence")
	}
	return int(r.Randbelow(uint64(n)))
}

// Shuffle is random.shuffle on a sequence of length n, with swap doing
// x[i], x[j] = x[j], x[i].
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := int(r.Randbelow(uint64(i + 1)))
		swap(i, j)
	}
}

// Sample is the list of indexes random.sample(range(n), k) returns, using
// the same set/pool switch as CPython 3.11.
func (r *Rand) Sample(n, k int) []int {
	if k < 0 || k > n {
		panic("pyrandom: sample larger than population or negative")
	}
	result := make([]int, k)
	setsize := 21
	if k > 5 {
		// 4 ** _ceil(_log(k * 3, 4))
		p := 1
		for p < k*3 {
			p *= 4
		}
		setsize += p
	}
	if n <= setsize {
		pool := make([]int, n)
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j := int(r.Randbelow(uint64(n - i)))
			result[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
		return result
	}
	selected := map[int]bool{}
	for i := 0; i < k; i++ {
		j := int(r.Randbelow(uint64(n)))
		for selected[j] {
			j = int(r.Randbelow(uint64(n)))
		}
		selected[j] = true
		result[i] = j
	}
	return result
}
