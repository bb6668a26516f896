package bot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// deadPID is the PID of a process that has ended and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestStaleWorkFolders: the work folders of arenas that are gone (no
// process, or the PID now another process's) are removed, even with
// read-only folders inside; a live arena's and folders named otherwise
// stay.
func TestStaleWorkFolders(t *testing.T) {
	root := t.TempDir()
	self, start := os.Getpid(), staleStartTicks(os.Getpid())
	dead := deadPID(t)
	mk := func(name string) string {
		d := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(d, "bot", "ro"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "bot", "ro", "f"), []byte("x"), 0o644)
		os.Chmod(filepath.Join(d, "bot", "ro"), 0o500)
		os.Chmod(filepath.Join(d, "bot"), 0o500)
		return d
	}
	live := mk(WorkPrefix() + "live")
	reused := mk(fmt.Sprintf("arena-work-%d-%d-reused", self, start+1))
	gone := mk(fmt.Sprintf("arena-work-%d-%d-gone", dead, 12345))
	older := mk("arena-work-123456789")
	other := mk("arena-worker")
	t.Cleanup(func() {
		for _, d := range []string{live, older, other} {
			reapRemoveAll(d)
		}
	})
	r := ReapStale(root)
	for d, want := range map[string]bool{live: true, reused: false, gone: false, older: true, other: true} {
		if exists(d) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), exists(d), want)
		}
	}
	if r.Folders != 2 || len(r.Kept) != 0 {
		t.Errorf("reaped %+v, want 2 folders", r)
	}
	if r.String() == "" {
		t.Error("nothing said about what was removed")
	}
	if again := ReapStale(root); again.String() != "" {
		t.Errorf("a second reap: %q", again)
	}
}

// memoryCgroup is the test's own v1 memory or v2 cgroup where it may make
// cgroups, or a skip.
func memoryCgroup(t *testing.T) string {
	t.Helper()
	g := NewGroup(0)
	defer g.Close()
	if g.dir == "" {
		t.Skip("no writable cgroup on this machine: " + g.Enforcement())
	}
	return filepath.Dir(g.dir)
}

// inCgroup starts "sleep" inside a new cgroup dir/name (setsid'd, as a
// daemon would be), and returns it.
func inCgroup(t *testing.T, dir, name string) (*exec.Cmd, string) {
	t.Helper()
	cg := filepath.Join(dir, name)
	t.Cleanup(func() { reapKillCgroups([]string{cg}); removeCgroupTree(cg) })
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// An arena starting meanwhile (other packages' tests run them) reaps
	// a stale cgroup it finds empty before the process is in it: make it
	// again. Once the process is in, whoever reaps it kills it, as the
	// test wants.
	for try := 0; ; try++ {
		if err := os.Mkdir(cg, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			t.Fatal(err)
		}
		err := os.WriteFile(filepath.Join(cg, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0)
		if err == nil {
			return cmd, cg
		}
		if !errors.Is(err, fs.ErrNotExist) || try == 100 {
			t.Fatal(err)
		}
	}
}

// TestStaleCgroups: the processes in a cgroup arena-PID-... whose arena
// is gone are killed, even when frozen, and the cgroup removed; a live
// arena's cgroup and what runs in it are left alone.
func TestStaleCgroups(t *testing.T) {
	dir := memoryCgroup(t)
	// A live "arena": a child of the test, in the test's cgroup.
	arena := exec.Command("sleep", "1000")
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { arena.Process.Kill(); arena.Wait() }()
	liveBot, liveCg := inCgroup(t, dir, fmt.Sprintf("arena-%d-1", arena.Process.Pid))
	deadBot, deadCg := inCgroup(t, dir, fmt.Sprintf("arena-%d-7", deadPID(t)))
	// A frozen one (v1 freezer) does not die until thawed: freeze its
	// twin in the freezer hierarchy where there is one.
	for _, d := range staleCgroupDirs() {
		if _, err := os.Stat(filepath.Join(d, "freezer.state")); err == nil {
			fz := filepath.Join(d, filepath.Base(deadCg))
			if os.Mkdir(fz, 0o755) == nil {
				t.Cleanup(func() { removeCgroupTree(fz) })
				os.WriteFile(filepath.Join(fz, "cgroup.procs"), []byte(strconv.Itoa(deadBot.Process.Pid)), 0)
				os.WriteFile(filepath.Join(fz, "freezer.state"), []byte("FROZEN"), 0)
			}
		}
	}

	// (Another arena starting meanwhile, as other tests' do, may reap it
	// first: what counts is that it is gone, and the live one is not.)
	ReapStale()
	waited := make(chan error, 1)
	go func() { waited <- deadBot.Wait() }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("the stale cgroup's process is still staleRunning")
	}
	if exists(deadCg) {
		t.Errorf("the stale cgroup %s is still there", deadCg)
	}
	if !exists(liveCg) || !staleRunning(liveBot.Process.Pid) {
		t.Errorf("a live arena's cgroup or bot was reaped")
	}

	// Once that arena is gone, its cgroup is stale too.
	arena.Process.Kill()
	arena.Wait()
	ReapStale()
	if exists(liveCg) || staleRunning(liveBot.Process.Pid) {
		t.Errorf("the ended arena's cgroup is left: %v, bot alive %v", exists(liveCg), staleRunning(liveBot.Process.Pid))
	}
}

// BenchmarkReapStale is what every arena start pays when nothing is
// stale.
func BenchmarkReapStale(b *testing.B) {
	root := b.TempDir()
	for b.Loop() {
		ReapStale(root)
	}
}
