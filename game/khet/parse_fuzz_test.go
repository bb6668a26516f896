package khet

import (
	"errors"
	"testing"
)

// FuzzParseMove: any string either parses to a move that renders back to
// itself, or fails with ErrSyntax; Check never panics on a parsed move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"S23C", "R21c", "S978", "R004", "X00C", "S2", "S99Z", "S23C\n", ""} {
		f.Add(s)
	}
	b, _ := SetupBoard(Classic, Rules{})
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		if m.String() != s {
			t.Fatalf("%q parsed as %v", s, m)
		}
		_ = b.Check(m)
	})
}

// FuzzParseState: any string either fails with ErrSyntax or gives a board
// whose rendering parses back to the same board; the board's moves are
// all legal and playable.
func FuzzParseState(f *testing.F) {
	for _, s := range []string{goldenInitial, goldenAfter1, goldenAfter2, "SG - 3 2 R00X2 S97X0", "- - 0 0", "- - x 1 S00P0", "dG3 S23C#97 4 2 R00X2 S97X0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pos, err := ParseState(s, Rules{})
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		again, err := ParseState("- - "+itoa(pos.Plies)+" "+pos.Board.BoardString(), Rules{})
		if err != nil {
			t.Fatalf("%q: rendering %q does not parse: %v", s, pos.Board.BoardString(), err)
		}
		if again.Board.Hash() != pos.Board.Hash() {
			t.Fatalf("%q: round trip changed the board", s)
		}
		b := pos.Board
		for _, m := range b.Moves(nil) {
			if err := b.Check(m); err != nil {
				t.Fatalf("generated %v is illegal: %v", m, err)
			}
			h := b.Hash()
			u := b.Make(m)
			if b.Hash() != b.computeHash() {
				t.Fatalf("%v: incremental hash differs", m)
			}
			b.Unmake(u)
			if b.Hash() != h || b.Hash() != b.computeHash() {
				t.Fatalf("%v: unmake did not restore the position", m)
			}
		}
	})
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
