package engine

import (
	"context"
	"testing"

	"arena/match"
)

// An SPRT between a player that wins every game and one that loses
// every game accepts H1 after a few pairs, each pair on one opening with
// colours swapped.
func TestSPRTDecides(t *testing.T) {
	r := &instantRunner{} // the player of lower index (A) wins
	pairs := 0
	s := &SPRT{
		Name:   "ab",
		Match:  match.Spec{Game: "gomoku", Players: []match.Player{{Name: "a"}, {Name: "b"}}},
		Runner: r, Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Concurrency: 1,
		Pair: func(SPRTState) { pairs++ },
	}
	st, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Verdict != "H1" || st.LLR < st.Upper || st.Score.Wins != st.Games || st.Pairs != pairs || st.Games != 2*st.Pairs {
		t.Fatalf("state %+v after %d pairs reported", st, pairs)
	}
	// A draw-free test stopped by MaxGames is inconclusive.
	s.MaxGames, s.Elo1 = 2, 400
	if st, err := s.Run(context.Background()); err != nil || st.Verdict != "inconclusive" || st.Games != 2 {
		t.Fatalf("capped: %+v, %v", st, err)
	}
}
