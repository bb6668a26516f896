package khet

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"arena/game"
)

// Defaults of Config.
const (
	DefaultMaxPlies   = 400
	DefaultRepetition = 3
)

// Reasons a Khet game ends besides the shared faults.
const (
	ReasonPharaoh    game.Reason = "pharaoh"    // G: a Pharaoh was hit
	ReasonRepetition game.Reason = "repetition" // G3: third occurrence of a position
	ReasonMaxPlies   game.Reason = "max-plies"  // GM: the ply limit was reached
)

// Config holds a game's parameters.
type Config struct {
	Setup Setup
	Rules Rules
	// MaxPlies ends the game as a draw (dGM) after this many plies; 0
	// means no limit.
	MaxPlies int
	// Repetition ends the game as a draw (dG3) when a position (pieces,
	// orientations, side to move) occurs this many times; 0 means never.
	Repetition int
}

// DefaultConfig is the Tartu contest's game with the spec's decisions.
func DefaultConfig() Config {
	return Config{Setup: Classic, MaxPlies: DefaultMaxPlies, Repetition: DefaultRepetition}
}

// Validate checks the parameters.
func (c Config) Validate() error {
	if _, err := ParseSetup(string(c.Setup)); err != nil {
		return err
	}
	if c.MaxPlies < 0 {
		return fmt.Errorf("max plies %d: must not be negative", c.MaxPlies)
	}
	if c.Repetition < 0 || c.Repetition == 1 {
		return fmt.Errorf("repetition %d: want 0 (off) or at least 2", c.Repetition)
	}
	return nil
}

// Outcome is how a game ended.
type Outcome struct {
	// Winner is the winning colour's side (0 Silver, 1 Red), -1 for a draw.
	Winner int
	// Code is the seed's reason letter(s): G, G3, GM, E or T.
	Code   string
	Reason game.Reason
	Detail string
}

// Result renders the state string's result field: SG, RE, dG3 ...
func (o Outcome) Result() string {
	if o.Winner < 0 {
		return "d" + o.Code
	}
	return string(Color(o.Winner).Letter()) + o.Code
}

// Ply is one played move and what its laser did.
type Ply struct {
	Move Move
	Shot Shot
}

// State is the referee: a game from its setup to its end. It is pure: no
// I/O, no clocks.
type State struct {
	cfg     Config
	board   *Board
	history []Ply
	seen    map[key]int
	over    bool
	outcome Outcome
}

// NewState starts a game.
func NewState(cfg Config) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	b, err := SetupBoard(cfg.Setup, cfg.Rules)
	if err != nil {
		return nil, err
	}
	return stateFrom(cfg, b), nil
}

// stateFrom starts a game from any position (tests build positions the
// setups never reach).
func stateFrom(cfg Config, b *Board) *State {
	s := &State{cfg: cfg, board: b, seen: map[key]int{}}
	s.seen[b.key()] = 1
	return s
}

// Config returns the game's parameters.
func (s *State) Config() Config { return s.cfg }

// Board returns a copy of the current position.
func (s *State) Board() *Board { return s.board.Clone() }

// ToMove is the colour to move.
func (s *State) ToMove() Color { return s.board.toMove }

// Plies is the number of moves played.
func (s *State) Plies() int { return len(s.history) }

// History lists the moves played with their shots.
func (s *State) History() []Ply { return s.history }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.over }

// Outcome is the end of the game, once Over.
func (s *State) Outcome() Outcome { return s.outcome }

// ErrOver is returned for a move after the end of the game.
var ErrOver = errors.New("the game is over")

// Play applies a move, fires the mover's laser and judges the end.
func (s *State) Play(m Move) (Shot, error) {
	if s.over {
		return Shot{}, ErrOver
	}
	if err := s.board.Check(m); err != nil {
		return Shot{}, err
	}
	mover := s.board.toMove
	// Trace on a copy after the move but before the laser, so the shot
	// reports the hit piece as it was hit.
	after := s.board.Clone()
	after.move(m)
	shot := after.Trace(mover)
	s.board.Make(m)
	s.history = append(s.history, Ply{Move: m, Shot: shot})
	s.judge(mover, shot)
	return shot, nil
}

// judge ends the game after a move: a Pharaoh hit (the owner loses, even
// when he fired), a repeated position, the ply limit.
func (s *State) judge(mover Color, shot Shot) {
	if r := shot.Removed.Piece; r.IsPiece() && r.Kind() == Pharaoh {
		loser := r.Color()
		detail := fmt.Sprintf("%v's laser hit %v's pharaoh", mover, loser)
		s.end(Outcome{Winner: int(loser.Other()), Code: "G", Reason: ReasonPharaoh, Detail: detail})
		return
	}
	k := s.board.key()
	s.seen[k]++
	if n := s.cfg.Repetition; n > 0 && s.seen[k] >= n {
		s.end(Outcome{Winner: -1, Code: "G3", Reason: ReasonRepetition,
			Detail: fmt.Sprintf("the position occurred %d times", s.seen[k])})
		return
	}
	if n := s.cfg.MaxPlies; n > 0 && len(s.history) >= n {
		s.end(Outcome{Winner: -1, Code: "GM", Reason: ReasonMaxPlies, Detail: game.Count(n, "ply") + " played"})
	}
}

func (s *State) end(o Outcome) {
	s.over, s.outcome = true, o
}

// Forfeit ends the game because c failed: the opponent wins, by T for a
// timeout and E for anything else (an invalid move, a line that is not a
// move, a crash).
func (s *State) Forfeit(c Color, reason game.Reason, detail string) {
	if s.over {
		return
	}
	code := "E"
	if reason == game.ReasonTimeout {
		code = "T"
	}
	s.end(Outcome{Winner: int(c.Other()), Code: code, Reason: reason, Detail: detail})
}

// String renders the state as the protocol sends it:
// <result|-> <lastmove#shot|-> <plies> <count> <pieces>.
func (s *State) String() string {
	out := make([]byte, 0, 200)
	if s.over {
		out = append(out, s.outcome.Result()...)
	} else {
		out = append(out, '-')
	}
	out = append(out, ' ')
	if n := len(s.history); n > 0 {
		last := s.history[n-1]
		out = last.Move.appendTo(out)
		out = append(out, '#')
		out = append(out, last.Shot.String()...)
	} else {
		out = append(out, '-')
	}
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(len(s.history)), 10)
	out = append(out, ' ')
	return string(s.board.appendBoard(out))
}

// Position is a state string read back: what a bot learns from a B, R or
// E line.
type Position struct {
	Result string // "" while the game runs, else e.g. "SG", "dG3"
	Last   string // the last move and shot, "" before the first move
	Plies  int
	Board  *Board // side to move: Silver after an even number of plies
}

// ParseState reads a state string. rules are those the returned board
// generates moves by.
func ParseState(text string, rules Rules) (*Position, error) {
	f := strings.Fields(text)
	if len(f) < 4 {
		return nil, fmt.Errorf("%w: state %q: want result, last move, plies, count and pieces", ErrSyntax, clip(text))
	}
	pos := &Position{}
	if f[0] != "-" {
		if !validResult(f[0]) {
			return nil, fmt.Errorf("%w: state: result %q", ErrSyntax, clip(f[0]))
		}
		pos.Result = f[0]
	}
	if f[1] != "-" {
		if err := validLast(f[1]); err != nil {
			return nil, err
		}
		pos.Last = f[1]
	}
	plies, err := strconv.Atoi(f[2])
	if err != nil || plies < 0 || len(f[2]) > 6 {
		return nil, fmt.Errorf("%w: state: plies %q", ErrSyntax, clip(f[2]))
	}
	pos.Plies = plies
	count, err := strconv.Atoi(f[3])
	if err != nil || count != len(f)-4 {
		return nil, fmt.Errorf("%w: state: count %q but %d pieces", ErrSyntax, clip(f[3]), len(f)-4)
	}
	pieces := make([]PlacedPiece, 0, count)
	for _, tok := range f[4:] {
		pp, err := ParsePiece(tok)
		if err != nil {
			return nil, fmt.Errorf("state: %w", err)
		}
		pieces = append(pieces, pp)
	}
	pos.Board, err = NewBoard(pieces, Color(plies%2), rules)
	if err != nil {
		return nil, fmt.Errorf("%w: state: %v", ErrSyntax, err)
	}
	return pos, nil
}

func validResult(r string) bool {
	if len(r) < 2 || (r[0] != 'S' && r[0] != 'R' && r[0] != 'd') {
		return false
	}
	switch r[1:] {
	case "G", "G3", "GM", "E", "T":
		return true
	}
	return false
}

// validLast checks "<move>#<sx><sy><path>[X<piece>]".
func validLast(s string) error {
	mv, shot, ok := strings.Cut(s, "#")
	if !ok {
		return fmt.Errorf("%w: state: last move %q has no #", ErrSyntax, clip(s))
	}
	if _, err := ParseMove(mv); err != nil {
		return fmt.Errorf("state: last move: %w", err)
	}
	path, hit, removed := strings.Cut(shot, "X")
	if len(path) < 2 {
		return fmt.Errorf("%w: state: shot %q", ErrSyntax, clip(shot))
	}
	for i, ch := range []byte(path) {
		if ch < '0' || (i < 2 && ch > '9') || (i >= 2 && ch > '3') {
			return fmt.Errorf("%w: state: shot %q", ErrSyntax, clip(shot))
		}
	}
	if removed {
		if _, err := ParsePiece(hit); err != nil {
			return fmt.Errorf("state: shot: %w", err)
		}
	}
	return nil
}
