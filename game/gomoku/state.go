package gomoku

import (
	"errors"
	"fmt"
	"slices"

	"arena/game"
)

// Errors returned by State.Play for moves the referee refuses.
var (
	ErrOffBoard = errors.New("square is off the board")
	ErrOccupied = errors.New("square is occupied")
	ErrOver     = errors.New("game is over")
)

// Foul is a renju forbidden move of Black.
type Foul uint8

// Renju fouls; NoFoul means the move is allowed.
const (
	NoFoul Foul = iota
	DoubleThree
	DoubleFour
	Overline
)

// String names the foul as RIF does ("double-three", ...).
func (f Foul) String() string {
	switch f {
	case DoubleThree:
		return "double-three"
	case DoubleFour:
		return "double-four"
	case Overline:
		return "overline"
	}
	return "none"
}

// Outcome describes how a finished game ended.
type Outcome struct {
	// Winner is Black or White, or Empty for a draw.
	Winner Stone
	// Reason is "five" (a winning line), "foul" (renju: Black played a
	// forbidden move and loses), "score" (continuous game decided by
	// the number of fives) or "draw".
	Reason string
	// Detail says what happened in words, e.g. "black double-four at 7,7".
	Detail string
}

// Event reports what one move did.
type Event struct {
	// Fives are the lines of five (or more, as the rule allows) the move
	// completed, each from one end to the other.
	Fives [][]Point
	// Foul is set when the move was a renju foul.
	Foul Foul
	// Over is set when the move ended the game.
	Over bool
}

// Internal square marks of the padded board State and ForbiddenAt work on.
// They never appear in Cells.
const (
	wall    Stone = 3 // the border around the board
	blocked Stone = 4 // a stone of a completed line in a continuous game
)

// State is the referee of one game: the position, whose turn it is, the
// history and, once the game is over, the outcome. It is pure data: no I/O,
// no clocks. A State is not safe for concurrent use; Clone it instead.
type State struct {
	cfg Config
	// Rule flags, decoded once.
	exact, continuous, renju, caro bool

	// board is the position with a one-square border of walls, row by
	// row (index (y+1)*stride + x+1). Stones of completed lines in
	// continuous games are marked blocked here, so that scans stop at
	// them; their colour stays in cells.
	board  []Stone
	stride int
	steps  [4]int // index offsets of the four line directions

	cells   []Stone // row-major view, y*width+x
	moves   []Point
	toMove  Stone
	empty   int
	score   [2]int
	over    bool
	outcome Outcome
}

// lineDirs are the four line directions as (dx, dy), in the order of
// State.steps.
var lineDirs = [4]Point{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}

// NewState returns the initial position of a game played under cfg, with
// Black to move. It fails when cfg is not valid or when cfg.EndEmpty leaves
// no square to play.
func NewState(cfg Config) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("new game: %w", err)
	}
	n := cfg.Width * cfg.Height
	if cfg.EndEmpty >= n {
		return nil, fmt.Errorf("new game: end-empty %d leaves no square to play on a %dx%d board", cfg.EndEmpty, cfg.Width, cfg.Height)
	}
	s := &State{
		cfg:        cfg,
		exact:      cfg.Rule.Has(ExactFive),
		continuous: cfg.Rule.Has(Continuous),
		renju:      cfg.Rule.Has(Renju),
		caro:       cfg.Rule.Has(Caro),
		cells:      make([]Stone, n),
		moves:      make([]Point, 0, n),
		toMove:     Black,
		empty:      n,
	}
	s.stride = cfg.Width + 2
	s.steps = gridSteps(s.stride)
	s.board = make([]Stone, s.stride*(cfg.Height+2))
	fillWalls(s.board, cfg.Width, cfg.Height)
	return s, nil
}

// gridSteps returns the index offsets of lineDirs on a padded board.
func gridSteps(stride int) [4]int { return [4]int{1, stride, stride + 1, stride - 1} }

// fillWalls marks the border of a padded board of the given inner size.
func fillWalls(b []Stone, width, height int) {
	stride := width + 2
	for x := range stride {
		b[x] = wall
		b[(height+1)*stride+x] = wall
	}
	for y := 1; y <= height; y++ {
		b[y*stride] = wall
		b[y*stride+width+1] = wall
	}
}

// Config returns the parameters of the game.
func (s *State) Config() Config { return s.cfg }

// onBoard reports whether p is a square of the board.
func (s *State) onBoard(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < s.cfg.Width && p.Y < s.cfg.Height
}

// index returns the padded-board index of an on-board square.
func (s *State) index(p Point) int { return (p.Y+1)*s.stride + p.X + 1 }

// point returns the square of a padded-board index.
func (s *State) point(i int) Point { return Point{i%s.stride - 1, i/s.stride - 1} }

// At returns the stone on p, or Empty when p is off the board. Stones of
// completed lines (see Blocked) keep their colour.
func (s *State) At(p Point) Stone {
	if !s.onBoard(p) {
		return Empty
	}
	return s.cells[p.Y*s.cfg.Width+p.X]
}

// Blocked reports whether p holds a stone of a completed line in a
// continuous game ('#' in PLOCHA.DAT, field 3 in BOARD). Such stones no
// longer count toward new lines.
func (s *State) Blocked(p Point) bool {
	return s.onBoard(p) && s.board[s.index(p)] == blocked
}

// Cells returns the board row by row (index y*width+x). The slice is the
// State's own storage: callers must not modify it, and it changes as the
// game goes on.
func (s *State) Cells() []Stone { return s.cells }

// ToMove returns the colour of the side to move.
func (s *State) ToMove() Stone { return s.toMove }

// Moves returns every stone played so far, opening stones included, in
// order; Black played the even indices. The slice is the State's own
// storage: callers must not modify it (appending to it copies).
func (s *State) Moves() []Point { return s.moves[:len(s.moves):len(s.moves)] }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.over }

// Outcome returns how the game ended; the zero Outcome while it goes on.
func (s *State) Outcome() Outcome { return s.outcome }

// Score returns the number of lines c has completed in a continuous game
// (0 in other games and for Empty).
func (s *State) Score(c Stone) int {
	if c != Black && c != White {
		return 0
	}
	return s.score[c.Side()]
}

// Empty returns the number of unoccupied squares (squares of completed
// lines are occupied).
func (s *State) Empty() int { return s.empty }

// Clone returns a deep copy of s.
func (s *State) Clone() *State {
	c := *s
	c.board = slices.Clone(s.board)
	c.cells = slices.Clone(s.cells)
	c.moves = make([]Point, len(s.moves), cap(s.moves))
	copy(c.moves, s.moves)
	return &c
}

// Forfeit ends the game: loser loses with the given reason (for example
// "timeout", "crash" or "illegal") and detail, and the other colour wins.
// With loser Empty the game ends as a draw with that reason (an
// adjudication). An empty reason is recorded as "forfeit". Forfeit does
// nothing when the game is already over.
func (s *State) Forfeit(loser Stone, reason, detail string) {
	if s.over {
		return
	}
	if reason == "" {
		reason = "forfeit"
	}
	s.finish(loser.Opponent(), reason, detail)
}

// finish ends the game.
func (s *State) finish(winner Stone, reason, detail string) {
	s.over = true
	s.outcome = Outcome{Winner: winner, Reason: reason, Detail: detail}
}

// colourName names a stone in outcome details.
func colourName(c Stone) string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "nobody"
}

// Play places a stone of the side to move on p and applies the rules:
// winning lines, renju fouls, continuous-game scoring and the end of the
// game. A refused move leaves the State unchanged and returns an error that
// wraps ErrOver, ErrOffBoard or ErrOccupied and names the square, e.g.
// "play 20,3: square is off the board".
//
// Play examines only the four lines through p and does not allocate except
// to report completed lines.
func (s *State) Play(p Point) (Event, error) {
	if s.over {
		return Event{}, fmt.Errorf("play %v: %w", p, ErrOver)
	}
	if !s.onBoard(p) {
		return Event{}, fmt.Errorf("play %v: %w", p, ErrOffBoard)
	}
	i := s.index(p)
	if s.board[i] != Empty {
		return Event{}, fmt.Errorf("play %v: %w", p, ErrOccupied)
	}
	me := s.toMove

	// Runs of the mover's (unblocked) stones on both sides of p.
	var back, fwd [4]int
	var wins [4]bool
	nwins, longest := 0, 0
	for d, st := range s.steps {
		back[d] = s.run(i, -st, me)
		fwd[d] = s.run(i, st, me)
		n := back[d] + fwd[d] + 1
		if s.winning(me, i, st, back[d], fwd[d]) {
			wins[d] = true
			nwins++
			longest = max(longest, n)
		}
	}

	var ev Event
	if nwins == 0 && s.renju && me == Black {
		g := grid{b: s.board, steps: s.steps}
		ev.Foul, _ = g.foul(i)
	}

	s.place(p, i, me)
	s.toMove = me.Opponent()

	switch {
	case ev.Foul != NoFoul:
		s.finish(White, "foul", fmt.Sprintf("black %v at %v", ev.Foul, p))
	case nwins > 0:
		ev.Fives = make([][]Point, 0, nwins)
		for d, st := range s.steps {
			if wins[d] {
				ev.Fives = append(ev.Fives, s.line(i, st, lineDirs[d], back[d], fwd[d]))
			}
		}
		if !s.continuous {
			detail := fmt.Sprintf("%s five at %v", colourName(me), p)
			if longest > 5 {
				detail = fmt.Sprintf("%s five (%d in a row) at %v", colourName(me), longest, p)
			}
			s.finish(me, "five", detail)
			break
		}
		for d, st := range s.steps {
			if wins[d] {
				for j := i - back[d]*st; j <= i+fwd[d]*st; j += st {
					s.board[j] = blocked
				}
			}
		}
		s.score[me.Side()] += nwins
	}
	if !s.over {
		s.checkEnd()
	}
	ev.Over = s.over
	return ev, nil
}

// place puts a stone of colour c on p (padded index i).
func (s *State) place(p Point, i int, c Stone) {
	s.board[i] = c
	s.cells[p.Y*s.cfg.Width+p.X] = c
	s.moves = append(s.moves, p)
	s.empty--
}

// run counts the stones of colour c next to index i going by step.
// Walls, blocked stones and other colours end the run.
func (s *State) run(i, step int, c Stone) int {
	n := 0
	for j := i + step; s.board[j] == c; j += step {
		n++
	}
	return n
}

// winning reports whether a run of back+1+fwd stones of colour me through
// index i along step wins under the rule.
func (s *State) winning(me Stone, i, step, back, fwd int) bool {
	n := back + fwd + 1
	switch {
	case n < 5:
		return false
	case s.renju:
		return n == 5 || me == White
	case s.exact && n != 5:
		return false
	case s.caro:
		opp := me.Opponent()
		return s.board[i-(back+1)*step] != opp || s.board[i+(fwd+1)*step] != opp
	}
	return true
}

// line lists the squares of the run through index i along step, from the
// back end to the front end.
func (s *State) line(i, step int, dir Point, back, fwd int) []Point {
	start := s.point(i - back*step)
	out := make([]Point, back+fwd+1)
	for k := range out {
		out[k] = Point{start.X + k*dir.X, start.Y + k*dir.Y}
	}
	return out
}

// checkEnd ends the game when too few squares are left or the move limit
// is reached.
func (s *State) checkEnd() {
	var why string
	switch {
	case s.empty == 0:
		why = "board full"
	case s.empty <= s.cfg.EndEmpty:
		why = game.Count(s.empty, "empty square") + " left"
	case s.cfg.MaxMoves > 0 && len(s.moves) >= s.cfg.MaxMoves:
		why = fmt.Sprintf("move limit %d reached", s.cfg.MaxMoves)
	default:
		return
	}
	if !s.continuous {
		s.finish(Empty, "draw", why)
		return
	}
	b, w := s.score[0], s.score[1]
	detail := fmt.Sprintf("%s, black %d, white %d", why, b, w)
	switch {
	case b > w:
		s.finish(Black, "score", detail)
	case w > b:
		s.finish(White, "score", detail)
	default:
		s.finish(Empty, "draw", detail)
	}
}
