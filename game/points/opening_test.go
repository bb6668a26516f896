package points

import (
	"strings"
	"testing"
)

func TestOpenings(t *testing.T) {
	tests := []struct {
		o    Opening
		want string // the first cross on 39x32, or "" for none
		dots int
	}{
		{Empty, "", 0},
		{Cross, "18,15 18,16 19,16 19,15", 4},
		{TwoCrosses, "17,15 17,16 18,16 18,15", 8},
		{ThreeCrosses, "18,15 18,16 19,16 19,15", 8},
		{FourCrosses, "11,10 12,10 12,11 11,11", 16},
		{RandomCross, "", 16},
	}
	for _, tt := range tests {
		pts, err := tt.o.Points(39, 32, 7)
		if err != nil {
			t.Fatalf("%s: %v", tt.o, err)
		}
		if len(pts) != tt.dots {
			t.Errorf("%s: %d dots, want %d", tt.o, len(pts), tt.dots)
		}
		var first []string
		for _, p := range pts[:min(4, len(pts))] {
			first = append(first, p.String())
		}
		if tt.want != "" && strings.Join(first, " ") != tt.want {
			t.Errorf("%s: starts %v, want %s", tt.o, first, tt.want)
		}
		s, _ := NewState(DefaultConfig())
		if err := s.PlayOpening(pts); err != nil {
			t.Errorf("%s: %v", tt.o, err)
		}
		if s.ToMove() != Red {
			t.Errorf("%s: %v to move after the opening", tt.o, s.ToMove())
		}
	}
	a, _ := RandomCross.Points(39, 32, 1)
	b, _ := RandomCross.Points(39, 32, 1)
	c, _ := RandomCross.Points(39, 32, 2)
	if !slicesEqual(a, b) || slicesEqual(a, c) {
		t.Errorf("random crosses: the same seed must give the same dots, another seed others")
	}
	if _, err := FourCrosses.Points(3, 3, 0); err == nil {
		t.Errorf("four crosses fit on 3x3")
	}
	for _, s := range []string{"empty", "cross", "1", "2", "cross3", "4", "random"} {
		if _, err := ParseOpening(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParseOpening("five"); err == nil {
		t.Error("five crosses parsed")
	}
}
