package points

import (
	"math/rand/v2"
	"testing"
)

// TestMayClose checks on random positions that a dot for which MayClose
// is false never captures, and that MayCloseEither agrees with MayClose
// for both colours.
func TestMayClose(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	captures := 0
	for game := range 40 {
		f, err := NewField(12, 10, Standard)
		if err != nil {
			t.Fatal(err)
		}
		g := f.Clone()
		for f.Free() > 0 {
			for i := 0; i < f.Cells(); i++ {
				if !f.CanPut(i) {
					continue
				}
				red, blue := f.MayCloseEither(i)
				if red != f.MayClose(i, Red) || blue != f.MayClose(i, Blue) {
					t.Fatalf("game %d, %v: MayCloseEither %v %v, MayClose %v %v", game, f.PointOf(i), red, blue, f.MayClose(i, Red), f.MayClose(i, Blue))
				}
				for _, c := range []Color{Red, Blue} {
					g.CopyFrom(f)
					took := g.PutColor(i, c)
					if took {
						captures++
					}
					if took && !f.MayClose(i, c) {
						t.Fatalf("game %d: %v at %v captures, but MayClose said it could not\n%v", game, c, f.PointOf(i), f)
					}
				}
			}
			// The next dot: anywhere free (a small field fills up
			// with rings).
			for {
				i := rng.IntN(f.Cells())
				if f.CanPut(i) {
					f.Put(i)
					break
				}
			}
		}
	}
	if captures == 0 {
		t.Fatal("no position had a capture: the test checked nothing")
	}
	t.Logf("%d capturing dots checked", captures)
}
