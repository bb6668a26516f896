package rating_test

import (
	"fmt"

	"arena/rating"
)

func ExampleScore_Elo() {
	s := rating.Score{Wins: 60, Draws: 20, Losses: 20}
	diff, margin := s.Elo()
	fmt.Printf("Elo %.1f ± %.1f, LOS %.2f %%\n", diff, margin, 100*s.LOS())
	// Output: Elo 147.2 ± 66.0, LOS 100.00 %
}

func ExamplePentanomial_LLR() {
	// Stockfish PR 2493's long time control test, as fishtest reported it:
	// LLR 2.94 against the bounds (-2.94, 2.94) for {0.00, 2.00}.
	p := rating.Pentanomial{1284, 17437, 55536, 18085, 1292}
	lower, upper := rating.SPRTBounds(0.05, 0.05)
	fmt.Printf("LLR %.2f (%.2f, %.2f)\n", p.LLR(0, 2), lower, upper)
	// Output: LLR 2.94 (-2.94, 2.94)
}

func ExampleBradleyTerry() {
	// Player 0 beats 1 and 2, and 1 edges 2; each game is listed with the
	// player who moved first. Ten games say little: the intervals are wide.
	games := []rating.Game{
		{First: 0, Second: 1, Score: 1}, {First: 1, Second: 0, Score: 0.5},
		{First: 0, Second: 1, Score: 0.5}, {First: 1, Second: 0, Score: 0},
		{First: 1, Second: 2, Score: 1}, {First: 2, Second: 1, Score: 0.5},
		{First: 1, Second: 2, Score: 0.5}, {First: 2, Second: 1, Score: 0.5},
		{First: 0, Second: 2, Score: 1}, {First: 2, Second: 0, Score: 0},
	}
	est, err := rating.BradleyTerry(3, games, rating.BTOptions{Advantage: 32.8, DrawElo: 97.3, Prior: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, elo := range est.Elo {
		fmt.Printf("player %d: %+4.0f [%+4.0f, %+4.0f]\n", i, elo, est.Low[i], est.High[i])
	}
	fmt.Printf("P(0 stronger than 1) = %.2f\n", est.LOS[0][1])
	// Output:
	// player 0: +123 [ -26, +272]
	// player 1:  -22 [-138,  +94]
	// player 2: -101 [-243,  +41]
	// P(0 stronger than 1) = 0.90
}

func ExamplePlackettLuce() {
	// Four new players finish a game in order.
	d := rating.DefaultSkill()
	for _, s := range rating.PlackettLuce([]rating.Skill{d, d, d, d}, []int{1, 2, 3, 4}) {
		fmt.Printf("mu %.3f sigma %.3f\n", s.Mu, s.Sigma)
	}
	// Output:
	// mu 27.795 sigma 8.263
	// mu 26.553 sigma 8.179
	// mu 24.689 sigma 8.084
	// mu 20.963 sigma 8.084
}
