package gomokubot

import (
	"strings"
	"testing"

	"arena/game/gomoku"
)

// engineFrom builds an engine from rows of text: 'x' Black, 'o' White,
// '#' a blocked square, anything else empty. Rows may differ in length;
// the board is as wide as the longest row.
func engineFrom(t testing.TB, rule gomoku.Rule, rows ...string) *Engine {
	t.Helper()
	w := 0
	for _, r := range rows {
		w = max(w, len(strings.TrimSpace(r)))
	}
	e := NewEngine(w, len(rows), rule)
	for y, r := range rows {
		for x, ch := range strings.TrimSpace(r) {
			p := gomoku.Point{X: x, Y: y}
			var err error
			switch ch {
			case 'x', 'X':
				err = e.Place(p, gomoku.Black)
			case 'o', 'O':
				err = e.Place(p, gomoku.White)
			case '#':
				err = e.Block(p)
			}
			if err != nil {
				t.Fatalf("row %d: %v", y, err)
			}
		}
	}
	return e
}

// emptyRows returns n rows of w dots.
func emptyRows(w, n int) []string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = strings.Repeat(".", w)
	}
	return rows
}
