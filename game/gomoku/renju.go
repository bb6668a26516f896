package gomoku

// This file judges renju fouls (RIF rules) the way Piskvork's and
// GomocupJudge's checker (by Tianyi Hao) does, written from the
// definitions:
//
//   - five: exactly five black stones in a row. A move that makes a five is
//     never a foul.
//   - overline: six or more black stones in a row.
//   - four: a line where one more black stone makes a five. A straight four
//     (.XXXX. with both completions making exactly five) is one four; two
//     fours on one line (X.XXX.X, XX.XX.XX, XXX.X.XXX, the move inside)
//     count twice.
//   - three: a line where one more black stone makes a straight four. That
//     stone must itself be allowed, judged recursively with the stones
//     placed so far. As in Piskvork, a completion that would make a five
//     does not count either (only the move under judgement is exempted by
//     its own five).
//
// Only lines through the move count. A foul is named in this order:
// overline, double-four, double-three.

// grid is a padded board (a one-square border of walls, see State.board)
// that the foul check may change temporarily; it always restores it.
type grid struct {
	b     []Stone
	steps [4]int
}

// count counts the black stones next to index i going by step.
func (g grid) count(i, step int) int {
	n := 0
	for j := i + step; g.b[j] == Black; j += step {
		n++
	}
	return n
}

// foul judges a black stone on the empty index i. five reports that the
// stone makes a five (the foul is then NoFoul).
func (g grid) foul(i int) (f Foul, five bool) {
	g.b[i] = Black
	f, five = g.judge(i)
	g.b[i] = Empty
	return f, five
}

// judge judges the black stone on index i.
func (g grid) judge(i int) (Foul, bool) {
	var back, fwd [4]int
	over := false
	for d, st := range g.steps {
		back[d], fwd[d] = g.count(i, -st), g.count(i, st)
		switch n := back[d] + fwd[d] + 1; {
		case n == 5:
			return NoFoul, true
		case n > 5:
			over = true
		}
	}
	if over {
		return Overline, false
	}
	fours := 0
	for d, st := range g.steps {
		fours += g.fours(i, st, back[d], fwd[d])
	}
	if fours >= 2 {
		return DoubleFour, false
	}
	threes := 0
	for d, st := range g.steps {
		if g.three(i, st, back[d], fwd[d]) {
			threes++
			if threes == 2 {
				return DoubleThree, false
			}
		}
	}
	return NoFoul, false
}

// fours counts the fours through the black run of back+1+fwd stones
// around index i along step (0, 1 or 2). Each side of the run has at most
// one square that makes a five with it: the first square past its end.
func (g grid) fours(i, step, back, fwd int) int {
	n := back + fwd + 1
	if n >= 5 {
		return 0
	}
	lo, hi := i-(back+1)*step, i+(fwd+1)*step
	okLo := g.b[lo] == Empty && n+1+g.count(lo, -step) == 5
	okHi := g.b[hi] == Empty && n+1+g.count(hi, step) == 5
	switch {
	case okLo && okHi && n == 4:
		return 1 // straight four: one four, two ways to finish it
	case okLo && okHi:
		return 2
	case okLo || okHi:
		return 1
	}
	return 0
}

// three reports whether the black run of back+1+fwd stones around index
// i along step is a three: a stone on the first square past one of its
// ends makes a straight four and is itself allowed.
func (g grid) three(i, step, back, fwd int) bool {
	n := back + fwd + 1
	if n > 3 {
		return false
	}
	first, last := i-back*step, i+fwd*step
	if c := first - step; g.b[c] == Empty {
		a := g.count(c, -step)
		if n+1+a == 4 && g.straightEnds(c-a*step, last, step) && g.allowed(c) {
			return true
		}
	}
	if c := last + step; g.b[c] == Empty {
		a := g.count(c, step)
		if n+1+a == 4 && g.straightEnds(first, c+a*step, step) && g.allowed(c) {
			return true
		}
	}
	return false
}

// straightEnds reports whether four black stones from index first to
// index last (along step, the last one not yet placed) form a straight
// four: both squares past the ends are empty and each completes exactly
// five.
func (g grid) straightEnds(first, last, step int) bool {
	lo, hi := first-step, last+step
	return g.b[lo] == Empty && g.b[hi] == Empty &&
		g.b[lo-step] != Black && g.b[hi+step] != Black
}

// allowed reports whether a black stone on the empty index c may be used
// to complete a three: it is not a foul and, as in Piskvork, not a five.
func (g grid) allowed(c int) bool {
	f, five := g.foul(c)
	return f == NoFoul && !five
}

// ForbiddenAt reports whether Black placing a stone at p on the given
// position would be a renju foul (RIF rules: a move that makes a five is
// never a foul; otherwise overline, double-four and double-three are
// forbidden, with threes and fours judged recursively as RIF does).
// cells holds the board row by row (index y*width+x); p must be empty.
// It does not modify cells.
//
// The judgement follows Piskvork's and GomocupJudge's checker, including
// its one convention beyond the RIF text: a three whose only straight-four
// completions would make a five elsewhere does not count. ForbiddenAt
// returns NoFoul when p is off the board or occupied, or when the sizes
// are outside 1..MaxSize or do not match cells.
func ForbiddenAt(cells []Stone, width, height int, p Point) Foul {
	if width < 1 || height < 1 || width > MaxSize || height > MaxSize || len(cells) != width*height {
		return NoFoul
	}
	if p.X < 0 || p.Y < 0 || p.X >= width || p.Y >= height || cells[p.Y*width+p.X] != Empty {
		return NoFoul
	}
	var buf [(MaxSize + 2) * (MaxSize + 2)]Stone
	stride := width + 2
	b := buf[:stride*(height+2)]
	fillWalls(b, width, height)
	for y := range height {
		row := b[(y+1)*stride+1 : (y+1)*stride+1+width]
		copy(row, cells[y*width:(y+1)*width])
		for x, c := range row {
			if c != Empty && c != Black {
				row[x] = White // anything else only stops black lines
			}
		}
	}
	g := grid{b: b, steps: gridSteps(stride)}
	f, _ := g.foul((p.Y+1)*stride + p.X + 1)
	return f
}
