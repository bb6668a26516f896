package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/bot"
)

// TestKilledArenaIsCleanedUp: an arena killed with SIGKILL in the middle
// of a game leaves a bot's daemon (double-forked, setsid: outside the
// bot's process group) running and its work folder on disk; the next
// arena started on the same work folder root kills the daemon and
// removes the folder, and says so.
func TestKilledArenaIsCleanedUp(t *testing.T) {
	if g := bot.NewGroup(0); !strings.HasPrefix(g.Enforcement(), "cgroup") {
		g.Close()
		t.Skip("no writable cgroup on this machine: a daemon that left its process group cannot be found")
	} else {
		g.Close()
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	pidFile := filepath.Join(dir, "daemon.pid")
	brain := filepath.Join(dir, "pbrain-daemon")
	script := fmt.Sprintf(`#!/bin/sh
( setsid sh -c 'echo $$ > %s.tmp; mv %s.tmp %s; exec sleep 1000' </dev/null >/dev/null 2>&1 & )
while read -r line; do
	case "$line" in
	START*) echo OK ;;
	esac
done
`, pidFile, pidFile, pidFile)
	quitter := filepath.Join(dir, "pbrain-quit")
	for p, s := range map[string]string{brain: script, quitter: "#!/bin/sh\nexit 0\n"} {
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	arena := func(botCmd string) *exec.Cmd {
		// Without the sandbox: in its pid namespace the daemon would die
		// with the bot's init, and its pid file could not be written
		// outside the bot's folder. This is the machine without one.
		cmd := exec.Command(exe, "match", "gomoku", "--bot", botCmd, "--bot", "builtin", "--games", "1",
			"--turn-time", "1m", "--work-dir", work, "--out", filepath.Join(dir, "out"), "--sandbox", "off")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1")
		return cmd
	}

	first := arena(brain)
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	var daemon int
	for deadline := time.Now().Add(30 * time.Second); daemon == 0; time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile(pidFile); err == nil {
			daemon, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot started no daemon in 30 s; arena said:\n%s", firstErr.String())
		}
	}
	t.Cleanup(func() { syscall.Kill(daemon, syscall.SIGKILL) })
	folders, _ := filepath.Glob(filepath.Join(work, fmt.Sprintf("arena-work-%d-*", first.Process.Pid)))
	if len(folders) != 1 {
		t.Fatalf("the first arena's work folders: %v", folders)
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	if len(bot.Survivors(daemon)) == 0 {
		t.Fatal("the daemon died with the arena: nothing to clean up")
	}
	if _, err := os.Stat(folders[0]); err != nil {
		t.Fatalf("the killed arena's work folder: %v", err)
	}

	second := arena(quitter)
	out, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("the second arena: %v\n%s", err, out)
	}
	if n := bot.Survivors(daemon); len(n) != 0 {
		t.Errorf("the killed arena's daemon %d is still running", daemon)
	}
	if _, err := os.Stat(folders[0]); err == nil {
		t.Errorf("the killed arena's work folder %s is still there", folders[0])
	}
	// (Another arena starting meanwhile, as other tests' do, may have
	// reaped the daemon first: the folder is this test's alone.)
	if !strings.Contains(string(out), "left by arenas that did not end cleanly: killed ") ||
		!strings.Contains(string(out), "removed 1 work folder") {
		t.Errorf("the second arena did not say what it cleaned up:\n%s", out)
	}
	if left, _ := filepath.Glob(filepath.Join(work, "arena-work-*")); len(left) != 0 {
		t.Errorf("work folders left: %v", left)
	}
}
