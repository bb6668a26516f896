package ants

import "testing"

// A shared top score is a draw, whatever the others scored.
func TestWinner(t *testing.T) {
	cases := []struct {
		scores []int
		want   int
	}{
		{[]int{7, 4, 7, 0}, -1},
		{[]int{0, 4, 7, 0}, 2},
		{[]int{3, 3, 3, 3}, -1},
		{[]int{1, 0}, 0},
		{[]int{0, 0, 5}, 2},
		{[]int{2, 2, 1}, -1},
		{[]int{-1, -2}, 0},
		{[]int{5}, 0},
		{nil, -1},
	}
	for _, c := range cases {
		if got := Winner(c.scores); got != c.want {
			t.Errorf("Winner(%v) = %d, want %d", c.scores, got, c.want)
		}
	}
}
