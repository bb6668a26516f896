package ants

import (
	"fmt"
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
