package khet

import (
	"fmt"
	"strings"
)

// Setup names a standard starting position.
type Setup string

// The three standard setups of Khet 2.0. The Tartu contest used Classic.
const (
	Classic Setup = "classic"
	Imhotep Setup = "imhotep"
	Dynasty Setup = "dynasty"
)

// Setups lists the standard setups.
func Setups() []Setup { return []Setup{Classic, Imhotep, Dynasty} }

// setupPieces are the setups in the seed's notation (Classic is the
// seed's own initial state; Imhotep and Dynasty are the rel1c layouts
// converted, see the spec, B5). All three are symmetric under a half turn.
var setupPieces = map[Setup]string{
	Classic: "R00X2 R40A2 R50P2 R60A2 R70Y1 R21Y2 S32Y3 R03Y0 S23Y2 R43C0 R53C1 R73Y1 S93Y3 R04Y1 S24Y3 S44C3 S54C2 R74Y0 S94Y2 R65Y1 S76Y0 S27Y3 S37A0 S47P0 S57A0 S97X0",
	Imhotep: "R00X2 R40A2 R50P2 R60A2 R70C1 S32Y3 R62Y0 R03Y0 S13Y2 S43Y1 R53C1 R83Y1 S93Y3 R04Y1 S14Y3 S44C3 R54Y3 R84Y0 S94Y2 S35Y2 R65Y1 S27C3 S37A0 S47P0 S57A0 S97X0",
	Dynasty: "R00X2 R40Y2 R50A2 R60Y1 R51P2 R02Y0 R42Y2 R52A2 R62C3 R03Y1 R23C2 S43Y3 S63Y1 R34Y3 R54Y1 S74C0 S94Y3 S35C1 S45A0 S55Y0 S95Y2 S46P0 S37Y3 S47A0 S57Y0 S97X0",
}

// ParseSetup reads a setup name (any case).
func ParseSetup(name string) (Setup, error) {
	s := Setup(strings.ToLower(strings.TrimSpace(name)))
	if _, ok := setupPieces[s]; !ok {
		return "", fmt.Errorf("setup %q: want classic, imhotep or dynasty", name)
	}
	return s, nil
}

// SetupBoard returns the starting position of a setup, Silver to move.
func SetupBoard(s Setup, rules Rules) (*Board, error) {
	text, ok := setupPieces[s]
	if !ok {
		return nil, fmt.Errorf("setup %q: want classic, imhotep or dynasty", s)
	}
	var pieces []PlacedPiece
	for _, tok := range strings.Fields(text) {
		pp, err := ParsePiece(tok)
		if err != nil {
			return nil, fmt.Errorf("setup %s: %w", s, err)
		}
		pieces = append(pieces, pp)
	}
	return NewBoard(pieces, Silver, rules)
}
