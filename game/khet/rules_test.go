package khet

import (
	"strings"
	"testing"
)

// position builds a board from the seed's piece notation.
func position(t testing.TB, toMove Color, rules Rules, pieces string) *Board {
	t.Helper()
	var pp []PlacedPiece
	for _, tok := range strings.Fields(pieces) {
		p, err := ParsePiece(tok)
		if err != nil {
			t.Fatal(err)
		}
		pp = append(pp, p)
	}
	b, err := NewBoard(pp, toMove, rules)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBeamTable fires a beam in each direction of travel at every piece
// kind and orientation and checks the spec's table (B4): the new
// direction, "dies" (the piece is removed) or "blocked".
func TestBeamTable(t *testing.T) {
	const dies, blocked = -1, -2
	want := map[string][4]int{
		"Y0": {dies, dies, 1, 0}, "Y1": {1, dies, dies, 2}, "Y2": {3, 2, dies, dies}, "Y3": {dies, 0, 3, dies},
		"C0": {3, 2, 1, 0}, "C2": {3, 2, 1, 0}, "C1": {1, 0, 3, 2}, "C3": {1, 0, 3, 2},
		"A0": {dies, dies, blocked, dies}, "A1": {dies, dies, dies, blocked},
		"A2": {blocked, dies, dies, dies}, "A3": {dies, blocked, dies, dies},
		"P0": {dies, dies, dies, dies}, "P1": {dies, dies, dies, dies}, "P2": {dies, dies, dies, dies}, "P3": {dies, dies, dies, dies},
	}
	// For each direction of travel: who fires, its Sphinx, and the
	// square the target piece stands on.
	shooters := [4]struct {
		c      Color
		sphinx string
		x, y   int
	}{
		{Silver, "S97X0", 9, 4}, // up column 9
		{Red, "R00X1", 4, 0},    // right along row 0
		{Red, "R00X2", 0, 4},    // down column 0
		{Silver, "S97X3", 5, 7}, // left along row 7
	}
	for piece, outs := range want {
		for dir, out := range outs {
			sh := shooters[dir]
			other := "R00X2"
			if sh.c == Red {
				other = "S97X0"
			}
			target := string([]byte{"RS"[sh.c], byte('0' + sh.x), byte('0' + sh.y), piece[0], piece[1]})
			b := position(t, sh.c, Rules{}, sh.sphinx+" "+other+" "+target)
			shot := b.Trace(sh.c)
			steps := len(shot.Path)
			dist := abs(sh.x-shot.From.X()) + abs(sh.y-shot.From.Y())
			if steps < dist {
				t.Fatalf("%s travelling %d: beam stopped before the piece: %s", piece, dir, shot)
			}
			switch out {
			case dies:
				if steps != dist || shot.Removed.String() != target {
					t.Errorf("%s travelling %d: want it destroyed, shot %s", piece, dir, shot)
				}
			case blocked:
				if steps != dist || shot.Removed.Piece != 0 {
					t.Errorf("%s travelling %d: want the beam blocked, shot %s", piece, dir, shot)
				}
			default:
				if steps <= dist || shot.Path[dist] != byte('0'+out) || shot.Removed.Piece != 0 {
					t.Errorf("%s travelling %d: want it turned to %d, shot %s", piece, dir, out, shot)
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestSends: the directions each piece can send a beam in, as the beam
// table turns it, and the step of each direction.
func TestSends(t *testing.T) {
	want := map[string]string{ // piece: the directions it can send, in Dir order
		"Y0": "01", "Y1": "12", "Y2": "23", "Y3": "03",
		"C0": "0123", "C1": "0123", "A0": "", "A3": "", "P0": "", "X1": "",
	}
	for tok, dirs := range want {
		p, err := ParsePiece("S00" + tok)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for d := range Dir(4) {
			if p.Piece.Sends(d) {
				got += string(rune('0' + d))
			}
		}
		if got != dirs {
			t.Errorf("%s sends %q, want %q", tok, got, dirs)
		}
	}
	steps := [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	for d := range Dir(4) {
		if dx, dy := d.Step(); [2]int{dx, dy} != steps[d] {
			t.Errorf("Dir(%d).Step() = %d, %d, want %v", d, dx, dy, steps[d])
		}
		if sq := SquareAt(4, 4); int(sq)+delta[d] != int(SquareAt(4+steps[d][0], 4+steps[d][1])) {
			t.Errorf("Dir(%d): Step and the mailbox step disagree", d)
		}
	}
}

// TestSphinxHitsStop: a beam reaching a Sphinx stops; the Sphinx stays.
func TestSphinxHitsStop(t *testing.T) {
	b := position(t, Red, Rules{}, "R00X1 S40X0")
	if shot := b.Trace(Red); shot.String() != "001111" {
		t.Fatalf("shot %s, want 001111", shot)
	}
}

// TestAnubisFrontBlocks plays a move whose beam meets an Anubis's face:
// the piece stays and the shot has no X.
func TestAnubisFrontBlocks(t *testing.T) {
	b := position(t, Red, Rules{}, "R00X2 R50P2 S04A0 S97X0 S47P0")
	s := stateFrom(Config{Setup: Classic}, b)
	if _, err := s.Play(Move{Red, 5, 0, 2}); err == nil {
		t.Fatal("R502 steps off the board and must be refused")
	}
	shot, err := s.Play(Move{Red, 5, 0, 7})
	if err != nil {
		t.Fatal(err)
	}
	if shot.String() != "002222" || s.board.Count() != 5 {
		t.Fatalf("shot %s, %d pieces: want the Anubis to block and stay", shot, s.board.Count())
	}
	if !strings.Contains(s.String(), " R507#002222 1 5 ") || !strings.Contains(s.String(), "S04A0") {
		t.Fatalf("state %s", s)
	}
	// From the side the Anubis dies.
	b = position(t, Red, Rules{}, "R00X2 R50P2 S04A1 S97X0 S47P0")
	s = stateFrom(Config{Setup: Classic}, b)
	shot, _ = s.Play(Move{Red, 5, 0, 7})
	if shot.String() != "002222XS04A1" {
		t.Fatalf("shot %s, want the Anubis hit on its side", shot)
	}
}

// TestSphinxRotations: each Sphinx has exactly two facings, both pointing
// onto the board, and never moves.
func TestSphinxRotations(t *testing.T) {
	b, _ := SetupBoard(Classic, Rules{})
	tests := []struct {
		move  string
		legal bool
	}{
		{"S97c", true}, {"S97C", false}, {"S973", false}, {"S970", false},
	}
	for _, tc := range tests {
		m, _ := ParseMove(tc.move)
		if err := b.Check(m); (err == nil) != tc.legal {
			t.Errorf("%s: Check = %v, want legal %v", tc.move, err, tc.legal)
		}
	}
	b.Make(Move{Silver, 2, 3, RotateCW})
	for _, tc := range []struct {
		move  string
		legal bool
	}{{"R00c", true}, {"R00C", false}, {"R005", false}, {"R007", false}} {
		m, _ := ParseMove(tc.move)
		if err := b.Check(m); (err == nil) != tc.legal {
			t.Errorf("%s: Check = %v, want legal %v", tc.move, err, tc.legal)
		}
	}
	// Turned to X1, the red Sphinx may only go back (C to X2).
	b = position(t, Red, Rules{}, "R00X1 S97X3")
	var got []string
	for _, m := range b.Moves(nil) {
		got = append(got, m.String())
	}
	if strings.Join(got, " ") != "R00C" {
		t.Errorf("red sphinx at X1: moves %v, want [R00C]", got)
	}
}

// TestScarabSwaps: a Scarab swaps with an adjacent Pyramid or Anubis of
// either colour, never with a Pharaoh, Scarab or Sphinx; neither piece
// turns.
func TestScarabSwaps(t *testing.T) {
	b := position(t, Silver, Rules{}, "R00X2 S97X0 S44C0 R54Y2 S34A3 S43P0 R45C1 R33Y1 R55A2")
	tests := []struct {
		move  string
		legal bool
	}{
		{"S445", true},  // red pyramid
		{"S443", true},  // own anubis
		{"S440", true},  // red pyramid at 3,3
		{"S448", true},  // red anubis at 5,5
		{"S441", false}, // own pharaoh
		{"S447", false}, // red scarab
		{"S446", true},  // empty
	}
	for _, tc := range tests {
		m, _ := ParseMove(tc.move)
		if err := b.Check(m); (err == nil) != tc.legal {
			t.Errorf("%s: Check = %v, want legal %v", tc.move, err, tc.legal)
		}
	}
	s := stateFrom(Config{Setup: Classic}, b.Clone())
	if _, err := s.Play(Move{Silver, 4, 4, 5}); err != nil {
		t.Fatal(err)
	}
	if str := s.board.BoardString(); !strings.Contains(str, "R44Y2") || !strings.Contains(str, "S54C0") {
		t.Errorf("after the swap: %s", str)
	}
	// The Sphinx is no swap partner either.
	b = position(t, Silver, Rules{}, "R00X2 S97X0 S86C0")
	if err := b.Check(Move{Silver, 8, 6, 8}); err == nil {
		t.Error("a scarab swapped with a sphinx")
	}
}

// TestSwapRestrictedSquares checks the restricted squares of both pieces
// of a swap, and that SwapMoverOnly checks only the Scarab's.
func TestSwapRestrictedSquares(t *testing.T) {
	// A red Scarab on column 0 (red's) swapping with a silver Pyramid on
	// column 1 would put the silver Pyramid on a red square.
	pieces := "R00X2 S97X0 R03C0 S13Y0 S82C0 R92Y0 S11C0 R01Y0"
	tests := []struct {
		move            string
		both, moverOnly bool
	}{
		{"R035", false, true},  // silver pyramid would land on column 0
		{"S825", true, true},   // silver scarab onto column 9 (its own): fine; red pyramid onto 8,2: fine
		{"S113", false, false}, // silver scarab would enter column 0 itself
	}
	for _, tc := range tests {
		m, _ := ParseMove(tc.move)
		for _, v := range []struct {
			rules Rules
			want  bool
		}{{Rules{}, tc.both}, {Rules{SwapMoverOnly: true}, tc.moverOnly}} {
			b := position(t, m.Color, v.rules, pieces)
			if err := b.Check(m); (err == nil) != v.want {
				t.Errorf("%s (mover only %v): Check = %v, want legal %v", tc.move, v.rules.SwapMoverOnly, err, v.want)
			}
		}
	}
}

// TestRestrictedSquares: Silver never enters column 0, (8,0), (8,7); Red
// never enters column 9, (1,0), (1,7).
func TestRestrictedSquares(t *testing.T) {
	tests := []struct {
		pieces string
		move   string
		legal  bool
	}{
		{"R00X2 S97X0 S13Y0", "S133", false},
		{"R00X2 S97X0 S13Y0", "S135", true},
		{"R00X2 S97X0 S70Y0", "S705", false}, // (8,0)
		{"R00X2 S97X0 S76Y0", "S768", false}, // (8,7)
		{"R00X2 S97X0 S76Y0", "S767", true},
		{"R00X2 S97X0 R83Y0", "R835", false},
		{"R00X2 S97X0 R21Y0", "R210", false}, // (1,0)
		{"R00X2 S97X0 R26Y0", "R266", false}, // (1,7)
		{"R00X2 S97X0 R26Y0", "R267", true},
		{"R00X2 S97X0 R13Y0", "R133", true}, // red may enter column 0
		{"R00X2 S97X0 S83Y0", "S835", true}, // silver may enter column 9
	}
	for _, tc := range tests {
		m, _ := ParseMove(tc.move)
		b := position(t, m.Color, Rules{}, tc.pieces)
		if err := b.Check(m); (err == nil) != tc.legal {
			t.Errorf("%s in %s: Check = %v, want legal %v", tc.move, tc.pieces, err, tc.legal)
		}
		found := false
		for _, g := range b.Moves(nil) {
			found = found || g == m
		}
		if found != tc.legal {
			t.Errorf("%s in %s: generated %v, want %v", tc.move, tc.pieces, found, tc.legal)
		}
	}
	for x := range Width {
		for y := range Height {
			redOnly := x == 0 || (x == 8 && (y == 0 || y == 7))
			silverOnly := x == 9 || (x == 1 && (y == 0 || y == 7))
			if Allowed(Silver, x, y) == redOnly || Allowed(Red, x, y) == silverOnly {
				t.Errorf("square %d%d: silver %v red %v", x, y, Allowed(Silver, x, y), Allowed(Red, x, y))
			}
		}
	}
}

// TestPharaohRotation is illegal unless the rules allow it.
func TestPharaohRotation(t *testing.T) {
	for _, allow := range []bool{false, true} {
		b, _ := SetupBoard(Classic, Rules{PharaohRotation: allow})
		if err := b.Check(Move{Silver, 4, 7, RotateCW}); (err == nil) != allow {
			t.Errorf("pharaoh rotation allowed %v: Check = %v", allow, err)
		}
	}
}

// TestOwnPharaohHitLoses: Silver's move opens its own beam onto its own
// Pharaoh, and Red wins.
func TestOwnPharaohHitLoses(t *testing.T) {
	b := position(t, Silver, Rules{}, "R00X2 R50P2 S97X0 S95Y2 S93P0")
	s := stateFrom(Config{Setup: Classic, MaxPlies: 400, Repetition: 3}, b)
	shot, err := s.Play(Move{Silver, 9, 5, 3})
	if err != nil {
		t.Fatal(err)
	}
	if shot.String() != "970000XS93P0" {
		t.Fatalf("shot %s", shot)
	}
	o := s.Outcome()
	if !s.Over() || o.Winner != int(Red) || o.Code != "G" || o.Reason != ReasonPharaoh {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.HasPrefix(s.String(), "RG S953#970000XS93P0 1 4 ") {
		t.Fatalf("state %s", s)
	}
	if _, err := s.Play(Move{Red, 5, 0, 7}); err == nil {
		t.Fatal("a move after the end was accepted")
	}
}

// TestEnemyPharaohHitWins: Red hits Silver's Pharaoh.
func TestEnemyPharaohHitWins(t *testing.T) {
	b := position(t, Red, Rules{}, "R00X1 R50P2 R30Y2 S97X0 S37P0")
	s := stateFrom(Config{Setup: Classic}, b)
	shot, err := s.Play(Move{Red, 5, 0, 8})
	if err != nil {
		t.Fatal(err)
	}
	if shot.String() != "001112222222XS37P0" {
		t.Fatalf("shot %s", shot)
	}
	if o := s.Outcome(); o.Winner != int(Red) || o.Code != "G" {
		t.Fatalf("outcome %+v, shot %s", o, shot)
	}
}

// The loop S76C R65C S76c R65c turns pieces off both beams and comes back
// to the start.
var loop = []string{"S76C", "R65C", "S76c", "R65c"}

// TestThreefoldRepetition: the start position occurs for the third time
// after two loops: a draw dG3.
func TestThreefoldRepetition(t *testing.T) {
	s := newClassic(t)
	mustPlay(t, s, loop...)
	mustPlay(t, s, loop[:3]...)
	if s.Over() {
		t.Fatalf("over after %d plies: %+v", s.Plies(), s.Outcome())
	}
	mustPlay(t, s, loop[3])
	o := s.Outcome()
	if !s.Over() || o.Winner != -1 || o.Code != "G3" || o.Reason != ReasonRepetition {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.HasPrefix(s.String(), "dG3 R65c#") {
		t.Fatalf("state %s", s)
	}
}

// TestPlyLimit: with repetitions off, the game ends dGM at the limit.
func TestPlyLimit(t *testing.T) {
	s, err := NewState(Config{Setup: Classic, MaxPlies: 10})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 9; i++ {
		mustPlay(t, s, loop[i%4])
	}
	if s.Over() {
		t.Fatal("over before the limit")
	}
	mustPlay(t, s, loop[9%4])
	o := s.Outcome()
	if !s.Over() || o.Code != "GM" || o.Winner != -1 || o.Reason != ReasonMaxPlies {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.HasPrefix(s.String(), "dGM ") || !strings.Contains(s.String(), " 10 26 ") {
		t.Fatalf("state %s", s)
	}
}

// TestForfeitCodes: a timeout loses by T, anything else by E.
func TestForfeitCodes(t *testing.T) {
	for _, tc := range []struct {
		reason string
		code   string
	}{{"timeout", "T"}, {"crash", "E"}, {"illegal", "E"}, {"protocol", "E"}, {"memory", "E"}} {
		s := newClassic(t)
		mustPlay(t, s, "S23C")
		s.Forfeit(Red, gameReason(tc.reason), "detail")
		if got := s.String(); !strings.HasPrefix(got, "S"+tc.code+" S23C#97000330110000 1 26 ") {
			t.Errorf("%s: state %s", tc.reason, got)
		}
	}
}

// TestBadConfig rejects bad parameters.
func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{{Setup: "chess"}, {Setup: Classic, MaxPlies: -1}, {Setup: Classic, Repetition: 1}} {
		if _, err := NewState(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
