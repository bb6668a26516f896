package points

import (
	"encoding/json"
	"fmt"

	"arena/game"
)

// Referee adapts a State to the match loop: side 0 is Red (moves first),
// side 1 Blue; a failing side loses. Effects, if set, receives the effect
// of every accepted move; the last one is what Effect gives the match
// loop for the record.
type Referee struct {
	*State
	Effects *[]Effect
}

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
	eff, err := r.State.Play(p)
	if err != nil {
		return err
	}
	if r.Effects != nil {
		*r.Effects = append(*r.Effects, eff)
	}
	return nil
}

// Forfeit ends the game: the failing side loses.
func (r Referee) Forfeit(side int, f game.Fault) {
	r.State.Forfeit(ColorOf(side), string(f.Reason), f.Detail)
}

// Result converts the outcome once the game is over; scores are per side.
func (r Referee) Result() (game.Result, bool) {
	if !r.Over() {
		return game.Result{}, false
	}
	o := r.Outcome()
	res := game.Result{Winner: -1, Reason: game.Reason(o.Reason), Detail: o.Detail,
		Scores: []int{r.Score(Red), r.Score(Blue)}}
	if o.Winner != None {
		res.Winner = o.Winner.Side()
	}
	return res, true
}

// Effect is the record's effect of the last move played (nil before the
// first), read by the match loop right after each move so that listeners
// get it live.
func (r Referee) Effect() json.RawMessage {
	if r.Effects == nil || len(*r.Effects) == 0 {
		return nil
	}
	data, _ := json.Marshal((*r.Effects)[len(*r.Effects)-1])
	return data
}
