package bot

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/sandbox"
)

// isBlocked looks at the bot once, as Pause does.
func isBlocked(p *Process) bool {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	blocked, _ := p.blocked()
	return blocked
}

// lookIdle looks at the bot once, as Pause does, and reports whether it
// is blocked and idle is what the look says.
func lookIdle(p *Process, idle bool) bool {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	b, i := p.blocked()
	return b && i == idle
}

// waitFor polls the bot until blocked reports want, and reports whether
// it did within a minute.
func waitFor(p *Process, want bool) bool {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		if isBlocked(p) == want {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// TestBlockedSeesNewWork starts bots that are blocked reading, lets the
// watch learn their threads and processes, and then has them start a
// busy thread or process: blocked must see it although the watch keeps
// what it learnt between looks. Then Close must close every file the
// watch opened.
func TestBlockedSeesNewWork(t *testing.T) {
	py, err := ResolveProgram("python3")
	if err != nil {
		t.Skip("no python3")
	}
	sh, err := ResolveProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	busyThread := "import sys, threading\nsys.stdin.readline()\n" +
		"threading.Thread(target=lambda: [0 for _ in iter(int, 1)], daemon=True).start()\nsys.stdin.readline()\n"
	// More threads than the watch keeps files open for: the rest are
	// opened at each look.
	manyThreads := "import sys, threading, time\nfor _ in range(60):\n    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n" + busyThread
	tests := []struct {
		name   string
		args   []string
		cgroup bool
	}{
		{"busy thread", []string{py, "-c", busyThread}, true},
		{"busy thread among many", []string{py, "-c", manyThreads}, true},
		{"busy child, cgroup", []string{sh, "-c", "read l; (while :; do :; done) & read l"}, true},
		{"busy child, process tree", []string{sh, "-c", "read l; (while :; do :; done) & read l"}, false},
		{"busy grandchild, process tree", []string{sh, "-c", "read l; (sh -c 'while :; do :; done'; :) & read l"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGroup(0, tc.cgroup, sandbox.Cgroup{})
			defer g.Close()
			p, err := Start(Config{Args: tc.args, Interactive: true, Group: g})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if !waitFor(p, true) {
				t.Fatal("the bot never looked blocked while it read")
			}
			if p.watch.open > maxWatchFiles {
				t.Fatalf("the watch keeps %d files open, more than %d", p.watch.open, maxWatchFiles)
			}
			if err := p.WriteString("go\n", soon()); err != nil {
				t.Fatal(err)
			}
			if !waitFor(p, false) {
				t.Fatal("the busy thread or process was never seen running")
			}
			p.Close()
			w := &p.watch
			if len(w.procs) != 0 || w.open != 0 {
				t.Fatalf("files left open after Close: %d processes, %d files", len(w.procs), w.open)
			}
		})
	}
}

// TestBlockedClosesGone: the files of a process that ended are closed at
// the next look.
func TestBlockedClosesGone(t *testing.T) {
	p := startSh(t, `exec 3<&0; sh -c 'read l' <&3 & wait; read l`, Config{})
	known := func() int {
		p.pauseMu.Lock()
		defer p.pauseMu.Unlock()
		p.blocked()
		return len(p.watch.procs)
	}
	const before = 2 // the shell and its child
	for end := time.Now().Add(time.Minute); known() != before; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the watch knows %d processes, want the shell and its child", known())
		}
	}
	// The child reads the line and ends; the shell reaps it.
	if err := p.WriteString("x\n", soon()); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if known() == before-1 {
			return
		}
	}
	t.Fatalf("the watch still holds %d processes after one of %d ended", known(), before)
}

// BenchmarkBlocked is one look at a bot blocked in read, as Pause takes
// after each move: with a cgroup (the list of processes comes from it)
// and without (the process tree); a shell, which catches SIGCHLD and so
// is never idle, and cat, which is idle: the look at an idle bot reads
// its stat file besides.
func BenchmarkBlocked(b *testing.B) {
	for _, cgroup := range []bool{true, false} {
		for _, bc := range []struct {
			name, script string
			idle         bool
		}{{"sh", "read l", false}, {"idle", "exec cat", true}} {
			g := newGroup(0, cgroup, sandbox.Cgroup{})
			b.Run(g.Enforcement()+"/"+bc.name, func(b *testing.B) {
				defer g.Close()
				p := startSh(b, bc.script, Config{Group: g})
				// Blocked, and past the shell's exec of cat.
				for end := time.Now().Add(time.Minute); !lookIdle(p, bc.idle); time.Sleep(time.Millisecond) {
					if time.Now().After(end) {
						b.Fatal("not blocked")
					}
				}
				p.pauseMu.Lock()
				defer p.pauseMu.Unlock()
				for b.Loop() {
					if blocked, idle := p.blocked(); !blocked || idle != bc.idle {
						b.Fatalf("blocked %v, idle %v", blocked, idle)
					}
				}
				b.ReportMetric(float64(len(p.watch.procs)), "procs")
			})
		}
	}
}

// TestWriteResume sends input to a paused bot and continues it: a short
// command goes into the pipe before the continue, a long one that the
// pipe cannot hold is written as the bot reads it; either way the bot
// gets all of it and is no longer paused.
func TestWriteResume(t *testing.T) {
	tests := []struct {
		name   string
		script string
		input  string
		want   string
		pause  bool
	}{
		{"short, paused", `read l; echo "got $l"`, "ping\n", "got ping", true},
		{"longer than the pipe, paused", `head -c 300001 >/dev/null; echo done`, strings.Repeat("x", 300000) + "\n", "done", true},
		{"not paused", `read l; echo "got $l"`, "ping\n", "got ping", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := startSh(t, tc.script, Config{})
			if tc.pause {
				p.Pause()
			}
			if err := p.WriteResume(tc.input, soon()); err != nil {
				t.Fatal(err)
			}
			if line, err := p.ReadLine(soon()); err != nil || line != tc.want {
				t.Fatalf("got %q %v, want %q", line, err, tc.want)
			}
			p.pauseMu.Lock()
			paused := p.paused
			p.pauseMu.Unlock()
			if paused {
				t.Fatal("still marked paused")
			}
		})
	}
}

// idleBot is a bot blocked reading its input after answering "ready",
// and whether Pause may leave it unstopped, without the sandbox and as
// the init of its own pid namespace: only when nothing but the arena's
// next line can wake it.
type idleBot struct {
	name     string
	args     []string
	idle     bool // without the sandbox
	idleInNS bool // as the init of a pid namespace
}

func idleBots(t *testing.T) []idleBot {
	// The interpreter itself: a shim (pyenv's) runs and reaps programs
	// before it executes it.
	py, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skip("no python3")
	}
	python := strings.TrimSpace(string(py))
	// Python catches SIGINT; the bots that should be idle let it go.
	const quiet = "import os, signal, sys, threading, time\nsignal.signal(signal.SIGINT, signal.SIG_DFL)\n"
	const loop = "print('ready', flush=True)\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n"
	return []idleBot{
		{"reads its input, nothing else", []string{python, "-c", quiet + loop}, true, true},
		{"catches a signal", []string{python, "-c", quiet + "signal.signal(signal.SIGALRM, lambda *a: None)\n" + loop}, false, false},
		{"a thread sleeps", []string{python, "-c", quiet + "threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n" + loop}, false, false},
		{"a child sleeps", []string{python, "-c", quiet + "os.spawnv(os.P_NOWAIT, '/bin/sleep', ['sleep', '600'])\n" + loop}, false, false},
		// Two processes asleep on pipes could be waking each other in
		// turn between the looks at them: only a lone thread is idle.
		{"a child reads a pipe", []string{python, "-c", quiet + "r, w = os.pipe()\nif os.fork() == 0:\n    os.read(r, 1)\n    os._exit(0)\n" + loop}, false, false},
		// A process may have left the tree when its parent was reaped:
		// only a pid namespace keeps it below the bot.
		{"reaped a child", []string{python, "-c", quiet + "os.waitpid(os.spawnv(os.P_NOWAIT, '/bin/true', ['true']), 0)\n" + loop}, false, true},
	}
}

// TestPauseLeavesIdleBot pauses bots blocked reading their input: one
// that nothing but its input can wake is left as it is (not stopped),
// one that a signal handler, a sleeping thread or child could wake is
// stopped; either answers its next line after Resume.
func TestPauseLeavesIdleBot(t *testing.T) {
	for _, tc := range idleBots(t) {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Start(Config{Args: tc.args, Interactive: true, PauseGrace: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			expectReady(t, p)
			checkPause(t, p, tc.idle)
		})
	}
}

// checkPause pauses p, checks that it was stopped unless idle, and that
// it echoes a line sent as the arena sends the next command. An idle bot
// is first given time to settle: a child it has just started may not be
// blocked yet.
//
// Leaving an idle bot running is an optimisation that may give way to
// the old stop when the machine is busy (a look that catches the bot
// between its answer and its next read), so an idle bot must be left
// running in some of the rounds; a bot that could wake must be stopped
// in every one: that is the fairness.
func checkPause(t *testing.T, p *Process, idle bool) {
	t.Helper()
	const rounds = 5
	left := 0
	for i := range rounds {
		if idle {
			for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("never idle")
				}
			}
		}
		p.Pause()
		p.pauseMu.Lock()
		held := p.held
		p.pauseMu.Unlock()
		if !held {
			left++
		}
		if !held && !idle {
			t.Fatalf("round %d: left running, want stopped", i)
		}
		if !held && threadState("/proc/"+strconv.Itoa(p.Pid())+"/stat") == 'T' {
			t.Fatalf("round %d: left running, yet in state T", i)
		}
		if err := p.WriteResume("ping\n", soon()); err != nil {
			t.Fatal(err)
		}
		if line, err := p.ReadLine(soon()); err != nil || line != "ping" {
			t.Fatalf("round %d: after Resume %q %v %s", i, line, err, p.Stderr())
		}
	}
	if idle && left == 0 {
		t.Fatalf("stopped in all %d rounds, want left running", rounds)
	}
}

// TestPauseLeavesIdleSandboxedBot is TestPauseLeavesIdleBot in the
// sandbox auto gives: as the init of its own pid namespace, the bot has
// every process it starts below it, so an idle one is left unstopped;
// without the namespaces a process could have left its tree unseen, and
// the bot is always stopped.
func TestPauseLeavesIdleSandboxedBot(t *testing.T) {
	r := sandbox.Probe(context.Background(), sandbox.NetNone)
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, r)
	if err != nil {
		t.Fatal(err)
	}
	if !r.On(sandbox.LayerMount) || !r.On(sandbox.LayerPID) {
		t.Skip("no pid namespace for the bots")
	}
	var without sandbox.Report
	for _, st := range r.Layers {
		switch st.Layer {
		case sandbox.LayerUser, sandbox.LayerMount, sandbox.LayerPID, sandbox.LayerNet, sandbox.LayerIPC, sandbox.LayerUTS:
			st = sandbox.Status{Layer: st.Layer, Why: "left out by the test"}
		}
		without.Layers = append(without.Layers, st)
	}
	sbNoNS, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, without)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range idleBots(t) {
		for _, c := range []struct {
			name string
			sb   *sandbox.Sandbox
			idle bool
		}{{"auto", sb, tc.idleInNS}, {"auto-without-namespaces", sbNoNS, false}} {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				p, err := Start(Config{Args: tc.args, Interactive: true, PauseGrace: 10 * time.Second, Sandbox: c.sb, Dir: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				expectReady(t, p)
				checkPause(t, p, c.idle)
			})
		}
	}
}

// TestPauseStopsTimerHandler is the bot that would think on the
// opponent's time although it is blocked reading its input: a timer's
// signal runs its handler, which computes. Paused, it must not get any
// CPU time.
func TestPauseStopsTimerHandler(t *testing.T) {
	py, err := ResolveProgram("python3")
	if err != nil {
		t.Skip("no python3")
	}
	const script = `import signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_DFL)
def think(*_):
    end = time.process_time() + 0.02
    while time.process_time() < end:
        pass
signal.signal(signal.SIGALRM, think)
signal.setitimer(signal.ITIMER_REAL, 0.03, 0.03)
print('ready', flush=True)
for line in sys.stdin:
    print(line.strip(), flush=True)
`
	p, err := Start(Config{Args: []string{py, "-c", script}, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	expectReady(t, p)
	p.Pause()
	time.Sleep(20 * time.Millisecond) // the stop reaches the bot
	before := cpuTicks(t, p.Pid())
	time.Sleep(300 * time.Millisecond)
	after := cpuTicks(t, p.Pid())
	p.Resume()
	if after != before {
		t.Errorf("the paused bot used %d ticks of CPU time", after-before)
	}
}

// cpuTicks returns the user and system time of process pid, in clock
// ticks.
func cpuTicks(t *testing.T, pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// FuzzStatFields: statFields never panics, and finds either all three
// fields, each one word, or none.
func FuzzStatFields(f *testing.F) {
	f.Add([]byte("1 (a) S 0 1 1 0 -1 4194560 366 7 0 0 0 0 0 0 20 0 1 0 1614481 1134592 177 18446744073709551615 1 1 1 0 0 0 0 4096 65536 1 0 0 17 0 0 0 0 0 0\n"))
	f.Add([]byte("2 (x) y) R 1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := statFields(data)
		all := s.cminflt != "" && s.sigignore != "" && s.sigcatch != ""
		none := s == statQuiet{}
		if !all && !none {
			t.Fatalf("some fields of %q: %+v", data, s)
		}
		for _, v := range []string{s.cminflt, s.sigignore, s.sigcatch} {
			if strings.ContainsAny(v, " \t\n") {
				t.Fatalf("field %q of %q is not one word", v, data)
			}
		}
	})
}

// TestStatFields reads the fields quiet needs from a stat line.
func TestStatFields(t *testing.T) {
	tests := []struct {
		line string
		want statQuiet
	}{
		{"7 (a b) c) S 0 1 1 0 -1 4194560 366 7 0 0 0 0 0 0 20 0 1 0 1614481 1134592 177 18446744073709551615 1 1 1 0 0 0 0 4096 65538 1 0 0 17 0 0 0 0 0 0\n",
			statQuiet{cminflt: "7", sigignore: "4096", sigcatch: "65538"}},
		{"7 (a) S 0 1", statQuiet{}},
		{"no parenthesis", statQuiet{}},
	}
	for _, tc := range tests {
		if got := statFields([]byte(tc.line)); got != tc.want {
			t.Errorf("statFields(%q) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

// TestSleepsIn reads where a sleeping thread sleeps from its kernel
// stack, between two readings of its run count, as state does when the
// wait channel gives "0" for a thread still on its core's queue: a bot
// reading its input sleeps in an idle wait, one in sleep(1) does not.
func TestSleepsIn(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root may read kernel stacks")
	}
	for _, c := range []struct {
		name, script string
		idle         bool
	}{{"reads its input", "exec cat", true}, {"sleeps", "exec sleep 600", false}} {
		t.Run(c.name, func(t *testing.T) {
			p := startSh(t, c.script, Config{})
			var w watch
			w.init()
			defer w.close()
			for end := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("never seen asleep")
				}
				wp := w.process(p.Pid())
				if wp == nil || len(wp.threads) != 1 {
					continue
				}
				th := &wp.threads[0]
				runs, ok := w.runs(th)
				if !ok {
					t.Fatal("no run count")
				}
				if threadState(th.dir+"stat") != 'S' {
					continue // running, or runnable (a stack of no use)
				}
				where, ok := w.sleepsIn(th)
				if !ok {
					continue // running: no stack to read
				}
				fn := string(where)
				if again, _ := w.runs(th); again != runs || fn == "" {
					continue // ran meanwhile (still starting)
				}
				if idleWait([]byte(fn)) != c.idle {
					t.Fatalf("sleeps in %q: idle %v, want %v", fn, !c.idle, c.idle)
				}
				if c.idle || strings.Contains(fn, "sleep") {
					return
				}
			}
		})
	}
}

// expectReady fails the test unless the bot's first line, soon, is
// "ready".
func expectReady(t testing.TB, p *Process) {
	t.Helper()
	if line, err := p.ReadLine(soon()); err != nil || line != "ready" {
		t.Fatalf("%q %v %s", line, err, p.Stderr())
	}
}
