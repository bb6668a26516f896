package khet

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// This file holds an independent, slow Khet move generator written from
// the spec's text (B2, B4) with its own board, its own beam table typed in
// from the spec and its own restricted-square rule. Perft counts, and the
// exact sets of positions, of the fast generator must match it.

type slowPiece struct {
	color, kind byte // 'S'/'R', 'P','C','A','Y','X'
	dir         int
}

type slowBoard struct {
	sq     [Width][Height]slowPiece // kind 0: empty
	toMove byte
	rules  Rules
}

func slowFrom(t testing.TB, text string, toMove byte, rules Rules) *slowBoard {
	t.Helper()
	b := &slowBoard{toMove: toMove, rules: rules}
	for _, tok := range strings.Fields(text) {
		x, y := int(tok[1]-'0'), int(tok[2]-'0')
		b.sq[x][y] = slowPiece{color: tok[0], kind: tok[3], dir: int(tok[4] - '0')}
	}
	return b
}

func (b *slowBoard) clone() *slowBoard {
	c := *b
	return &c
}

// render lists the pieces in state-string order plus the side to move.
func (b *slowBoard) render() string {
	var parts []byte
	n := 0
	for y := range Height {
		for x := range Width {
			if p := b.sq[x][y]; p.kind != 0 {
				parts = append(parts, ' ', p.color, byte('0'+x), byte('0'+y), p.kind, byte('0'+p.dir))
				n++
			}
		}
	}
	return string(b.toMove) + " " + strconv.Itoa(n) + string(parts)
}

// slowAllowed: Red may not enter column 9, (1,0), (1,7); Silver may not
// enter column 0, (8,0), (8,7).
func slowAllowed(color byte, x, y int) bool {
	if color == 'R' {
		return !(x == 9 || (x == 1 && (y == 0 || y == 7)))
	}
	return !(x == 0 || (x == 8 && (y == 0 || y == 7)))
}

func onBoard(x, y int) bool { return x >= 0 && x < Width && y >= 0 && y < Height }

// slowMoves tries every piece with every action string and keeps those the
// rules allow, as move strings.
func (b *slowBoard) slowMoves() []string {
	var out []string
	dx := [4]int{0, 1, 0, -1}
	dy := [4]int{-1, 0, 1, 0}
	for y := range Height {
		for x := range Width {
			p := b.sq[x][y]
			if p.kind == 0 || p.color != b.toMove {
				continue
			}
			name := fmt.Sprintf("%c%d%d", p.color, x, y)
			for _, rot := range []struct {
				ch   string
				turn int
			}{{"C", 1}, {"c", 3}} {
				nd := (p.dir + rot.turn) % 4
				switch p.kind {
				case 'X':
					if onBoard(x+dx[nd], y+dy[nd]) {
						out = append(out, name+rot.ch)
					}
				case 'P':
					if b.rules.PharaohRotation {
						out = append(out, name+rot.ch)
					}
				default:
					out = append(out, name+rot.ch)
				}
			}
			if p.kind == 'X' {
				continue
			}
			for d := 0; d <= 8; d++ {
				if d == 4 {
					continue
				}
				tx, ty := x+d%3-1, y+d/3-1
				if !onBoard(tx, ty) || !slowAllowed(p.color, tx, ty) {
					continue
				}
				q := b.sq[tx][ty]
				switch {
				case q.kind == 0:
				case p.kind == 'C' && (q.kind == 'Y' || q.kind == 'A') && (b.rules.SwapMoverOnly || slowAllowed(q.color, x, y)):
				default:
					continue
				}
				out = append(out, fmt.Sprintf("%s%d", name, d))
			}
		}
	}
	sort.Strings(out)
	return out
}

// slowBeam is the spec's beam table (B4) typed in: for a piece and the
// beam's travel direction t, the new direction, or -1 dies, -2 stops.
func slowBeam(p slowPiece, t int) int {
	const dies, stops = -1, -2
	switch p.kind {
	case 'P':
		return dies
	case 'X':
		return stops
	case 'A':
		if (t+2)%4 == p.dir {
			return stops
		}
		return dies
	case 'C':
		if p.dir%2 == 0 {
			return [4]int{3, 2, 1, 0}[t]
		}
		return [4]int{1, 0, 3, 2}[t]
	}
	table := [4][4]int{
		{dies, dies, 1, 0},
		{1, dies, dies, 2},
		{3, 2, dies, dies},
		{dies, 0, 3, dies},
	}
	return table[p.dir][t]
}

// slowApply plays a move string and fires; it returns the new board and
// the colour of a destroyed Pharaoh (0 if none).
func (b *slowBoard) slowApply(m string) (*slowBoard, byte) {
	c := b.clone()
	x, y := int(m[1]-'0'), int(m[2]-'0')
	p := &c.sq[x][y]
	switch m[3] {
	case 'C':
		p.dir = (p.dir + 1) % 4
	case 'c':
		p.dir = (p.dir + 3) % 4
	default:
		d := int(m[3] - '0')
		tx, ty := x+d%3-1, y+d/3-1
		c.sq[x][y], c.sq[tx][ty] = c.sq[tx][ty], c.sq[x][y]
	}
	// Fire the mover's Sphinx.
	var sx, sy int
	for xx := range Width {
		for yy := range Height {
			if q := c.sq[xx][yy]; q.kind == 'X' && q.color == b.toMove {
				sx, sy = xx, yy
			}
		}
	}
	dx := [4]int{0, 1, 0, -1}
	dy := [4]int{-1, 0, 1, 0}
	t := c.sq[sx][sy].dir
	var dead byte
	for bx, by := sx+dx[t], sy+dy[t]; onBoard(bx, by); bx, by = bx+dx[t], by+dy[t] {
		q := c.sq[bx][by]
		if q.kind == 0 {
			continue
		}
		nt := slowBeam(q, t)
		if nt == -1 {
			if q.kind == 'P' {
				dead = q.color
			}
			c.sq[bx][by] = slowPiece{}
		}
		if nt < 0 {
			break
		}
		t = nt
	}
	if c.toMove == 'S' {
		c.toMove = 'R'
	} else {
		c.toMove = 'S'
	}
	return c, dead
}

// slowPerft counts leaves and folds their renderings into a checksum.
func slowPerft(b *slowBoard, depth int, sum *uint64) int64 {
	if depth == 0 {
		*sum += hashString(b.render())
		return 1
	}
	var n int64
	for _, m := range b.slowMoves() {
		c, dead := b.slowApply(m)
		if dead != 0 && depth > 1 {
			continue
		}
		n += slowPerft(c, depth-1, sum)
	}
	return n
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// renderFast renders a fast board like slowBoard.render.
func renderFast(b *Board) string {
	return string(b.ToMove().Letter()) + " " + b.BoardString()
}

func fastPerftSum(b *Board, depth int, sum *uint64) int64 {
	if depth == 0 {
		*sum += hashString(renderFast(b))
		return 1
	}
	var n int64
	for _, m := range b.Moves(nil) {
		u := b.Make(m)
		if r := u.Removed(); !(r.IsPiece() && r.Kind() == Pharaoh && depth > 1) {
			n += fastPerftSum(b, depth-1, sum)
		}
		b.Unmake(u)
	}
	return n
}

// TestPerftAgainstSlowGenerator compares the fast generator with the slow
// one: the move lists at the root and after every first move, and perft
// counts with a checksum of every leaf position to depth 3, from each
// setup and with the optional rules.
func TestPerftAgainstSlowGenerator(t *testing.T) {
	depth := 3
	if testing.Short() || raceEnabled {
		depth = 2
	}
	variants := []struct {
		name  string
		rules Rules
	}{{"default", Rules{}}, {"pharaoh rotation, mover-only swaps", Rules{PharaohRotation: true, SwapMoverOnly: true}}}
	for _, setup := range Setups() {
		for _, v := range variants {
			t.Run(string(setup)+"/"+v.name, func(t *testing.T) {
				fast, err := SetupBoard(setup, v.rules)
				if err != nil {
					t.Fatal(err)
				}
				slow := slowFrom(t, setupPieces[setup], 'S', v.rules)
				compareMoves(t, fast, slow)
				for _, m := range fast.Moves(nil) {
					u := fast.Make(m)
					child, _ := slow.slowApply(m.String())
					if got, want := renderFast(fast), child.render(); got != want {
						t.Fatalf("after %v:\n fast %s\n slow %s", m, got, want)
					}
					compareMoves(t, fast, child)
					fast.Unmake(u)
				}
				d := depth
				if v.name != "default" {
					d = min(depth, 2)
				}
				var fs, ss uint64
				fn := fastPerftSum(fast, d, &fs)
				sn := slowPerft(slow, d, &ss)
				if fn != sn || fs != ss {
					t.Fatalf("perft(%d): fast %d (sum %x), slow %d (sum %x)", d, fn, fs, sn, ss)
				}
				if p := Perft(fast, d); p != fn {
					t.Fatalf("Perft(%d) = %d, want %d", d, p, fn)
				}
				t.Logf("perft(%d) = %d", d, fn)
			})
		}
	}
}

func compareMoves(t *testing.T, fast *Board, slow *slowBoard) {
	t.Helper()
	var got []string
	for _, m := range fast.Moves(nil) {
		got = append(got, m.String())
		if err := fast.Check(m); err != nil {
			t.Fatalf("generated move %v fails Check: %v", m, err)
		}
	}
	sort.Strings(got)
	want := slow.slowMoves()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("moves of %s\n fast %v\n slow %v", slow.render(), got, want)
	}
	// Check must accept exactly these among every string a bot could send.
	legal := map[string]bool{}
	for _, m := range want {
		legal[m] = true
	}
	for _, c := range "SR" {
		for x := range 10 {
			for y := range 10 {
				for _, a := range "012345678Cc" {
					ms := fmt.Sprintf("%c%d%d%c", c, x, y, a)
					m, err := ParseMove(ms)
					if err != nil {
						t.Fatalf("%s: %v", ms, err)
					}
					if err := fast.Check(m); (err == nil) != legal[ms] {
						t.Fatalf("Check(%s) = %v, legal %v in %s", ms, err, legal[ms], slow.render())
					}
				}
			}
		}
	}
}
