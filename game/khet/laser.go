package khet

// maxBeam caps a beam's length. A beam cannot loop (it starts beside a
// Sphinx, which is no mirror, and every reflection is reversible), so the
// cap only guards against a bug.
const maxBeam = 4 * Width * Height

// beamOut tells what a piece does to a beam travelling in direction t
// (0 up, 1 right, 2 down, 3 left): the new direction, or one of the
// outcomes below. It is the spec's beam table (B4), indexed by the
// piece's low 5 bits (kind and direction) and t.
const (
	beamHit  = 4 // the piece is destroyed, the beam ends
	beamStop = 5 // the beam ends harmlessly (Anubis front, Sphinx)
)

var beamOut = func() (t [32][4]uint8) {
	for k := Pharaoh; k <= Sphinx; k++ {
		for d := range Dir(4) {
			for dir := range uint8(4) {
				entry := Dir((dir + 2) & 3) // the side of the piece the beam enters
				var out uint8
				switch k {
				case Pharaoh:
					out = beamHit
				case Sphinx:
					out = beamStop
				case Anubis:
					out = beamHit
					if entry == d {
						out = beamStop
					}
				case Scarab:
					// d even: mirror "\" (3 - t); d odd: mirror "/" (t xor 1).
					if d%2 == 0 {
						out = 3 - dir
					} else {
						out = dir ^ 1
					}
				case Pyramid:
					// The mirror faces d and d+1: a beam entering through
					// one leaves through the other.
					switch entry {
					case d:
						out = uint8(d+1) & 3
					case (d + 1) & 3:
						out = uint8(d)
					default:
						out = beamHit
					}
				}
				t[int(k)<<2|int(d)][dir] = out
			}
		}
	}
	return t
}()

// sends holds, per piece (kind and direction, as beamOut), a bit for each
// direction a beam can leave the piece in after striking it.
var sends = func() (s [32]uint8) {
	for i, outs := range beamOut {
		for _, out := range outs {
			if out < 4 {
				s[i] |= 1 << out
			}
		}
	}
	return s
}()

// Sends reports whether a beam striking p from some side can leave it
// travelling in direction d: p is a mirror that can turn a beam that way.
func (p Piece) Sends(d Dir) bool { return sends[p&0x1f]&(1<<(d&3)) != 0 }

// fire follows c's laser from its Sphinx and returns the square of the
// piece it destroys, if any. When path is not nil, every step's direction
// is appended to it (the seed's trajectory digits).
func (b *Board) fire(c Color, path *[]byte) (Square, bool) {
	sq := int(b.sphinx[c])
	dir := uint8(b.sq[sq].Dir())
	for range maxBeam {
		sq += delta[dir]
		if path != nil {
			*path = append(*path, '0'+dir)
		}
		p := b.sq[sq]
		if p == 0 {
			continue
		}
		if p == offBoard {
			return 0, false
		}
		switch out := beamOut[p&0x1f][dir]; out {
		case beamHit:
			return Square(sq), true
		case beamStop:
			return 0, false
		default:
			dir = out
		}
	}
	return 0, false
}

// Shot is one firing of a laser as the seed describes it.
type Shot struct {
	From Square // the Sphinx
	// Path is the trajectory: one digit per step ('0' up, '1' right,
	// '2' down, '3' left), ending on the piece the beam ends at or on the
	// first square outside the board.
	Path string
	// Removed is the piece destroyed, with its square (Removed.Piece is 0
	// when nothing was).
	Removed PlacedPiece
}

// String renders the shot as the seed does: 97000330110000 or
// 002221100XR21Y3.
func (s Shot) String() string {
	out := make([]byte, 0, len(s.Path)+8)
	out = append(out, byte('0'+s.From.X()), byte('0'+s.From.Y()))
	out = append(out, s.Path...)
	if s.Removed.Piece.IsPiece() {
		out = append(out, 'X')
		out = append(out, s.Removed.String()...)
	}
	return string(out)
}

// Squares lists the squares the beam crosses, from the Sphinx to where it
// ends (the last may be off the board: x or y -1, 10 or 8).
func (s Shot) Squares() [][2]int {
	x, y := s.From.X(), s.From.Y()
	out := [][2]int{{x, y}}
	for _, d := range s.Path {
		switch d {
		case '0':
			y--
		case '1':
			x++
		case '2':
			y++
		case '3':
			x--
		}
		out = append(out, [2]int{x, y})
	}
	return out
}

// Trace describes where c's laser would go on the board as it stands,
// without changing it.
func (b *Board) Trace(c Color) Shot {
	path := make([]byte, 0, 32)
	hit, ok := b.fire(c, &path)
	s := Shot{From: b.sphinx[c], Path: string(path)}
	if ok {
		s.Removed = PlacedPiece{X: hit.X(), Y: hit.Y(), Piece: b.sq[hit]}
	}
	return s
}

// Beam appends the on-board squares c's laser crosses (the Sphinx's own
// square not included) to dst and returns them with the piece the beam
// would destroy (0 if none). It does not allocate when dst has room; the
// built-in bot's evaluation calls it at every leaf.
func (b *Board) Beam(c Color, dst []Square) ([]Square, Piece) {
	sq := int(b.sphinx[c])
	dir := uint8(b.sq[sq].Dir())
	for range maxBeam {
		sq += delta[dir]
		p := b.sq[sq]
		if p == offBoard {
			return dst, 0
		}
		dst = append(dst, Square(sq))
		if p == 0 {
			continue
		}
		switch out := beamOut[p&0x1f][dir]; out {
		case beamHit:
			return dst, p
		case beamStop:
			return dst, 0
		default:
			dir = out
		}
	}
	return dst, 0
}
