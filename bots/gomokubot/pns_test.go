package gomokubot

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"arena/game/gomoku"
)

// vctCase is a tactical position for the proof-number VCT search.
type vctCase struct {
	name     string
	rule     gomoku.Rule
	attacker gomoku.Stone
	rows     []string // 'x' Black, 'o' White; 15 rows of 15
	win      bool
}

// board15 returns 15 rows of 15 with the given rows (top first) placed
// from row top on, each starting at column left.
func board15(top, left int, rows ...string) []string {
	out := emptyRows(15, 15)
	for i, r := range rows {
		b := []byte(out[top+i])
		copy(b[left:], r)
		out[top+i] = string(b)
	}
	return out
}

var vctCases = []vctCase{
	{
		// Two open twos crossing on an empty square: the double three
		// there wins (three, block, open four, five).
		name: "double three", rule: gomoku.Freestyle, attacker: gomoku.Black, win: true,
		rows: board15(5, 5,
			"..x..",
			"..x..",
			"xx...",
			".....",
		),
	},
	{
		// The same shape for White.
		name: "double three for white", rule: gomoku.Freestyle, attacker: gomoku.White, win: true,
		rows: board15(5, 5,
			"..o..",
			"..o..",
			"oo...",
			".....",
		),
	},
	{
		// A three, then a double four-three: no four at the start, so
		// no VCF, but threes force it: x at (9,7) makes an open three
		// on row 7 and the rest follows.
		name: "three then four-three", rule: gomoku.Freestyle, attacker: gomoku.Black, win: true,
		rows: board15(4, 4,
			"......",
			"...x..",
			"..x...",
			".x.x..",
			"......",
			"......",
		),
	},
	{
		// One open two only: threats run out.
		name: "lone two", rule: gomoku.Freestyle, attacker: gomoku.Black, win: false,
		rows: board15(6, 5,
			"...",
			".xx",
			"...",
		),
	},
	{
		// The horizontal two is dead (White on both sides of the
		// three it would make), so the double three is gone, but four
		// stones against two still win by a longer chain of threats
		// (checked by playing it out).
		name: "longer chain", rule: gomoku.Freestyle, attacker: gomoku.Black, win: true,
		rows: board15(5, 4,
			"...x..",
			"...x..",
			"oxx..o",
			"......",
		),
	},
	{
		// White can make an open four at once: Black's double three
		// comes too late and Black has no four.
		name: "defender's open three refutes", rule: gomoku.Freestyle, attacker: gomoku.Black, win: false,
		rows: board15(5, 5,
			"..x.....",
			"..x.....",
			"xx......",
			"........",
			"....ooo.",
			"........",
		),
	},
	{
		// Renju: the double three is a foul for Black, but Black still
		// wins by a chain that avoids it (checked by playing it out
		// with the referee's foul rules).
		name: "renju avoids the foul", rule: gomoku.Renju, attacker: gomoku.Black, win: true,
		rows: board15(5, 5,
			"..x..",
			"..x..",
			"xx...",
			".....",
		),
	},
	{
		// Renju: White may make a double three.
		name: "renju white double three", rule: gomoku.Renju, attacker: gomoku.White, win: true,
		rows: board15(5, 5,
			"..o..",
			"..o..",
			"oo...",
			".....",
		),
	},
}

// TestVCT checks that the proof-number VCT search finds the forced wins
// of the tactical positions and claims none where there is none, and that
// every win it claims holds against a defender that may play anything
// (playWin).
func TestVCT(t *testing.T) {
	for _, tc := range vctCases {
		t.Run(tc.name, func(t *testing.T) {
			e := engineFrom(t, tc.rule, tc.rows...)
			e.begin(context.Background(), time.Minute)
			res := e.findVCT(uint8(tc.attacker), 200000, 40)
			t.Logf("%d nodes, line %v", res.nodes, points(e, res.line))
			if res.won != tc.win {
				t.Fatalf("won %v, want %v (line %v, %d nodes)", res.won, tc.win, points(e, res.line), res.nodes)
			}
			// The depth-first threat search agrees.
			e.begin(context.Background(), time.Minute)
			if _, ok := e.findThreat(uint8(tc.attacker), true, 12, 2000000); ok != tc.win {
				t.Errorf("depth-first threat search says %v", ok)
			}
			if tc.win {
				playWin(t, tc.rule, tc.rows, tc.attacker)
			}
		})
	}
}

// points converts padded indices to points for messages.
func points(e *Engine, line []int32) []gomoku.Point {
	out := make([]gomoku.Point, len(line))
	for i, sq := range line {
		out[i] = e.point(int(sq))
	}
	return out
}

// playWin plays the position out: the attacker follows its VCT (or plays
// five, or blocks a four), the defender is the engine's full search at
// depth 4; the attacker must win within 40 moves. The referee judges.
func playWin(t *testing.T, rule gomoku.Rule, rows []string, attacker gomoku.Stone) {
	t.Helper()
	ps := newPosition(15, 15, rule)
	for y, r := range rows {
		for x, ch := range r {
			switch ch {
			case 'x':
				ps.set(t, gomoku.Point{X: x, Y: y}, gomoku.Black)
			case 'o':
				ps.set(t, gomoku.Point{X: x, Y: y}, gomoku.White)
			}
		}
	}
	ps.r.toMove = attacker
	def := NewEngine(15, 15, rule)
	def.MaxDepth = 4
	for y, r := range rows {
		for x, ch := range r {
			if s := map[rune]gomoku.Stone{'x': gomoku.Black, 'o': gomoku.White}[ch]; s != gomoku.Empty {
				if err := def.Place(gomoku.Point{X: x, Y: y}, s); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	e := ps.e
	me := uint8(attacker)
	for n := 0; n < 40 && !ps.r.over; n++ {
		var p gomoku.Point
		if ps.r.toMove == attacker {
			e.begin(context.Background(), time.Minute)
			switch {
			case e.cnt[me-1][lvFive] > 0:
				p = e.point(e.findLevel(me, lvFive))
			default:
				res := e.findVCT(me, 200000, 40)
				if !res.won || len(res.line) == 0 {
					t.Fatalf("move %d: the attacker lost its win:\n%v", n, ps.r)
				}
				p = e.point(int(res.line[0]))
			}
		} else {
			p, _ = def.Search(context.Background(), ps.r.toMove, 10*time.Second)
		}
		s := ps.r.toMove
		if err := ps.r.play(p); err != nil {
			t.Fatalf("move %d: %v", n, err)
		}
		if err := e.Place(p, s); err != nil {
			t.Fatal(err)
		}
		if err := def.Place(p, s); err != nil {
			t.Fatal(err)
		}
	}
	if !ps.r.over || ps.r.winner != attacker {
		t.Fatalf("the attacker did not win (winner %v):\n%v", ps.r.winner, ps.r)
	}
}

// TestVCTNoFalseWins takes positions from games of the engine against a
// noisy copy of itself and checks every win the VCT search claims by
// playing it out against the engine's full search.
func TestVCTNoFalseWins(t *testing.T) {
	if testing.Short() {
		t.Skip("plays many positions out")
	}
	claims, probes := 0, 0
	for g := 0; g < 10; g++ {
		rng := rand.New(rand.NewPCG(uint64(g)+1, 17))
		r := newReferee(15, 15, gomoku.Freestyle)
		e := NewEngine(15, 15, gomoku.Freestyle)
		e.MaxDepth = 2
		var rows []string
		for n := 0; n < 60 && !r.over; n++ {
			// Probe the side to move before it plays.
			rows = rowsOf(r)
			me := uint8(r.toMove)
			if n >= 6 && e.cnt[me-1][lvFive] == 0 && e.cnt[2-me][lvFive] == 0 {
				probes++
				e.begin(context.Background(), time.Minute)
				if res := e.findVCT(me, 20000, 30); res.won {
					claims++
					t.Run("", func(t *testing.T) { playWin(t, gomoku.Freestyle, rows, r.toMove) })
					break // the rest of the game is a won one
				}
			}
			var p gomoku.Point
			if moves, _ := e.genMoves(me, 0, 0, -1); len(moves) > 0 && rng.IntN(3) == 0 {
				sortMoves(moves)
				p = e.point(int(moves[rng.IntN(min(len(moves), 6))].sq))
			} else {
				p, _ = e.Search(context.Background(), r.toMove, 10*time.Second)
			}
			s := r.toMove
			if err := r.play(p); err != nil {
				t.Fatal(err)
			}
			if err := e.Place(p, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d probes, %d claimed wins checked", probes, claims)
	if claims == 0 {
		t.Errorf("no claimed win in %d probes: the check checked nothing", probes)
	}
}

// rowsOf returns the referee's board as rows of 'x', 'o' and '.'.
func rowsOf(r *referee) []string {
	rows := make([]string, r.h)
	for y := range rows {
		b := make([]byte, r.w)
		for x := range b {
			switch r.cells[y*r.w+x] {
			case gomoku.Black:
				b[x] = 'x'
			case gomoku.White:
				b[x] = 'o'
			default:
				b[x] = '.'
			}
		}
		rows[y] = string(b)
	}
	return rows
}

// BenchmarkVCT runs the proof-number VCT search on the midgame position
// for both sides and reports nodes per second.
func BenchmarkVCT(b *testing.B) {
	e := engineFrom(b, gomoku.Freestyle, midgame...)
	var nodes int64
	start := time.Now()
	for i := 0; i < b.N; i++ {
		e.begin(context.Background(), time.Minute)
		e.findVCT(cWhite, 20000, 40)
		e.findVCT(cBlack, 20000, 40)
		nodes += e.search.nodes
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
}
