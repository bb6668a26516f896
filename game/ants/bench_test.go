package ants

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchMap is a 4-player 200x200 map, symmetric by translation (period
// 100 both ways), with 300 ants per player packed around each hill.
func benchMap() string {
	const n, half = 200, 100
	cell := func(r, c int) byte {
		r, c = r%half, c%half
		switch {
		case r == 50 && c == 50:
			return 'H'
		case (r%17 == 3 && c%23 < 12) || (c%19 == 7 && r%29 < 10):
			return '%'
		case r >= 38 && r < 63 && c >= 38 && c < 63 && (r+c)%2 == 0 && !(r == 50 && c == 50):
			return 'a'
		}
		return '.'
	}
	var b strings.Builder
	b.WriteString("rows 200\ncols 200\nplayers 4\n")
	for r := 0; r < n; r++ {
		b.WriteString("m ")
		for c := 0; c < n; c++ {
			p := (r/half)*2 + c/half
			ch := cell(r, c)
			switch ch {
			case 'H':
				ch = byte('0' + p)
			case 'a':
				ch = byte('a' + p)
			}
			b.WriteByte(ch)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func newBenchState(b *testing.B) *State {
	m, err := ParseMap(benchMap())
	if err != nil {
		b.Fatal(err)
	}
	opt := DefaultOptions()
	opt.Scenario = true
	opt.EngineSeed = 42
	st, err := NewState(m, opt)
	if err != nil {
		b.Fatal(err)
	}
	if err := st.StartGame(); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkRefereeTurn measures whole turns of the referee (judging every
// bot's orders, moving, battles, razing, spawning, gathering, food,
// vision, every bot's text) on a 4-player 200x200 map with about 1200
// ants, against the official engine's 12.4 ms for such a turn. The bots'
// orders of 100 turns are written first (they are the bots' work, not the
// referee's), then replayed from the start again every 100 turns.
func BenchmarkRefereeTurn(b *testing.B) {
	const period = 100
	st := newBenchState(b)
	var script [period][][]string
	total := 0
	for t := range script {
		orders := make([][]string, st.N)
		// Every ant moves every turn, the whole swarm one way (n, e, s,
		// w in turn) so that the population stays above 1000 instead of
		// dying in collisions.
		dir := string("nesw"[t%4])
		for _, a := range st.currentAnts() {
			orders[a.Owner] = append(orders[a.Owner], "o "+itoa(st.row(a.Loc))+" "+itoa(st.col(a.Loc))+" "+dir)
		}
		script[t] = orders
		total += len(st.currentAnts())
		playBenchTurn(b, st, orders)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if i%period == 0 {
			b.StopTimer()
			c := cpuTime()
			st = newBenchState(b)
			cpu0 += cpuTime() - c // the set-up is not a turn
			b.StartTimer()
		}
		playBenchTurn(b, st, script[i%period])
	}
	cpu := cpuTime() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(total)/period, "ants/turn")
	reportOfficial(b, b.N, officialStressMs, cpu)
}

// playBenchTurn is one turn of the referee as the engine plays it
// without its optional logs: orders (judged without listing the valid
// lines, which only the output log shows), resolution and every
// player's text.
func playBenchTurn(b *testing.B, st *State, orders [][]string) {
	st.StartTurn()
	for p := 0; p < st.N; p++ {
		st.doMoves(p, orders[p], false)
	}
	if err := st.FinishTurn(); err != nil {
		b.Fatal(err)
	}
	// Rendered as the engine renders them: into one buffer, reused.
	for p := 0; p < st.N; p++ {
		st.textBuf = st.appendPlayerState(st.textBuf[:0], p)
	}
}

// BenchmarkConformanceGame replays the longest recorded official game
// (v4: 126x126 maze, 222 turns) through the referee, comparing every byte.
func BenchmarkConformanceGame(b *testing.B) {
	dir := filepath.Join(conformanceDir(b), "v4_maze_p02_01_hunter_hunter")
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		diff, err := Conform(context.Background(), dir)
		if err != nil || diff != "" {
			b.Fatal(err, diff)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/game")
}

// BenchmarkConformanceReplayOnly is the same game without the comparison:
// the referee, the texts it writes and the replay JSON (what a Python
// run of the engine's rules on the recorded orders also does).
func BenchmarkConformanceReplayOnly(b *testing.B) {
	rec, err := LoadRecorded(filepath.Join(conformanceDir(b), "v4_maze_p02_01_hunter_hunter"))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		res, _, err := rec.Replay(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		_ = ReplayJSON(res, rec.Names)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/game")
}

// BenchmarkDoMoves judges the orders of one player (about 300), in the
// usual form.
func BenchmarkDoMoves(b *testing.B) {
	st := newBenchState(b)
	var lines []string
	for _, a := range st.currentAnts() {
		if a.Owner == 0 {
			lines = append(lines, "o "+itoa(st.row(a.Loc))+" "+itoa(st.col(a.Loc))+" n")
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.DoMoves(0, lines)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/order")
}

func BenchmarkProtocolIO(b *testing.B) {
	st := newBenchState(b)
	for i := 0; i < b.N; i++ {
		for p := 0; p < st.N; p++ {
			_ = st.PlayerState(p)
		}
	}
}

// cpuTime is the process's user+system time: the machine running the
// benchmarks may be shared, and CPU time says what the referee costs
// whatever else runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkUpdateVision draws every player's sight afresh and reveals
// what came into it, for the 1200 ants of the 200x200 benchmark map.
func BenchmarkUpdateVision(b *testing.B) {
	st := newBenchState(b)
	ants := len(st.currentAnts())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.updateVision()
		st.updateRevealed()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ants), "ns/ant")
}

// BenchmarkUpdateVisionSmall draws the sight of 4 players with 54 ants
// each scattered over an 80x80 map (as in the 1000-turn 4-player game of
// BenchmarkRefereeVsOfficial: lone ants, a disc narrower than a row).
func BenchmarkUpdateVisionSmall(b *testing.B) {
	rng := rand.New(rand.NewPCG(80, 4))
	grid := make([][]byte, 80)
	for r := range grid {
		grid[r] = []byte(strings.Repeat(".", 80))
	}
	for p := range 4 {
		grid[p*20][p*20] = byte('0' + p)
		for n := 0; n < 54; {
			r, c := rng.IntN(80), rng.IntN(80)
			if grid[r][c] == '.' {
				grid[r][c] = byte('a' + p)
				n++
			}
		}
	}
	text := "rows 80\ncols 80\nplayers 4\n"
	for _, row := range grid {
		text += "m " + string(row) + "\n"
	}
	m, err := ParseMap(text)
	if err != nil {
		b.Fatal(err)
	}
	opt := DefaultOptions()
	opt.Scenario = true
	st, err := NewState(m, opt)
	if err != nil {
		b.Fatal(err)
	}
	ants := len(st.currentAnts())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.updateVision()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ants), "ns/ant")
}
