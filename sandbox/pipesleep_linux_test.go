package sandbox

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// pipeSleepBot answers each line of its input after doing what it says:
// "sleep" sleeps 100 ms (not in a pipe read), "thread" starts a thread
// that sleeps, "fork" a child that sleeps, "spin" answers and then
// computes for 300 ms before it reads again; anything else is echoed.
const pipeSleepBot = `#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static void *nap(void *_) { for (;;) sleep(100); return 0; }
int main(void) {
	char line[64];
	setvbuf(stdout, 0, _IONBF, 0);
	while (fgets(line, sizeof line, stdin)) {
		if (!strcmp(line, "sleep\n")) {
			usleep(100000);
		} else if (!strcmp(line, "thread\n")) {
			pthread_t t;
			pthread_create(&t, 0, nap, 0);
		} else if (!strcmp(line, "fork\n")) {
			if (fork() == 0) for (;;) sleep(100);
		}
		fputs(line, stdout);
		if (!strcmp(line, "spin\n")) {
			clock_t end = clock() + CLOCKS_PER_SEC * 3 / 10;
			while (clock() < end) {
			}
		}
	}
	return 0;
}
`

// startPipeSleepBot builds and starts pipeSleepBot, and returns it with
// its input and output.
func startPipeSleepBot(t *testing.T) (*exec.Cmd, io.Writer, *bufio.Reader) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "bot.c")
	if err := os.WriteFile(src, []byte(pipeSleepBot), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "bot")
	if out, err := exec.Command(cc, "-O2", "-pthread", "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	cmd := exec.Command(prog)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, in, bufio.NewReader(out)
}

// watchPipeSleep follows tid, waiting for the programs to load; it skips
// the test where the kernel cannot run them.
func watchPipeSleep(t *testing.T, ps *PipeSleeps, tid int) *PipeSleep {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if w := ps.watch(tid); w != nil {
			t.Cleanup(w.Close)
			return w
		}
		ps.mu.Lock()
		err := ps.err
		ps.mu.Unlock()
		if err != nil {
			skipWithoutTracepoints(t)
			t.Fatalf("the machine gives what the programs need, but they do not load: %v", err)
		}
	}
	t.Fatal("the pipe sleep programs never loaded")
	return nil
}

// skipWithoutTracepoints skips the test where the machine lacks what
// the pipe sleep programs need (see PipeSleepPrerequisites): there the
// look reads /proc, and only there may the programs fail to load.
func skipWithoutTracepoints(t testing.TB) {
	t.Helper()
	if err := PipeSleepPrerequisites(); err != nil {
		t.Skipf("no programs on the scheduler's tracepoints here: %v", err)
	}
}

// eventually reports whether cond holds within a few seconds.
func eventually(cond func() bool) bool {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// TestPipeSleep follows a bot through what the look before a pause must
// tell apart: asleep reading its input pipe (after each answer), stopped,
// asleep elsewhere, computing after it answered, and starting a thread
// or a process (counted).
func TestPipeSleep(t *testing.T) {
	ps := &PipeSleeps{}
	defer ps.Close()
	cmd, in, out := startPipeSleepBot(t)
	w := watchPipeSleep(t, ps, cmd.Process.Pid)
	say := func(line string) {
		t.Helper()
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := out.ReadString('\n')
		if err != nil || got != line+"\n" {
			t.Fatalf("the bot answered %q, %v", got, err)
		}
	}
	asleep := func() bool { a, _ := w.State(); return a }
	starts := func() uint32 { _, n := w.State(); return n }

	say("hello")
	if !eventually(asleep) {
		t.Fatal("never asleep reading its input")
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGSTOP)
	if !eventually(func() bool { return !asleep() }) {
		t.Fatal("a stopped bot still reads as asleep in its pipe")
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGCONT)
	if !eventually(asleep) {
		t.Fatal("never asleep again after it was continued")
	}

	// Asleep in usleep, not in the pipe: looked at while it sleeps.
	io.WriteString(in, "sleep\n")
	time.Sleep(30 * time.Millisecond)
	if asleep() {
		t.Fatal("a bot asleep in usleep reads as asleep in its pipe")
	}
	out.ReadString('\n')
	if !eventually(asleep) {
		t.Fatal("never asleep reading after usleep")
	}

	// Computing after it answered.
	say("spin")
	time.Sleep(30 * time.Millisecond)
	if asleep() {
		t.Fatal("a bot computing after its answer reads as asleep in its pipe")
	}
	if !eventually(asleep) {
		t.Fatal("never asleep reading after it computed")
	}

	if n := starts(); n != 0 {
		t.Fatalf("%d starts counted before any", n)
	}
	say("thread")
	if n := starts(); n != 1 {
		t.Fatalf("%d starts counted after a thread, want 1", n)
	}
	say("fork")
	if n := starts(); n != 2 {
		t.Fatalf("%d starts counted after a thread and a process, want 2", n)
	}
}

// TestPipeSleepSlots: a slot given back is cleared for its next thread,
// and Close unloads the programs only once the last follower is closed.
func TestPipeSleepSlots(t *testing.T) {
	ps := &PipeSleeps{}
	cmd, in, out := startPipeSleepBot(t)
	w := watchPipeSleep(t, ps, cmd.Process.Pid)
	io.WriteString(in, "thread\n")
	out.ReadString('\n')
	if !eventually(func() bool { a, n := w.State(); return a && n == 1 }) {
		t.Fatal("the thread's start was not counted")
	}
	w.Close()
	w.Close() // a second Close is harmless
	again := ps.watch(cmd.Process.Pid)
	if again == nil {
		t.Fatal("the thread could not be followed again")
	}
	if a, n := again.State(); a || n != 0 {
		t.Fatalf("a new follower found its slot's old state: asleep %v, %d starts", a, n)
	}
	ps.Close()
	if ps.loaded == nil {
		t.Fatal("Close unloaded the programs while a follower still reads them")
	}
	if ps.watch(cmd.Process.Pid) != nil {
		t.Fatal("a follower was given after Close")
	}
	again.Close()
	if ps.loaded != nil {
		t.Fatal("the programs stayed loaded after Close and the last follower")
	}
}

// TestKernelSymbols: the pipe read's address range ends at the next
// symbol, the scheduler's section is bounded, and lines of modules,
// hidden addresses and duplicate names are dealt with.
func TestKernelSymbols(t *testing.T) {
	ks := parseKernelSymbols([]byte(`0000000000000000 T hidden
ffffffff81000000 T _text
ffffffff81000100 t anon_pipe_read
ffffffff81000100 t anon_pipe_read_alias
ffffffff81000180 t fifo_pipe_read
ffffffff81000300 T __sched_text_start
ffffffff81000400 T __sched_text_end
ffffffff81000200 t anon_pipe_read
ffffffffc0000000 t mod_fn	[some_module]
garbage
`))
	for _, c := range []struct {
		names  []string
		lo, hi uint64
		ok     bool
	}{
		{[]string{"anon_pipe_read", "pipe_read"}, 0xffffffff81000100, 0xffffffff81000180, true},
		{[]string{"pipe_read", "fifo_pipe_read"}, 0xffffffff81000180, 0xffffffff81000200, true},
		{[]string{"hidden"}, 0, 0, false},
		{[]string{"mod_fn"}, 0, 0, false},
		{[]string{"__sched_text_end"}, 0, 0, false}, // the last address: no end
	} {
		lo, hi, err := ks.rangeOf(c.names...)
		if (err == nil) != c.ok || lo != c.lo || hi != c.hi {
			t.Errorf("rangeOf(%v) = %#x, %#x, %v", c.names, lo, hi, err)
		}
	}
	if lo, hi, err := ks.between("__sched_text_start", "__sched_text_end"); err != nil || lo != 0xffffffff81000300 || hi != 0xffffffff81000400 {
		t.Errorf("between = %#x, %#x, %v", lo, hi, err)
	}
	if _, _, err := ks.between("__sched_text_end", "__sched_text_start"); err == nil {
		t.Error("a reversed section was taken")
	}

	real, err := readKernelSymbols()
	if err != nil {
		t.Skip(err)
	}
	lo, hi, err := real.rangeOf(pipeReadSymbols...)
	if err != nil {
		t.Skipf("this kernel hides its addresses or has no pipe read: %v", err)
	}
	if hi <= lo || hi-lo > 1<<20 {
		t.Fatalf("pipe read at %#x-%#x", lo, hi)
	}
}

// FuzzParseKernelSymbols: any text parses, and every range it gives is
// a symbol's address up to a greater one.
func FuzzParseKernelSymbols(f *testing.F) {
	f.Add([]byte("ffffffff81000100 t anon_pipe_read\nffffffff81000180 t next\n"))
	f.Add([]byte("0000000000000000 T x\nzz T y\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ks := parseKernelSymbols(data)
		if !slices.IsSorted(ks.addrs) {
			t.Fatal("addresses out of order")
		}
		for name := range ks.byName {
			lo, hi, err := ks.rangeOf(name)
			if err == nil && (hi <= lo || lo != ks.byName[name]) {
				t.Fatalf("%s: %#x-%#x", name, lo, hi)
			}
		}
	})
}
