package ants

import (
	"fmt"
	"math/bits"
	"testing"
)

// TestAppendLine checks the state lines written with 8-byte number words
// against plain formatting, on maps up to the largest NewState accepts,
// appended after text already in the buffer.
func TestAppendLine(t *testing.T) {
	for _, tc := range []struct{ rows, cols int }{
		{1, 1}, {9, 11}, {43, 39}, {100, 100}, {126, 126}, {255, 257}, {3, 99999}, {99999, 2},
	} {
		s := &State{Rows: tc.rows, Cols: tc.cols}
		if tc.rows*tc.cols < 1<<16 {
			s.colRecip = recipBelow16(tc.cols)
		}
		s.initNumbers()
		size := tc.rows * tc.cols
		for _, loc := range []int{0, 1, tc.cols - 1, tc.cols, size / 2, size - tc.cols, size - 1} {
			if loc < 0 || loc >= size {
				continue
			}
			r, c := loc/tc.cols, loc%tc.cols
			for _, owner := range []int{-1, 0, 7, 9} {
				want := fmt.Sprintf("x\na %d %d %d\n", r, c, owner)
				if owner < 0 {
					want = fmt.Sprintf("x\na %d %d\n", r, c)
				}
				if got := string(s.appendLine([]byte("x\n"), 'a', loc, owner)); got != want {
					t.Errorf("%dx%d square %d owner %d: %q, want %q", tc.rows, tc.cols, loc, owner, got, want)
				}
			}
		}
	}
}

// TestAppendWordLines checks the state lines of a word of a bit map
// against appendLine line by line: without owners, with true owners and
// with a player's numbering that meets owners on the way.
func TestAppendWordLines(t *testing.T) {
	m, err := ParseMap("rows 9\ncols 30\nplayers 3\n" +
		"m 0a.b.c......................1.\n" +
		"m ..a.b.c.......................\n" +
		"m .........................2....\n" +
		"m abcabcabcabcabcabcabcabcabcabc\n" +
		"m ..............................\n" +
		"m c.............................\n" +
		"m ..............................\n" +
		"m ......................bbbbbbbb\n" +
		"m aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n")
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	opt.Scenario = true
	st, err := NewState(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	ants := st.liveAntMap()
	for _, tc := range []struct {
		name string
		ids  []int
		p    int
	}{
		{"no owner", nil, -1},
		{"true owners", []int{0, 1, 2}, -1},
		{"player 1", []int{-1, 0, -1}, 1},
	} {
		want := []byte("x\n")
		wantIDs := append([]int(nil), tc.ids...)
		next := 1
		for i, w := range ants {
			for x := w; x != 0; x &= x - 1 {
				loc := i<<6 | bits.TrailingZeros64(x)
				owner := -1
				if tc.ids != nil {
					o := int(st.grid[loc])
					if wantIDs[o] < 0 {
						wantIDs[o] = next
						next++
					}
					owner = wantIDs[o]
				}
				want = st.appendLine(want, 'a', loc, owner)
			}
		}
		got := []byte("x\n")
		ids := append([]int(nil), tc.ids...)
		if tc.p >= 0 { // the player's own table: new ids count what it holds
			copy(st.switchIDs[tc.p], tc.ids)
			ids = st.switchIDs[tc.p]
		}
		got = st.appendMaskLines(got, 'a', ants, ants, ids, tc.p)
		if string(got) != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, want)
		}
		if fmt.Sprint(ids) != fmt.Sprint(wantIDs) {
			t.Errorf("%s: ids %v, want %v", tc.name, ids, wantIDs)
		}
	}
}
