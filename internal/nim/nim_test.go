package nim

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"arena/game"
)

// Random games keep the contract: a legal move stays legal, the pile
// never goes below zero, and the player who takes the last stone wins.
func TestRandomPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < 500; g++ {
		stones, most := 1+rng.IntN(60), 0
		most = 1 + rng.IntN(stones)
		s, err := NewState(stones, most)
		if err != nil {
			t.Fatal(err)
		}
		r := Referee{s}
		last := -1
		for len(r.ToMove()) > 0 {
			side := r.ToMove()[0]
			if err := r.Play(1-side, 1); err == nil {
				t.Fatal("a move out of turn was played")
			}
			if err := s.Check(Take(s.Most() + 1)); err == nil {
				t.Fatalf("taking %d of %d (at most %d) is legal", s.Most()+1, s.Left(), most)
			}
			take := Take(1 + rng.IntN(s.Most()))
			if err := r.Play(side, take); err != nil {
				t.Fatalf("a legal take %d refused: %v", take, err)
			}
			if s.Left() < 0 {
				t.Fatalf("%d stones left", s.Left())
			}
			last = side
		}
		res, over := r.Result()
		if !over || s.Left() != 0 || res.Winner != last {
			t.Fatalf("game over %t with %d left: winner %d, last mover %d", over, s.Left(), res.Winner, last)
		}
	}
}

// A side that fails loses, however many stones are left.
func TestForfeit(t *testing.T) {
	s, _ := NewState(10, 3)
	Referee{s}.Forfeit(0, game.Fault{Reason: game.ReasonTimeout})
	if res, over := (Referee{s}).Result(); !over || res.Winner != 1 || res.Reason != game.ReasonTimeout {
		t.Fatalf("after a forfeit: %+v, over %t", res, over)
	}
}

// ParseTake reads exactly the numbers it prints.
func FuzzParseTake(f *testing.F) {
	for _, s := range []string{"1", " 3\n", "-2", "x", "", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseTake(s)
		if err != nil {
			return
		}
		back, err := ParseTake(n.String())
		if err != nil || back != n {
			t.Fatalf("%q read as %d, printed %q, read back %d (%v)", s, n, strconv.Itoa(int(n)), back, err)
		}
	})
}
