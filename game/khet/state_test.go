package khet

import (
	"strings"
	"testing"
)

// The seed's initial state and the two states of its sample log.
const (
	goldenInitial = "- - 0 26 R00X2 R40A2 R50P2 R60A2 R70Y1 R21Y2 S32Y3 R03Y0 S23Y2 R43C0 R53C1 R73Y1 S93Y3 R04Y1 S24Y3 S44C3 S54C2 R74Y0 S94Y2 R65Y1 S76Y0 S27Y3 S37A0 S47P0 S57A0 S97X0"
	goldenAfter1  = "- S23C#97000330110000 1 26 R00X2 R40A2 R50P2 R60A2 R70Y1 R21Y2 S32Y3 R03Y0 S23Y3 R43C0 R53C1 R73Y1 S93Y3 R04Y1 S24Y3 S44C3 S54C2 R74Y0 S94Y2 R65Y1 S76Y0 S27Y3 S37A0 S47P0 S57A0 S97X0"
	goldenAfter2  = "- R21C#002221100XR21Y3 2 25 R00X2 R40A2 R50P2 R60A2 R70Y1 S32Y3 R03Y0 S23Y3 R43C0 R53C1 R73Y1 S93Y3 R04Y1 S24Y3 S44C3 S54C2 R74Y0 S94Y2 R65Y1 S76Y0 S27Y3 S37A0 S47P0 S57A0 S97X0"
)

func newClassic(t testing.TB) *State {
	t.Helper()
	s, err := NewState(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustPlay(t testing.TB, s *State, moves ...string) {
	t.Helper()
	for _, ms := range moves {
		m, err := ParseMove(ms)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Play(m); err != nil {
			t.Fatalf("%s: %v\n%v", ms, err, s.board)
		}
	}
}

// TestGoldenStates checks the seed's sample log byte for byte.
func TestGoldenStates(t *testing.T) {
	s := newClassic(t)
	if got := s.String(); got != goldenInitial {
		t.Fatalf("initial state:\n got %s\nwant %s", got, goldenInitial)
	}
	mustPlay(t, s, "S23C")
	if got := s.String(); got != goldenAfter1 {
		t.Fatalf("after S23C:\n got %s\nwant %s", got, goldenAfter1)
	}
	if !strings.HasPrefix(s.String(), "- S23C#97000330110000 1 26 ") {
		t.Fatal("prefix")
	}
	mustPlay(t, s, "R21C")
	if got := s.String(); got != goldenAfter2 {
		t.Fatalf("after R21C:\n got %s\nwant %s", got, goldenAfter2)
	}
}

// TestParseStateRoundTrip reads the golden states back.
func TestParseStateRoundTrip(t *testing.T) {
	for _, text := range []string{goldenInitial, goldenAfter1, goldenAfter2, "SG R21C#002221100XR50P2 2 25 " + goldenAfter2[len("- R21C#002221100XR21Y3 2 25 "):]} {
		pos, err := ParseState(text, Rules{})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		f := strings.Fields(text)
		if got := pos.Board.BoardString(); got != strings.Join(f[3:], " ") {
			t.Errorf("board %s, want %s", got, strings.Join(f[3:], " "))
		}
		if pos.Board.ToMove() != Color(pos.Plies%2) {
			t.Errorf("side to move %v after %d plies", pos.Board.ToMove(), pos.Plies)
		}
	}
}
