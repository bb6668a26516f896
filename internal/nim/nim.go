package nim

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"arena/game"
)

// Take is one move: the number of stones taken.
type Take int

func (t Take) String() string { return strconv.Itoa(int(t)) }

// ParseTake reads a move.
func ParseTake(s string) (Take, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of stones", s)
	}
	return Take(n), nil
}

// State is a game of Nim: the pure referee, no I/O.
type State struct {
	left, maxTake int
	toMove        int // side
	over          bool
	result        game.Result
}

// NewState starts a game with a pile of stones.
func NewState(stones, maxTake int) (*State, error) {
	if stones < 1 || maxTake < 1 || maxTake > stones {
		return nil, fmt.Errorf("nim: %d stones, at most %d a move: want 1 <= max_take <= stones", stones, maxTake)
	}
	return &State{left: stones, maxTake: maxTake}, nil
}

// Left is the stones left; ToMove the side to move.
func (s *State) Left() int   { return s.left }
func (s *State) ToMove() int { return s.toMove }
func (s *State) Over() bool  { return s.over }

// Most is the most stones the side to move may take.
func (s *State) Most() int { return min(s.maxTake, s.left) }

// Check says why t may not be played now, or nil.
func (s *State) Check(t Take) error {
	switch {
	case s.over:
		return errors.New("the game is over")
	case int(t) < 1 || int(t) > s.Most():
		return fmt.Errorf("take %d: want 1 to %d", t, s.Most())
	}
	return nil
}

// Play takes t stones for the side to move.
func (s *State) Play(t Take) error {
	if err := s.Check(t); err != nil {
		return err
	}
	s.left -= int(t)
	if s.left == 0 {
		s.over = true
		s.result = game.Result{Winner: s.toMove, Reason: "last"}
		return nil
	}
	s.toMove = 1 - s.toMove
	return nil
}

// Forfeit ends the game: side failed and loses.
func (s *State) Forfeit(side int, f game.Fault) {
	if s.over {
		return
	}
	s.over = true
	s.result = game.Result{Winner: 1 - side, Reason: f.Reason, Detail: f.Detail}
}

// Referee is the State as the match loop sees it.
type Referee struct{ *State }

// ToMove lists the side to move, none once the game is over.
func (r Referee) ToMove() []int {
	if r.over {
		return nil
	}
	return []int{r.toMove}
}

// Play applies a side's move.
func (r Referee) Play(side int, t Take) error {
	if side != r.toMove {
		return fmt.Errorf("side %d moved out of turn", side)
	}
	return r.State.Play(t)
}

// Forfeit records that a side failed.
func (r Referee) Forfeit(side int, f game.Fault) { r.State.Forfeit(side, f) }

// Result is the result once the game is over.
func (r Referee) Result() (game.Result, bool) { return r.result, r.over }

// Effect is the stones left after the move just played.
func (r Referee) Effect() json.RawMessage {
	data, _ := json.Marshal(map[string]int{"left": r.left})
	return data
}
