package gomoku

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Board size limits.
const (
	MinSize = 5
	MaxSize = 32
)

// Rule is a Gomocup rule code as sent in INFO rule: a bit mask where
// 1 = exactly five, 2 = continuous game, 4 = renju, 8 = caro.
type Rule int

// The rule bits.
const (
	Freestyle  Rule = 0
	ExactFive  Rule = 1
	Continuous Rule = 2
	Renju      Rule = 4
	Caro       Rule = 8
)

// Valid reports whether r is one of the supported combinations:
// 0, 1, 2, 3, 4, 8 and 9.
func (r Rule) Valid() error {
	switch r {
	case 0, 1, 2, 3, 4, 8, 9:
		return nil
	}
	return fmt.Errorf("rule %d is not supported (use 0 five or more, 1 exactly five, 2 continuous, 3 continuous + exactly five, 4 renju, 8 caro, 9 caro + exactly five)", int(r))
}

// Has reports whether all bits of b are set in r.
func (r Rule) Has(b Rule) bool { return r&b == b && b != 0 }

// String names the rule in words.
func (r Rule) String() string {
	switch r {
	case 0:
		return "freestyle"
	case 1:
		return "exactly five"
	case 2:
		return "continuous"
	case 3:
		return "continuous, exactly five"
	case 4:
		return "renju"
	case 8:
		return "caro"
	case 9:
		return "caro, exactly five"
	}
	return "rule " + strconv.Itoa(int(r))
}

// Stone is the content of a square.
type Stone uint8

// Square contents. Black moves first.
const (
	Empty Stone = iota
	Black
	White
)

// Opponent returns the other colour; Empty stays Empty.
func (s Stone) Opponent() Stone {
	switch s {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// Char returns the PLOCHA.DAT character of the stone: 'x', 'o' or '-'.
func (s Stone) Char() byte {
	switch s {
	case Black:
		return 'x'
	case White:
		return 'o'
	}
	return '-'
}

// Side returns 0 for Black and 1 for White: the index of the side in move
// order.
func (s Stone) Side() int { return int(s) - 1 }

// StoneOf returns the stone of side 0 (Black) or 1 (White).
func StoneOf(side int) Stone { return Stone(side + 1) }

// Point is a square: X is the column and Y the row, both 0-based from the
// top-left corner, as the Gomocup protocols write them.
type Point struct{ X, Y int }

// String formats p as the protocols do: "x,y".
func (p Point) String() string { return strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) }

// ErrBadPoint is returned for text that is not "x,y".
var ErrBadPoint = errors.New("not a move of the form x,y")

// ParsePoint reads "x,y" (spaces around the numbers are allowed).
func ParsePoint(s string) (Point, error) {
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return Point{}, fmt.Errorf("%w: %q", ErrBadPoint, clip(s))
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if err1 != nil || err2 != nil {
		return Point{}, fmt.Errorf("%w: %q", ErrBadPoint, clip(s))
	}
	return Point{x, y}, nil
}

// clip shortens s for error messages.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Config holds the parameters of one game.
type Config struct {
	Width, Height int
	Rule          Rule
	// EndEmpty ends the game as soon as at most this many squares are
	// empty (0: the board must be full). Piskvork uses 25.
	EndEmpty int
	// MaxMoves ends the game as a draw after this many stones (0: no
	// limit). Gomocup renju uses 200.
	MaxMoves int
}

// DefaultConfig is the Gomocup freestyle board: 20x20, five or more.
func DefaultConfig() Config { return Config{Width: 20, Height: 20} }

// Validate checks the sizes and the rule.
func (c Config) Validate() error {
	if c.Width < MinSize || c.Width > MaxSize || c.Height < MinSize || c.Height > MaxSize {
		return fmt.Errorf("board %dx%d: each side must be %d..%d", c.Width, c.Height, MinSize, MaxSize)
	}
	if c.EndEmpty < 0 || c.MaxMoves < 0 {
		return errors.New("end-empty and max-moves must not be negative")
	}
	return c.Rule.Valid()
}
