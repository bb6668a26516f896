package gomokubot

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"arena/game/gomoku"
)

// referee is a small, independent rules judge for the tests (the package
// gomoku referee is written elsewhere). It knows the win conditions of
// every rule code, renju fouls (through gomoku.ForbiddenAt) and
// continuous games.
type referee struct {
	w, h    int
	rule    gomoku.Rule
	cells   []gomoku.Stone
	block   []bool
	toMove  gomoku.Stone
	moves   int
	history []gomoku.Point
	fives   [3]int
	over    bool
	winner  gomoku.Stone
	reason  string
}

func newReferee(w, h int, rule gomoku.Rule) *referee {
	return &referee{w: w, h: h, rule: rule, cells: make([]gomoku.Stone, w*h), block: make([]bool, w*h), toMove: gomoku.Black}
}

func (r *referee) at(x, y int) (gomoku.Stone, bool) {
	if x < 0 || y < 0 || x >= r.w || y >= r.h {
		return gomoku.Empty, false
	}
	i := y*r.w + x
	return r.cells[i], !r.block[i]
}

// empty reports whether p is an empty square.
func (r *referee) empty(p gomoku.Point) bool {
	s, ok := r.at(p.X, p.Y)
	return ok && s == gomoku.Empty && (p.X >= 0 && p.Y >= 0 && p.X < r.w && p.Y < r.h)
}

// legal reports whether the side to move may play p.
func (r *referee) legal(p gomoku.Point) bool {
	if !r.empty(p) {
		return false
	}
	if r.rule&gomoku.Renju != 0 && r.toMove == gomoku.Black {
		return gomoku.ForbiddenAt(r.cells, r.w, r.h, p) == gomoku.NoFoul
	}
	return true
}

// legalMoves lists the legal squares for the side to move.
func (r *referee) legalMoves() []gomoku.Point {
	var out []gomoku.Point
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if p := (gomoku.Point{X: x, Y: y}); r.legal(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

var refDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// run returns the squares of the unblocked run of s through p along d.
func (r *referee) run(p gomoku.Point, s gomoku.Stone, d [2]int) []gomoku.Point {
	line := []gomoku.Point{p}
	for _, sign := range []int{-1, 1} {
		for k := 1; ; k++ {
			x, y := p.X+sign*k*d[0], p.Y+sign*k*d[1]
			c, ok := r.at(x, y)
			if !ok || c != s {
				break
			}
			line = append(line, gomoku.Point{X: x, Y: y})
		}
	}
	return line
}

// wins reports whether a run of n stones of s, whose end neighbours are
// a and b, wins under the rule.
func (r *referee) wins(n int, s, a, b gomoku.Stone) bool {
	exact := r.rule&gomoku.ExactFive != 0 || (r.rule&gomoku.Renju != 0 && s == gomoku.Black)
	switch {
	case n < 5:
		return false
	case n > 5 && exact:
		return false
	}
	if r.rule&gomoku.Caro != 0 && a == s.Opponent() && b == s.Opponent() {
		return false
	}
	return true
}

// fiveLines returns the winning runs through p for s.
func (r *referee) fiveLines(p gomoku.Point, s gomoku.Stone) [][]gomoku.Point {
	var out [][]gomoku.Point
	for _, d := range refDirs {
		// Count the run and look at the neighbours beyond both ends.
		n := 1
		var ends [2]gomoku.Stone
		for i, sign := range [2]int{-1, 1} {
			for k := 1; ; k++ {
				c, ok := r.at(p.X+sign*k*d[0], p.Y+sign*k*d[1])
				if !ok || c != s {
					if ok {
						ends[i] = c
					}
					break
				}
				n++
			}
		}
		if r.wins(n, s, ends[0], ends[1]) {
			out = append(out, r.run(p, s, d))
		}
	}
	return out
}

// play makes the move of the side to move; illegal moves end the game
// for the mover.
func (r *referee) play(p gomoku.Point) error {
	if r.over {
		return fmt.Errorf("game over")
	}
	s := r.toMove
	if !r.empty(p) {
		return fmt.Errorf("%v is not an empty square", p)
	}
	if !r.legal(p) {
		r.over, r.winner, r.reason = true, s.Opponent(), "foul"
		return nil
	}
	r.cells[p.Y*r.w+p.X] = s
	r.moves++
	r.history = append(r.history, p)
	r.toMove = s.Opponent()
	lines := r.fiveLines(p, s)
	if len(lines) > 0 {
		if r.rule&gomoku.Continuous == 0 {
			r.over, r.winner, r.reason = true, s, "five"
			return nil
		}
		r.fives[s] += len(lines)
		for _, l := range lines {
			for _, q := range l {
				r.block[q.Y*r.w+q.X] = true
			}
		}
	}
	if len(r.legalMoves()) == 0 {
		r.over, r.reason = true, "full"
		switch {
		case r.fives[gomoku.Black] > r.fives[gomoku.White]:
			r.winner = gomoku.Black
		case r.fives[gomoku.White] > r.fives[gomoku.Black]:
			r.winner = gomoku.White
		}
	}
	return nil
}

// String draws the board.
func (r *referee) String() string {
	var sb strings.Builder
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			i := y*r.w + x
			switch {
			case r.block[i]:
				sb.WriteByte('#')
			default:
				sb.WriteByte(".xo"[r.cells[i]])
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// player picks moves for the side to move.
type player interface {
	move(r *referee) gomoku.Point
}

// randomPlayer plays a uniformly random legal square.
type randomPlayer struct{ rng *rand.Rand }

func (p randomPlayer) move(r *referee) gomoku.Point {
	ms := r.legalMoves()
	return ms[p.rng.IntN(len(ms))]
}

// greedyPlayer wins at once if it can, else blocks the opponent's
// immediate five, else plays the square that maximises its longest own
// line through it (ties broken at random).
type greedyPlayer struct{ rng *rand.Rand }

func (g greedyPlayer) move(r *referee) gomoku.Point {
	me := r.toMove
	ms := r.legalMoves()
	try := func(p gomoku.Point, s gomoku.Stone) bool {
		r.cells[p.Y*r.w+p.X] = s
		ok := len(r.fiveLines(p, s)) > 0
		r.cells[p.Y*r.w+p.X] = gomoku.Empty
		return ok
	}
	for _, p := range ms {
		if try(p, me) {
			return p
		}
	}
	for _, p := range ms {
		if try(p, me.Opponent()) {
			return p
		}
	}
	best, bestN := []gomoku.Point(nil), -1
	for _, p := range ms {
		r.cells[p.Y*r.w+p.X] = me
		n := 0
		for _, d := range refDirs {
			n = max(n, len(r.run(p, me, d)))
		}
		r.cells[p.Y*r.w+p.X] = gomoku.Empty
		switch {
		case n > bestN:
			best, bestN = []gomoku.Point{p}, n
		case n == bestN:
			best = append(best, p)
		}
	}
	return best[g.rng.IntN(len(best))]
}
