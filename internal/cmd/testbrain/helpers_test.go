package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runTimeout bounds every brain run in these tests.
const runTimeout = 10 * time.Second

// buildBrain compiles the test brain into a temporary folder as pbrain-tb
// and links it as tb there; it returns both paths.
func buildBrain(t *testing.T) (pipeBin, fileBin string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found:", err)
	}
	dir := t.TempDir()
	pipeBin = filepath.Join(dir, "pbrain-tb")
	fileBin = filepath.Join(dir, "tb")
	out, err := exec.Command(goBin, "build", "-o", pipeBin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.Link(pipeBin, fileBin); err != nil {
		if err := os.Symlink(pipeBin, fileBin); err != nil {
			t.Fatal(err)
		}
	}
	return pipeBin, fileBin
}

// cleanEnv is the test's environment without TESTBRAIN_PIDFILE, plus extra.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, PidFileEnv+"=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// result is how a brain run ended.
type result struct {
	stdout, stderr []byte
	code           int            // exit status, -1 if killed by a signal
	signal         syscall.Signal // the signal, if any
}

// run starts bin with args in dir (empty: a fresh temporary one), feeds it
// input and waits for it to end.
func run(t *testing.T, bin, dir, input string, env []string, args ...string) result {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	// A fixed seed keeps the brain's moves, and so the transcripts, the
	// same on every run (a random first move could land on the square a
	// later TURN names).
	if !hasSeed(args) {
		args = append(args, "--seed=1")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = cleanEnv(env...)
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v: timed out; stdout %q", filepath.Base(bin), args, trunc(stdout.Bytes()))
	}
	r := result{stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s %v: %v", filepath.Base(bin), args, err)
		}
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	r.code = ws.ExitStatus()
	if ws.Signaled() {
		r.code, r.signal = -1, ws.Signal()
	}
	return r
}

// trunc shortens b for error messages.
func trunc(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// matchOut checks out against the anchored regular expression re and
// returns the submatches (without the whole match).
func matchOut(t *testing.T, out []byte, re string) []string {
	t.Helper()
	m := regexp.MustCompile(`\A` + re + `\z`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("output %q does not match %q", trunc(out), re)
	}
	return m[1:]
}

// coords converts submatch pairs to integers.
func coords(t *testing.T, s ...string) []int {
	t.Helper()
	var v []int
	for _, x := range s {
		n, err := strconv.Atoi(x)
		if err != nil {
			t.Fatal(err)
		}
		v = append(v, n)
	}
	return v
}

// session is a brain under interactive control over real pipes.
type session struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin interface {
		Write([]byte) (int, error)
		Close() error
	}
	out  chan []byte
	buf  []byte
	done chan struct{}
}

// start launches bin in its own process group with pipes for stdin and
// stdout; the group is killed when the test ends.
func start(t *testing.T, bin, dir string, env []string, args ...string) *session {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	if !hasSeed(args) {
		args = append(args, "--seed=1")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = cleanEnv(env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, stdin: stdin, out: make(chan []byte, 64), done: make(chan struct{})}
	go func() {
		defer close(s.out)
		for {
			b := make([]byte, 64<<10)
			n, err := stdout.Read(b)
			if n > 0 {
				s.out <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		for range s.out {
		}
		_ = cmd.Wait()
	})
	return s
}

// send writes text to the brain's stdin.
func (s *session) send(text string) {
	s.t.Helper()
	if _, err := s.stdin.Write([]byte(text)); err != nil {
		s.t.Fatalf("write %q: %v", text, err)
	}
}

// expect waits until the unread output matches the anchored regular
// expression re exactly, consumes it and returns the submatches.
func (s *session) expect(re string, timeout time.Duration) []string {
	s.t.Helper()
	rx := regexp.MustCompile(`\A` + re + `\z`)
	deadline := time.After(timeout)
	for {
		if m := rx.FindSubmatch(s.buf); m != nil {
			s.buf = nil
			var sub []string
			for _, x := range m[1:] {
				sub = append(sub, string(x))
			}
			return sub
		}
		select {
		case b, ok := <-s.out:
			if !ok {
				s.t.Fatalf("output ended; have %q, want %q", trunc(s.buf), re)
			}
			s.buf = append(s.buf, b...)
		case <-deadline:
			s.t.Fatalf("timeout: have %q, want %q", trunc(s.buf), re)
		}
	}
}

// expectExact waits for exactly want as the unread output and consumes it.
func (s *session) expectExact(want string, timeout time.Duration) {
	s.t.Helper()
	deadline := time.After(timeout)
	for len(s.buf) < len(want) {
		select {
		case b, ok := <-s.out:
			if !ok {
				s.t.Fatalf("output ended after %d of %d bytes", len(s.buf), len(want))
			}
			s.buf = append(s.buf, b...)
		case <-deadline:
			s.t.Fatalf("timeout after %d of %d bytes", len(s.buf), len(want))
		}
	}
	if string(s.buf) != want {
		s.t.Fatalf("got %d bytes %q..., want %d bytes %q...", len(s.buf), trunc(s.buf), len(want), trunc([]byte(want)))
	}
	s.buf = nil
}

// quiet checks that the brain prints nothing for d.
func (s *session) quiet(d time.Duration) {
	s.t.Helper()
	select {
	case b, ok := <-s.out:
		if ok {
			s.t.Fatalf("unexpected output %q", trunc(b))
		}
		s.t.Fatal("output ended unexpectedly")
	case <-time.After(d):
	}
}

// wait closes stdin and waits for the brain to exit, returning its status.
func (s *session) wait() int {
	s.t.Helper()
	s.stdin.Close()
	for {
		select {
		case b, ok := <-s.out:
			if !ok {
				_ = s.cmd.Wait()
				return s.cmd.ProcessState.ExitCode()
			}
			s.buf = append(s.buf, b...)
		case <-time.After(runTimeout):
			s.t.Fatal("brain did not exit")
		}
	}
}

// writeFiles creates a file-protocol working folder with the given board
// rows (joined with eol) and side to move.
func writeFiles(t *testing.T, board []string, eol, side string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"PLOCHA.DAT":   strings.Join(board, eol) + eol,
		"TAH.DAT":      side + "\n",
		"MSG.DAT":      "",
		"TIMEOUTS.DAT": "5\n2147483647\n",
		"INFO.DAT":     "timeout_turn 5000\ntimeout_match 0\nrule 0\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readFile returns the content of dir/name, failing the test if missing.
func readFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasSeed(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "--seed") {
			return true
		}
	}
	return false
}
