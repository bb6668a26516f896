package bot

import (
	"context"
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
	expectReady(t, p)
	for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("never idle")
		}
	}
	servedGen(t, p)
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
// served, the look reads no stat file (stat-reads/op, 0).
func BenchmarkBlockedSandboxed(b *testing.B) {
	sb := sandboxWithFilter(b)
	p := startSh(b, "exec cat", Config{Sandbox: sb, Dir: b.TempDir()})
	for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			b.Fatal("not idle")
		}
	}
	benchIdleLooks(b, p, func(w *watch) int { return w.statReads }, "stat-reads/op")
}

// benchIdleLooks times looks at p, which must each find it idle, and
// reports how many times per look count (one of the watch's counters)
// went up, as unit.
func benchIdleLooks(b *testing.B, p *Process, count func(*watch) int, unit string) {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	before := count(&p.watch)
	for b.Loop() {
		if blocked, idle := p.blocked(); !blocked || !idle {
			b.Fatalf("blocked %v, idle %v", blocked, idle)
		}
	}
	b.ReportMetric(float64(count(&p.watch)-before)/float64(b.N), unit)
}

// TestI386HandlerNotified: a 64-bit bot that installs a signal handler
// through an i386 system call (int $0x80), which a filter of the native
// calls alone would not see, is noted as the native call is.
func TestI386HandlerNotified(t *testing.T) {
	sb := sandboxWithFilter(t)
	prog := buildC(t, "i386signal", `#include <stdio.h>
#include <unistd.h>
int main(void) {
	char c;
	long r;
	printf("ready\n");
	fflush(stdout);
	if (read(0, &c, 1) != 1) return 1;
	/* i386 signal(SIGALRM, 0x1000): the handler is never run */
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(48L), "b"(14L), "c"(0x1000L) : "memory");
	printf("signal %ld\n", r);
	fflush(stdout);
	return read(0, &c, 1) == 1 ? 0 : 1;
}
`)
	p, err := Start(Config{Args: []string{prog}, Interactive: true, Sandbox: sb, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	expectReady(t, p)
	before := servedGen(t, p)
	if err := p.WriteString("x", soon()); err != nil {
		t.Fatal(err)
	}
	line, err := p.ReadLine(soon())
	if err != nil || !strings.HasPrefix(line, "signal ") {
		t.Fatalf("%q %v %s", line, err, p.Stderr())
	}
	if line == "signal -38" { // ENOSYS: no i386 system calls here
		t.Skip("no i386 system calls on this kernel")
	}
	if after, _ := p.notify.Snapshot(); after == before {
		t.Errorf("the i386 signal() was not noted (%s)", line)
	}
}

// servedGen waits until arena serves the notifications of p's filter
// (it takes the listener just after the bot starts, which the bot's
// first line does not wait for) and returns their count.
func servedGen(t *testing.T, p *Process) uint64 {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if gen, served := p.notify.Snapshot(); served {
			return gen
		}
		if time.Now().After(end) {
			t.Fatal("the filter's notifications are not served")
		}
	}
}
