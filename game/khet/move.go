package khet

import (
	"errors"
	"fmt"
)

// Action is what a move does with its piece: a keypad digit 0..8 steps
// one square (4, the piece's own square, is never valid), RotateCW and
// RotateCCW turn it a quarter in place.
//
//	0 1 2
//	3 . 5     digit d: dx = d%3 - 1, dy = d/3 - 1
//	6 7 8
type Action uint8

// The two rotations ('C' and 'c' in the protocol).
const (
	RotateCW  Action = 9
	RotateCCW Action = 10
)

// Letter is the action's protocol character.
func (a Action) Letter() byte {
	switch {
	case a <= 8:
		return '0' + byte(a)
	case a == RotateCW:
		return 'C'
	case a == RotateCCW:
		return 'c'
	}
	return '?'
}

// Step reports the square offset of a step action.
func (a Action) Step() (dx, dy int, ok bool) {
	if a > 8 || a == 4 {
		return 0, 0, false
	}
	return int(a)%3 - 1, int(a)/3 - 1, true
}

// stepDelta is the mailbox offset of each keypad digit.
var stepDelta = func() (d [9]int) {
	for a := range 9 {
		d[a] = (a/3-1)*stride + a%3 - 1
	}
	return d
}()

// steps are the eight real step digits.
var steps = [8]Action{0, 1, 2, 3, 5, 6, 7, 8}

// Move is one move as the protocol writes it: the mover's colour, the
// square of the piece and the action. A parsed move may name any square
// 0..9, 0..9; the rules decide whether it is legal.
type Move struct {
	Color Color
	X, Y  uint8
	Act   Action
}

// String renders the move as the protocol does: S23C.
func (m Move) String() string {
	return string(m.appendTo(make([]byte, 0, 4)))
}

func (m Move) appendTo(dst []byte) []byte {
	return append(dst, m.Color.Letter(), '0'+m.X, '0'+m.Y, m.Act.Letter())
}

func (m Move) square() Square { return SquareAt(int(m.X), int(m.Y)) }

func (m Move) onBoard() bool { return m.X < Width && m.Y < Height }

// ErrSyntax is wrapped by every parse error of moves and states.
var ErrSyntax = errors.New("syntax")

// ParseMove reads a move: exactly four characters, colour letter, x digit,
// y digit, action (0-8, C or c).
func ParseMove(s string) (Move, error) {
	if len(s) != 4 {
		return Move{}, fmt.Errorf("%w: move %q: want 4 characters such as S23C", ErrSyntax, clip(s))
	}
	c, ok := ColorOf(s[0])
	if !ok {
		return Move{}, fmt.Errorf("%w: move %q: colour must be S or R", ErrSyntax, s)
	}
	if s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9' {
		return Move{}, fmt.Errorf("%w: move %q: coordinates must be digits", ErrSyntax, s)
	}
	var a Action
	switch ch := s[3]; {
	case ch >= '0' && ch <= '8':
		a = Action(ch - '0')
	case ch == 'C':
		a = RotateCW
	case ch == 'c':
		a = RotateCCW
	default:
		return Move{}, fmt.Errorf("%w: move %q: action must be 0-8, C or c", ErrSyntax, s)
	}
	return Move{Color: c, X: s[1] - '0', Y: s[2] - '0', Act: a}, nil
}

// ParsePiece reads one piece of a state string: S47P0.
func ParsePiece(s string) (PlacedPiece, error) {
	if len(s) != 5 {
		return PlacedPiece{}, fmt.Errorf("%w: piece %q: want 5 characters such as S47P0", ErrSyntax, clip(s))
	}
	c, ok := ColorOf(s[0])
	if !ok {
		return PlacedPiece{}, fmt.Errorf("%w: piece %q: colour must be S or R", ErrSyntax, s)
	}
	x, y := int(s[1])-'0', int(s[2])-'0'
	if x < 0 || x >= Width || y < 0 || y >= Height {
		return PlacedPiece{}, fmt.Errorf("%w: piece %q: square off the board", ErrSyntax, s)
	}
	var k Kind
	for k = 0; k <= Sphinx; k++ {
		if kindLetters[k] == s[3] {
			break
		}
	}
	if k > Sphinx {
		return PlacedPiece{}, fmt.Errorf("%w: piece %q: kind must be one of %s", ErrSyntax, s, kindLetters)
	}
	if s[4] < '0' || s[4] > '3' {
		return PlacedPiece{}, fmt.Errorf("%w: piece %q: direction must be 0-3", ErrSyntax, s)
	}
	return PlacedPiece{X: x, Y: y, Piece: MakePiece(c, k, Dir(s[4]-'0'))}, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Moves appends every legal move of the side to move to dst. Khet has no
// check: every move the movement rules allow is legal, even one whose
// laser then hits the mover's own Pharaoh.
func (b *Board) Moves(dst []Move) []Move {
	c := b.toMove
	for _, sq := range squares {
		p := b.sq[sq]
		if !p.IsPiece() || p.Color() != c {
			continue
		}
		x, y := uint8(sq.X()), uint8(sq.Y())
		k := p.Kind()
		if k == Sphinx {
			for _, a := range [2]Action{RotateCW, RotateCCW} {
				if b.sphinxTurnOK(sq, p, a) {
					dst = append(dst, Move{c, x, y, a})
				}
			}
			continue
		}
		for _, a := range steps {
			to := Square(int(sq) + stepDelta[a])
			t := b.sq[to]
			if t == offBoard || !allowed[c][to] {
				continue
			}
			if t == 0 || (k == Scarab && b.swapOK(sq, t)) {
				dst = append(dst, Move{c, x, y, a})
			}
		}
		if k != Pharaoh || b.rules.PharaohRotation {
			dst = append(dst, Move{c, x, y, RotateCW}, Move{c, x, y, RotateCCW})
		}
	}
	return dst
}

// sphinxTurnOK reports whether turning the Sphinx on sq by a keeps its
// laser pointing onto the board.
func (b *Board) sphinxTurnOK(sq Square, p Piece, a Action) bool {
	turn := 1
	if a == RotateCCW {
		turn = -1
	}
	return b.sq[int(sq)+delta[p.rotated(turn).Dir()]] != offBoard
}

// swapOK reports whether a Scarab on from may swap with piece t (already
// known to stand on an allowed square for the Scarab): only Pyramids and
// Anubises of either colour, and t must be allowed on from unless the
// rules check the mover only.
func (b *Board) swapOK(from Square, t Piece) bool {
	if k := t.Kind(); !t.IsPiece() || (k != Pyramid && k != Anubis) {
		return false
	}
	return b.rules.SwapMoverOnly || allowed[t.Color()][from]
}

// Check returns why m is not legal for the side to move, or nil.
func (b *Board) Check(m Move) error {
	if m.Color != b.toMove {
		return fmt.Errorf("%v: it is %v's move", m, b.toMove)
	}
	if !m.onBoard() {
		return fmt.Errorf("%v: square %d%d is off the board", m, m.X, m.Y)
	}
	sq := m.square()
	p := b.sq[sq]
	switch {
	case !p.IsPiece():
		return fmt.Errorf("%v: no piece on %d%d", m, m.X, m.Y)
	case p.Color() != m.Color:
		return fmt.Errorf("%v: the piece on %d%d is %v's", m, m.X, m.Y, p.Color())
	}
	k := p.Kind()
	if m.Act == RotateCW || m.Act == RotateCCW {
		switch {
		case k == Sphinx && !b.sphinxTurnOK(sq, p, m.Act):
			return fmt.Errorf("%v: the sphinx would point off the board", m)
		case k == Pharaoh && !b.rules.PharaohRotation:
			return fmt.Errorf("%v: the pharaoh may not be rotated", m)
		}
		return nil
	}
	if k == Sphinx {
		return fmt.Errorf("%v: the sphinx never moves, it only rotates", m)
	}
	if m.Act > 8 || m.Act == 4 {
		return fmt.Errorf("%v: action %c is not a move", m, m.Act.Letter())
	}
	to := Square(int(sq) + stepDelta[m.Act])
	t := b.sq[to]
	switch {
	case t == offBoard:
		return fmt.Errorf("%v: the step leaves the board", m)
	case !allowed[m.Color][to]:
		return fmt.Errorf("%v: %v may not enter %v (restricted square)", m, m.Color, to)
	case t == 0:
		return nil
	case k != Scarab:
		return fmt.Errorf("%v: %v is occupied", m, to)
	case t.Kind() != Pyramid && t.Kind() != Anubis:
		return fmt.Errorf("%v: a scarab swaps only with a pyramid or an anubis", m)
	case !b.swapOK(sq, t):
		return fmt.Errorf("%v: the swapped %v piece may not enter %v (restricted square)", m, t.Color(), sq)
	}
	return nil
}

// Undo holds what Make changed, for Unmake.
type Undo struct {
	a, b       Square // squares the move changed (b is 0 for rotations)
	oldA, oldB Piece
	removedSq  Square // 0: the laser removed nothing
	removed    Piece
	hash       uint64
	pharaoh    [2]Square
}

// Removed is the piece the move's laser removed (0 if none).
func (u *Undo) Removed() Piece { return u.removed }

// Make plays a legal move (the caller checked it), fires the mover's
// laser, removes what it destroys and passes the turn.
func (b *Board) Make(m Move) Undo {
	u := b.move(m)
	if hit, ok := b.fire(b.toMove, nil); ok {
		u.removedSq, u.removed = hit, b.sq[hit]
		b.set(hit, 0)
		b.count--
		if u.removed.Kind() == Pharaoh {
			b.pharaoh[u.removed.Color()] = 0
		}
	}
	b.toMove ^= 1
	b.hash ^= zobristSide
	return u
}

// move moves or turns the piece, without firing or passing the turn.
func (b *Board) move(m Move) Undo {
	sq := m.square()
	p := b.sq[sq]
	u := Undo{a: sq, oldA: p, hash: b.hash, pharaoh: b.pharaoh}
	switch m.Act {
	case RotateCW:
		b.set(sq, p.rotated(1))
	case RotateCCW:
		b.set(sq, p.rotated(-1))
	default:
		to := Square(int(sq) + stepDelta[m.Act])
		t := b.sq[to]
		u.b, u.oldB = to, t
		b.set(to, p)
		b.set(sq, t) // t is 0, or the piece a Scarab swaps with
		b.moved(p, to)
		if t.IsPiece() {
			b.moved(t, sq)
		}
	}
	return u
}

// moved keeps the Pharaoh squares current.
func (b *Board) moved(p Piece, to Square) {
	if p.Kind() == Pharaoh {
		b.pharaoh[p.Color()] = to
	}
}

// Unmake takes back the move Make returned u for.
func (b *Board) Unmake(u Undo) {
	b.toMove ^= 1
	if u.removedSq != 0 {
		b.sq[u.removedSq] = u.removed
		b.count++
	}
	if u.b != 0 {
		b.sq[u.b] = u.oldB
	}
	b.sq[u.a] = u.oldA
	b.hash, b.pharaoh = u.hash, u.pharaoh
}

// Clone returns an independent copy.
func (b *Board) Clone() *Board {
	c := *b
	return &c
}

// Pass hands the turn to the other side with no move and no laser shot;
// a second Pass undoes it. No rule allows passing: a search uses it to
// ask what the opponent could do if the side to move did nothing
// (null-move pruning).
func (b *Board) Pass() {
	b.toMove ^= 1
	b.hash ^= zobristSide
}
