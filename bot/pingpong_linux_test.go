package bot

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"arena/sandbox"
)

// pingPongBot builds a C bot whose two helper threads pass a byte back
// and forth through two pipes without end while its main thread waits
// for input: at every instant one of them runs or is about to, yet each,
// looked at alone, is often asleep reading a pipe.
func pingPongBot(t *testing.T) string {
	t.Helper()
	return buildC(t, "pingpong", `#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static int ab[2], ba[2];
static void *ping(void *x) { char c = 0; for (;;) { write(ab[1], &c, 1); read(ba[0], &c, 1); } return 0; }
static void *pong(void *x) { char c; for (;;) { read(ab[0], &c, 1); write(ba[1], &c, 1); } return 0; }
int main(void) {
	pthread_t a, b;
	char line[64];
	if (pipe(ab) || pipe(ba)) return 1;
	pthread_create(&b, 0, pong, 0);
	pthread_create(&a, 0, ping, 0);
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof line, stdin)) { fputs(line, stdout); fflush(stdout); }
	return 0;
}
`)
}

// buildC compiles a C program of one file (with threads) into the
// test's temporary folder and returns its path; the test skips where
// there is no C compiler.
func buildC(t *testing.T, name, source string) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, name+".c")
	prog := filepath.Join(dir, name)
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-pthread", "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	return prog
}

// TestPingPongThreadsNeverIdle: threads that wake each other are never
// all asleep at once, so a look that visits them one after another must
// not piece an idle bot together from moments that never coexisted (a
// bot left running while paused thinks on its opponent's time). Before
// only lone threads counted as idle, 6-20 of 20,000 looks did so.
func TestPingPongThreadsNeverIdle(t *testing.T) {
	prog := pingPongBot(t)
	modes := []struct {
		name string
		sb   func(t *testing.T) *sandbox.Sandbox
	}{
		{"off", func(*testing.T) *sandbox.Sandbox { return nil }},
		{"sandboxed", func(t *testing.T) *sandbox.Sandbox { return sandboxWithFilter(t) }},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			sb := m.sb(t)
			p, err := Start(Config{Args: []string{prog}, Interactive: true, Sandbox: sb, Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			expectReady(t, p)
			const looks = 20000
			idle := 0
			p.pauseMu.Lock()
			for range looks {
				if _, ok := p.blocked(); ok {
					idle++
				}
			}
			p.pauseMu.Unlock()
			if idle > 0 {
				t.Errorf("%d of %d looks found the ping-pong bot idle", idle, looks)
			}
		})
	}
}
