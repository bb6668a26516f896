package khetbot

import (
	"testing"

	"arena/game/khet"
)

func TestZZScaling(t *testing.T) {
	wins, draws := 0, 0
	for g := range 10 {
		s, _ := khet.NewState(khet.Config{Setup: khet.Setups()[g/2%3], MaxPlies: 200, Repetition: 3})
		strong := khet.Color(g % 2)
		e := [2]*Engine{NewEngine(8), NewEngine(8)}
		for !s.Over() {
			c := s.ToMove()
			lim := Limits{Nodes: 6000}
			if c == strong {
				lim = Limits{Nodes: 60000}
			}
			e[c].SetGame(s.Plies(), 200)
			res := e[c].Search(s.Board(), lim)
			if _, err := s.Play(res.Move); err != nil {
				t.Fatal(err)
			}
			e[0].Seen(s.Board().Hash())
			e[1].Seen(s.Board().Hash())
		}
		o := s.Outcome()
		if o.Winner == int(strong) {
			wins++
		} else if o.Winner < 0 {
			draws++
		}
		t.Logf("game %d: strong %v: %s after %d plies", g, strong, o.Result(), s.Plies())
	}
	t.Logf("strong won %d, drew %d of 10", wins, draws)
}
