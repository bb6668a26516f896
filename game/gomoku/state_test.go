package gomoku

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// position builds a State from a diagram, one string per row:
//
//	.  empty          x  black        o  white
//	X  blocked black  O  blocked white (continuous games)
//	*  empty: the square the test plays (returned)
//
// The stones are put on the board directly, without applying the rules;
// the history lists them in diagram order. Width and height come from the
// diagram; the rest of the configuration from cfg.
func position(t testing.TB, cfg Config, toMove Stone, rows ...string) (*State, Point) {
	t.Helper()
	cfg.Width, cfg.Height = len(rows[0]), len(rows)
	s, err := NewState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mark := Point{-1, -1}
	for y, row := range rows {
		if len(row) != cfg.Width {
			t.Fatalf("diagram row %d has %d squares, want %d", y, len(row), cfg.Width)
		}
		for x, ch := range []byte(row) {
			p := Point{x, y}
			switch ch {
			case '.':
			case '*':
				mark = p
			case 'x', 'o', 'X', 'O':
				c := Black
				if ch == 'o' || ch == 'O' {
					c = White
				}
				s.place(p, s.index(p), c)
				if ch == 'X' || ch == 'O' {
					s.board[s.index(p)] = blocked
				}
			default:
				t.Fatalf("diagram row %d: bad square %q", y, ch)
			}
		}
	}
	s.toMove = toMove
	return s, mark
}

// ruleCase is one move played on a diagram and what it must do.
type ruleCase struct {
	name   string
	rule   Rule
	white  bool // White moves (default Black)
	rows   []string
	winner Stone  // with reason
	reason string // "" = the game goes on
	fives  int    // len(Event.Fives)
	foul   Foul
	score  [2]int // continuous games, after the move
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mover := Black
			if tc.white {
				mover = White
			}
			s, p := position(t, Config{Rule: tc.rule}, mover, tc.rows...)
			before := len(s.Moves())
			ev, err := s.Play(p)
			if err != nil {
				t.Fatalf("Play(%v): %v", p, err)
			}
			if got := len(ev.Fives); got != tc.fives {
				t.Errorf("fives = %d (%v), want %d", got, ev.Fives, tc.fives)
			}
			if ev.Foul != tc.foul {
				t.Errorf("foul = %v, want %v", ev.Foul, tc.foul)
			}
			o := s.Outcome()
			if tc.reason == "" {
				if s.Over() || ev.Over {
					t.Errorf("game over (%+v), want it to go on", o)
				}
			} else {
				if !s.Over() || !ev.Over {
					t.Errorf("game goes on, want %s", tc.reason)
				}
				if o.Winner != tc.winner || o.Reason != tc.reason {
					t.Errorf("outcome = %+v, want winner %v reason %q", o, tc.winner, tc.reason)
				}
			}
			if s.Score(Black) != tc.score[0] || s.Score(White) != tc.score[1] {
				t.Errorf("score = %d:%d, want %d:%d", s.Score(Black), s.Score(White), tc.score[0], tc.score[1])
			}
			if s.At(p) != mover || len(s.Moves()) != before+1 || s.ToMove() != mover.Opponent() {
				t.Errorf("stone not recorded: at=%v moves=%d toMove=%v", s.At(p), len(s.Moves()), s.ToMove())
			}
		})
	}
}

// Rows shared by several cases.
var (
	rowsFive      = []string{".........", ".........", "xxxx*....", ".........", "ooo.o...."}
	rowsOverline  = []string{".........", ".........", "xx*xxx...", ".........", "oooo....."}
	rowsFour      = []string{".........", ".........", ".xxx*....", ".........", "ooo......"}
	rowsGap       = []string{".........", ".........", "xx*x.x...", ".........", "oooo....."}
	rowsWhiteFive = []string{"x.x.x....", ".........", "oooo*....", ".........", "x.x.x...."}
	rowsVertical  = []string{"..x......", "..x......", "..x......", "..x......", "..*......", ".........", "oooo....."}
	rowsDiagonal  = []string{"x........", ".x.......", "..*......", "...x.....", "....x....", "oooo....."}
	rowsAnti      = []string{"....x....", "...x.....", "..*......", ".x.......", "x........", "..oooo..."}
	rowsBroken    = []string{".........", ".........", "xxoxx*...", ".........", "oo.o....."}
	// One move makes a five across and an overline down.
	rowsFiveAndSix = []string{"..x......", "..x......", "..x......", "xx*xx....", "..x......", "..x......", "ooooo.o.."}
)

func TestRulesFreestyleAndExact(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "freestyle five wins", rule: Freestyle, rows: rowsFive, winner: Black, reason: "five", fives: 1},
		{name: "freestyle overline wins", rule: Freestyle, rows: rowsOverline, winner: Black, reason: "five", fives: 1},
		{name: "freestyle four goes on", rule: Freestyle, rows: rowsFour},
		{name: "freestyle gap is no five", rule: Freestyle, rows: rowsGap},
		{name: "freestyle opponent stone breaks the line", rule: Freestyle, rows: rowsBroken},
		{name: "freestyle white five", rule: Freestyle, white: true, rows: rowsWhiteFive, winner: White, reason: "five", fives: 1},
		{name: "freestyle vertical", rule: Freestyle, rows: rowsVertical, winner: Black, reason: "five", fives: 1},
		{name: "freestyle diagonal", rule: Freestyle, rows: rowsDiagonal, winner: Black, reason: "five", fives: 1},
		{name: "freestyle anti-diagonal", rule: Freestyle, rows: rowsAnti, winner: Black, reason: "five", fives: 1},
		{name: "freestyle five and six at once", rule: Freestyle, rows: rowsFiveAndSix, winner: Black, reason: "five", fives: 2},
		{name: "exact five wins", rule: ExactFive, rows: rowsFive, winner: Black, reason: "five", fives: 1},
		{name: "exact overline goes on", rule: ExactFive, rows: rowsOverline},
		{name: "exact white overline goes on", rule: ExactFive, white: true, rows: []string{"x.x.x.x..", ".........", "oo*ooo...", ".........", "x.x.x...."}},
		{name: "exact five beside a six", rule: ExactFive, rows: rowsFiveAndSix, winner: Black, reason: "five", fives: 1},
		{name: "exact diagonal", rule: ExactFive, rows: rowsDiagonal, winner: Black, reason: "five", fives: 1},
	})
}

func TestRulesCaro(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "caro blocked at both ends", rule: Caro, rows: []string{".........", ".........", "oxxxx*o..", ".........", "x.o.o...."}},
		{name: "caro blocked at one end", rule: Caro, rows: []string{".........", ".........", "oxxxx*...", ".........", "..o.o...."}, winner: Black, reason: "five", fives: 1},
		{name: "caro board edge does not block", rule: Caro, rows: []string{".........", ".........", "xxxx*o...", ".........", "..o.o...."}, winner: Black, reason: "five", fives: 1},
		{name: "caro edge both sides", rule: Caro, rows: []string{".....", ".....", "xx*xx", ".....", "oooo."}, winner: Black, reason: "five", fives: 1},
		{name: "caro gap before the blocker", rule: Caro, rows: []string{"..........", "..........", "oxxxx*.o..", "..........", "..o.o....."}, winner: Black, reason: "five", fives: 1},
		{name: "caro overline wins", rule: Caro, rows: rowsOverline, winner: Black, reason: "five", fives: 1},
		{name: "caro overline blocked at both ends", rule: Caro, rows: []string{".........", ".........", "oxx*xxxo.", ".........", "..o.o...."}},
		{name: "caro white blocked by black", rule: Caro, white: true, rows: []string{"..x.x....", ".........", "xoooo*x..", ".........", "x.x......"}},
		{name: "caro vertical blocked", rule: Caro, rows: []string{"..o..", "..x..", "..x..", "..x..", "..x..", "..*..", "..o..", "o.o.o"}},
		{name: "caro diagonal blocked at one end", rule: Caro, rows: []string{"o......", ".x.....", "..x....", "...*...", "....x..", ".....x.", "..ooo.."}, winner: Black, reason: "five", fives: 1},
		{name: "caro exact five wins", rule: Caro | ExactFive, rows: []string{".........", ".........", ".xxxx*...", ".........", "ooo.o...."}, winner: Black, reason: "five", fives: 1},
		{name: "caro exact blocked at both ends", rule: Caro | ExactFive, rows: []string{".........", ".........", "oxxxx*o..", ".........", "x.o.o...."}},
		{name: "caro exact overline goes on", rule: Caro | ExactFive, rows: rowsOverline},
		{name: "caro exact blocked at one end", rule: Caro | ExactFive, rows: []string{".........", ".........", "xxxx*o...", ".........", "..o.o...."}, winner: Black, reason: "five", fives: 1},
	})
}

func TestRulesContinuous(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "continuous five scores and play goes on", rule: Continuous, rows: rowsFive, fives: 1, score: [2]int{1, 0}},
		{name: "continuous overline scores", rule: Continuous, rows: rowsOverline, fives: 1, score: [2]int{1, 0}},
		{name: "continuous exact overline does not score", rule: Continuous | ExactFive, rows: rowsOverline},
		{name: "continuous two lines at once", rule: Continuous, rows: rowsFiveAndSix, fives: 2, score: [2]int{2, 0}},
		{name: "continuous exact: one of two lines", rule: Continuous | ExactFive, rows: rowsFiveAndSix, fives: 1, score: [2]int{1, 0}},
		{name: "continuous blocked stones do not extend", rule: Continuous, rows: []string{"..........", "XXXXXxxx*.", "..........", "..........", "oo.o.o...."}},
		{name: "continuous blocked neighbour is no overline", rule: Continuous | ExactFive, rows: []string{"..........", "XXXXXxxxx*", "..........", "..........", "oo.o.o...."}, fives: 1, score: [2]int{1, 0}},
		{name: "continuous blocked white does not help white", rule: Continuous, white: true, rows: []string{"x.x.x.....", "OOOOOoo*o.", "x.x.x.....", "..........", "x........."}},
	})
}

func TestRulesRenju(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "renju black five", rule: Renju, rows: rowsFive, winner: Black, reason: "five", fives: 1},
		{name: "renju black overline is a foul", rule: Renju, rows: rowsOverline, winner: White, reason: "foul", foul: Overline},
		{name: "renju white overline wins", rule: Renju, white: true, rows: []string{"x.x.x.x..", ".........", "oo*ooo...", ".........", "x.x.x...."}, winner: White, reason: "five", fives: 1},
		{name: "renju five beats overline", rule: Renju, rows: rowsFiveAndSix, winner: Black, reason: "five", fives: 1},
		{name: "renju double-three", rule: Renju, rows: renjuDoubleThree, winner: White, reason: "foul", foul: DoubleThree},
		{name: "renju double-four", rule: Renju, rows: renjuDoubleFour, winner: White, reason: "foul", foul: DoubleFour},
		{name: "renju white double-three is fine", rule: Renju, white: true, rows: swapColours(renjuDoubleThree)},
		{name: "renju five beats double-four", rule: Renju, rows: []string{
			".........",
			".x..x....",
			"..x.x....",
			"...xx....",
			"xxxx*....",
			".........",
			"....x....",
			"oo.oo.oo.",
			"oo.oo.oo.",
		}, winner: Black, reason: "five", fives: 1},
	})
}

// swapColours exchanges x and o in a diagram.
func swapColours(rows []string) []string {
	r := strings.NewReplacer("x", "o", "o", "x")
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = r.Replace(row)
	}
	return out
}

func TestFivesListTheWholeRun(t *testing.T) {
	tests := []struct {
		name string
		rule Rule
		rows []string
		want [][]Point
	}{
		{"across", Freestyle, rowsFive, [][]Point{{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}}}},
		{"overline", Freestyle, rowsOverline, [][]Point{{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}}}},
		{"down", Freestyle, rowsVertical, [][]Point{{{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}}}},
		{"diagonal", Freestyle, rowsDiagonal, [][]Point{{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}}},
		{"anti-diagonal", Freestyle, rowsAnti, [][]Point{{{4, 0}, {3, 1}, {2, 2}, {1, 3}, {0, 4}}}},
		{"two lines", Freestyle, rowsFiveAndSix, [][]Point{
			{{0, 3}, {1, 3}, {2, 3}, {3, 3}, {4, 3}},
			{{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, p := position(t, Config{Rule: tc.rule}, Black, tc.rows...)
			ev, err := s.Play(p)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ev.Fives, tc.want) {
				t.Errorf("Fives = %v, want %v", ev.Fives, tc.want)
			}
		})
	}
}

func TestOutcomeDetails(t *testing.T) {
	tests := []struct {
		name string
		rule Rule
		rows []string
		want Outcome
	}{
		{"five", Freestyle, rowsFive, Outcome{Black, "five", "black five at 4,2"}},
		{"long five", Freestyle, rowsOverline, Outcome{Black, "five", "black five (6 in a row) at 2,2"}},
		{"foul", Renju, renjuDoubleThree, Outcome{White, "foul", "black double-three at 4,4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, p := position(t, Config{Rule: tc.rule}, Black, tc.rows...)
			if _, err := s.Play(p); err != nil {
				t.Fatal(err)
			}
			if got := s.Outcome(); got != tc.want {
				t.Errorf("Outcome = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestContinuousBlocksTheLine(t *testing.T) {
	s, p := position(t, Config{Rule: Continuous}, Black, rowsFive...)
	if _, err := s.Play(p); err != nil {
		t.Fatal(err)
	}
	for x := range 9 {
		q := Point{x, 2}
		if want := x <= 4; s.Blocked(q) != want {
			t.Errorf("Blocked(%v) = %v, want %v", q, s.Blocked(q), want)
		}
		if x <= 4 && s.At(q) != Black {
			t.Errorf("At(%v) = %v, want the colour kept", q, s.At(q))
		}
	}
	// A new black stone next to the blocked line makes a run of one.
	s.toMove = Black
	if ev, err := s.Play(Point{5, 2}); err != nil || len(ev.Fives) != 0 {
		t.Errorf("Play next to a blocked line: %+v, %v", ev, err)
	}
	if s.Blocked(Point{-1, 0}) || s.Blocked(Point{0, 9}) {
		t.Error("Blocked off the board")
	}
}

func TestGameEnd(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		rows   []string
		white  bool
		want   Outcome
		scores [2]int
	}{
		{
			name: "full board draw",
			rows: []string{"xoxox", "xoxox", "oxoxo", "oxoxo", "xoxo*"},
			want: Outcome{Empty, "draw", "board full"},
		},
		{
			name: "five on the last square wins",
			rows: []string{"xoxox", "xoxox", "oxoxo", "oxoxo", "xxxx*"},
			want: Outcome{Black, "five", "black five at 4,4"},
		},
		{
			name: "end-empty draw",
			cfg:  Config{EndEmpty: 3},
			rows: []string{"xoxox", "xoxox", "oxoxo", "oxoxo", "x*..."},
			want: Outcome{Empty, "draw", "3 empty squares left"},
		},
		{
			name: "continuous full board: more fives wins",
			cfg:  Config{Rule: Continuous},
			rows: []string{"XXXXX", "ooxoo", "oxoxo", "oxoxo", "xoxo*"},
			want: Outcome{Black, "score", "board full, black 1, white 0"}, scores: [2]int{1, 0},
		},
		{
			name: "continuous last move scores",
			cfg:  Config{Rule: Continuous},
			rows: []string{"OOOOO", "xxoxx", "oxoxo", "oxoxo", "xxxx*"},
			want: Outcome{Empty, "draw", "board full, black 1, white 1"}, scores: [2]int{1, 1},
		},
		{
			name:  "continuous end-empty: white scores more",
			cfg:   Config{Rule: Continuous | ExactFive, EndEmpty: 2},
			white: true,
			rows:  []string{"OOOOO", "OOOOO", "XXXXX", "xoxox", "x*..x"},
			want:  Outcome{White, "score", "2 empty squares left, black 1, white 2"}, scores: [2]int{1, 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mover := Black
			if tc.white {
				mover = White
			}
			s, p := position(t, tc.cfg, mover, tc.rows...)
			// The diagram's blocked lines count as scored.
			for _, c := range []byte(strings.Join(tc.rows, "")) {
				if c == 'X' {
					s.score[0]++
				} else if c == 'O' {
					s.score[1]++
				}
			}
			s.score[0] /= 5
			s.score[1] /= 5
			ev, err := s.Play(p)
			if err != nil {
				t.Fatal(err)
			}
			if !ev.Over || s.Outcome() != tc.want {
				t.Errorf("Over=%v Outcome = %+v, want %+v", ev.Over, s.Outcome(), tc.want)
			}
			if got := [2]int{s.Score(Black), s.Score(White)}; tc.cfg.Rule.Has(Continuous) && got != tc.scores {
				t.Errorf("scores = %v, want %v", got, tc.scores)
			}
		})
	}
}

func TestMaxMoves(t *testing.T) {
	s, err := NewState(Config{Width: 15, Height: 15, MaxMoves: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []Point{{0, 0}, {5, 5}, {0, 1}, {5, 6}} {
		ev, err := s.Play(p)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Over != (i == 3) {
			t.Fatalf("move %d: Over = %v", i, ev.Over)
		}
	}
	if want := (Outcome{Empty, "draw", "move limit 4 reached"}); s.Outcome() != want {
		t.Errorf("Outcome = %+v, want %+v", s.Outcome(), want)
	}

	// Continuous: the move limit decides by score.
	s, _ = position(t, Config{Rule: Continuous, MaxMoves: 10}, Black, "xxxx*....", ".........", "oooo.....", ".........", ".........")
	if _, err := s.Play(Point{4, 0}); err != nil {
		t.Fatal(err)
	}
	if s.Over() {
		t.Fatal("over after 9 stones")
	}
	if _, err := s.Play(Point{8, 4}); err != nil {
		t.Fatal(err)
	}
	if want := (Outcome{Black, "score", "move limit 10 reached, black 1, white 0"}); s.Outcome() != want {
		t.Errorf("Outcome = %+v, want %+v", s.Outcome(), want)
	}
}

func TestNewStateErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"too small", Config{Width: 4, Height: 20}, "board 4x20"},
		{"too large", Config{Width: 20, Height: 33}, "board 20x33"},
		{"bad rule", Config{Width: 15, Height: 15, Rule: 6}, "rule 6"},
		{"negative end-empty", Config{Width: 15, Height: 15, EndEmpty: -1}, "must not be negative"},
		{"end-empty too large", Config{Width: 5, Height: 5, EndEmpty: 25}, "end-empty 25"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewState(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewState(%+v) = %v, want an error containing %q", tc.cfg, err, tc.want)
			}
		})
	}
	for _, r := range []Rule{0, 1, 2, 3, 4, 8, 9} {
		if _, err := NewState(Config{Width: 5, Height: 32, Rule: r, EndEmpty: 24}); err != nil {
			t.Errorf("rule %d: %v", r, err)
		}
	}
}

func TestPlayErrors(t *testing.T) {
	s, err := NewState(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Play(Point{3, 3}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p    Point
		want error
		msg  string
	}{
		{Point{20, 3}, ErrOffBoard, "play 20,3: square is off the board"},
		{Point{-1, 0}, ErrOffBoard, "play -1,0: square is off the board"},
		{Point{0, 20}, ErrOffBoard, "play 0,20: square is off the board"},
		{Point{3, 3}, ErrOccupied, "play 3,3: square is occupied"},
	}
	for _, tc := range tests {
		before := s.Clone()
		_, err := s.Play(tc.p)
		if !errors.Is(err, tc.want) || err.Error() != tc.msg {
			t.Errorf("Play(%v) = %v, want %q", tc.p, err, tc.msg)
		}
		if !sameState(s, before) {
			t.Errorf("Play(%v) changed the state", tc.p)
		}
	}
	s.Forfeit(White, "timeout", "white exceeded 5000 ms")
	if want := (Outcome{Black, "timeout", "white exceeded 5000 ms"}); s.Outcome() != want || !s.Over() {
		t.Errorf("after Forfeit: %+v", s.Outcome())
	}
	_, err = s.Play(Point{5, 5})
	if !errors.Is(err, ErrOver) || err.Error() != "play 5,5: game is over" {
		t.Errorf("Play after the end = %v", err)
	}
	s.Forfeit(Black, "crash", "")
	if s.Outcome().Winner != Black {
		t.Error("a second Forfeit changed the outcome")
	}
	d, _ := NewState(DefaultConfig())
	d.Forfeit(Empty, "adjudication", "both crashed")
	if want := (Outcome{Empty, "adjudication", "both crashed"}); d.Outcome() != want {
		t.Errorf("Forfeit(Empty) = %+v", d.Outcome())
	}
	e, _ := NewState(DefaultConfig())
	e.Forfeit(Empty, "", "")
	if want := (Outcome{Reason: "forfeit"}); !e.Over() || e.Outcome() != want {
		t.Errorf("Forfeit without a reason = %+v", e.Outcome())
	}
	// Appending to Moves copies instead of writing into the history.
	f, _ := NewState(DefaultConfig())
	if _, err := f.Play(Point{1, 1}); err != nil {
		t.Fatal(err)
	}
	if m := f.Moves(); cap(m) != len(m) {
		t.Errorf("Moves has room to append: len %d cap %d", len(m), cap(m))
	}
}

// sameState reports whether two States hold the same game.
func sameState(a, b *State) bool {
	return a.cfg == b.cfg && slices.Equal(a.board, b.board) && slices.Equal(a.cells, b.cells) &&
		slices.Equal(a.moves, b.moves) && a.toMove == b.toMove && a.empty == b.empty &&
		a.score == b.score && a.over == b.over && a.outcome == b.outcome
}

// refGame is the slow, obvious referee the fast one is checked against:
// a plain grid walked with coordinates and bounds checks.
type refGame struct {
	cfg     Config
	cells   []Stone
	blocked []bool
	score   [2]int
	stones  int
	toMove  Stone
	over    bool
	outcome Outcome
}

func newRefGame(cfg Config) *refGame {
	n := cfg.Width * cfg.Height
	return &refGame{cfg: cfg, cells: make([]Stone, n), blocked: make([]bool, n), toMove: Black}
}

func (r *refGame) in(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < r.cfg.Width && p.Y < r.cfg.Height
}

func (r *refGame) at(p Point) Stone {
	if !r.in(p) {
		return Empty
	}
	return r.cells[p.Y*r.cfg.Width+p.X]
}

// counts reports whether p holds an unblocked stone of colour c.
func (r *refGame) counts(p Point, c Stone) bool {
	return r.in(p) && r.cells[p.Y*r.cfg.Width+p.X] == c && !r.blocked[p.Y*r.cfg.Width+p.X]
}

// play applies a legal move and returns the winning lines and the foul.
func (r *refGame) play(p Point) ([][]Point, Foul) {
	me, rule := r.toMove, r.cfg.Rule
	var foul Foul
	var lines [][]Point
	if rule == Renju && me == Black {
		foul = refForbidden(r.cells, r.cfg.Width, r.cfg.Height, p)
	}
	r.cells[p.Y*r.cfg.Width+p.X] = me
	r.stones++
	r.toMove = me.Opponent()
	for _, d := range lineDirs {
		a := p
		for r.counts(Point{a.X - d.X, a.Y - d.Y}, me) {
			a = Point{a.X - d.X, a.Y - d.Y}
		}
		var line []Point
		for q := a; r.counts(q, me); q = (Point{q.X + d.X, q.Y + d.Y}) {
			line = append(line, q)
		}
		n := len(line)
		win := n >= 5
		if rule == Renju && me == Black || rule&ExactFive != 0 {
			win = n == 5
		}
		if rule&Caro != 0 && win {
			before := Point{a.X - d.X, a.Y - d.Y}
			after := Point{a.X + n*d.X, a.Y + n*d.Y}
			if r.at(before) == me.Opponent() && r.at(after) == me.Opponent() {
				win = false
			}
		}
		if win {
			lines = append(lines, line)
		}
	}
	if len(lines) > 0 {
		foul = NoFoul // five beats foul
	}
	switch {
	case foul != NoFoul:
		r.over, r.outcome = true, Outcome{Winner: White, Reason: "foul"}
	case len(lines) > 0 && rule&Continuous == 0:
		r.over, r.outcome = true, Outcome{Winner: me, Reason: "five"}
	case len(lines) > 0:
		for _, l := range lines {
			for _, q := range l {
				r.blocked[q.Y*r.cfg.Width+q.X] = true
			}
		}
		r.score[me.Side()] += len(lines)
	}
	empty := len(r.cells) - r.stones
	if !r.over && (empty <= r.cfg.EndEmpty || r.cfg.MaxMoves > 0 && r.stones >= r.cfg.MaxMoves) {
		r.over = true
		r.outcome = Outcome{Reason: "draw"}
		if rule&Continuous != 0 && r.score[0] != r.score[1] {
			r.outcome = Outcome{Winner: White, Reason: "score"}
			if r.score[0] > r.score[1] {
				r.outcome.Winner = Black
			}
		}
	}
	return lines, foul
}

// checkInvariants checks what must hold of every State.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	cfg := s.Config()
	stones := 0
	for _, c := range s.Cells() {
		if c != Empty {
			stones++
		}
	}
	moves := s.Moves()
	if stones != len(moves) || cfg.Width*cfg.Height-s.Empty() != stones {
		t.Fatalf("stones %d, moves %d, empty %d on %dx%d", stones, len(moves), s.Empty(), cfg.Width, cfg.Height)
	}
	for k, p := range moves {
		if s.At(p) != StoneOf(k%2) {
			t.Fatalf("move %d at %v holds %v", k, p, s.At(p))
		}
	}
	if s.ToMove() != StoneOf(len(moves)%2) {
		t.Fatalf("after %d moves %v is to move", len(moves), s.ToMove())
	}
	if s.Over() != (s.Outcome() != Outcome{}) {
		t.Fatalf("Over %v with outcome %+v", s.Over(), s.Outcome())
	}
}

var randomSizes = [][2]int{{5, 5}, {6, 9}, {9, 6}, {15, 15}, {20, 20}, {32, 32}, {32, 5}}
var allRules = []Rule{0, 1, 2, 3, 4, 8, 9}

// TestRandomPlay plays many random games with every rule on several board
// sizes, comparing each move with the reference referee and checking the
// invariants, refused moves and Clone.
func TestRandomPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 60
	if testing.Short() {
		games = 10
	}
	total := 0
	for _, size := range randomSizes {
		for _, rule := range allRules {
			for g := range games {
				cfg := Config{Width: size[0], Height: size[1], Rule: rule}
				switch g % 4 {
				case 1:
					cfg.EndEmpty = rng.IntN(cfg.Width * cfg.Height / 2)
				case 2:
					cfg.MaxMoves = 1 + rng.IntN(cfg.Width*cfg.Height)
				}
				total += playRandomGame(t, rng, cfg)
			}
		}
	}
	t.Logf("%d moves checked", total)
}

func playRandomGame(t *testing.T, rng *rand.Rand, cfg Config) int {
	t.Helper()
	s, err := NewState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ref := newRefGame(cfg)
	// empties lists the empty squares; where[y*w+x] is a square's index
	// in it.
	empties := make([]Point, 0, cfg.Width*cfg.Height)
	where := make([]int, cfg.Width*cfg.Height)
	for y := range cfg.Height {
		for x := range cfg.Width {
			where[y*cfg.Width+x] = len(empties)
			empties = append(empties, Point{x, y})
		}
	}
	take := func(k int) Point {
		p, last := empties[k], empties[len(empties)-1]
		empties[k] = last
		where[last.Y*cfg.Width+last.X] = k
		empties = empties[:len(empties)-1]
		return p
	}
	// Clump the stones now and then, so that lines form on large boards.
	pick := func() int {
		if n := len(s.Moves()); n > 0 && rng.IntN(3) > 0 {
			near := s.Moves()[rng.IntN(n)]
			for range 8 {
				q := Point{near.X + rng.IntN(5) - 2, near.Y + rng.IntN(5) - 2}
				if s.onBoard(q) && s.At(q) == Empty {
					return where[q.Y*cfg.Width+q.X]
				}
			}
		}
		return rng.IntN(len(empties))
	}
	var snapshot, clone *State
	moves := 0
	for !s.Over() {
		if rng.IntN(20) == 0 {
			refuseRandomMove(t, rng, s)
		}
		p := take(pick())
		ev, err := s.Play(p)
		if err != nil {
			t.Fatalf("%+v Play(%v): %v", cfg, p, err)
		}
		moves++
		lines, foul := ref.play(p)
		if !reflect.DeepEqual(ev.Fives, lines) || ev.Foul != foul || ev.Over != ref.over {
			t.Fatalf("%+v move %d %v: got fives %v foul %v over %v, reference %v %v %v\n%s",
				cfg, moves, p, ev.Fives, ev.Foul, ev.Over, lines, foul, ref.over, diagram(s))
		}
		o := s.Outcome()
		if o.Winner != ref.outcome.Winner || o.Reason != ref.outcome.Reason {
			t.Fatalf("%+v move %d: outcome %+v, reference %+v", cfg, moves, o, ref.outcome)
		}
		if s.Score(Black) != ref.score[0] || s.Score(White) != ref.score[1] {
			t.Fatalf("scores %d:%d, reference %v", s.Score(Black), s.Score(White), ref.score)
		}
		if ev.Fives != nil {
			for q := range ref.blocked {
				if s.Blocked(Point{q % cfg.Width, q / cfg.Width}) != ref.blocked[q] {
					t.Fatalf("blocked squares differ at %d", q)
				}
			}
		}
		checkInvariants(t, s)
		if clone == nil && rng.IntN(30) == 0 {
			snapshot, clone = s.Clone(), s.Clone()
		}
	}
	if _, err := s.Play(Point{0, 0}); !errors.Is(err, ErrOver) {
		t.Fatalf("Play after the end: %v", err)
	}
	if clone != nil {
		// The clone is independent: s going on left the clone as it
		// was, and playing the clone out leaves s alone.
		if !sameState(clone, snapshot) {
			t.Fatal("clone changed while the original played on")
		}
		before := s.Clone()
		for _, p := range empties {
			if clone.Over() {
				break
			}
			if _, err := clone.Play(p); err != nil {
				t.Fatal(err)
			}
		}
		checkInvariants(t, clone)
		if !sameState(s, before) {
			t.Fatal("playing the clone changed the original")
		}
	}
	return moves
}

// refuseRandomMove tries an occupied or off-board square: Play must refuse
// it with the right error and leave the State as it was.
func refuseRandomMove(t *testing.T, rng *rand.Rand, s *State) {
	t.Helper()
	cfg := s.Config()
	p := Point{rng.IntN(cfg.Width), rng.IntN(cfg.Height)}
	want := ErrOffBoard
	switch rng.IntN(5) {
	case 0:
		p.X = -1 - rng.IntN(3)
	case 1:
		p.X = cfg.Width + rng.IntN(3)
	case 2:
		p.Y = -1 - rng.IntN(3)
	case 3:
		p.Y = cfg.Height + rng.IntN(3)
	default:
		if len(s.Moves()) == 0 {
			return
		}
		p, want = s.Moves()[rng.IntN(len(s.Moves()))], ErrOccupied
	}
	before := s.Clone()
	if _, err := s.Play(p); !errors.Is(err, want) {
		t.Fatalf("Play(%v) = %v, want %v", p, err, want)
	}
	if !sameState(s, before) {
		t.Fatalf("refused Play(%v) changed the state", p)
	}
}

// diagram draws the position for failure messages.
func diagram(s *State) string {
	var b strings.Builder
	for y := range s.cfg.Height {
		for x := range s.cfg.Width {
			p := Point{x, y}
			c := s.At(p).Char()
			if c == '-' {
				c = '.'
			}
			if s.Blocked(p) {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestPointString(t *testing.T) {
	for _, p := range []Point{{0, 0}, {19, 3}, {-1, 31}} {
		q, err := ParsePoint(p.String())
		if err != nil || q != p {
			t.Errorf("ParsePoint(%q) = %v, %v", p.String(), q, err)
		}
	}
	for _, s := range []string{"", "1", "a,b", "1,", ",1", "1;2"} {
		if _, err := ParsePoint(s); !errors.Is(err, ErrBadPoint) {
			t.Errorf("ParsePoint(%q) = %v, want ErrBadPoint", s, err)
		}
	}
	if p, err := ParsePoint(" 7 , 8 "); err != nil || p != (Point{7, 8}) {
		t.Errorf("ParsePoint with spaces = %v, %v", p, err)
	}
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"0,0", "19,19", " 7 , 8 ", "-1,5", "a,b", "", ",", "99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePoint(s)
		if err != nil {
			if !errors.Is(err, ErrBadPoint) {
				t.Fatalf("error %v does not wrap ErrBadPoint", err)
			}
			return
		}
		q, err := ParsePoint(p.String())
		if err != nil || q != p {
			t.Fatalf("ParsePoint(%q) = %v; round trip %v, %v", s, p, q, err)
		}
	})
}

// FuzzPlay plays arbitrary bytes as moves: the first bytes choose the
// board and the rule, then each pair of bytes is a square (one row and
// column past each edge included, so some moves are off the board).
// Nothing may panic and the invariants must hold throughout.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{10, 10, 4, 8, 8, 9, 9, 8, 9, 9, 8, 7, 7, 8, 10, 10, 10, 9, 7})
	f.Add([]byte{5, 5, 2, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 2, 2})
	f.Add([]byte{20, 20, 0, 255, 255, 3, 3, 3, 3})
	f.Add([]byte{9, 7, 8, 1, 1, 2, 2, 3, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		cfg := Config{
			Width:  MinSize + int(data[0])%(MaxSize-MinSize+1),
			Height: MinSize + int(data[1])%(MaxSize-MinSize+1),
			Rule:   allRules[int(data[2])%len(allRules)],
		}
		s, err := NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := 3; i+1 < len(data); i += 2 {
			p := Point{int(data[i])%(cfg.Width+2) - 1, int(data[i+1])%(cfg.Height+2) - 1}
			before := len(s.Moves())
			_, err := s.Play(p)
			if err != nil {
				if len(s.Moves()) != before {
					t.Fatalf("refused move %v changed the history", p)
				}
				continue
			}
			checkInvariants(t, s)
		}
		checkInvariants(t, s)
	})
}

// randomGames plays n random games to the end and returns their moves.
func randomGames(tb testing.TB, cfg Config, n int, seed uint64) [][]Point {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 8))
	games := make([][]Point, n)
	for g := range games {
		s, err := NewState(cfg)
		if err != nil {
			tb.Fatal(err)
		}
		for !s.Over() {
			p := Point{rng.IntN(cfg.Width), rng.IntN(cfg.Height)}
			if s.At(p) == Empty {
				if _, err := s.Play(p); err != nil {
					tb.Fatal(err)
				}
			}
		}
		games[g] = slices.Clone(s.Moves())
	}
	return games
}

func benchmarkPlay(b *testing.B, cfg Config) {
	games := randomGames(b, cfg, 64, 7)
	moves := 0
	g := 0
	b.ReportAllocs()
	for b.Loop() {
		s, _ := NewState(cfg)
		for _, p := range games[g%len(games)] {
			if _, err := s.Play(p); err != nil {
				b.Fatal(err)
			}
		}
		moves += len(games[g%len(games)])
		g++
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(moves)/sec, "moves/s")
	b.ReportMetric(sec*1e9/float64(moves), "ns/move")
}

// BenchmarkPlay replays random games on 20x20; one op is one game
// (including NewState).
func BenchmarkPlay(b *testing.B) {
	for _, rule := range []Rule{Freestyle, ExactFive | Continuous, Renju, Caro} {
		b.Run(fmt.Sprintf("rule%d", rule), func(b *testing.B) {
			benchmarkPlay(b, Config{Width: 20, Height: 20, Rule: rule})
		})
	}
}

// TestPlayDoesNotAllocate checks that a move that completes no line
// allocates nothing, for every rule (renju: Black's foul check included).
func TestPlayDoesNotAllocate(t *testing.T) {
	for _, rule := range allRules {
		base, err := NewState(Config{Width: 20, Height: 20, Rule: rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Point{{9, 9}, {10, 10}, {9, 10}, {10, 9}, {8, 11}, {11, 8}} {
			if _, err := base.Play(p); err != nil {
				t.Fatal(err)
			}
		}
		const runs = 50
		states := make([]*State, runs+1)
		for i := range states {
			states[i] = base.Clone()
		}
		k := 0
		allocs := testing.AllocsPerRun(runs, func() {
			if _, err := states[k].Play(Point{8, 9}); err != nil {
				t.Fatal(err)
			}
			k++
		})
		if allocs != 0 {
			t.Errorf("rule %d: Play allocates %.1f times", rule, allocs)
		}
	}
}

func ExampleState_Play() {
	s, err := NewState(Config{Width: 15, Height: 15, Rule: Freestyle})
	if err != nil {
		panic(err)
	}
	for _, p := range []Point{{7, 7}, {7, 8}, {8, 7}, {8, 8}, {9, 7}, {9, 8}, {10, 7}, {10, 8}} {
		if _, err := s.Play(p); err != nil {
			panic(err)
		}
	}
	ev, _ := s.Play(Point{11, 7})
	fmt.Println(ev.Fives, ev.Over)
	fmt.Printf("%+v\n", s.Outcome())
	_, err = s.Play(Point{0, 0})
	fmt.Println(err)
	// Output:
	// [[7,7 8,7 9,7 10,7 11,7]] true
	// {Winner:1 Reason:five Detail:black five at 11,7}
	// play 0,0: game is over
}
