package gomoku

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// The benchmarks compare the manager's cost per move with the physical
// floor of each protocol, measured in the same run between two tiny C
// processes (testdata/floor, built with cc; without cc they are skipped):
//   - pipe: a bare round trip ("TURN x,y" out, the answer back) between
//     floor.c and the C echo brain, against PipeSeat.Move plus the
//     referee, with the brain paused between moves as when the opponent
//     thinks (the default) or not (--ponder);
//   - file: floor.c writing the five .DAT files, then fork+exec+wait of
//     the same static C brain and reading MSG.DAT and TAH.DAT, against
//     FileSeat.Move plus the referee, with the sandbox off and on.
// Each reports the median time of one move (median-ns/op: on a shared
// machine the mean is mostly the few moves that waited for a core), the
// floor's median (floor-ns) and their ratio (x-floor). The pipe floor is
// the lower of a run of 20000 round trips before the seat's moves and one
// after: steady, and a burst of load in one of them does not flatter the
// ratio. A file move lasts long enough for the load to change from one to
// the next, so there the floor program serves the benchmark instead: it
// makes one floor move before each move of the seat, and both see the
// same load.
//
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

// floorTools are the C programs of testdata/floor: the echo brain
// (static where the C library allows) and the floor driver.
type floorTools struct{ brain, floor string }

// buildFloor compiles testdata/floor with cc, skipping the benchmark
// when there is no cc.
func buildFloor(b *testing.B) floorTools {
	b.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		b.Skip("no cc: the floor programs are C")
	}
	dir := b.TempDir()
	t := floorTools{brain: filepath.Join(dir, "echobrain"), floor: filepath.Join(dir, "floor")}
	build := func(out, src string, static bool) {
		args := []string{"-O2", "-o", out, filepath.Join("testdata", "floor", src)}
		if static {
			if exec.Command(cc, append([]string{"-static"}, args...)...).Run() == nil {
				return
			}
		}
		if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			b.Fatalf("cc %s: %v\n%s", src, err, msg)
		}
	}
	build(t.brain, "echobrain.c", true)
	build(t.floor, "floor.c", false)
	return t
}

// measureFloor runs the floor program (args after its path) and returns
// the median time of one round trip or move it printed.
func (t floorTools) measure(b *testing.B, args ...string) time.Duration {
	b.Helper()
	out, err := exec.Command(t.floor, args...).Output()
	if err != nil {
		b.Fatalf("floor %q: %v", args, err)
	}
	median, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	ns, err := strconv.ParseInt(median, 10, 64)
	if err != nil {
		b.Fatalf("floor %q printed %q", args, out)
	}
	return time.Duration(ns)
}

// pipeFloor is the median bare round trip over the C brain's pipes.
func (t floorTools) pipeFloor(b *testing.B) time.Duration {
	return t.measure(b, "pipe", t.brain, "20000")
}

// fileFloor is the median bare move of the file protocol in a scratch
// folder.
func (t floorTools) fileFloor(b *testing.B) time.Duration {
	return t.measure(b, "file", t.brain, scratch(b), "1000")
}

// floorServer is the floor program serving: each next makes one floor
// round trip or move, timed by the C program, so that the benchmarks take
// the floor move by move between their own moves, under the same load.
type floorServer struct {
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
}

// serve starts the floor program serving the protocol (args as measure
// takes them, the count left out); it ends with the benchmark.
func (t floorTools) serve(b *testing.B, args ...string) *floorServer {
	b.Helper()
	cmd := exec.Command(t.floor, append(args, "0")...)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &floorServer{in: in, out: bufio.NewReader(out), cmd: cmd}
	b.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	s.next(b) // the first one starts cold
	return s
}

// next makes one floor round trip or move and returns its time.
func (s *floorServer) next(b *testing.B) time.Duration {
	if _, err := s.in.Write([]byte{1}); err != nil {
		b.Fatal(err)
	}
	line, err := s.out.ReadString('\n')
	if err != nil {
		b.Fatalf("floor: %v", err)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
	if err != nil {
		b.Fatalf("floor printed %q", line)
	}
	return time.Duration(ns)
}

// report adds the median of times, the median of the floor's and their
// ratio to the benchmark's results.
func report(b *testing.B, times, floor []time.Duration) {
	if len(times) == 0 || len(floor) == 0 {
		return
	}
	med := median(times)
	f := median(floor)
	b.ReportMetric(float64(med.Nanoseconds()), "median-ns/op")
	b.ReportMetric(float64(f.Nanoseconds()), "floor-ns")
	b.ReportMetric(float64(med)/float64(f), "x-floor")
}

func median(times []time.Duration) time.Duration {
	slices.Sort(times)
	return times[len(times)/2]
}

// BenchmarkPipeBare is the floor itself: one round trip between two C
// processes.
func BenchmarkPipeBare(b *testing.B) {
	t := buildFloor(b)
	var floor time.Duration
	for b.Loop() {
		floor = t.pipeFloor(b)
	}
	b.ReportMetric(float64(floor.Nanoseconds()), "median-ns/op")
}

// BenchmarkPipeSeat is the manager's path for one move of the pipe
// protocol: INFO time_left and TURN, the answer read with a deadline and
// parsed, the move judged by the referee. "paused" adds what the match
// loop does around a move when pondering is off (the default): continue
// the brain before, stop it after (once it is blocked again; the C brain,
// then idle, is only looked at, see bot.Process.Pause); "at-once" stops
// it without waiting for it to block or looking, "sandboxed" runs it in
// the sandbox --sandbox auto gives (pausing through the sandbox's
// freezer where the machine has one; "ponder-sandboxed" is the sandbox's
// own cost per move), "memory" gives the
// brain a memory limit (a cgroup the seat checks after each move where
// the machine has one), "go-brain" runs the echo brain written in Go,
// whose runtime has several threads.
func BenchmarkPipeSeat(b *testing.B) {
	for _, c := range []struct {
		name      string
		pause     bool
		grace     time.Duration
		sandboxed bool
		memory    int64
		goBrain   bool
	}{
		{name: "ponder"},
		{name: "ponder-sandboxed", sandboxed: true},
		{name: "paused", pause: true},
		{name: "paused-at-once", pause: true, grace: -1},
		{name: "paused-sandboxed", pause: true, sandboxed: true},
		{name: "paused-memory", pause: true, memory: 350 << 20},
		{name: "paused-sandboxed-memory", pause: true, sandboxed: true, memory: 350 << 20},
		{name: "paused-go-brain", pause: true, goBrain: true},
	} {
		b.Run(c.name, func(b *testing.B) {
			t := buildFloor(b)
			args := []string{t.brain, "-pipe"}
			if c.goBrain {
				args[0] = goEchoBrain(b)
			}
			floor := t.pipeFloor(b)
			state, _ := NewState(Config{Width: benchSize, Height: benchSize})
			opts := SeatOptions{Args: args, PauseGrace: c.grace, Dir: scratch(b), Sandbox: benchSandbox(b, c.sandboxed), MemoryLimit: c.memory}
			seat := NewPipeSeat(state, White, opts)
			req := match.Request{Clock: match.Clock{Turn: time.Second, Match: time.Minute}, TimeLeft: time.Minute}
			req.Deadline = time.Now().Add(time.Hour)
			if _, err := seat.Start(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			defer seat.Finish(context.Background(), game.Result{}, time.Second)
			times, _ := benchSeat(b, state, seat, req, c.pause, nil)
			report(b, times, []time.Duration{min(floor, t.pipeFloor(b))})
		})
	}
}

// benchSandbox is the sandbox that --sandbox auto gives on this machine,
// or nil when sandboxed is false.
func benchSandbox(b *testing.B, sandboxed bool) *sandbox.Sandbox {
	if !sandboxed {
		return nil
	}
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, probeOnce())
	if err != nil {
		b.Fatal(err)
	}
	return sb
}

// probeOnce probes the sandbox once per test binary.
var probeOnce = sync.OnceValue(func() sandbox.Report { return sandbox.Probe(context.Background(), sandbox.NetNone) })

// goEchoBrain builds testdata/echobrain, the echo brain in Go.
func goEchoBrain(b *testing.B) string {
	b.Helper()
	exe := filepath.Join(b.TempDir(), "echobrain")
	if out, err := exec.Command("go", "build", "-o", exe, "./testdata/echobrain").CombinedOutput(); err != nil {
		b.Fatalf("build echo brain: %v\n%s", err, out)
	}
	return exe
}

// benchSeat plays moves of the seat against the referee and returns the
// time of each and, when floor is not nil, the time of a floor move taken
// before each.
func benchSeat(b *testing.B, state *State, seat match.Seat[Point], req match.Request, pause bool, floor *floorServer) (times, floors []time.Duration) {
	sq := safeSquares()
	ref := Referee{state}
	pauser, _ := seat.(match.Pauser)
	ctx := context.Background()
	k := 0
	if pause {
		pauser.Pause() // as after the brain's start
	}
	for b.Loop() {
		if floor != nil {
			floors = append(floors, floor.next(b))
		}
		if k == len(sq) {
			fresh, _ := NewState(state.Config())
			*state = *fresh
			k = 0
		}
		t0 := time.Now()
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
		times = append(times, time.Since(t0))
	}
	// The seat's Finish is not part of a move, and a brain left stopped
	// would sit out the whole grace before it reads END.
	if pause {
		pauser.Resume()
	}
	return times, floors
}

// BenchmarkFileBare is the floor of the file protocol between two C
// processes: write the five files, fork+exec+wait the brain, read MSG.DAT
// and TAH.DAT.
func BenchmarkFileBare(b *testing.B) {
	t := buildFloor(b)
	var floor time.Duration
	for b.Loop() {
		floor = t.fileFloor(b)
	}
	b.ReportMetric(float64(floor.Nanoseconds()), "median-ns/op")
}

// BenchmarkFileSeat is the manager's path for one move of the file
// protocol, with the sandbox off and as --sandbox auto makes it on this
// machine (which starts the brain through the sandbox's init every move:
// sandboxed-start-ns is that start alone, of a brain that exits at once).
func BenchmarkFileSeat(b *testing.B) {
	for _, c := range []struct {
		name      string
		sandboxed bool
	}{{"sandbox=off", false}, {"sandbox=auto", true}} {
		b.Run(c.name, func(b *testing.B) {
			fb := startFileBench(b, c.sandboxed)
			times, floors := benchSeat(b, fb.state, fb.seat, fb.req, false, fb.floor)
			report(b, times, floors)
			if fb.sb != nil {
				b.ReportMetric(float64(sandboxedStart(b, fb.sb, fb.brain).Nanoseconds()), "sandboxed-start-ns")
			}
		})
	}
}

// fileBench is a started file seat with the C brain, and the floor's
// server beside it.
type fileBench struct {
	state *State
	seat  *FileSeat
	req   match.Request
	floor *floorServer
	sb    *sandbox.Sandbox
	brain string
}

// startFileBench starts a file seat of the C brain (sandboxed or not);
// the seat is finished when the benchmark ends.
func startFileBench(b *testing.B, sandboxed bool) fileBench {
	t := buildFloor(b)
	fb := fileBench{floor: t.serve(b, "file", t.brain, scratch(b)), sb: benchSandbox(b, sandboxed), brain: t.brain}
	fb.state, _ = NewState(Config{Width: benchSize, Height: benchSize})
	fb.seat = NewFileSeat(fb.state, White, SeatOptions{Args: []string{t.brain}, Dir: scratch(b), Sandbox: fb.sb})
	fb.req = match.Request{Clock: match.Clock{Turn: time.Second, Match: time.Minute}, TimeLeft: time.Minute,
		Deadline: time.Now().Add(time.Hour)}
	if _, err := fb.seat.Start(context.Background(), fb.req); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { fb.seat.Finish(context.Background(), game.Result{}, time.Second) })
	return fb
}

// sandboxedStart is the median time of starting a program in the
// sandbox and waiting for it, when it exits at once (the C brain finds
// no files).
func sandboxedStart(b *testing.B, sb *sandbox.Sandbox, prog string) time.Duration {
	dir := scratch(b)
	var times []time.Duration
	for range 30 {
		t0 := time.Now()
		p, err := bot.Start(bot.Config{Args: []string{prog}, Dir: dir, Sandbox: sb})
		if err != nil {
			b.Fatal(err)
		}
		<-p.Done()
		times = append(times, time.Since(t0))
		p.Close()
	}
	return median(times)
}
