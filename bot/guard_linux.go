package bot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The guard kills a sandboxed bot when the arena dies without closing it
// (kill -9, a crash, the OOM killer).
//
// A bot's parent-death signal and its pid namespace take most bots with
// the arena, but not all of them: a bot paused through a cgroup v1
// freezer does not die of any signal until it is thawed, and nobody
// thaws it once the arena is gone; and without a pid namespace, a daemon
// that left the bot's process tree never gets the signal. The guard is
// one small process per arena (the arena's own executable, started again
// under the name guardName), outside every bot's cgroup and in a session
// of its own, that waits on a pipe only the arena holds open. However
// the arena ends, the kernel closes its end of the pipe; the guard then
// thaws and kills every cgroup the arena made (arena-PID-..., see
// newGroup), removes them and exits. An arena that ends cleanly has
// removed them already: its guard finds nothing and exits at once.

// guardName is argv[0] of a guard, and guardEnv the variable that gives
// it the arena's process id; both together mark a process as a guard.
const (
	guardName = "arena-guard"
	guardEnv  = "ARENA_GUARD_OF"
)

// init turns a process started as a guard into one: it never returns to
// the program's main there. Any other process passes through.
func init() {
	if len(os.Args) == 0 || os.Args[0] != guardName {
		return
	}
	v, ok := os.LookupEnv(guardEnv)
	if !ok {
		return
	}
	arena, err := strconv.Atoi(v)
	if err != nil || arena <= 0 {
		fmt.Fprintf(os.Stderr, "arena guard: bad %s=%q\n", guardEnv, v)
		os.Exit(2)
	}
	guard(os.Stdin, arena)
	os.Exit(0)
}

// guardian is this process's guard, started with its first sandboxed
// bot. There is one per process because what it watches is the end of
// the process. The write end of its pipe stays referenced here for the
// life of the process: were it collected, its finalizer would close it
// and the guard would take that for the arena's end.
var guardian struct {
	once sync.Once
	pipe *os.File
	done chan struct{} // closed when the guard has been reaped
	err  error
}

// startGuard starts this process's guard unless it runs already.
func startGuard() error {
	guardian.once.Do(func() {
		guardian.pipe, guardian.done, guardian.err = spawnGuard()
	})
	return guardian.err
}

// Shutdown ends this process's guard, if it started one, and waits (up
// to 5 s) until it has exited; no guard starts after it. An arena
// calls it as it ends cleanly, once its bots are closed, so that no
// process of its outlives it (the guard would otherwise end a moment
// after the arena).
func Shutdown() {
	guardian.once.Do(func() { guardian.err = errors.New("sandbox guard: stopped") })
	if guardian.pipe == nil {
		return
	}
	guardian.pipe.Close()
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	select {
	case <-guardian.done:
	case <-t.C:
	}
}

// spawnGuard starts a guard of this process and returns the write end of
// the pipe it waits on and a channel closed once the guard has ended.
func spawnGuard() (*os.File, chan struct{}, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox guard: find own executable: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox guard: %w", err)
	}
	defer r.Close()
	cmd := &exec.Cmd{Path: exe, Args: []string{guardName}, Stdin: r,
		Env: []string{guardEnv + "=" + strconv.Itoa(os.Getpid())},
		// Its own session: a Ctrl-C or a kill of the arena's process
		// group must not take the guard along.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, nil, fmt.Errorf("sandbox guard: %w", err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	return w, done, nil
}

// guard waits until r (the arena's pipe) ends, then kills what is left in
// the cgroups of arena and removes them.
func guard(r io.Reader, arena int) {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	io.Copy(io.Discard, r)
	dirs := cgroupsOf(staleCgroupDirs(), arena)
	if len(dirs) == 0 {
		return
	}
	reapKillCgroups(dirs)
	for _, d := range dirs {
		removeCgroupTree(d)
	}
}

// cgroupsOf lists the cgroups the arena with process id arena made in
// the folders parents (arena-PID-N, see newGroup).
func cgroupsOf(parents []string, arena int) []string {
	prefix := "arena-" + strconv.Itoa(arena) + "-"
	var out []string
	for _, dir := range parents {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), prefix) {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}
