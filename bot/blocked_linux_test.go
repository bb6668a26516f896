package bot

import (
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
// and without (the process tree).
func BenchmarkBlocked(b *testing.B) {
	for _, cgroup := range []bool{true, false} {
		g := newGroup(0, cgroup, sandbox.Cgroup{})
		b.Run(g.Enforcement(), func(b *testing.B) {
			defer g.Close()
			p := startSh(b, "read l", Config{Group: g})
			if !waitFor(p, true) {
				b.Fatal("not blocked")
			}
			p.pauseMu.Lock()
			defer p.pauseMu.Unlock()
			for b.Loop() {
				if blocked, _ := p.blocked(); !blocked {
					b.Fatal("running")
				}
			}
			b.ReportMetric(float64(len(p.watch.procs)), "procs")
		})
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
