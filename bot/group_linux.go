package bot

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Group holds the processes of one bot seat: everything they start stays
// accountable to it. Where the machine offers a writable memory cgroup
// (v1, or v2 with the memory controller delegated) the group is a cgroup:
// the kernel enforces the memory limit and the group can kill descendants
// that left the process group. Elsewhere it falls back to process groups
// and sampling the resident memory of the process group.
type Group struct {
	limit  int64 // bytes; 0 = none
	dir    string
	v2     bool
	parent string // v1: the arena's own memory cgroup, where forking threads return

	mu      sync.Mutex
	pgids   map[int]bool
	stop    chan struct{}
	stopped bool
	over    atomic.Bool // the sampler saw the limit exceeded
}

var groupSeq atomic.Int64

// NewGroup prepares a group with the given memory limit in bytes (0: no
// limit). It never fails: when cgroups are unavailable it degrades to
// process groups, which Enforcement reports.
func NewGroup(limit int64) *Group { return newGroup(limit, true) }

// newGroup makes a group; without useCgroup it takes the fallback that
// machines without cgroups get.
func newGroup(limit int64, useCgroup bool) *Group {
	g := &Group{limit: limit, pgids: map[int]bool{}}
	name := fmt.Sprintf("arena-%d-%d", os.Getpid(), groupSeq.Add(1))
	if !useCgroup {
		name = ""
	}
	if dir, v2, ok := makeCgroup(name); ok {
		g.dir, g.v2, g.parent = dir, v2, filepath.Dir(dir)
		if limit > 0 && !g.setLimit(limit) {
			os.Remove(dir)
			g.dir = ""
		}
	}
	if g.dir == "" && limit > 0 {
		g.stop = make(chan struct{})
		go g.sample()
	}
	return g
}

// Enforcement says how the group tracks processes and memory.
func (g *Group) Enforcement() string {
	switch {
	case g.dir != "" && g.v2:
		return "cgroup v2"
	case g.dir != "":
		return "cgroup v1"
	case g.limit > 0:
		return "process group, memory sampled"
	}
	return "process group"
}

func (g *Group) setLimit(limit int64) bool {
	v := strconv.FormatInt(limit, 10)
	if g.v2 {
		if os.WriteFile(filepath.Join(g.dir, "memory.max"), []byte(v), 0) != nil {
			return false
		}
		os.WriteFile(filepath.Join(g.dir, "memory.swap.max"), []byte("0"), 0)
		return true
	}
	if os.WriteFile(filepath.Join(g.dir, "memory.limit_in_bytes"), []byte(v), 0) != nil {
		return false
	}
	// Without swap accounting this file is absent; with it, swap must not
	// let a bot exceed the limit.
	os.WriteFile(filepath.Join(g.dir, "memory.memsw.limit_in_bytes"), []byte(v), 0)
	return true
}

// start starts cmd so that the new process is born inside the group's
// cgroup, leaving no instant in which a child it forks could escape. On
// cgroup v2 the kernel does it (CLONE_INTO_CGROUP). On v1 the thread that
// forks joins the cgroup for the instant of the fork and then returns;
// should it fail to return, the thread is thrown away rather than left
// running arena goroutines inside a bot's cgroup.
func (g *Group) start(cmd *exec.Cmd) error {
	if err := g.startInside(cmd); err != nil {
		return err
	}
	g.mu.Lock()
	g.pgids[cmd.Process.Pid] = true
	g.mu.Unlock()
	return nil
}

func (g *Group) startInside(cmd *exec.Cmd) error {
	switch {
	case g.dir == "":
		return cmd.Start()
	case g.v2:
		fd, err := syscall.Open(g.dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return g.startThenMove(cmd)
		}
		defer syscall.Close(fd)
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
		return cmd.Start()
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		tid := []byte(strconv.Itoa(syscall.Gettid()))
		if os.WriteFile(filepath.Join(g.dir, "tasks"), tid, 0) != nil {
			runtime.UnlockOSThread()
			done <- g.startThenMove(cmd)
			return
		}
		err := cmd.Start()
		if os.WriteFile(filepath.Join(g.parent, "tasks"), tid, 0) == nil {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	return <-done
}

// startThenMove is the fallback with a short window: start, then move the
// new process into the cgroup.
func (g *Group) startThenMove(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	os.WriteFile(filepath.Join(g.dir, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0)
	return nil
}

// forget drops a process group whose leader has been reaped and whose
// members were killed.
func (g *Group) forget(pgid int) {
	g.mu.Lock()
	delete(g.pgids, pgid)
	g.mu.Unlock()
}

// signal sends sig to every process group of the group and, with a
// cgroup, to every process in it.
func (g *Group) signal(sig syscall.Signal) {
	g.mu.Lock()
	for pgid := range g.pgids {
		syscall.Kill(-pgid, sig)
	}
	g.mu.Unlock()
	if g.dir != "" {
		for _, pid := range g.cgroupPids() {
			syscall.Kill(pid, sig)
		}
	}
}

// KillAll kills every process of the group and waits (up to 200 ms) until
// the cgroup is empty.
func (g *Group) KillAll() {
	g.signal(syscall.SIGKILL)
	if g.dir == "" {
		return
	}
	for i := 0; i < 1000; i++ {
		pids := g.cgroupPids()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// Close kills what is left and removes the cgroup.
func (g *Group) Close() {
	g.KillAll()
	g.mu.Lock()
	if g.stop != nil && !g.stopped {
		close(g.stop)
		g.stopped = true
	}
	g.mu.Unlock()
	if g.dir != "" {
		for i := 0; i < 100; i++ {
			if err := os.Remove(g.dir); err == nil || os.IsNotExist(err) {
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// MemoryExceeded reports whether a process of the group hit the memory
// limit (the kernel's OOM killer fired in the cgroup, or the sampler saw
// the resident size over the limit).
func (g *Group) MemoryExceeded() bool {
	if g.limit <= 0 {
		return false
	}
	if g.over.Load() {
		return true
	}
	if g.dir == "" {
		return false
	}
	if g.v2 {
		n, _ := readKey(filepath.Join(g.dir, "memory.events"), "oom_kill")
		return n > 0
	}
	if n, ok := readKey(filepath.Join(g.dir, "memory.oom_control"), "oom_kill"); ok {
		return n > 0
	}
	// Older kernels have no oom_kill counter: a failed charge at the
	// limit is the sign.
	return readInt(filepath.Join(g.dir, "memory.failcnt")) > 0
}

// PeakMemory returns the largest memory use seen, in bytes, when the
// cgroup records it (0 otherwise).
func (g *Group) PeakMemory() int64 {
	if g.dir == "" {
		return 0
	}
	if g.v2 {
		return readInt(filepath.Join(g.dir, "memory.peak"))
	}
	return readInt(filepath.Join(g.dir, "memory.max_usage_in_bytes"))
}

// cgroupPids lists the processes in the cgroup, never the arena itself
// (one of its threads is inside for the instant it starts a bot).
func (g *Group) cgroupPids() []int {
	data, err := os.ReadFile(filepath.Join(g.dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		if pid == self {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// sample polls the resident memory of the group's process groups when no
// cgroup enforces the limit.
func (g *Group) sample() {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	page := int64(os.Getpagesize())
	for {
		select {
		case <-g.stop:
			return
		case <-t.C:
		}
		g.mu.Lock()
		pgids := make(map[int]bool, len(g.pgids))
		for p := range g.pgids {
			pgids[p] = true
		}
		g.mu.Unlock()
		if len(pgids) == 0 {
			continue
		}
		if rssOfGroups(pgids, page) > g.limit {
			g.over.Store(true)
			g.signal(syscall.SIGKILL)
		}
	}
}

// rssOfGroups sums the resident set size of every process whose process
// group is in pgids.
func rssOfGroups(pgids map[int]bool, page int64) int64 {
	var total int64
	eachProcess(func(st procStat) {
		if pgids[st.pgrp] {
			total += st.rssPages * page
		}
	})
	return total
}

// makeCgroup creates a cgroup for a seat next to the arena's own one,
// first removing those left behind by arenas that were killed.
func makeCgroup(name string) (dir string, v2 bool, ok bool) {
	if name == "" {
		return "", false, false
	}
	v1, v2path := ownCgroups()
	for _, d := range []string{v1, v2path} {
		if d != "" {
			sweepStale(d)
		}
	}
	if v1 != "" {
		d := filepath.Join(v1, name)
		if os.Mkdir(d, 0o755) == nil {
			return d, false, true
		}
	}
	if v2path != "" {
		d := filepath.Join(v2path, name)
		if os.Mkdir(d, 0o755) == nil {
			if _, err := os.Stat(filepath.Join(d, "memory.max")); err == nil {
				return d, true, true
			}
			os.Remove(d)
		}
	}
	return "", false, false
}

// ownCgroups finds the directories of the arena's memory cgroup (v1) and
// of its unified cgroup (v2). It reads the calling thread's cgroups:
// /proc/self would show the main thread's, which may be inside a bot's
// cgroup for the instant it starts one.
func ownCgroups() (v1, v2 string) {
	mounts := cgroupMounts()
	f, err := os.Open("/proc/thread-self/cgroup")
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			if m, ok := mounts["cgroup2"]; ok {
				v2 = filepath.Join(m, parts[2])
			}
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "memory" {
				if m, ok := mounts["memory"]; ok {
					v1 = filepath.Join(m, parts[2])
				}
			}
		}
	}
	return v1, v2
}

// cgroupMounts maps "memory" to the v1 memory hierarchy's mount point and
// "cgroup2" to the unified hierarchy's.
func cgroupMounts() map[string]string {
	m := map[string]string{}
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(data), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		pf, sf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(sf) < 3 {
			continue
		}
		switch sf[0] {
		case "cgroup2":
			m["cgroup2"] = pf[4]
		case "cgroup":
			for _, o := range strings.Split(sf[2], ",") {
				if o == "memory" {
					m["memory"] = pf[4]
				}
			}
		}
	}
	return m
}

func readInt(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n
}

// readKey reads "key value" from a flat-keyed cgroup file and reports
// whether the key is there.
func readKey(path, key string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, true
		}
	}
	return 0, false
}

// sweepStale removes the empty cgroups named arena-PID-N below dir whose
// arena process PID no longer exists.
func sweepStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		var pid, n int
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "arena-") {
			continue
		}
		if _, err := fmt.Sscanf(e.Name(), "arena-%d-%d", &pid, &n); err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			removeCgroupTree(filepath.Join(dir, e.Name()))
		}
	}
}

// removeCgroupTree removes a cgroup and the cgroups below it; cgroups
// that still hold processes stay.
func removeCgroupTree(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			removeCgroupTree(filepath.Join(dir, e.Name()))
		}
	}
	os.Remove(dir)
}
