package khet

import (
	"fmt"
	"strings"
)

// Board size in the seed's coordinates: x 0..9 left to right, y 0..7 top
// to bottom.
const (
	Width  = 10
	Height = 8
)

// The board is kept in a mailbox with a one-square frame of off-board
// sentinels, so a beam or a step that leaves the board is noticed by
// looking at the square instead of checking coordinates.
const (
	stride    = Width + 2
	boardSize = stride * (Height + 2)
)

// Square is an index into the mailbox.
type Square uint8

// SquareAt returns the square of (x, y); the caller keeps x and y on the
// board.
func SquareAt(x, y int) Square { return Square((y+1)*stride + x + 1) }

// X is the square's column.
func (s Square) X() int { return int(s)%stride - 1 }

// Y is the square's row.
func (s Square) Y() int { return int(s)/stride - 1 }

func (s Square) String() string { return fmt.Sprintf("%d%d", s.X(), s.Y()) }

// Color is a side: Silver moves first and is side 0.
type Color uint8

// The two colours.
const (
	Silver Color = 0
	Red    Color = 1
)

// Letter is the colour's protocol letter.
func (c Color) Letter() byte { return "SR"[c] }

func (c Color) String() string { return [2]string{"silver", "red"}[c] }

// Other is the opponent's colour.
func (c Color) Other() Color { return c ^ 1 }

// ColorOf reads a colour letter.
func ColorOf(letter byte) (Color, bool) {
	switch letter {
	case 'S':
		return Silver, true
	case 'R':
		return Red, true
	}
	return 0, false
}

// Kind is a type of piece.
type Kind uint8

// The pieces of Khet 2.0.
const (
	Pharaoh Kind = iota
	Scarab
	Anubis
	Pyramid
	Sphinx
)

// kindLetters are the seed's letters: vaarao, skarabeus, Anubis, püramiid,
// sfinks.
const kindLetters = "PCAYX"

// Letter is the kind's protocol letter.
func (k Kind) Letter() byte { return kindLetters[k] }

// Dir is an orientation, and also a beam's direction of travel: 0 up
// (north), 1 right, 2 down, 3 left. What it means depends on the piece
// (see doc.go).
type Dir uint8

// delta is the mailbox step of each direction.
var delta = [4]int{-stride, 1, stride, -1}

// Step is the square offset of one step in direction d.
func (d Dir) Step() (dx, dy int) {
	return [4]int{0, 1, 0, -1}[d&3], [4]int{-1, 0, 1, 0}[d&3]
}

// Piece is one piece with its colour and orientation, or nothing (0).
// Bit 7 says a piece is there, bit 5 is the colour, bits 2-4 the kind,
// bits 0-1 the direction; offBoard marks the frame.
type Piece uint8

const (
	present  Piece = 0x80
	offBoard Piece = 0x40
)

// MakePiece builds a piece.
func MakePiece(c Color, k Kind, d Dir) Piece {
	return present | Piece(c)<<5 | Piece(k)<<2 | Piece(d&3)
}

// Color is the piece's colour.
func (p Piece) Color() Color { return Color(p>>5) & 1 }

// Kind is the piece's kind.
func (p Piece) Kind() Kind { return Kind(p>>2) & 7 }

// Dir is the piece's orientation.
func (p Piece) Dir() Dir { return Dir(p & 3) }

// IsPiece reports whether p is a piece (not empty, not off the board).
func (p Piece) IsPiece() bool { return p&present != 0 }

// rotated turns the piece a quarter: +1 clockwise, -1 counter-clockwise.
func (p Piece) rotated(turn int) Piece {
	return p&^3 | Piece((int(p.Dir())+turn)&3)
}

// zindex is the piece's index into the Zobrist table (colour, kind, dir).
func (p Piece) zindex() int { return int(p & 0x3f) }

// Rules are the choices the seed leaves open (see the spec's decisions).
type Rules struct {
	// PharaohRotation allows turning the Pharaoh in place. The Khet FAQ
	// forbids it (it would be a pass), so the default is false.
	PharaohRotation bool
	// SwapMoverOnly checks only the Scarab's destination in a swap; by
	// default the swapped piece's destination is checked as well.
	SwapMoverOnly bool
}

// Board is a position: the pieces, the side to move and the rules that
// decide which moves exist. Its zero value is not usable; build it with
// NewBoard or ParseBoard.
type Board struct {
	sq      [boardSize]Piece
	toMove  Color
	hash    uint64
	sphinx  [2]Square
	pharaoh [2]Square // 0 once the Pharaoh is gone
	count   int       // pieces on the board, Sphinxes included
	rules   Rules
}

// squares lists the on-board squares top to bottom, left to right: the
// order of the state string.
var squares = func() (s [Width * Height]Square) {
	for y := range Height {
		for x := range Width {
			s[y*Width+x] = SquareAt(x, y)
		}
	}
	return s
}()

// allowed[c][sq] says whether a piece of colour c may stand on sq: Silver
// pieces never enter Red's squares (column 0, (8,0), (8,7)) and Red pieces
// never enter Silver's (column 9, (1,0), (1,7)).
var allowed = func() (a [2][boardSize]bool) {
	for _, sq := range squares {
		x, y := sq.X(), sq.Y()
		redOnly := x == 0 || (x == 8 && (y == 0 || y == 7))
		silverOnly := x == Width-1 || (x == 1 && (y == 0 || y == 7))
		a[Silver][sq] = !redOnly
		a[Red][sq] = !silverOnly
	}
	return a
}()

// Allowed reports whether a piece of colour c may move onto (x, y).
func Allowed(c Color, x, y int) bool {
	return x >= 0 && x < Width && y >= 0 && y < Height && allowed[c][SquareAt(x, y)]
}

// PlacedPiece is a piece on a square, as the state string lists it.
type PlacedPiece struct {
	X, Y  int
	Piece Piece
}

// String renders the piece as the seed does: S47P0.
func (p PlacedPiece) String() string {
	return string([]byte{p.Piece.Color().Letter(), byte('0' + p.X), byte('0' + p.Y), p.Piece.Kind().Letter(), byte('0' + p.Piece.Dir())})
}

// NewBoard places pieces with side to move c. It checks that every piece
// is on the board, no square is used twice and each side has exactly one
// Sphinx and at most one Pharaoh.
func NewBoard(pieces []PlacedPiece, toMove Color, rules Rules) (*Board, error) {
	b := &Board{toMove: toMove, rules: rules}
	for i := range b.sq {
		b.sq[i] = offBoard
	}
	for _, sq := range squares {
		b.sq[sq] = 0
	}
	var sphinxes, pharaohs [2]int
	for _, pp := range pieces {
		if pp.X < 0 || pp.X >= Width || pp.Y < 0 || pp.Y >= Height {
			return nil, fmt.Errorf("piece %v is off the board", pp)
		}
		if !pp.Piece.IsPiece() || pp.Piece.Kind() > Sphinx {
			return nil, fmt.Errorf("bad piece at %d%d", pp.X, pp.Y)
		}
		sq := SquareAt(pp.X, pp.Y)
		if b.sq[sq] != 0 {
			return nil, fmt.Errorf("two pieces on %v", sq)
		}
		b.sq[sq] = pp.Piece
		b.count++
		c := pp.Piece.Color()
		switch pp.Piece.Kind() {
		case Sphinx:
			sphinxes[c]++
			b.sphinx[c] = sq
		case Pharaoh:
			pharaohs[c]++
			b.pharaoh[c] = sq
		}
	}
	for c := range 2 {
		if sphinxes[c] != 1 {
			return nil, fmt.Errorf("%v has %d sphinxes, want 1", Color(c), sphinxes[c])
		}
		if pharaohs[c] > 1 {
			return nil, fmt.Errorf("%v has %d pharaohs, want at most 1", Color(c), pharaohs[c])
		}
	}
	b.hash = b.computeHash()
	return b, nil
}

// ToMove is the side to move.
func (b *Board) ToMove() Color { return b.toMove }

// Hash is the position's Zobrist key (pieces, orientations, side to move).
func (b *Board) Hash() uint64 { return b.hash }

// Count is the number of pieces on the board, Sphinxes included.
func (b *Board) Count() int { return b.count }

// Rules returns the rules the board generates moves by.
func (b *Board) Rules() Rules { return b.rules }

// At returns the piece on (x, y), 0 if none.
func (b *Board) At(x, y int) Piece {
	if x < 0 || x >= Width || y < 0 || y >= Height {
		return 0
	}
	return b.sq[SquareAt(x, y)]
}

// PharaohAlive reports whether c's Pharaoh is still on the board.
func (b *Board) PharaohAlive(c Color) bool { return b.pharaoh[c] != 0 }

// Pharaoh returns the square of c's Pharaoh (ok false once it is gone).
func (b *Board) Pharaoh(c Color) (x, y int, ok bool) {
	sq := b.pharaoh[c]
	return sq.X(), sq.Y(), sq != 0
}

// Pieces lists the pieces in the state string's order (y, then x).
func (b *Board) Pieces() []PlacedPiece {
	out := make([]PlacedPiece, 0, b.count)
	for _, sq := range squares {
		if p := b.sq[sq]; p.IsPiece() {
			out = append(out, PlacedPiece{X: sq.X(), Y: sq.Y(), Piece: p})
		}
	}
	return out
}

// appendBoard renders "<count> <piece> <piece> ..." as the seed does.
func (b *Board) appendBoard(dst []byte) []byte {
	dst = fmt.Appendf(dst, "%d", b.count)
	for _, sq := range squares {
		if p := b.sq[sq]; p.IsPiece() {
			dst = append(dst, ' ', p.Color().Letter(), byte('0'+sq.X()), byte('0'+sq.Y()), p.Kind().Letter(), byte('0'+p.Dir()))
		}
	}
	return dst
}

// BoardString renders the board part of the state string.
func (b *Board) BoardString() string { return string(b.appendBoard(nil)) }

// key is the whole position (pieces, orientations and side to move),
// compared exactly for repetitions.
type key struct {
	sq     [Width * Height]Piece
	toMove Color
}

func (b *Board) key() key {
	k := key{toMove: b.toMove}
	for i, sq := range squares {
		k.sq[i] = b.sq[sq]
	}
	return k
}

// Zobrist keys come from a fixed generator so hashes are the same in
// every run (tests and bots can compare them).
var (
	zobrist     [boardSize][64]uint64
	zobristSide uint64
)

func init() {
	s := uint64(0x6b6865742d7a6f62) // "khet-zob"
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for i := range zobrist {
		for j := range zobrist[i] {
			zobrist[i][j] = next()
		}
	}
	zobristSide = next()
}

func (b *Board) computeHash() uint64 {
	var h uint64
	for _, sq := range squares {
		if p := b.sq[sq]; p.IsPiece() {
			h ^= zobrist[sq][p.zindex()]
		}
	}
	if b.toMove == Red {
		h ^= zobristSide
	}
	return h
}

// set puts p on sq (0 to empty it), keeping the hash.
func (b *Board) set(sq Square, p Piece) {
	if old := b.sq[sq]; old.IsPiece() {
		b.hash ^= zobrist[sq][old.zindex()]
	}
	if p.IsPiece() {
		b.hash ^= zobrist[sq][p.zindex()]
	}
	b.sq[sq] = p
}

// String draws the board for people (tests, debugging): one row per line,
// two letters per square (colour in case, kind) and the direction.
func (b *Board) String() string {
	var sb strings.Builder
	for y := range Height {
		for x := range Width {
			p := b.At(x, y)
			if !p.IsPiece() {
				sb.WriteString(" .. ")
				continue
			}
			k := p.Kind().Letter()
			if p.Color() == Red {
				k += 'a' - 'A'
			}
			fmt.Fprintf(&sb, " %c%d ", k, p.Dir())
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
