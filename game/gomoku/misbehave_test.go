package gomoku

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/bot"
	"arena/game"
	"arena/internal/testbrain"
	"arena/match"
)

var (
	testBrainOnce sync.Once
	testBrainDir  string
	testBrainErr  error
)

// testBrain builds internal/cmd/testbrain once and returns the folder
// holding it as "pbrain-tb" (pipe protocol by name) and "tb" (file).
func testBrain(t *testing.T) string {
	t.Helper()
	testBrainOnce.Do(func() {
		testBrainDir, testBrainErr = os.MkdirTemp("", "arena-testbrain-")
		if testBrainErr == nil {
			testBrainErr = testbrain.Build(testBrainDir)
		}
	})
	if testBrainErr != nil {
		t.Fatal(testBrainErr)
	}
	return testBrainDir
}

// brain is a test brain command and its protocol.
type brain struct {
	args  []string
	proto Protocol
}

func tb(t *testing.T, proto Protocol, flags ...string) brain {
	name := "tb"
	if proto == ProtoPipe {
		name = "pbrain-tb"
	}
	return brain{append([]string{filepath.Join(testBrain(t), name)}, flags...), proto}
}

func script(t *testing.T, name string) brain {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "brains", name))
	if err != nil {
		t.Fatal(err)
	}
	interp := "python3"
	if strings.HasSuffix(name, ".sh") {
		interp = "sh"
	}
	if _, err := exec.LookPath(interp); err != nil {
		t.Skipf("no %s", interp)
	}
	return brain{[]string{path}, ProtocolFor([]string{path})}
}

// played is the outcome of a test game plus the pid file of its brains.
type played struct {
	match.Outcome
	pidFile string
}

// playTest plays one game between two brains on a 15x15 board.
func playTest(t *testing.T, black, white brain, clock match.Clock, memory int64) played {
	t.Helper()
	state, err := NewState(Config{Width: 15, Height: 15})
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	pidFile := filepath.Join(tmp, "pids")
	seats := make([]match.Seat[Point], 2)
	for side, b := range []brain{black, white} {
		dir := filepath.Join(tmp, "work"+strconv.Itoa(side))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		opts := SeatOptions{Args: b.args, Dir: dir, MemoryLimit: memory, Env: []string{"TESTBRAIN_PIDFILE=" + pidFile}}
		if b.proto == ProtoPipe {
			seats[side] = NewPipeSeat(state, StoneOf(side), opts)
		} else {
			seats[side] = NewFileSeat(state, StoneOf(side), opts)
		}
	}
	out := match.Run[Point](context.Background(), Referee{state}, seats, match.Config{Clock: clock, Grace: 200 * time.Millisecond})
	return played{out, pidFile}
}

// assertNothingRuns checks that no process a brain reported (itself, its
// children, its process group) is still alive.
func assertNothingRuns(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return // script brains do not report pids
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		pid, _ := strconv.Atoi(f[0])
		pgid, _ := strconv.Atoi(f[1])
		if s := bot.Survivors(pgid); len(s) > 0 {
			t.Errorf("processes %v of group %d still run after the game", s, pgid)
		}
		if stat, err := os.ReadFile("/proc/" + f[0] + "/stat"); err == nil && !strings.Contains(string(stat), ") Z") {
			if syscall.Kill(pid, 0) == nil {
				t.Errorf("process %d still runs after the game: %s", pid, stat)
			}
		}
	}
}

// Clocks for the tests: brains that should time out get a short limit;
// the others a generous one, so a loaded machine (go test runs packages
// in parallel) never turns a good move into a timeout.
var (
	quick    = match.Clock{Turn: 400 * time.Millisecond, Match: 30 * time.Second, Tolerance: 200 * time.Millisecond, Startup: 500 * time.Millisecond}
	generous = match.Clock{Turn: 5 * time.Second, Match: 60 * time.Second, Tolerance: time.Second, Startup: 10 * time.Second}
)

// TestMisbehaviour plays games in which Black's brain fails in one of the
// ways real brains fail, and checks the verdict, that the good brain wins,
// and that nothing is left running.
func TestMisbehaviour(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process groups and /proc are Linux")
	}
	tests := []struct {
		name   string
		bad    func(t *testing.T) brain
		reason game.Reason
		detail string // substring of the verdict's detail
		memory int64
	}{
		{"pipe crash", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=crash", "--at=2") }, game.ReasonCrash, "exit status 3", 0},
		{"pipe segv", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=segv") }, game.ReasonCrash, "segmentation fault", 0},
		{"pipe exits early", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=exit0", "--at=3") }, game.ReasonCrash, "exit status 0", 0},
		{"pipe hang", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=hang") }, game.ReasonTimeout, "no move in time", 0},
		{"pipe ignores signals", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=stubborn") }, game.ReasonTimeout, "", 0},
		{"pipe garbage", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=garbage") }, game.ReasonProtocol, "hello world", 0},
		{"pipe megabyte line", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=longline") }, game.ReasonProtocol, "line too long", 0},
		{"pipe megabyte MESSAGE", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=longmsg", "--at=2") }, game.ReasonProtocol, "line too long", 0},
		{"pipe flood", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=flood") }, game.ReasonTimeout, "", 0},
		{"pipe off board", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=offboard") }, game.ReasonIllegal, "off the board", 0},
		{"pipe occupied", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=occupied", "--at=2") }, game.ReasonIllegal, "occupied", 0},
		{"pipe memory", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=memory", "--mem=256") }, game.ReasonMemory, "memory", 96 << 20},
		{"pipe START refused", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=startfail") }, game.ReasonProtocol, "cannot start", 0},
		{"pipe START unanswered", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=nostart") }, game.ReasonTimeout, "start-up", 0},
		{"file crash", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=crash", "--at=2") }, game.ReasonCrash, "exit status 3", 0},
		{"file segv", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=segv") }, game.ReasonCrash, "segmentation fault", 0},
		{"file hang", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=hang") }, game.ReasonTimeout, "did not exit in time", 0},
		{"file garbage", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=garbage") }, game.ReasonProtocol, "hello world", 0},
		{"file no TAH.DAT", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=notah") }, game.ReasonProtocol, "wrote no TAH.DAT", 0},
		{"file no move", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=nomove") }, game.ReasonProtocol, "unchanged", 0},
		{"file megabyte TAH.DAT", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=longline") }, game.ReasonProtocol, "longer than", 0},
		{"file off board", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=offboard") }, game.ReasonIllegal, "off the board", 0},
		{"file occupied", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=occupied", "--at=2") }, game.ReasonIllegal, "occupied", 0},
		{"file memory", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=memory", "--mem=256") }, game.ReasonMemory, "memory", 96 << 20},
		{"python crash", func(t *testing.T) brain { return script(t, "pbrain-pycrash.py") }, game.ReasonCrash, "exit status 1", 0},
		{"shell hang", func(t *testing.T) brain { return script(t, "pbrain-shhang.sh") }, game.ReasonTimeout, "", 0},
		{"shell file crash", func(t *testing.T) brain { return script(t, "filebrain-crash.sh") }, game.ReasonCrash, "unchanged", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.bad(t)
			good := tb(t, bad.proto, "--policy=random", "--seed=1")
			clock := generous
			if tc.reason == game.ReasonTimeout {
				clock = quick
			}
			res := playTest(t, bad, good, clock, tc.memory)
			r := res.Result
			if r.Winner != 1 || r.Reason != tc.reason || !strings.Contains(r.Detail, tc.detail) {
				t.Errorf("result %+v, want White to win by %s with %q in the detail", r, tc.reason, tc.detail)
			}
			if res.Sides[0].Fault == nil || res.Sides[1].Fault != nil {
				t.Errorf("faults %+v %+v: want Black's only", res.Sides[0].Fault, res.Sides[1].Fault)
			}
			assertNothingRuns(t, res.pidFile)
		})
	}
}

// TestToleratedQuirks plays whole games with brains that are odd but
// within the protocol: they must finish normally.
func TestToleratedQuirks(t *testing.T) {
	tests := []struct {
		name  string
		brain func(t *testing.T) brain
		check func(t *testing.T, res played)
	}{
		{"stray lines", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=stray") }, func(t *testing.T, res played) {
			if !contains(res.Moves[0].Output, "ERROR y") || !contains(res.Moves[0].Output, "DEBUG d") {
				t.Errorf("stray lines not logged: %q", res.Moves[0].Output)
			}
		}},
		{"SUGGEST", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=suggest") }, nil},
		{"CRLF answers", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=crlf") }, nil},
		{"CR answers", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=cr") }, nil},
		{"stderr megabyte", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=stderr") }, func(t *testing.T, res played) {
			if s := res.Sides[0].Farewell.Stderr; len(s) == 0 || len(s) > 64<<10 {
				t.Errorf("stderr tail has %d bytes", len(s))
			}
		}},
		{"forks children", func(t *testing.T) brain { return tb(t, ProtoPipe, "--misbehave=fork") }, nil},
		{"file forks children", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=fork") }, nil},
		{"file MSG.DAT", func(t *testing.T) brain { return tb(t, ProtoFile, "--misbehave=msg") }, func(t *testing.T, res played) {
			if len(res.Moves[0].Output) != 2 {
				t.Errorf("MSG.DAT lines not logged: %q", res.Moves[0].Output)
			}
		}},
		{"python random", func(t *testing.T) brain { return script(t, "pbrain-pyrandom.py") }, nil},
		{"shell file random", func(t *testing.T) brain { return script(t, "filebrain-random.sh") }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			odd := tc.brain(t)
			// The greedy brain beats a random one quickly and surely; the
			// odd brain plays greedy where it can.
			good := tb(t, odd.proto, "--policy=random", "--seed=3")
			if strings.HasPrefix(filepath.Base(odd.args[0]), "pbrain-tb") || filepath.Base(odd.args[0]) == "tb" {
				odd.args = append(odd.args, "--policy=greedy")
			}
			res := playTest(t, odd, good, generous, 0)
			if f := res.Sides[0].Fault; f != nil {
				t.Fatalf("the odd brain lost by a fault: %v", f)
			}
			if res.Sides[1].Fault != nil {
				t.Fatalf("the other brain lost by a fault: %v", res.Sides[1].Fault)
			}
			if len(res.Moves) < 9 {
				t.Fatalf("game ended after %d moves: %+v", len(res.Moves), res.Result)
			}
			if tc.check != nil {
				tc.check(t, res)
			}
			assertNothingRuns(t, res.pidFile)
		})
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}
