package main

import (
	"bufio"
	"bytes"
	"encoding/json"
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

// TestInterrupt stops a running match with SIGINT, as Ctrl-C does: the
// arena exits, every game that finished is on disk, and no bot process is
// left running.
func TestInterrupt(t *testing.T) {
	dir := testBrain(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	pids := filepath.Join(out, "pids")
	cmd := exec.Command(exe, "match", "gomoku", "--json", "--out", out, "--games", "6", "--size", "10",
		"--bot", filepath.Join(dir, "pbrain-tb")+" --delay=20ms --seed=1",
		"--bot", filepath.Join(dir, "tb")+" --seed=2")
	cmd.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1", "TESTBRAIN_PIDFILE="+pids)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatalf("no game finished: %s", stderr.String())
	}
	var first summaryLine
	if err := json.Unmarshal(lines.Bytes(), &first); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // into the second game
	cmd.Process.Signal(syscall.SIGINT)
	waited := make(chan error, 1)
	go func() {
		for lines.Scan() {
		}
		waited <- cmd.Wait()
	}()
	select {
	case err = <-waited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("arena did not stop after SIGINT")
	}
	if err == nil {
		t.Fatal("arena exited 0 after an interrupt")
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr.String())
	}
	if _, err := os.Stat(first.Record); err != nil {
		t.Errorf("the finished game's record is gone: %v", err)
	}
	data, _ := os.ReadFile(pids)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		pgid, _ := strconv.Atoi(f[1])
		if s := bot.Survivors(pgid); len(s) > 0 {
			t.Errorf("brain processes %v survive the interrupt", s)
		}
	}
}
