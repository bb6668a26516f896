package game

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		n    int
		noun string
		want string
	}{
		{1, "move", "1 move"},
		{0, "move", "0 moves"},
		{2, "move", "2 moves"},
		{1, "ply", "1 ply"},
		{3, "ply", "3 plies"},
		{4, "day", "4 days"},
		{2, "box", "2 boxes"},
		{2, "match", "2 matches"},
		{2, "pass", "2 passes"},
		{1, "empty square", "1 empty square"},
		{5, "empty square", "5 empty squares"},
		{-1, "point", "-1 point"},
	}
	for _, tc := range tests {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
