package bot

import (
	"testing"
	"time"

	"arena/sandbox"
)

// TestLooksFromPipeSleeps: once a sandboxed bot was found idle while the
// kernel followed its pipe reads, the looks at it after each answer are
// answered from the kernel's record (sandbox.PipeSleep) and say idle;
// a bot that computes after its answer, or then starts a process or a
// thread, even one that sleeps, is not idle.
func TestLooksFromPipeSleeps(t *testing.T) {
	sb := sandboxWithFilter(t)
	prog := buildC(t, "pipelook", `#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static void *nap(void *_) { for (;;) sleep(100); return 0; }
int main(void) {
	char line[64];
	setvbuf(stdout, 0, _IONBF, 0);
	printf("ready\n");
	while (fgets(line, sizeof line, stdin)) {
		fputs(line, stdout);
		if (!strcmp(line, "thread\n")) {
			pthread_t t;
			pthread_create(&t, 0, nap, 0);
		} else if (!strcmp(line, "fork\n")) {
			if (fork() == 0) for (;;) sleep(100);
		} else if (!strcmp(line, "spin\n")) {
			clock_t end = clock() + CLOCKS_PER_SEC / 2;
			while (clock() < end) {
			}
		}
	}
	return 0;
}
`)
	p, err := Start(Config{Args: []string{prog}, Interactive: true, PauseGrace: time.Millisecond, Sandbox: sb, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	expectReady(t, p)
	servedGen(t, p)
	move := func(line string) {
		t.Helper()
		if err := p.WriteString(line+"\n", soon()); err != nil {
			t.Fatal(err)
		}
		if got, err := p.ReadLine(soon()); err != nil || got != line {
			t.Fatalf("%q %v %s", got, err, p.Stderr())
		}
	}
	pipeLooks := func() int {
		p.pauseMu.Lock()
		defer p.pauseMu.Unlock()
		return p.watch.pipeLooks
	}
	end := time.Now().Add(20 * time.Second) // the programs load meanwhile
	for i := 0; pipeLooks() < 10; i++ {
		if time.Now().After(end) {
			if err := sb.PipeSleepErr(); err != nil {
				if sandbox.PipeSleepPrerequisites() != nil {
					t.Skipf("the kernel cannot follow pipe sleeps: %v", err)
				}
				t.Fatalf("the machine gives what the pipe sleep programs need, but they do not load: %v", err)
			}
			t.Fatalf("%d looks of %d moves came from the kernel's record", pipeLooks(), i)
		}
		move("x")
		for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(50 * time.Microsecond) {
			if time.Now().After(end) {
				t.Fatal("never idle")
			}
		}
	}

	move("spin")
	time.Sleep(50 * time.Millisecond)
	if lookIdle(p, true) {
		t.Fatal("a bot computing after its answer looked idle")
	}
	for end := time.Now().Add(time.Minute); !lookIdle(p, true); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("never idle after it computed")
		}
	}

	// A start the filter does not report (glibc's fork installs no
	// handler, unlike its first pthread_create): the kernel counts it.
	move("fork")
	time.Sleep(20 * time.Millisecond) // both processes asleep
	for i := range 100 {
		if lookIdle(p, true) {
			t.Fatalf("look %d: a bot that started a process looked idle", i)
		}
	}
	if !lookIdle(p, false) {
		t.Fatal("the bot and its sleeping child did not look blocked")
	}
	move("thread")
	time.Sleep(20 * time.Millisecond)
	if lookIdle(p, true) {
		t.Fatal("a bot that started a thread looked idle")
	}
}

// BenchmarkPipeLook is the look at an idle sandboxed bot (cat) once the
// kernel's record answers it (BenchmarkBlockedSandboxed is the look
// that reads /proc); pipe-looks/op says it was so answered (1).
func BenchmarkPipeLook(b *testing.B) {
	sb := sandboxWithFilter(b)
	p := startSh(b, "exec cat", Config{Sandbox: sb, Dir: b.TempDir(), PauseGrace: time.Millisecond})
	for end := time.Now().Add(20 * time.Second); ; {
		if err := p.WriteString("x\n", soon()); err != nil {
			b.Fatal(err)
		}
		if _, err := p.ReadLine(soon()); err != nil {
			b.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		p.pauseMu.Lock()
		before := p.watch.pipeLooks
		p.blocked()
		fast := p.watch.pipeLooks > before
		p.pauseMu.Unlock()
		if fast {
			break
		}
		if time.Now().After(end) {
			b.Skipf("the kernel's record never answered: %v", sb.PipeSleepErr())
		}
	}
	benchIdleLooks(b, p, func(w *watch) int { return w.pipeLooks }, "pipe-looks/op")
}
