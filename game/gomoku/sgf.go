package gomoku

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// SGF is a game record in the Smart Game Format, FF[4], game GM[4]
// (Gomoku and Renju).
type SGF struct {
	Width, Height int
	// Rule is written as RU[code], the Gomocup rule code.
	Rule Rule
	// Black and White are the players' names (PB, PW), Event the event
	// (EV), Date the date (DT, e.g. "2025-06-19").
	Black, White, Event, Date string
	// Result is the RE value, e.g. from SGFResult; Termination says how
	// the game ended in words (TE, as c-gomoku-cli writes it).
	Result, Termination string
	// Moves are the stones in order, Black first.
	Moves []Point
}

// sgfMaxSize is the largest board side SGF coordinates can express
// (a..z, A..Z).
const sgfMaxSize = 52

// SGFResult returns the SGF RE value for an outcome: "0" for a draw,
// "B+" or "W+" for a win by five or by score (SGF's win without a
// score), "B+T"/"W+T" when the loser ran out of time (a reason containing
// "time", e.g. "timeout"), "B+F"/"W+F" for any other forfeit (renju foul,
// crash, illegal move, ...), and "?" while the game is not over.
func SGFResult(o Outcome) string {
	var side string
	switch o.Winner {
	case Black:
		side = "B+"
	case White:
		side = "W+"
	default:
		if o == (Outcome{}) {
			return "?"
		}
		return "0"
	}
	switch r := strings.ToLower(o.Reason); {
	case r == "five" || r == "score":
		return side
	case strings.Contains(r, "time"):
		return side + "T"
	}
	return side + "F"
}

// WriteSGF writes g as one game tree:
//
//	(;FF[4]GM[4]CA[UTF-8]AP[arena]SZ[15]RU[4]PB[..]PW[..]EV[..]DT[..]RE[..]TE[..]
//	;B[hh];W[ih];B[hi]...
//	)
//
// SZ is "w:h" for a board that is not square. Empty text properties are
// left out; ']' and '\' in their values are escaped. Coordinates are
// letters from the top-left corner, column first: a..z then A..Z.
func WriteSGF(w io.Writer, g SGF) error {
	if g.Width < 1 || g.Height < 1 || g.Width > sgfMaxSize || g.Height > sgfMaxSize {
		return fmt.Errorf("write sgf: board %dx%d: each side must be 1..%d", g.Width, g.Height, sgfMaxSize)
	}
	var b strings.Builder
	b.WriteString("(;FF[4]GM[4]CA[UTF-8]AP[arena]SZ[")
	b.WriteString(strconv.Itoa(g.Width))
	if g.Height != g.Width {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(g.Height))
	}
	b.WriteString("]RU[")
	b.WriteString(strconv.Itoa(int(g.Rule)))
	b.WriteByte(']')
	for _, p := range [...]struct{ id, v string }{
		{"PB", g.Black}, {"PW", g.White}, {"EV", g.Event}, {"DT", g.Date},
		{"RE", g.Result}, {"TE", g.Termination},
	} {
		if p.v != "" {
			b.WriteString(p.id)
			b.WriteByte('[')
			b.WriteString(sgfEscape(p.v))
			b.WriteByte(']')
		}
	}
	for i, m := range g.Moves {
		if m.X < 0 || m.Y < 0 || m.X >= g.Width || m.Y >= g.Height {
			return fmt.Errorf("write sgf: move %d (%v) is off the %dx%d board", i+1, m, g.Width, g.Height)
		}
		if i%10 == 0 {
			b.WriteByte('\n')
		}
		if i%2 == 0 {
			b.WriteString(";B[")
		} else {
			b.WriteString(";W[")
		}
		b.WriteByte(sgfCoord(m.X))
		b.WriteByte(sgfCoord(m.Y))
		b.WriteByte(']')
	}
	b.WriteString("\n)\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write sgf: %w", err)
	}
	return nil
}

// sgfCoord returns the SGF letter of a coordinate 0..51.
func sgfCoord(v int) byte {
	if v < 26 {
		return byte('a' + v)
	}
	return byte('A' + v - 26)
}

// sgfEscape escapes ']' and '\' in an SGF text value.
func sgfEscape(s string) string {
	if !strings.ContainsAny(s, `]\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ']' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
