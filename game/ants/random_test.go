package ants

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// randomBots answer every turn with random orders for their own ants,
// read from what the engine sends them.
type randomBots struct {
	st  *State
	rng *rand.Rand
}

func (r *randomBots) Started(int) bool { return true }
func (r *randomBots) Send(int, []byte) {}
func (r *randomBots) Resume(int)       {}
func (r *randomBots) Kill(int)         {}
func (r *randomBots) Moves(turn int, group []int, _ time.Duration) []Answer {
	out := make([]Answer, len(group))
	dirs := "nesw"
	for i, b := range group {
		for _, a := range r.st.currentAnts() {
			if a.Owner == b && r.rng.IntN(4) > 0 {
				out[i].Lines = append(out[i].Lines, "o "+itoa(r.st.row(a.Loc))+" "+itoa(r.st.col(a.Loc))+" "+string(dirs[r.rng.IntN(4)]))
			}
		}
	}
	return out
}

// itoa writes the orders of the test bots (and of the benchmarks, where a
// slow one would be timed with the referee).
func itoa(v int) string { return strconv.Itoa(v) }

// Random games keep the invariants: map and ant list agree, nobody sees
// what it cannot see, scores stay consistent, histories have one entry
// per turn for live players.
func TestRandomGamesInvariants(t *testing.T) {
	dirs := recordedGames(t)
	for i, dir := range dirs {
		rec, err := LoadRecorded(dir)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseMap(rec.MapText)
		if err != nil {
			t.Fatal(err)
		}
		opt := rec.Options
		opt.Turns = 120
		opt.EngineSeed = int64(100 + i)
		st, err := NewState(m, opt)
		if err != nil {
			t.Fatal(err)
		}
		e := &Engine{State: st, Bots: &randomBots{st: st, rng: rand.New(rand.NewPCG(uint64(i), 1))}, Sleep: func(time.Duration) {}}
		e.OnTurn = func(ti TurnInfo) {
			for _, a := range st.currentAnts() {
				if int(st.grid[a.Loc]) != a.Owner || st.antOn(a.Loc) != a {
					t.Fatalf("%s turn %d: map and ants disagree at %d", filepath.Base(dir), ti.Turn, a.Loc)
				}
			}
			if ti.Turn%7 == 0 {
				checkVision(t, st)
			}
			for _, a := range st.currentAnts() {
				if !st.Visible(a.Owner, a.Loc) {
					t.Fatalf("player %d does not see its own ant", a.Owner)
				}
			}
		}
		res, err := e.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.GameLength > opt.Turns {
			t.Fatalf("game length %d > turns %d", res.GameLength, opt.Turns)
		}
		for p, h := range st.ScoreHist {
			if len(h) > res.GameLength+1 {
				t.Fatalf("player %d: %d score entries for %d turns", p, len(h), res.GameLength)
			}
		}
		if FirstJSONDifference(ReplayJSON(res, nil), ReplayJSON(res, nil)) != "" {
			t.Fatal("replay is not valid JSON")
		}
	}
}

// checkVision compares every player's sight of each square, drawn by row
// spans, with a count of the ants seeing it made square by square.
func checkVision(t *testing.T, st *State) {
	t.Helper()
	want := make([][]int32, st.N)
	for p := range want {
		want[p] = make([]int32, st.Rows*st.Cols)
	}
	r := isqrt(st.opt.ViewRadius2)
	for _, a := range st.currentAnts() {
		seen := map[int]bool{}
		for dr := -r; dr <= r; dr++ {
			for dc := -r; dc <= r; dc++ {
				if dr*dr+dc*dc <= st.opt.ViewRadius2 {
					seen[st.destination(a.Loc, dr, dc)] = true
				}
			}
		}
		for loc := range seen {
			want[a.Owner][loc]++
		}
	}
	for p := range want {
		for loc, n := range want[p] {
			if st.Visible(p, loc) != (n > 0) {
				t.Fatalf("turn %d: player %d square %d seen by %d ants, in sight %v", st.Turn, p, loc, n, st.Visible(p, loc))
			}
		}
	}
}

// TestVisionDrawing places random ants on maps of many shapes (smaller
// than the disc, just wider than a word, not a multiple of 64) with
// several view radii, clustered, spread and sparse, and compares every player's
// sight with a count made square by square.
func TestVisionDrawing(t *testing.T) {
	cases := []struct {
		rows, cols, r2, ants int
	}{
		{3, 5, 77, 4},
		{10, 10, 77, 30},
		{17, 17, 77, 60},
		{20, 70, 77, 300},
		{33, 65, 2, 400},
		{64, 64, 77, 1500},
		{80, 80, 77, 200},
		{40, 130, 1000, 300},
		{50, 90, 0, 500},
		{30, 200, 5, 2000},
		{100, 120, 77, 40}, // sparse: lone ants
		{60, 127, 55, 60},
		{24, 24, 77, 10},
		{90, 88, 77, 40}, // lone ants drawn from whole words, the widest map for them
	}
	for _, c := range cases {
		t.Run(strconv.Itoa(c.rows)+"x"+strconv.Itoa(c.cols)+"/"+strconv.Itoa(c.r2), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.rows), uint64(c.cols)))
			grid := make([][]byte, c.rows)
			for r := range grid {
				grid[r] = make([]byte, c.cols)
				for col := range grid[r] {
					grid[r][col] = '.'
					if rng.IntN(10) == 0 {
						grid[r][col] = '%'
					}
				}
			}
			grid[0][0], grid[c.rows-1][c.cols-1] = '0', '1'
			// Half the ants in a block (runs of neighbours), half anywhere.
			for i := 0; i < c.ants; i++ {
				r, col := rng.IntN(c.rows), rng.IntN(c.cols)
				if i%2 == 0 {
					r, col = rng.IntN(min(c.rows, 12)), rng.IntN(min(c.cols, 40))
				}
				if grid[r][col] == '.' {
					grid[r][col] = byte('a' + rng.IntN(2))
				}
			}
			text := "rows " + itoa(c.rows) + "\ncols " + itoa(c.cols) + "\nplayers 2\n"
			for _, row := range grid {
				text += "m " + string(row) + "\n"
			}
			m, err := ParseMap(text)
			if err != nil {
				t.Fatal(err)
			}
			opt := DefaultOptions()
			opt.Scenario = true
			opt.ViewRadius2 = c.r2
			st, err := NewState(m, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkVision(t, st)
		})
	}
}
