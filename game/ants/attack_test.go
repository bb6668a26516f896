package ants

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOwnerBlocksNeverMissAnEnemy places ants of three players at random
// on maps of several sizes (edges and the smallest maps the blocks allow
// included) and checks, for every attack radius the blocks are used
// for, that an ant the blocks call safe has no enemy in range.
func TestOwnerBlocksNeverMissAnEnemy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{8, 8}, {9, 13}, {15, 8}, {16, 17}, {40, 39}, {80, 80}, {10, 100}} {
		rows, cols := size[0], size[1]
		for round := 0; round < 20; round++ {
			var b strings.Builder
			fmt.Fprintf(&b, "rows %d\ncols %d\nplayers 3\n", rows, cols)
			for r := 0; r < rows; r++ {
				b.WriteString("m ")
				for c := 0; c < cols; c++ {
					switch x := rng.IntN(20); {
					case r == 0 && c < 3: // every player has a hill
						b.WriteByte(byte('0' + c))
					case x < 3:
						b.WriteByte(byte('a' + x))
					case x == 3:
						b.WriteByte('%')
					default:
						b.WriteByte('.')
					}
				}
				b.WriteByte('\n')
			}
			m, err := ParseMap(b.String())
			if err != nil {
				t.Fatal(err)
			}
			opt := DefaultOptions()
			opt.Scenario = true
			opt.Food = "none"
			st, err := NewState(m, opt)
			if err != nil {
				t.Fatal(err)
			}
			cur := st.currentAnts()
			for r2 := 1; r2 < 16; r2++ {
				reach := isqrt(r2)
				g := st.ownerBlocks(cur, reach)
				if g == nil {
					t.Fatalf("%dx%d radius2 %d: no blocks", rows, cols, r2)
				}
				for i, a := range cur {
					if g.enemyNear(i, a.Owner) {
						continue
					}
					if e := st.nearbyAnts(a.Loc, r2, a.Owner, nil); len(e) > 0 {
						t.Fatalf("%dx%d radius2 %d: the ant on %d has %d enemies in range, the blocks say none", rows, cols, r2, a.Loc, len(e))
					}
				}
			}
		}
	}
}
