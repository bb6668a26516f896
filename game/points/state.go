package points

import (
	"errors"
	"fmt"

	"arena/game"
)

// Config holds the parameters of a game (see the package comment).
type Config struct {
	Width, Height int
	Surround      Surround
	// Grounding ends the game as soon as a player could ground (hand its
	// dots that are not connected to the edge to the opponent) and still
	// win, as the oppai-rs server does.
	Grounding bool
	// MaxMoves ends the game after this many moves after the opening,
	// scored as it stands; 0 = no cap.
	MaxMoves int
}

// DefaultConfig is the standard game: 39 columns by 32 rows, standard
// houses, no grounding, no move cap.
func DefaultConfig() Config { return Config{Width: 39, Height: 32} }

// Validate checks the parameters.
func (c Config) Validate() error {
	if c.Width < MinSize || c.Height < MinSize || c.Width > MaxSize || c.Height > MaxSize {
		return fmt.Errorf("field %dx%d: sizes must be %d..%d", c.Width, c.Height, MinSize, MaxSize)
	}
	if int(c.Surround) >= len(surroundNames) {
		return fmt.Errorf("unknown surround variant %d", c.Surround)
	}
	if c.MaxMoves < 0 {
		return fmt.Errorf("max moves %d: must not be negative", c.MaxMoves)
	}
	return nil
}

// Reasons a game of Points ends besides the shared ones.
const (
	ReasonScore    = "score"     // no free point left; more captured dots wins
	ReasonMaxMoves = "max-moves" // the move cap; scored as it stands
	ReasonGrounded = "grounded"  // a player grounded and wins
)

// Effect is what one move did: the areas it took and the score after it.
type Effect struct {
	Captures []Capture `json:"captures,omitempty"`
	Score    [2]int    `json:"score"` // red, blue
}

// Outcome is the end of a game.
type Outcome struct {
	Winner Color // None for a draw
	Reason string
	Detail string
}

// ErrOver is returned by Play after the end of the game.
var ErrOver = errors.New("the game is over")

// State is a game of Points: the field, the moves and the result. It is
// the pure referee: no I/O, no clocks.
type State struct {
	cfg     Config
	f       *Field
	moves   []Point
	opening int
	over    bool
	out     Outcome
}

// NewState starts a game on an empty field.
func NewState(cfg Config) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	f, err := NewField(cfg.Width, cfg.Height, cfg.Surround)
	if err != nil {
		return nil, err
	}
	return &State{cfg: cfg, f: f}, nil
}

// Config returns the game's parameters.
func (s *State) Config() Config { return s.cfg }

// Field returns the position; callers must not change it.
func (s *State) Field() *Field { return s.f }

// Moves returns every dot in order, opening included.
func (s *State) Moves() []Point { return s.moves }

// OpeningLen is the number of opening dots at the start of Moves.
func (s *State) OpeningLen() int { return s.opening }

// ToMove returns the colour of the next dot.
func (s *State) ToMove() Color { return s.f.Next() }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.over }

// Outcome returns the result once the game is over.
func (s *State) Outcome() Outcome { return s.out }

// Score returns the captured-dot count of a colour.
func (s *State) Score(c Color) int { return s.f.Score(c) }

// PlayOpening places the opening dots (alternating colours, red first)
// before any move. An opening that captures or fills the field is refused.
func (s *State) PlayOpening(pts []Point) error {
	if len(s.moves) > 0 {
		return errors.New("opening after the first move")
	}
	for i, p := range pts {
		caps, err := s.f.Play(p)
		if err != nil {
			return fmt.Errorf("opening dot %d: %w", i+1, err)
		}
		if len(caps) > 0 || s.f.Free() == 0 {
			return fmt.Errorf("opening dot %d (%v) captures or fills the field", i+1, p)
		}
		s.moves = append(s.moves, p)
	}
	s.opening = len(pts)
	return nil
}

// Play puts the next dot on p and ends the game when the field is full,
// the move cap is reached or (with grounding) a player can stop and win.
func (s *State) Play(p Point) (Effect, error) {
	if s.over {
		return Effect{}, ErrOver
	}
	caps, err := s.f.Play(p)
	if err != nil {
		return Effect{}, err
	}
	s.moves = append(s.moves, p)
	eff := Effect{Captures: caps}
	mover := s.f.Next().Opp()
	switch {
	case s.f.Free() == 0:
		s.byScore(ReasonScore, "no free point left")
	case s.cfg.MaxMoves > 0 && len(s.moves)-s.opening >= s.cfg.MaxMoves:
		s.byScore(ReasonMaxMoves, game.Count(s.cfg.MaxMoves, "move")+" played")
	case s.cfg.Grounding:
		for _, c := range []Color{mover, mover.Opp()} {
			if s.groundWins(c) {
				eff.Captures = append(eff.Captures, s.f.Ground(c)...)
				s.finish(c, ReasonGrounded, fmt.Sprintf("%v grounded with a lead of %d", c, s.f.Score(c)-s.f.Score(c.Opp())))
				break
			}
		}
	}
	eff.Score = [2]int{s.f.Score(Red), s.f.Score(Blue)}
	return eff, nil
}

// groundWins reports whether c would still lead after grounding.
func (s *State) groundWins(c Color) bool {
	if s.f.Score(c) <= s.f.Score(c.Opp()) {
		return false
	}
	g := s.f.Clone()
	g.Ground(c)
	return g.Score(c) > g.Score(c.Opp())
}

func (s *State) byScore(reason, detail string) {
	r, b := s.f.Score(Red), s.f.Score(Blue)
	switch {
	case r > b:
		s.finish(Red, reason, detail)
	case b > r:
		s.finish(Blue, reason, detail)
	default:
		if reason == ReasonScore {
			reason = "draw"
		}
		s.finish(None, reason, detail)
	}
}

// Forfeit ends the game: loser loses with the reason given (timeout,
// crash, ...).
func (s *State) Forfeit(loser Color, reason, detail string) {
	if !s.over {
		s.finish(loser.Opp(), reason, detail)
	}
}

func (s *State) finish(winner Color, reason, detail string) {
	s.over = true
	s.out = Outcome{Winner: winner, Reason: reason, Detail: detail}
}
