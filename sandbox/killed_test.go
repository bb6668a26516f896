package sandbox_test

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/bot"
	"arena/sandbox"
)

// killedWithin is how long the bots of an arena killed with SIGKILL may
// outlive it.
const killedWithin = 2 * time.Second

// miniArenaEnv makes TestMiniArena play the arena that
// TestKilledArenaTakesItsBots kills; its value is the sandbox mode.
const miniArenaEnv = "ARENA_TEST_MINI_ARENA"

// daemonBot answers "ready" once it has left a daemon behind (setsid,
// double-forked: outside its process group and tree), then echoes lines.
const daemonBot = `setsid sh -c 'sleep 600' </dev/null >/dev/null 2>&1 & echo ready; while read x; do echo "$x"; done`

// TestMiniArena is not a test of its own: run by
// TestKilledArenaTakesItsBots with miniArenaEnv set, the test binary is
// an arena with two sandboxed bots, each of which left a daemon behind,
// one of them paused (as the idle side is while its opponent thinks).
// It says "arena ready" and waits to be killed.
func TestMiniArena(t *testing.T) {
	mode := sandbox.Mode(os.Getenv(miniArenaEnv))
	if mode == "" {
		t.Skip("the arena TestKilledArenaTakesItsBots kills")
	}
	sb := newSandbox(t, mode, testPolicy(mode))
	sh := lookPath(t, "sh")
	scratch, err := bot.ScratchDir(os.Getenv("MINI_ARENA_DIR"), "", bot.WorkPrefix())
	if err != nil {
		t.Fatal(err)
	}
	var bots []*bot.Process
	for _, seat := range []string{"thinking", "paused"} {
		dir := filepath.Join(scratch, seat)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p, err := bot.Start(bot.Config{Args: []string{sh, "-c", daemonBot}, Dir: dir, Interactive: true, Sandbox: sb})
		if err != nil {
			t.Fatal(err)
		}
		if line, err := p.ReadLine(time.Now().Add(30 * time.Second)); err != nil || line != "ready" {
			t.Fatalf("%s bot: %q %v %s", seat, line, err, p.Stderr())
		}
		bots = append(bots, p)
	}
	bots[1].Pause()
	if mode == pooled {
		readyInits(t, sb) // groups kept ready as well, for the killed arena's guard to end
	}
	fmt.Println("arena ready")
	if os.Getenv("MINI_ARENA_CLEAN") == "" {
		time.Sleep(time.Hour)
	}
	// A clean end: a line on stdin closes the bots and stops the guard,
	// as arena's main does; the arena exits once stdin ends.
	in := bufio.NewReader(os.Stdin)
	in.ReadString('\n')
	for _, p := range bots {
		p.Close()
	}
	bot.Shutdown()
	fmt.Println("arena done")
	io.Copy(io.Discard, in)
}

// TestKilledArenaTakesItsBots: an arena killed with SIGKILL while one of
// its sandboxed bots thinks and the other is paused (frozen, where the
// machine has a freezer), each with a daemon it left behind, leaves no
// process of theirs running, without any arena starting after it. Mode
// off keeps today's behaviour (the daemons live until the next arena
// reaps them): cmd/arena's TestKilledArenaIsCleanedUp covers it. Its
// cgroups are gone as well, those of the groups a pool kept ready
// (mode pooled) included.
func TestKilledArenaTakesItsBots(t *testing.T) {
	for _, mode := range modes(t) {
		if mode == sandbox.Off {
			continue
		}
		t.Run(string(mode), func(t *testing.T) {
			if !tracked(mode) {
				t.Skip("no pid namespace and no cgroup: a daemon that left the bot's tree cannot be found")
			}
			token := randomToken(t)
			arena, _, _ := startMiniArena(t, mode, token, false)
			if !eventually(func() bool { return paused(token) }) {
				t.Fatal("the paused bot did not stop")
			}
			pid := arena.Process.Pid
			groups := groupsOf(pid)
			want := 2 // the bots'
			if mode == pooled {
				want += 2 // and those kept ready
			}
			if len(groups) < want && probed().On(sandbox.LayerMemory) {
				t.Fatalf("the arena has %d groups (%v), want %d", len(groups), groups, want)
			}
			killArena(t, arena, token)
			groupsGone(t, pid)
		})
	}
}

// startMiniArena starts TestMiniArena in mode with token in its
// environment, and waits until its bots are ready. With clean, a line on
// the returned writer ends it cleanly.
func startMiniArena(t *testing.T, mode sandbox.Mode, token string, clean bool) (*exec.Cmd, io.WriteCloser, <-chan bool) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	arena := exec.Command(exe, "-test.run=^TestMiniArena$", "-test.v")
	arena.Env = append(os.Environ(), miniArenaEnv+"="+string(mode), "MINI_ARENA_DIR="+t.TempDir(), "HOSTILE_MARK="+token)
	if clean {
		arena.Env = append(arena.Env, "MINI_ARENA_CLEAN=1")
	}
	var stderr strings.Builder
	arena.Stderr = &stderr
	in, err := arena.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := arena.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		arena.Process.Kill()
		arena.Wait()
		leftovers(token)
	})
	ready := make(chan bool, 2)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "arena ready" || sc.Text() == "arena done" {
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			arena.Wait()
			t.Fatalf("the arena ended before its bots were ready:\n%s", stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("the arena's bots were not ready in a minute:\n%s", stderr.String())
	}
	return arena, in, ready
}

// TestCleanArenaLeavesNoGuard: when an arena ends cleanly (its bots
// closed, then bot.Shutdown, as arena's main does), its guard has
// exited by the time Shutdown returns.
func TestCleanArenaLeavesNoGuard(t *testing.T) {
	token := randomToken(t)
	arena, in, said := startMiniArena(t, sandbox.Auto, token, true)
	guard := "ARENA_GUARD_OF=" + strconv.Itoa(arena.Process.Pid)
	if len(holding(guard)) != 1 {
		t.Fatalf("want one guard of the arena, found %v", holding(guard))
	}
	fmt.Fprintln(in, "end")
	if !<-said {
		t.Fatal("the arena did not end cleanly")
	}
	if left := holding(guard); len(left) > 0 {
		t.Errorf("the arena's guard outlived Shutdown: %v", left)
	}
	in.Close()
	if err := arena.Wait(); err != nil {
		t.Fatalf("the arena: %v", err)
	}
}

// holding lists the live processes whose environment holds the variable
// kv ("NAME=value").
func holding(kv string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !slices.Contains(strings.Split(string(env), "\x00"), kv) {
			continue
		}
		if st := procState(pid); st != 0 && st != 'Z' && st != 'X' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestKilledArenaBinaryTakesItsBots is TestKilledArenaTakesItsBots with
// the arena program itself (a Gomoku match, --sandbox auto) and Gomocup
// brains as bots: one thinks for long, the other waits paused.
func TestKilledArenaBinaryTakesItsBots(t *testing.T) {
	if !tracked(sandbox.Auto) {
		t.Skip("no pid namespace and no cgroup: a daemon that left the bot's tree cannot be found")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build arena with")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "arena")
	if out, err := exec.Command("go", "build", "-o", exe, "arena/cmd/arena").CombinedOutput(); err != nil {
		t.Fatalf("build arena: %v\n%s", err, out)
	}
	brain := func(name, think string) string {
		path := filepath.Join(dir, name)
		script := `#!/bin/sh
setsid sh -c 'sleep 600' </dev/null >/dev/null 2>&1 &
while read -r line; do
	case "$line" in
	START*) echo OK ;;
	ABOUT*) echo 'name="` + name + `"' ;;
	BEGIN*|TURN*) ` + think + `; echo 7,7 ;;
	esac
done
`
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	token := randomToken(t)
	arena := exec.Command(exe, "match", "gomoku", "--bot", brain("pbrain-thinker", "sleep 600"),
		"--bot", brain("pbrain-waiter", "true"), "--games", "1", "--turn-time", "1h",
		"--work-dir", filepath.Join(dir, "work"), "--out", filepath.Join(dir, "out"), "--sandbox", "auto")
	arena.Dir = dir
	arena.Env = append(os.Environ(), "HOSTILE_MARK="+token)
	var stderr strings.Builder
	arena.Stdout, arena.Stderr = &stderr, &stderr
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	defer arena.Process.Kill()
	t.Cleanup(func() { leftovers(token) })
	// Both brains and their daemons run, and the waiter is paused.
	if !eventually(func() bool { return len(botsOf(token, arena.Process.Pid)) >= 6 && paused(token) }) {
		t.Fatalf("the game did not get going: %v\n%s", botsOf(token, arena.Process.Pid), stderr.String())
	}
	killArena(t, arena, token)
	// The brains' cgroups are gone, and those of the groups the match
	// kept ready for its next game.
	groupsGone(t, arena.Process.Pid)
}

// groupsGone fails unless every cgroup of the killed arena pid is gone
// within killedWithin (its guard removes them).
func groupsGone(t *testing.T, pid int) {
	t.Helper()
	var left []string
	for end := time.Now().Add(killedWithin); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if left = groupsOf(pid); len(left) == 0 {
			return
		}
	}
	t.Errorf("the killed arena's cgroups are left: %v", left)
}

// killArena kills the arena with SIGKILL and waits for every process
// holding token to be gone, failing after killedWithin.
func killArena(t *testing.T, arena *exec.Cmd, token string) {
	t.Helper()
	pid := arena.Process.Pid
	if bots := botsOf(token, pid); len(bots) == 0 {
		t.Fatal("no bot process to begin with")
	}
	arena.Process.Signal(syscall.SIGKILL)
	arena.Wait()
	var left []int
	for end := time.Now().Add(killedWithin); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if left = botsOf(token, pid); len(left) == 0 {
			return
		}
	}
	var desc []string
	for _, p := range left {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		desc = append(desc, fmt.Sprintf("%d (%c) %s", p, procState(p), strings.ReplaceAll(string(cmdline), "\x00", " ")))
	}
	t.Errorf("%s after the arena was killed, %d of its bots' processes are running:\n%s",
		killedWithin, len(left), strings.Join(desc, "\n"))
}

// groupsOf lists the names of the cgroups (arena-PID-N, in any of this
// process's hierarchies, where the arena's groups are made) of the arena
// with process id pid.
func groupsOf(pid int) []string {
	v1, v2 := sandbox.CgroupDirs()
	parents := slices.Collect(maps.Values(v1))
	if v2 != "" {
		parents = append(parents, v2)
	}
	prefix := "arena-" + strconv.Itoa(pid) + "-"
	var names []string
	for _, dir := range parents {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), prefix) && !slices.Contains(names, e.Name()) {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return names
}

// botsOf lists the live processes holding token but arena's own.
func botsOf(token string, arena int) []int {
	return slices.DeleteFunc(marked(token), func(pid int) bool { return pid == arena })
}

// leftovers ends whatever a failed test left: the cgroups of arenas that
// are gone (thawing the frozen) and every process holding token.
func leftovers(token string) {
	bot.ReapStale()
	for _, pid := range marked(token) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// paused reports whether the paused bot of a test has stopped: at least
// two processes holding token (the bot and its daemon) are frozen or
// stopped, and stay so for a while.
func paused(token string) bool {
	for range 3 {
		n := 0
		for _, pid := range marked(token) {
			if st := procState(pid); st == 'T' || st == 'D' {
				n++
			}
		}
		if n < 2 {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
