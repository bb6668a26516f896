package khet

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrBadOpening is wrapped by the errors ParseOpenings returns for a line
// that is not an opening the rules allow.
var ErrBadOpening = errors.New("bad opening")

// maxOpeningLine bounds a line of an opening file: a whole game of the
// default ply limit is 400 moves of 5 bytes.
const maxOpeningLine = 64 << 10

// ParseOpenings reads an opening file: one opening per line, its moves in
// the protocol's notation separated by spaces ("S23C R21C S54c"), played
// in turn from cfg's setup before the bots take over; blank lines and
// lines starting with # are skipped. Every opening is played through the
// rules, so a move out of turn, an illegal move or an opening that ends
// the game is an error (wrapping ErrBadOpening) that names its line.
// A match plays each opening twice, colours swapped, so openings that
// leave either side better off still give a fair pair.
func ParseOpenings(r io.Reader, cfg Config) ([][]Move, error) {
	var out [][]Move
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxOpeningLine)
	for n := 1; sc.Scan(); n++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		moves, err := parseOpening(s, cfg)
		if err != nil {
			return nil, fmt.Errorf("openings: line %d: %w: %w", n, ErrBadOpening, err)
		}
		out = append(out, moves)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	return out, nil
}

// parseOpening reads one opening line (not blank, not a comment) and
// plays it to check it.
func parseOpening(s string, cfg Config) ([]Move, error) {
	var moves []Move
	for _, f := range strings.Fields(s) {
		m, err := ParseMove(f)
		if err != nil {
			return nil, err
		}
		moves = append(moves, m)
	}
	if _, err := openingState(cfg, moves); err != nil {
		return nil, err
	}
	return moves, nil
}

// openingState plays an opening's moves from cfg's setup and returns the
// state the bots start from: an error if a move is refused or the game
// is over after them.
func openingState(cfg Config, opening []Move) (*State, error) {
	s, err := NewState(cfg)
	if err != nil {
		return nil, err
	}
	for i, m := range opening {
		if s.Over() {
			return nil, fmt.Errorf("the game is over before move %d (%s): %s", i+1, m, s.Outcome().Result())
		}
		if _, err := s.Play(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	if s.Over() {
		return nil, fmt.Errorf("the opening ends the game: %s", s.Outcome().Result())
	}
	return s, nil
}
