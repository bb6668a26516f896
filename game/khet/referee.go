package khet

import (
	"encoding/json"
	"fmt"

	"arena/game"
)

// Referee adapts a State to the match loop: side 0 is Silver (moves
// first), side 1 Red, and a failing side loses the game.
type Referee struct{ *State }

// sides lists the side to move without allocating.
var sides = [2][]int{{0}, {1}}

// ToMove returns the side to move, or nothing once the game is over.
func (r Referee) ToMove() []int {
	if r.Over() {
		return nil
	}
	return sides[r.State.ToMove()]
}

// Play applies side's move.
func (r Referee) Play(side int, m Move) error {
	if side != int(r.State.ToMove()) {
		return fmt.Errorf("side %d moved out of turn", side)
	}
	_, err := r.State.Play(m)
	return err
}

// Forfeit ends the game: the failing side loses (T for a timeout, E for
// anything else).
func (r Referee) Forfeit(side int, f game.Fault) {
	r.State.Forfeit(Color(side), f.Reason, f.Detail)
}

// Result converts the outcome once the game is over.
func (r Referee) Result() (game.Result, bool) {
	if !r.Over() {
		return game.Result{}, false
	}
	o := r.Outcome()
	return game.Result{Winner: o.Winner, Reason: o.Reason, Detail: o.Detail}, true
}

// Effect is the record's effect of the last move played (nil before the
// first): the match loop reads it right after each move, so listeners
// get it live and the record keeps it.
func (r Referee) Effect() json.RawMessage {
	h := r.History()
	if len(h) == 0 {
		return nil
	}
	data, _ := json.Marshal(effectOf(h[len(h)-1].Shot, r.State))
	return data
}
