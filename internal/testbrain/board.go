// Package testbrain holds the move policies of the arena's test brain: a
// small, deliberately weak Gomoku player used to exercise the tournament
// manager. Boards are given as PLOCHA.DAT-style bytes ('-' empty, 'x' and
// 'o' stones, '#' squares blocked by completed fives).
//
// The policies are pure functions of the board and a caller-supplied
// random source, so a fixed seed gives a reproducible game.
package testbrain

import (
	"errors"
	"fmt"
	"strings"
)

// Square values used in Board.Cells.
const (
	Empty   byte = '-'
	X       byte = 'x'
	O       byte = 'o'
	Blocked byte = '#'
)

// WinLength is the run length that wins (five or more, rule 0).
const WinLength = 5

// Board is a position: Cells row-major (index y*W+x) holding '-', 'x', 'o'
// or '#' (blocked).
type Board struct {
	W, H  int
	Cells []byte
}

// NewBoard returns an empty w×h board.
func NewBoard(w, h int) Board {
	cells := make([]byte, w*h)
	for i := range cells {
		cells[i] = Empty
	}
	return Board{W: w, H: h, Cells: cells}
}

// ParseBoard reads a board from PLOCHA.DAT rows. Blank rows are skipped and
// trailing white space (a CR left by CRLF files included) is ignored; the
// size is detected from the rows, which must all be equally long and hold
// only '-', 'x', 'o' and '#'. Upper-case 'X' and 'O' are accepted as stones.
func ParseBoard(rows []string) (Board, error) {
	var b Board
	for _, r := range rows {
		r = strings.TrimRight(r, " \t\r\n")
		if strings.TrimSpace(r) == "" {
			continue
		}
		if b.H == 0 {
			b.W = len(r)
		} else if len(r) != b.W {
			return Board{}, fmt.Errorf("row %d has %d squares, want %d", b.H, len(r), b.W)
		}
		for i := 0; i < len(r); i++ {
			c := r[i]
			switch c {
			case Empty, X, O, Blocked:
			case 'X', 'O':
				c += 'a' - 'A'
			default:
				return Board{}, fmt.Errorf("row %d column %d: bad square %q", b.H, i, c)
			}
			b.Cells = append(b.Cells, c)
		}
		b.H++
	}
	if b.H == 0 {
		return Board{}, errors.New("empty board")
	}
	return b, nil
}

// String renders the board as PLOCHA.DAT rows, each ending in LF.
func (b Board) String() string {
	var sb strings.Builder
	for y := 0; y < b.H; y++ {
		sb.Write(b.Cells[y*b.W : (y+1)*b.W])
		sb.WriteByte('\n')
	}
	return sb.String()
}

// In reports whether (x, y) lies on the board.
func (b Board) In(x, y int) bool {
	return x >= 0 && y >= 0 && x < b.W && y < b.H
}

// At returns the square at (x, y); off-board squares read as Blocked.
func (b Board) At(x, y int) byte {
	if !b.In(x, y) {
		return Blocked
	}
	return b.Cells[y*b.W+x]
}

// Set puts c on (x, y); it panics if the square is off the board.
func (b Board) Set(x, y int, c byte) {
	if !b.In(x, y) {
		panic(fmt.Sprintf("testbrain: square %d,%d is off the %dx%d board", x, y, b.W, b.H))
	}
	b.Cells[y*b.W+x] = c
}

// Clone returns a deep copy of b.
func (b Board) Clone() Board {
	return Board{W: b.W, H: b.H, Cells: append([]byte(nil), b.Cells...)}
}

// Count returns how many squares hold c.
func (b Board) Count(c byte) int {
	n := 0
	for _, v := range b.Cells {
		if v == c {
			n++
		}
	}
	return n
}

// Opponent returns the other side's stone for 'x' or 'o', and 0 for
// anything else.
func Opponent(me byte) byte {
	switch me {
	case X:
		return O
	case O:
		return X
	}
	return 0
}

// directions returns the four line directions: horizontal, vertical and
// the two diagonals.
func directions() [4][2]int {
	return [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
}

// LineThrough returns the length of the longest run of side's stones
// through (x, y) if side had a stone there, in any of the four directions.
// The square itself counts whatever it holds; '#' and the other side's
// stones end a run.
func (b Board) LineThrough(x, y int, side byte) int {
	best := 0
	for _, d := range directions() {
		n := 1
		for k := 1; b.At(x+k*d[0], y+k*d[1]) == side; k++ {
			n++
		}
		for k := 1; b.At(x-k*d[0], y-k*d[1]) == side; k++ {
			n++
		}
		if n > best {
			best = n
		}
	}
	return best
}

// HasFive reports whether side has WinLength or more stones in a row
// anywhere on the board.
func (b Board) HasFive(side byte) bool {
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			if b.At(x, y) != side {
				continue
			}
			for _, d := range directions() {
				// Count only from the start of a run.
				if b.At(x-d[0], y-d[1]) == side {
					continue
				}
				n := 1
				for b.At(x+n*d[0], y+n*d[1]) == side {
					n++
				}
				if n >= WinLength {
					return true
				}
			}
		}
	}
	return false
}

// nearStone reports whether a stone ('x' or 'o') lies within one square
// of (x, y), diagonals included.
func (b Board) nearStone(x, y int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx == 0 && dy == 0 {
				continue
			}
			if c := b.At(x+dx, y+dy); c == X || c == O {
				return true
			}
		}
	}
	return false
}
