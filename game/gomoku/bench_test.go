package gomoku

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
)

// The benchmarks compare the manager's cost per move with the physical
// floor of each protocol, using the same brain process for both:
//   - pipe: a bare round trip (write "TURN x,y", read the answer) against
//     PipeSeat.Move plus the referee;
//   - file: a bare spawn-and-wait of the brain against FileSeat.Move
//     (write the five files, spawn, wait, read MSG.DAT and TAH.DAT) plus
//     the referee.
// The echo brains answer instantly. Moves are taken from squares where
// (x+2y) mod 5 != 0 on the left half (opponent) and their mirror images on
// the right half (brain), so nobody ever makes five.

const benchSize = 20

func safeSquares() []Point {
	var pts []Point
	for y := 0; y < benchSize; y++ {
		for x := 0; x < benchSize/2; x++ {
			if (x+2*y)%5 != 0 {
				pts = append(pts, Point{x, y})
			}
		}
	}
	return pts
}

// scratch is the folder the file benchmarks run in: the one the arena
// itself picks for working folders.
func scratch(b *testing.B) string {
	dir, err := bot.ScratchDir("", b.TempDir(), "bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// echoBrain builds testdata/echobrain, the instant brain both sides of
// each comparison run.
func echoBrain(b *testing.B) string {
	b.Helper()
	exe := filepath.Join(b.TempDir(), "echobrain")
	if out, err := exec.Command("go", "build", "-o", exe, "./testdata/echobrain").CombinedOutput(); err != nil {
		b.Fatalf("build echo brain: %v\n%s", err, out)
	}
	return exe
}

// BenchmarkPipeBare is the floor: one round trip over the pipes of the
// echo brain.
func BenchmarkPipeBare(b *testing.B) {
	cmd := exec.Command(echoBrain(b), "-pipe")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	r := bufio.NewReader(stdout)
	sq := safeSquares()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(stdin, "TURN %s\r\n", sq[i%len(sq)])
		if _, err := r.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipeSeat is the manager's path for one move of the pipe
// protocol: INFO time_left and TURN, the answer read with a deadline and
// parsed, the move judged by the referee.
func BenchmarkPipeSeat(b *testing.B) { benchPipeSeat(b, false) }

// BenchmarkPipeSeatPaused adds what the match loop does around a move
// when pondering is off: SIGCONT before, SIGSTOP after (once the brain is
// blocked again, and, for comparison, at once as arena did before).
func BenchmarkPipeSeatPaused(b *testing.B) {
	b.Run("once-blocked", func(b *testing.B) { benchPipeSeat(b, true) })
	b.Run("at-once", func(b *testing.B) { benchPipeSeat(b, true, -1) })
}

// benchPipeSeat measures moves of the pipe seat; grace, if given, is the
// seat's PauseGrace.
func benchPipeSeat(b *testing.B, pause bool, grace ...time.Duration) {
	state, _ := NewState(Config{Width: benchSize, Height: benchSize})
	opts := SeatOptions{Args: []string{echoBrain(b), "-pipe"}}
	if len(grace) > 0 {
		opts.PauseGrace = grace[0]
	}
	seat := NewPipeSeat(state, White, opts)
	req := match.Request{Clock: match.Clock{Turn: time.Second, Match: time.Minute}, TimeLeft: time.Minute}
	req.Deadline = time.Now().Add(time.Hour)
	if _, err := seat.Start(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	defer seat.Finish(context.Background(), game.Result{}, time.Second)
	benchSeat(b, state, seat, req, pause)
}

func benchSeat(b *testing.B, state *State, seat match.Seat[Point], req match.Request, pause bool) {
	sq := safeSquares()
	ref := Referee{state}
	pauser, _ := seat.(match.Pauser)
	ctx := context.Background()
	k := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if k == len(sq) {
			b.StopTimer()
			fresh, _ := NewState(state.Config())
			*state = *fresh
			k = 0
			b.StartTimer()
		}
		if _, err := state.Play(sq[k]); err != nil {
			b.Fatal(err)
		}
		k++
		if pause {
			pauser.Resume()
		}
		reply, err := seat.Move(ctx, req)
		if pause {
			pauser.Pause()
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := ref.Play(1, reply.Move); err != nil {
			b.Fatal(err)
		}
	}
	// The seat's Finish is not part of a move, and a brain left stopped
	// would sit out the whole grace before it reads END.
	b.StopTimer()
	if pause {
		pauser.Resume()
	}
}

// BenchmarkFileBare is the floor of the file protocol: spawn the brain in
// a folder holding the files and wait for it.
func BenchmarkFileBare(b *testing.B) {
	dir := scratch(b)
	exe := echoBrain(b)
	os.WriteFile(filepath.Join(dir, fileBoard), []byte(strings.Repeat(strings.Repeat("-", benchSize)+"\n", benchSize)), 0o644)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		os.WriteFile(filepath.Join(dir, fileTurn), []byte("o\n"), 0o644)
		cmd := exec.Command(exe)
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileSeat is the manager's path for one move of the file
// protocol.
func BenchmarkFileSeat(b *testing.B) {
	state, _ := NewState(Config{Width: benchSize, Height: benchSize})
	seat := NewFileSeat(state, White, SeatOptions{Args: []string{echoBrain(b)}, Dir: scratch(b)})
	req := match.Request{Clock: match.Clock{Turn: time.Second, Match: time.Minute}, TimeLeft: time.Minute}
	req.Deadline = time.Now().Add(time.Hour)
	if _, err := seat.Start(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	defer seat.Finish(context.Background(), game.Result{}, time.Second)
	benchSeat(b, state, seat, req, false)
}
