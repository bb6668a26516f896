package bot

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/sandbox"
)

// sandboxWithFilter is the sandbox auto gives, skipping the test where
// it has no seccomp filter or no pid namespace (without one, a bot is
// never left running).
func sandboxWithFilter(t testing.TB) *sandbox.Sandbox {
	t.Helper()
	r := sandbox.Probe(context.Background(), sandbox.NetNone)
	if !r.On(sandbox.LayerSeccomp) || !r.On(sandbox.LayerPID) {
		t.Skip("no seccomp filter or no pid namespace for the bots")
	}
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, r)
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// TestQuietBotLookedAtWithoutStat: a sandboxed bot found catching no
// signal is not asked again while its filter reports no new handler, so
// a look at it reads no stat file; a handler it installs later (and
// arms a timer for, to think on the opponent's time) is reported, and
// Pause then stops it: it gets no CPU time while paused.
func TestQuietBotLookedAtWithoutStat(t *testing.T) {
	sb := sandboxWithFilter(t)
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
print('ready', flush=True)
for line in sys.stdin:
    if line.strip() == 'arm':
        signal.signal(signal.SIGALRM, think)
        signal.setitimer(signal.ITIMER_REAL, 0.03, 0.03)
    print(line.strip(), flush=True)
`
	p, err := Start(Config{Args: []string{py, "-c", script}, Interactive: true, PauseGrace: 10 * time.Second, Sandbox: sb, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if line, err := p.ReadLine(soon()); err != nil || line != "ready" {
		t.Fatalf("%q %v %s", line, err, p.Stderr())
	}
	for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("never idle")
		}
	}
	if _, served := p.notify.Snapshot(); !served {
		t.Fatal("the filter's notifications are not served")
	}
	p.pauseMu.Lock()
	reads := p.watch.statReads
	p.pauseMu.Unlock()
	for i := range 3 {
		if !lookIdle(p, true) {
			continue // caught between two reads: not a look at an idle bot
		}
		p.pauseMu.Lock()
		now := p.watch.statReads
		p.pauseMu.Unlock()
		if now != reads {
			t.Fatalf("look %d read the stat file again (%d reads, had %d)", i, now, reads)
		}
	}

	if err := p.WriteString("arm\n", soon()); err != nil {
		t.Fatal(err)
	}
	if line, err := p.ReadLine(soon()); err != nil || line != "arm" {
		t.Fatalf("%q %v %s", line, err, p.Stderr())
	}
	p.Pause()
	p.pauseMu.Lock()
	held := p.held
	p.pauseMu.Unlock()
	if !held {
		t.Fatal("a bot with a timer's handler was left running")
	}
	time.Sleep(20 * time.Millisecond) // the stop reaches the bot
	before := cpuTicks(t, p.Pid())
	time.Sleep(300 * time.Millisecond)
	after := cpuTicks(t, p.Pid())
	p.Resume()
	if after != before {
		t.Errorf("the paused bot used %d ticks of CPU time", after-before)
	}
}

// BenchmarkBlockedSandboxed is BenchmarkBlocked's look at an idle bot
// (cat) in the sandbox auto gives: with the filter's notifications
// served, the look reads no stat file (stat-reads/op, 0) and, the
// filter reporting no new process or thread, lists none (trusted-tree/op,
// 1: it reads one wchan file).
func BenchmarkBlockedSandboxed(b *testing.B) {
	sb := sandboxWithFilter(b)
	p := startSh(b, "exec cat", Config{Sandbox: sb, Dir: b.TempDir()})
	for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			b.Fatal("not idle")
		}
	}
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	reads, fast := p.watch.statReads, p.watch.fastLooks
	for b.Loop() {
		if blocked, idle := p.blocked(); !blocked || !idle {
			b.Fatalf("blocked %v, idle %v", blocked, idle)
		}
	}
	b.ReportMetric(float64(p.watch.statReads-reads)/float64(b.N), "stat-reads/op")
	b.ReportMetric(float64(p.watch.fastLooks-fast)/float64(b.N), "trusted-tree/op")
}

// TestI386HandlerNotified: a 64-bit bot that installs a signal handler
// or starts a process through an i386 system call (int $0x80), which a
// filter of the native calls alone would not see, is noted as the native
// call is.
func TestI386HandlerNotified(t *testing.T) {
	sb := sandboxWithFilter(t)
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "i386calls.c")
	prog := filepath.Join(dir, "i386calls")
	if err := os.WriteFile(src, []byte(`#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
	char c;
	long r;
	int starts = 1;
	printf("ready\n");
	fflush(stdout);
	if (argc < 2 || read(0, &c, 1) != 1) return 1;
	if (strcmp(argv[1], "signal") == 0) {
		/* i386 signal(SIGALRM, 0x1000): the handler is never run */
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(48L), "b"(14L), "c"(0x1000L) : "memory");
		starts = 0;
	} else if (strcmp(argv[1], "fork") == 0) {
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(2L) : "memory");
	} else {
		/* i386 clone(SIGCHLD, 0, ...): a fork */
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(120L), "b"(17L), "c"(0L), "d"(0L), "S"(0L), "D"(0L) : "memory");
	}
	if (starts && r == 0) _exit(0); /* the child */
	printf("call %ld\n", r < 0 ? r : 0);
	fflush(stdout);
	return read(0, &c, 1) == 1 ? 0 : 1;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O1", "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	for _, call := range []string{"signal", "fork", "clone"} {
		t.Run(call, func(t *testing.T) {
			p, err := Start(Config{Args: []string{prog, call}, Interactive: true, Sandbox: sb, Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if line, err := p.ReadLine(soon()); err != nil || line != "ready" {
				t.Fatalf("%q %v %s", line, err, p.Stderr())
			}
			before, served := p.notify.Snapshot()
			if !served {
				t.Fatal("the filter's notifications are not served")
			}
			if err := p.WriteString("x", soon()); err != nil {
				t.Fatal(err)
			}
			line, err := p.ReadLine(soon())
			if err != nil || !strings.HasPrefix(line, "call ") {
				t.Fatalf("%q %v %s", line, err, p.Stderr())
			}
			if line == "call -38" { // ENOSYS: no i386 system calls here
				t.Skip("no i386 system calls on this kernel")
			}
			if after, _ := p.notify.Snapshot(); after == before {
				t.Errorf("the i386 %s was not noted (%s)", call, line)
			}
		})
	}
}

// TestTrustedTreeSeesNewWork: a sandboxed bot found idle twice with no
// notification between is looked at again without listing its
// processes and threads (the trusted tree); when it then starts a busy
// thread or process (the filter reports each clone, fork and vfork) and
// goes back to reading its input, the next looks see the new work, and
// never take the bot for idle.
func TestTrustedTreeSeesNewWork(t *testing.T) {
	sb := sandboxWithFilter(t)
	py, err := ResolveProgram("python3")
	if err != nil {
		t.Skip("no python3")
	}
	const quiet = "import os, signal, subprocess, sys, threading\nsignal.signal(signal.SIGINT, signal.SIG_DFL)\n" +
		"def spin():\n    while True:\n        pass\n" +
		"print('ready', flush=True)\nsys.stdin.readline()\n"
	const loop = "print('started', flush=True)\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n"
	for _, tc := range []struct{ name, start string }{
		{"busy thread", "threading.Thread(target=spin, daemon=True).start()\n"},
		{"busy child (fork)", "if os.fork() == 0:\n    spin()\n"},
		{"busy grandchild", "r, w = os.pipe()\nif os.fork() == 0:\n    if os.fork() == 0:\n        spin()\n    os.read(r, 1)\n    os._exit(0)\n"},
		{"busy program (vfork)", "subprocess.Popen(['sh', '-c', 'while :; do :; done'])\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Start(Config{Args: []string{py, "-c", quiet + tc.start + loop}, Interactive: true, PauseGrace: 20 * time.Millisecond, Sandbox: sb, Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if line, err := p.ReadLine(soon()); err != nil || line != "ready" {
				t.Fatalf("%q %v %s", line, err, p.Stderr())
			}
			for end := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
				p.pauseMu.Lock()
				trusted := p.watch.treeAt != 0 && p.watch.treeAt == p.watch.gen
				p.pauseMu.Unlock()
				if trusted && lookIdle(p, true) {
					break
				}
				if time.Now().After(end) {
					t.Fatal("the idle bot's tree was never trusted")
				}
				lookIdle(p, true)
			}
			p.pauseMu.Lock()
			fast := p.watch.fastLooks
			p.pauseMu.Unlock()
			if fast == 0 {
				t.Fatal("no look trusted the tree")
			}
			if err := p.WriteString("go\n", soon()); err != nil {
				t.Fatal(err)
			}
			if line, err := p.ReadLine(soon()); err != nil || line != "started" {
				t.Fatalf("%q %v %s", line, err, p.Stderr())
			}
			for i := range 50 {
				if lookIdle(p, true) {
					t.Fatalf("look %d took the bot for idle with its busy thread or process (fast %d, tree %v, procs %v, desc %v)", i, p.watch.fastLooks-fast, p.watch.tree, p.watch.procs, p.descendants())
				}
			}
			p.Pause()
			p.pauseMu.Lock()
			held := p.held
			p.pauseMu.Unlock()
			p.Resume()
			if !held {
				t.Fatal("Pause left the bot running with its busy thread or process")
			}
		})
	}
}

// BenchmarkSandboxedSpawn is what the filter's report of each new
// process costs a sandboxed bot that starts a program for every line
// (sh running true: a fork, or a clone, an exec and a wait per line),
// as arena sees it: the line written, the answer read.
func BenchmarkSandboxedSpawn(b *testing.B) {
	sb := sandboxWithFilter(b)
	p := startSh(b, "while read l; do /bin/true; echo $l; done", Config{Sandbox: sb, Dir: b.TempDir()})
	for b.Loop() {
		if err := p.WriteString("x\n", soon()); err != nil {
			b.Fatal(err)
		}
		if line, err := p.ReadLine(soon()); err != nil || line != "x" {
			b.Fatalf("%q %v %s", line, err, p.Stderr())
		}
	}
}
