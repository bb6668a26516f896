package bot

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"arena/sandbox"

	"golang.org/x/sys/unix"
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
	// extra holds the v1 cgroups of the sandbox's other controllers
	// (pids, cpu, freezer), by controller; on v2 they are all dir.
	extra   map[string]string
	freezer string // the file that freezes the group ("" = pause by signals)
	// freezeFile is freezer kept open: opening a cgroup file costs more
	// than the write that freezes.
	freezeFile *os.File
	hold       string // v1: an empty cgroup kept frozen (see holdFrozen)
	// tasks holds the v1 tasks files a start writes, by cgroup folder
	// (see writeTasks); guarded by mu.
	tasks map[string]*os.File
	// kept holds the cgroup files read after every move (MemoryExceeded,
	// CPUTime), by path (see readKept); closed is set once Close has closed them. Both
	// are guarded by mu.
	kept   map[string]*os.File
	closed bool

	mu      sync.Mutex
	pgids   map[int]bool
	stop    chan struct{}
	stopped bool
	over    atomic.Bool // the sampler saw the limit exceeded, or the OOM eventfd was signalled
	// oomEvent is the eventfd a v1 memory cgroup signals when the group
	// hits its limit (see watchOOM) when oomControl, the
	// memory.oom_control file it was registered with, is not nil; both
	// guarded by mu.
	oomEvent   int
	oomControl *os.File
	spare      spareSlot // an init prestarted for the group's next bot (spare_linux.go)
	// resident starts the group's bots, when it has one
	// (resident_linux.go).
	resident residentSlot
	// releaseCore gives back the core the group is pinned to (nil: none).
	releaseCore func()
	// launched, when set, is called once, after the group's first bot is
	// started: a group taken from a Pool has its replacement made then.
	launched   func()
	accounting bool // the sandbox asks for the cgroup's CPU time (see CPUTime)
	// everFrozen: the group was frozen once (KillAll need not thaw a
	// group that never was: on v1 the write costs microseconds a move).
	everFrozen atomic.Bool
}

var groupSeq atomic.Int64

// NewGroup prepares a group with the given memory limit in bytes (0: no
// limit). It never fails: when cgroups are unavailable it degrades to
// process groups, which Enforcement reports.
func NewGroup(limit int64) *Group { return NewSandboxGroup(limit, nil) }

// NewSandboxGroup is NewGroup with the cgroup layers of sb on as well
// (pids.max, a CPU quota, the freezer); a nil sb is NewGroup.
func NewSandboxGroup(limit int64, sb *sandbox.Sandbox) *Group {
	lim := sb.Cgroup()
	core, release := sb.Core()
	lim.Pin, lim.Core = core >= 0, core
	g := newGroup(limit, true, lim)
	g.releaseCore = release
	return g
}

// newGroup makes a group; without useCgroup it takes the fallback that
// machines without cgroups get.
func newGroup(limit int64, useCgroup bool, lim sandbox.Cgroup) *Group {
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
	if name != "" {
		g.limitMore(name, lim)
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
	g.watchOOM()
	return true
}

// watchOOM asks a v1 memory cgroup to signal an eventfd when the group
// hits its limit (cgroup.event_control with memory.oom_control): the
// seats ask after every move whether it did, and a read of the eventfd
// costs a fraction of a read of memory.oom_control. Where it cannot, the
// question reads memory.oom_control.
func (g *Group) watchOOM() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.oomControl != nil || g.closed {
		return
	}
	efd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return
	}
	control, err := os.Open(filepath.Join(g.dir, "memory.oom_control"))
	if err != nil {
		unix.Close(efd)
		return
	}
	line := []byte(strconv.Itoa(efd) + " " + strconv.Itoa(int(control.Fd())))
	if os.WriteFile(filepath.Join(g.dir, "cgroup.event_control"), line, 0) != nil {
		control.Close()
		unix.Close(efd)
		return
	}
	g.oomEvent, g.oomControl = efd, control
}

// oomSignalled reads the OOM eventfd (see watchOOM): whether it was
// signalled, and whether there is one to read.
func (g *Group) oomSignalled() (hit, watched bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.oomControl == nil || g.closed {
		return false, false
	}
	var buf [8]byte
	n, err := unix.Read(g.oomEvent, buf[:])
	return err == nil && n == 8, true
}

// limitMore adds the sandbox's cgroup limits: on v1 a cgroup of the same
// name in each controller's hierarchy, on v2 the same cgroup.
func (g *Group) limitMore(name string, lim sandbox.Cgroup) {
	type setting struct{ v1, v2, value string }
	want := map[string][]setting{}
	if lim.Pids > 0 {
		n := strconv.Itoa(lim.Pids)
		want["pids"] = []setting{{"pids.max", "pids.max", n}}
	}
	if lim.CPUQuota > 0 {
		q, per := strconv.FormatInt(lim.CPUQuota.Microseconds(), 10), strconv.FormatInt(lim.Period.Microseconds(), 10)
		want["cpu"] = []setting{{"cpu.cfs_period_us", "", per}, {"cpu.cfs_quota_us", "cpu.max", q + " " + per}}
	}
	if lim.Freezer {
		want["freezer"] = nil
	}
	if lim.Accounting {
		g.accounting = true
		want["cpuacct"] = nil // v2: cpu.stat is in every cgroup
	}
	if lim.Pin {
		// v1 takes no process before both are set; on v2 the memory
		// nodes are the parent's.
		cpus := strconv.Itoa(lim.Core)
		if lim.Core < 0 {
			cpus = lim.Cpus // a pooled group, pinned when taken (see settle)
		}
		want["cpuset"] = []setting{{"cpuset.mems", "", parentMems()}, {"cpuset.cpus", "cpuset.cpus", cpus}}
	}
	if len(want) == 0 {
		return
	}
	// A group pinned to one core cannot use more than that core, so a
	// quota of a core or more adds nothing to the pin but its cost: on
	// v1 a cpu cgroup of its own, whose task group makes every wake-up of
	// the bot dearer (a pipe round trip 2 to 4 µs). The quota is set only
	// where the pin could not be.
	pinBounds := lim.Pin && lim.CPUQuota >= lim.Period
	if g.v2 {
		pinned := false
		for _, ctrl := range []string{"pids", "cpuset", "cpu", "freezer", "cpuacct"} {
			if ctrl == "cpu" && pinBounds && pinned {
				continue
			}
			ok := true
			for _, st := range want[ctrl] {
				if st.v2 != "" && os.WriteFile(filepath.Join(g.dir, st.v2), []byte(st.value), 0) != nil {
					ok = false
				}
			}
			switch _, wanted := want[ctrl]; {
			case ctrl == "cpuset":
				pinned = wanted && ok
			case ctrl == "freezer" && wanted:
				g.freezer = filepath.Join(g.dir, "cgroup.freeze")
			}
		}
		return
	}
	own, _ := sandbox.CgroupDirs()
	g.extra = map[string]string{}
	made := map[string]bool{} // cgroups made here: co-mounted controllers (cpu,cpuacct) share one
	for _, ctrl := range []string{"pids", "cpuset", "cpu", "freezer", "cpuacct"} {
		sets, wanted := want[ctrl]
		parent, ok := own[ctrl]
		if !wanted || !ok || ctrl == "cpu" && pinBounds && g.extra["cpuset"] != "" {
			continue
		}
		d := filepath.Join(parent, name)
		if !made[d] {
			sweepStale(parent)
			if os.Mkdir(d, 0o755) != nil {
				continue
			}
			made[d] = true
		}
		ok = true
		for _, st := range sets {
			v, _, _ := strings.Cut(st.value, " ") // v1 takes the quota alone
			if os.WriteFile(filepath.Join(d, st.v1), []byte(v), 0) != nil {
				ok = false
			}
		}
		if !ok {
			if !slices.Contains(slices.Collect(maps.Values(g.extra)), d) {
				os.Remove(d)
				delete(made, d)
			}
			continue
		}
		g.extra[ctrl] = d
		if ctrl == "freezer" {
			g.freezer = filepath.Join(d, "freezer.state")
			g.hold = holdFrozen(d)
		}
	}
	if g.freezer != "" {
		g.freezeFile, _ = os.OpenFile(g.freezer, os.O_WRONLY, 0)
	}
}

// holdFrozen makes an empty cgroup below the v1 freezer cgroup dir and
// freezes it for the life of the group; it returns its folder ("" if it
// could not). Linux turns a kernel static key on when a v1 cgroup starts
// to freeze and off when the last frozen one thaws, and each turn patches
// the kernel's code on every CPU, which made a pause and its continue
// cost hundreds of microseconds. While the empty cgroup stays frozen the
// key stays on, and freezing or thawing the group costs about what a
// signal does.
func holdFrozen(dir string) string {
	hold := filepath.Join(dir, "hold")
	if os.Mkdir(hold, 0o755) != nil {
		return ""
	}
	if os.WriteFile(filepath.Join(hold, "freezer.state"), []byte("FROZEN"), 0) != nil {
		os.Remove(hold)
		return ""
	}
	return hold
}

// Freeze stops every process of the group through the freezer and
// reports whether the group has one.
func (g *Group) Freeze() bool { return g.setFrozen(true) }

// Thaw continues a frozen group and reports whether it has a freezer.
func (g *Group) Thaw() bool { return g.setFrozen(false) }

func (g *Group) setFrozen(frozen bool) bool {
	if g.freezer == "" {
		return false
	}
	if frozen {
		g.everFrozen.Store(true)
	}
	v := "THAWED"
	switch {
	case g.v2 && frozen:
		v = "1"
	case g.v2:
		v = "0"
	case frozen:
		v = "FROZEN"
	}
	if g.freezeFile != nil {
		if _, err := g.freezeFile.WriteAt([]byte(v), 0); err == nil {
			return true
		}
	}
	return os.WriteFile(g.freezer, []byte(v), 0) == nil
}

// Frozen reports whether the freezer has stopped every process of the
// group (false without a freezer).
func (g *Group) Frozen() bool {
	if g.freezer == "" {
		return false
	}
	if g.v2 {
		n, _ := readKey(filepath.Join(g.dir, "cgroup.events"), "frozen")
		return n == 1
	}
	data, err := os.ReadFile(g.freezer)
	return err == nil && strings.TrimSpace(string(data)) == "FROZEN"
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
	case g.dir == "" && len(g.extra) == 0:
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
	dirs := g.v1Dirs()
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		tid := []byte(strconv.Itoa(syscall.Gettid()))
		joined := 0
		for _, d := range dirs {
			if g.writeTasks(d, tid) != nil {
				break
			}
			joined++
		}
		back := func() bool {
			ok := true
			for _, d := range dirs[:joined] {
				if g.writeTasks(filepath.Dir(d), tid) != nil {
					ok = false
				}
			}
			return ok
		}
		if joined < len(dirs) {
			if back() {
				runtime.UnlockOSThread()
			}
			done <- g.startThenMove(cmd)
			return
		}
		err := cmd.Start()
		if back() {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	return <-done
}

// writeTasks moves the thread tid into the v1 cgroup dir. The tasks
// files stay open for the group's life: the file protocol starts a brain
// every move, and opening a cgroup file costs more than the write.
func (g *Group) writeTasks(dir string, tid []byte) error {
	g.mu.Lock()
	f := g.tasks[dir]
	if f == nil && g.closed {
		g.mu.Unlock()
		return os.ErrClosed
	}
	if f == nil {
		var err error
		if f, err = os.OpenFile(filepath.Join(dir, "tasks"), os.O_WRONLY, 0); err != nil {
			g.mu.Unlock()
			return err
		}
		if g.tasks == nil {
			g.tasks = map[string]*os.File{}
		}
		g.tasks[dir] = f
	}
	g.mu.Unlock()
	_, err := f.WriteAt(tid, 0)
	return err
}

// v1Dirs lists the group's v1 cgroups, memory first, each once.
func (g *Group) v1Dirs() []string {
	var dirs []string
	if g.dir != "" && !g.v2 {
		dirs = append(dirs, g.dir)
	}
	for _, c := range []string{"pids", "cpu", "freezer", "cpuacct", "cpuset"} {
		if d, ok := g.extra[c]; ok && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// startThenMove is the fallback with a short window: start, then move the
// new process into the cgroup.
func (g *Group) startThenMove(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := []byte(strconv.Itoa(cmd.Process.Pid))
	if g.v2 {
		os.WriteFile(filepath.Join(g.dir, "cgroup.procs"), pid, 0)
		return nil
	}
	for _, d := range g.v1Dirs() {
		os.WriteFile(filepath.Join(d, "cgroup.procs"), pid, 0)
	}
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
// cgroup, to every process in it; it returns how many processes the
// cgroup listed.
func (g *Group) signal(sig syscall.Signal) int {
	g.mu.Lock()
	for pgid := range g.pgids {
		syscall.Kill(-pgid, sig)
	}
	g.mu.Unlock()
	if g.procsDir() == "" || g.residentAlone() {
		return 0
	}
	pids := g.cgroupPids()
	for _, pid := range pids {
		syscall.Kill(pid, sig)
	}
	return len(pids)
}

// KillAll kills every process of the group and waits (up to 200 ms) until
// the cgroup is empty.
func (g *Group) KillAll() {
	defer g.startWanted() // the next spare init, once nothing is left to kill
	listed := g.signal(syscall.SIGKILL)
	if g.everFrozen.Load() {
		g.Thaw() // a frozen process dies only once thawed
	}
	if listed == 0 {
		// Nothing was left: the file protocol's brain, reaped before
		// each KillAll, usually leaves nothing, and the list costs a
		// read of the cgroup (tens of microseconds on v1).
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
	if f := g.launched; f != nil {
		g.launched = nil // its bot never started: the pool makes another all the same
		defer f()
	}
	g.closeSpare()
	g.closeResident()
	g.KillAll()
	if g.releaseCore != nil {
		defer g.releaseCore()
	}
	g.mu.Lock()
	if g.stop != nil && !g.stopped {
		close(g.stop)
		g.stopped = true
	}
	for _, f := range g.tasks {
		f.Close()
	}
	for _, f := range g.kept {
		f.Close()
	}
	if g.oomControl != nil {
		unix.Close(g.oomEvent)
		g.oomControl.Close()
		g.oomControl = nil
	}
	g.tasks, g.kept, g.closed = nil, nil, true
	g.mu.Unlock()
	if g.freezeFile != nil {
		g.freezeFile.Close()
	}
	if g.hold != "" {
		os.WriteFile(filepath.Join(g.hold, "freezer.state"), []byte("THAWED"), 0)
	}
	for _, d := range append([]string{g.hold}, append(g.v1Dirs(), g.dir)...) {
		if d == "" {
			continue
		}
		for i := 0; i < 100; i++ {
			if err := os.Remove(d); err == nil || os.IsNotExist(err) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// procsDir is the cgroup whose cgroup.procs lists the group's processes
// ("" when the group has no cgroup).
func (g *Group) procsDir() string {
	if g.dir != "" {
		return g.dir
	}
	for _, c := range []string{"pids", "freezer", "cpu"} {
		if d, ok := g.extra[c]; ok {
			return d
		}
	}
	return ""
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
		n, _ := g.readKeyKept(g.dir, "memory.events", "oom_kill")
		return n > 0
	}
	if hit, watched := g.oomSignalled(); watched {
		if hit {
			g.over.Store(true) // the eventfd is read once
		}
		return hit
	}
	if n, ok := g.readKeyKept(g.dir, "memory.oom_control", "oom_kill"); ok {
		return n > 0
	}
	// Older kernels have no oom_kill counter: a failed charge at the
	// limit is the sign.
	return readInt(filepath.Join(g.dir, "memory.failcnt")) > 0
}

// readKeyKept is readKey of the file name of the group's cgroup dir,
// kept open for the group's life: the seats ask after every move.
func (g *Group) readKeyKept(dir, name, key string) (int64, bool) {
	var buf [1024]byte
	data, ok := g.readKept(dir, name, buf[:])
	if !ok {
		return 0, false
	}
	return parseKey(data, key)
}

// readNumberKept is readNumber of the file name of the group's cgroup
// dir, kept open (see readKeyKept).
func (g *Group) readNumberKept(dir, name string) (int64, bool) {
	var buf [64]byte
	data, ok := g.readKept(dir, name, buf[:])
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}

// readKept reads the start of the file name of the cgroup dir into buf,
// with one system call on a file kept open (see readKeyKept).
func (g *Group) readKept(dir, name string, buf []byte) ([]byte, bool) {
	path := filepath.Join(dir, name)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, false
	}
	f := g.kept[path]
	if f == nil {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, false
		}
		if g.kept == nil {
			g.kept = map[string]*os.File{}
		}
		g.kept[path] = f
	}
	n, err := pread(f, buf)
	if err != nil {
		return nil, false
	}
	return buf[:n], true
}

// pread reads the start of f with one system call (os.File.ReadAt reads
// again to see the end, which makes a cgroup file format its text twice).
func pread(f *os.File, buf []byte) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	if err := rc.Read(func(fd uintptr) bool {
		n, rerr = syscall.Pread(int(fd), buf, 0)
		return true
	}); err != nil {
		return 0, err
	}
	return max(n, 0), rerr
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
// (one of its threads is inside for the instant it starts a bot), nor
// the spare init waiting for the group's next bot, nor its resident init.
func (g *Group) cgroupPids() []int {
	// Read anew each time: a v1 cgroup.procs kept open answers from the
	// list it made for the last read, for up to a second.
	data, err := os.ReadFile(filepath.Join(g.procsDir(), "cgroup.procs"))
	if err != nil {
		return nil
	}
	self, spare, resident := os.Getpid(), g.spare.settledPid(), g.resident.pid()
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		if pid == self || pid == spare || pid == resident {
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
// of its unified cgroup (v2), seen from the calling thread.
func ownCgroups() (v1, v2 string) {
	dirs, v2 := sandbox.CgroupDirs()
	return dirs["memory"], v2
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
	return parseKey(data, key)
}

// parseKey finds "key value" in the text of a flat-keyed cgroup file.
func parseKey(data []byte, key string) (int64, bool) {
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte{'\n'})
		k, v, ok := bytes.Cut(line, []byte{' '})
		if ok && string(k) == key {
			n, _ := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
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
