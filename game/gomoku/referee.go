package gomoku

import (
	"fmt"

	"arena/game"
)

// Referee adapts a State to the match loop: sides are 0 (Black) and 1
// (White), and a failing side loses the game.
type Referee struct{ *State }

// sides lists the side to move without allocating.
var sides = [2][]int{{0}, {1}}

// ToMove returns the side to move, or nothing once the game is over.
func (r Referee) ToMove() []int {
	if r.Over() {
		return nil
	}
	return sides[r.State.ToMove().Side()]
}

// Play applies side's move.
func (r Referee) Play(side int, p Point) error {
	if side != r.State.ToMove().Side() {
		return fmt.Errorf("side %d moved out of turn", side)
	}
	_, err := r.State.Play(p)
	return err
}

// Forfeit ends the game: the failing side loses.
func (r Referee) Forfeit(side int, f game.Fault) {
	if !r.Over() {
		r.State.Forfeit(StoneOf(side), string(f.Reason), f.Detail)
	}
}

// Result converts the outcome once the game is over.
func (r Referee) Result() (game.Result, bool) {
	if !r.Over() {
		return game.Result{}, false
	}
	o := r.Outcome()
	res := game.Result{Winner: -1, Reason: game.Reason(o.Reason), Detail: o.Detail}
	if o.Winner != Empty {
		res.Winner = o.Winner.Side()
	}
	if r.Config().Rule.Has(Continuous) {
		res.Scores = []int{r.Score(Black), r.Score(White)}
	}
	return res, true
}
