package bot

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"arena/sandbox"
)

// DefaultPauseGrace is the longest Pause waits for a bot to block before
// it stops the bot anyway (see Config.PauseGrace).
const DefaultPauseGrace = 5 * time.Millisecond

// spinChecks is how many times waitBlocked looks again right after
// yielding the CPU, before it naps between looks: a brain that has just
// printed its move needs only microseconds to get back to reading.
const spinChecks = 16

// waitBlocked waits until no thread of the bot's processes is running
// (state R), or until grace has passed, and reports whether the bot is
// then idle: blocked where only the arena can wake it (see blocked). A
// brain that has just printed its move still has a few instructions to
// run (clearing its "thinking" flag, going back to read): stopped in
// between, it may take the next command for one that came while it
// thought and refuse it. The wait is charged to nobody: the clock
// stopped when the move arrived.
//
// Most brains are back to reading by the time the arena has read their
// move, so the first look usually ends the wait, and costs a few reads
// of files kept open (see watch).
func (p *Process) waitBlocked(grace time.Duration) (idle bool) {
	if grace <= 0 {
		return false
	}
	if blocked, idle := p.blocked(); blocked {
		return idle
	}
	end := time.Now().Add(grace)
	wait := 20 * time.Microsecond
	for i := 0; ; i++ {
		if i < spinChecks {
			yield()
		} else {
			left := time.Until(end)
			if left <= 0 {
				return false
			}
			nap(min(wait, left))
			wait = min(2*wait, 500*time.Microsecond)
		}
		if blocked, idle := p.blocked(); blocked {
			return idle
		}
		if i < spinChecks && !time.Now().Before(end) {
			return false
		}
	}
}

// yield lets another thread have the CPU, if one is waiting for it (the
// bot, when it shares the arena's core).
func yield() { syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

// nap sleeps for d on the calling thread. A Go timer's slack can turn a
// sleep of microseconds into a millisecond, while a bot needs only
// microseconds to get back to reading; looking again without a pause
// would take the CPU the bot needs for it.
func nap(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}

// blocked reports whether every thread of the bot and of its descendants
// is blocked: sleeping, waiting on a disk, stopped or gone. It must be
// called with pauseMu held.
//
// idle reports, besides, that nothing but the arena can wake the bot
// before its next command: the bot is one process of one thread, which
// sleeps reading a pipe (see idleWait), catches
// no signal (a timer's signal would run its handler), and has no process
// outside the tree looked at (see treeTrust). Such a bot cannot think
// until the arena writes to it, so Pause need not stop it.
//
// A sandboxed bot found idle is then followed by the kernel (see
// sandbox.PipeSleep): while it starts nothing and installs no handler,
// the next looks only ask whether its thread sleeps in a pipe read, a
// read of memory instead of the files below.
//
// A process that left the process tree (a double-forked daemon) is not
// looked at: it is not what answers the arena, and whether it is stopped
// does not depend on the look (the freezer, or the signals to the
// sandboxed bot's cgroup, reach it). The list of a cgroup v1 is not cheap
// to read again either: the kernel keeps it for an open file until it
// has gone unread for a second, so each look would open the file anew.
// Where such a process may exist, though, the bot is never idle.
func (p *Process) blocked() (blocked, idle bool) {
	select {
	case <-p.done:
		p.watch.close()
		return true, false
	default:
	}
	w := &p.watch
	w.init()
	if w.trust == treeUnknown {
		w.trust = trustTree(p.Pid(), p.sandboxed)
	}
	idle = w.trust != treeOpen
	var gen uint64
	gen, w.served = p.notify.Snapshot()
	w.gen = gen + 1
	var starts uint32
	if w.pipe != nil {
		var asleep bool
		asleep, starts = w.pipe.State()
		if asleep && w.served && w.loneAt == w.gen && starts == w.loneStarts {
			// The bot was found one quiet thread without children, and
			// since then it has started nothing, installed no handler
			// (asked again: it may have done so just before it fell
			// asleep), and gone to sleep reading a pipe: idle, as a
			// full look would find it.
			if now, _ := p.notify.Snapshot(); now == gen {
				w.pipeLooks++
				return true, true
			}
		}
	}
	watched := w.pipe != nil
	queue := append(w.queue[:0], p.Pid())
	defer func() { w.queue = queue[:0] }()
	for i := 0; i < len(queue); i++ {
		pid := queue[i]
		if slices.Contains(queue[:i], pid) {
			continue
		}
		var running, procIdle bool
		if queue, running, procIdle = w.look(pid, queue, idle); running {
			return false, false
		}
		idle = idle && procIdle
	}
	w.forget(queue)
	if now, _ := p.notify.Snapshot(); now != gen {
		idle = false // a handler may have come while the bot was looked at
	}
	w.loneAt = 0
	if idle && w.served && len(queue) == 1 {
		// The next looks may ask the kernel's record of its sleeps
		// instead (see sandbox.PipeSleep), once it was watched from
		// before a look: starts counted from then on.
		if w.pipe == nil {
			w.pipe = p.sb.PipeSleep(p.Pid())
		}
		if watched {
			w.loneAt, w.loneStarts = w.gen, starts
		}
	}
	return true, idle
}

// treeTrust says whether every process of a bot is below it in the
// process tree, where blocked looks.
type treeTrust uint8

const (
	treeUnknown treeTrust = iota
	// treeWhole: the bot is the init of its own pid namespace (the
	// sandbox's): every process it starts stays below it, a double-forked
	// daemon too.
	treeWhole
	// treeReaped: no sandbox. A process leaves the tree only when its
	// parent ends and is reaped, which adds to the reaper's count of its
	// children's page faults: a tree in which no process has such a count
	// (and none lets the kernel reap for it) has lost nobody. A daemon
	// that left with setsid was never stopped without the sandbox either.
	treeReaped
	// treeOpen: sandboxed without a pid namespace; a process may have
	// left the tree unseen, so the bot is never idle.
	treeOpen
)

// trustTree finds how far the process tree of the bot pid can be
// trusted (see treeTrust).
func trustTree(pid int, sandboxed bool) treeTrust {
	if !sandboxed {
		return treeReaped
	}
	if nsInit(pid) {
		return treeWhole
	}
	return treeOpen
}

// nsInit reports whether pid is the init (pid 1) of a pid namespace of
// its own, from the NSpid line of its status file.
func nsInit(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for line := range bytes.Lines(data) {
		if rest, ok := bytes.CutPrefix(line, []byte("NSpid:")); ok {
			ids := bytes.Fields(rest)
			return len(ids) >= 2 && string(ids[len(ids)-1]) == "1"
		}
	}
	return false
}

// idleWait reports whether a wait channel (the kernel function a thread
// sleeps in) is one only a pipe's writer can end: reading an empty pipe.
// (Waiting for a child is not: an idle bot has no child.)
func idleWait(wchan []byte) bool {
	switch string(bytes.TrimSpace(wchan)) {
	case "anon_pipe_read", "pipe_read":
		return true
	}
	return false
}

// look reports whether a thread of process pid is running and appends
// the processes its threads started to queue. When one of the threads it
// knew is gone, it lists them afresh and looks again, once. When wantIdle
// is set, it also reports whether the process is idle (see blocked).
func (w *watch) look(pid int, queue []int, wantIdle bool) (_ []int, running, idle bool) {
	for try := 0; try < 2; try++ {
		wp := w.process(pid)
		if wp == nil {
			return queue, false, true // gone
		}
		n, gone := len(queue), false
		// Threads are looked at one after another: two that wake each
		// other (through a pipe, say) could each be caught asleep at its
		// own moment while one of them always runs, and a look cannot
		// tell. Only a lone thread of a process without children, asleep
		// in an idle wait, has nobody but the arena to wake it; a bot of
		// more threads or processes is stopped (the freezer costs a few
		// microseconds), and its stat file need not be read.
		idle = wantIdle && len(wp.threads) == 1
		for j := range wp.threads {
			th := &wp.threads[j]
			state, thIdle := w.state(th)
			switch state {
			case 0:
				gone = true
			case 'R':
				return queue, true, false
			}
			idle = idle && thIdle
			queue = w.children(th, queue)
		}
		idle = idle && len(queue) == n // no children
		if !gone {
			switch {
			case wp.noisy > 0:
				wp.noisy--
				idle = false
			case idle && len(wp.threads) > 0 && w.served && wp.quietAt == w.gen:
				// Found quiet, and no handler installed since.
			case idle && len(wp.threads) > 0:
				var noisy bool
				if idle, noisy = w.quiet(&wp.threads[0]); noisy {
					wp.noisy = noisyLooks
				}
				if idle && w.served {
					wp.quietAt = w.gen
				}
			}
			break
		}
		wp.nlink = 0 // list the threads afresh
		queue = queue[:n]
	}
	return queue, false, idle
}

// quiet reports, from the stat file of one of a process's threads, that
// the process catches no signal and, where the tree is trusted only as
// treeReaped, that it has never reaped a child nor lets the kernel reap
// its children. noisy reports that the file said otherwise (not that it
// could not be read: the thread may have just ended).
func (w *watch) quiet(th *watchedThread) (quiet, noisy bool) {
	w.statReads++
	n, ok := w.read(&th.stat, th.dir+"stat", w.buf[:512])
	if !ok || n <= 0 {
		return false, false
	}
	f := statFields(w.buf[:n])
	if f == (statQuiet{}) {
		return false, false
	}
	quiet = f.sigcatch == "0"
	if quiet && w.trust == treeReaped {
		ignored, err := strconv.ParseUint(f.sigignore, 10, 64)
		quiet = err == nil && f.cminflt == "0" && ignored&(1<<(syscall.SIGCHLD-1)) == 0
	}
	return quiet, !quiet
}

// statQuiet holds the fields of a stat file that quiet reads, as text.
type statQuiet struct{ cminflt, sigignore, sigcatch string }

// statFields picks the fields quiet reads from the text of a stat file
// (all empty when it is cut short). The fields after the command name,
// which may hold spaces and parentheses, are counted from the last ')':
// the state is the first, cminflt (field 11 of proc_pid_stat(5)) the
// ninth, sigignore (33) the 31st and sigcatch (34) the 32nd.
func statFields(data []byte) statQuiet {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return statQuiet{}
	}
	var f statQuiet
	k := 0
	for field := range bytes.FieldsSeq(data[i+1:]) {
		switch k {
		case 8:
			f.cminflt = string(field)
		case 30:
			f.sigignore = string(field)
		case 31:
			f.sigcatch = string(field)
			return f
		}
		k++
	}
	return statQuiet{}
}

// watch keeps open, between one pause and the next, the files blocked
// reads: for each process of the bot its task folder and the wchan, stat,
// children, schedstat and stack files of each of its threads. A process's threads are
// listed afresh only when their number changes (the link count of the
// task folder) or one of them is gone, so a look at a bot is a few reads
// and no opening of files. It keeps at most maxWatchFiles files open; a
// bot with more threads or processes has the rest opened at each look. Its methods
// are called with pauseMu held.
type watch struct {
	ready bool
	trust treeTrust // how far the bot's process tree is trusted
	procs map[int]*watchedProc
	open  int // files kept open
	queue []int
	buf   []byte
	// gen is 1 + the bot's count of seccomp notifications at the start
	// of the look, and served says that the count is kept (see
	// notifier): a process whose quietAt is gen was found quiet and has
	// installed no signal handler since.
	gen    uint64
	served bool
	// statReads counts the stat files quiet has read (what the
	// notifications save, which the tests check).
	statReads int
	// noStack: the arena may not read kernel stacks (only root may; see
	// state).
	noStack bool
	// pipe follows, in the kernel, the pipe reads of a sandboxed bot
	// found idle (nil: not yet, or the kernel cannot). loneAt is the gen
	// of the last look that found the bot idle while pipe watched it,
	// and loneStarts the count of starts pipe gave before it.
	pipe       *sandbox.PipeSleep
	loneAt     uint64
	loneStarts uint32
	// pipeLooks counts the looks pipe answered (for the tests).
	pipeLooks int
}

// noisyLooks is how many looks a process that catches signals (most
// interpreters and runtimes do) is taken to go on doing so without its
// stat file being read again: it is then stopped at each pause anyway,
// and the read would double the cost of the look. It does not stay so
// for good, since a process that executes a program (a shell script
// ending in exec) loses its handlers.
const noisyLooks = 63

// maxWatchFiles bounds the files a watch keeps open.
const maxWatchFiles = 96

// watchedProc is one process of a bot, as watch keeps it.
type watchedProc struct {
	taskFD int    // /proc/PID/task, -1 when not kept open
	nlink  uint64 // its link count when threads was listed (2 + threads); 0 = list again
	// noisy counts down the looks for which the process is taken as not
	// idle without reading its stat file, after quiet found it catching
	// a signal or having reaped a child (see noisyLooks).
	noisy int
	// quietAt is the watch's gen when quiet last found the process
	// quiet while notifications were served (0: never).
	quietAt uint64
	threads []watchedThread
}

// watchedThread holds the open files of one thread (-1 when not open).
type watchedThread struct {
	dir       string // /proc/PID/task/TID/
	wchan     int
	stat      int
	children  int
	schedstat int
	stack     int
}

func (w *watch) init() {
	if w.ready {
		return
	}
	w.ready = true
	w.noStack = os.Geteuid() != 0
	w.procs = map[int]*watchedProc{}
	w.buf = make([]byte, 4096)
}

// state returns the state letter of a thread (R running, S sleeping, T
// stopped, ...), 0 when it cannot be read: the thread is gone, and
// whether the thread is idle: asleep in an idleWait, or a zombie. A
// thread that waits has a wait channel, the name of the kernel function
// where it sleeps, which its wchan file gives at a third of the cost of
// stat; a running thread's is "0", as is that of one the arena may not
// inspect, so for those stat decides.
//
// The kernel also gives "0" for a thread that sleeps but is still on its
// core's run queue: EEVDF defers the removal (delayed dequeue) until the
// core next picks a task, and a brain that has just printed its move,
// on the core the arena's reading thread shares with it, often is such
// a thread. Stat says it sleeps, not where, and the bot would be
// stopped for nothing; forcing the thread off the queue (reading its
// syscall file does, and so may a yield) makes its next wake-up dearer,
// which measured worse than stopping it. So where arena may read kernel
// stacks (root), the thread's stack tells where it sleeps, read between
// two readings of its run count (schedstat) that show it did not run
// meanwhile: it slept there throughout.
func (w *watch) state(th *watchedThread) (byte, bool) {
	n, ok := w.read(&th.wchan, th.dir+"wchan", w.buf[:64])
	if ok && n > 0 && (n > 1 || w.buf[0] != '0') {
		return 'S', idleWait(w.buf[:n])
	}
	runs, counted := w.runs(th)
	n, ok = w.read(&th.stat, th.dir+"stat", w.buf[:512])
	if !ok || n <= 0 {
		return 0, false
	}
	st := statState(w.buf[:n])
	if st == 'S' && counted && !w.noStack {
		if where, ok := w.sleepsIn(th); ok {
			idle := idleWait(where) // before runs reuses the buffer
			if again, ok := w.runs(th); ok && again == runs {
				return 'S', idle
			}
		}
	}
	return st, st == 'Z' || st == 'X'
}

// runs reads how many times a thread has been given a core (the third
// field of its schedstat file).
func (w *watch) runs(th *watchedThread) (string, bool) {
	n, ok := w.read(&th.schedstat, th.dir+"schedstat", w.buf[:128])
	if !ok || n <= 0 {
		return "", false
	}
	f := bytes.Fields(w.buf[:n])
	if len(f) < 3 {
		return "", false
	}
	return string(f[2]), true
}

// sleepsIn returns the function a thread that is not running sleeps in,
// the top of its kernel stack (stack shows no scheduler frames), or
// false when its stack cannot be read.
func (w *watch) sleepsIn(th *watchedThread) ([]byte, bool) {
	n, ok := w.read(&th.stack, th.dir+"stack", w.buf[:256])
	if !ok || n <= 0 {
		return nil, false
	}
	line, _, _ := bytes.Cut(w.buf[:n], []byte{'\n'})
	_, fn, ok := bytes.Cut(line, []byte("] "))
	if !ok {
		return nil, false
	}
	fn, _, _ = bytes.Cut(fn, []byte{'+'})
	return fn, len(fn) > 0
}

// read reads the start of a thread's file into buf, through *fd, which
// it opens and keeps open while the watch may hold more files.
func (w *watch) read(fd *int, path string, buf []byte) (int, bool) {
	if *fd < 0 {
		if w.open >= maxWatchFiles {
			return readSmall(path, buf)
		}
		f, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return 0, false
		}
		*fd = f
		w.open++
	}
	n, err := syscall.Pread(*fd, buf, 0)
	return n, err == nil
}

// children appends the pids in a thread's children file (the processes
// it started that still run) to pids.
func (w *watch) children(th *watchedThread, pids []int) []int {
	data, ok := w.read(&th.children, th.dir+"children", w.buf[:cap(w.buf)])
	if !ok {
		return pids
	}
	if data == cap(w.buf) { // many children: read them all
		var all []byte
		var err error
		if all, err = os.ReadFile(th.dir + "children"); err != nil {
			return pids
		}
		return appendPids(pids, all)
	}
	return appendPids(pids, w.buf[:data])
}

// appendPids appends the pids of a space-separated list.
func appendPids(pids []int, list []byte) []int {
	for _, f := range bytes.Fields(list) {
		if c, ok := atoi(f); ok {
			pids = append(pids, c)
		}
	}
	return pids
}

// process returns the watched process pid with its threads up to date,
// nil when it is gone.
func (w *watch) process(pid int) *watchedProc {
	taskDir := "/proc/" + strconv.Itoa(pid) + "/task"
	wp := w.procs[pid]
	if wp == nil {
		fd := -1
		if w.open < maxWatchFiles {
			var err error
			if fd, err = syscall.Open(taskDir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0); err != nil {
				return nil
			}
			w.open++
		}
		wp = &watchedProc{taskFD: fd}
		w.procs[pid] = wp
	}
	var st syscall.Stat_t
	var err error
	if wp.taskFD >= 0 {
		err = syscall.Fstat(wp.taskFD, &st)
	} else {
		err = syscall.Stat(taskDir, &st)
	}
	if err != nil {
		w.drop(pid)
		return nil
	}
	if st.Nlink == wp.nlink {
		return wp
	}
	if wp.nlink == 0 && len(wp.threads) > 0 && st.Nlink == 2 {
		// Threads were seen gone and none is left: the process is gone,
		// or its pid now names another process, whose folder is another.
		w.drop(pid)
		return w.process(pid)
	}
	tids, err := taskIDs(pid)
	if err != nil {
		w.drop(pid)
		return nil
	}
	// Keep the files of threads still listed, unless a thread was seen
	// gone (its tid may be another's now).
	base := "/proc/" + strconv.Itoa(pid) + "/task/"
	kept := wp.threads[:0]
	for _, th := range wp.threads {
		if wp.nlink != 0 && slices.Contains(tids, th.dir[len(base):len(th.dir)-1]) {
			kept = append(kept, th)
		} else {
			w.closeThread(&th)
		}
	}
	wp.threads = kept
	for _, t := range tids {
		dir := base + t + "/"
		if !slices.ContainsFunc(wp.threads, func(th watchedThread) bool { return th.dir == dir }) {
			wp.threads = append(wp.threads, watchedThread{dir: dir, wchan: -1, stat: -1, children: -1, schedstat: -1, stack: -1})
		}
	}
	wp.nlink = st.Nlink
	return wp
}

// forget closes the files of the processes not in pids.
func (w *watch) forget(pids []int) {
	for pid := range w.procs {
		if !slices.Contains(pids, pid) {
			w.drop(pid)
		}
	}
}

// drop closes the files of one process.
func (w *watch) drop(pid int) {
	wp := w.procs[pid]
	if wp == nil {
		return
	}
	for i := range wp.threads {
		w.closeThread(&wp.threads[i])
	}
	if wp.taskFD >= 0 {
		w.open--
	}
	closeFD(&wp.taskFD)
	delete(w.procs, pid)
}

// closeThread closes the files of one thread.
func (w *watch) closeThread(th *watchedThread) {
	for _, fd := range []*int{&th.wchan, &th.stat, &th.children, &th.schedstat, &th.stack} {
		if *fd >= 0 {
			w.open--
		}
		closeFD(fd)
	}
}

// close closes every file the watch holds.
func (w *watch) close() {
	if !w.ready {
		return
	}
	for pid := range w.procs {
		w.drop(pid)
	}
	w.pipe.Close()
	w.pipe, w.loneAt = nil, 0
}

func closeFD(fd *int) {
	if *fd >= 0 {
		syscall.Close(*fd)
		*fd = -1
	}
}

// atoi reads a decimal pid.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	return n, true
}

// descendants lists the live processes below the bot in the process
// tree (not the bot itself).
func (p *Process) descendants() []int {
	var out []int
	seen := map[int]bool{}
	queue := []int{p.Pid()}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if pid != p.Pid() {
			out = append(out, pid)
		}
		tasks, err := taskIDs(pid)
		if err != nil {
			continue
		}
		for _, task := range tasks {
			queue = append(queue, childPids("/proc/"+strconv.Itoa(pid)+"/task/"+task+"/children")...)
		}
	}
	return out
}

// taskIDs lists the threads of a process.
func taskIDs(pid int) ([]string, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// threadState reads the state letter of a thread from its stat file
// (0 when it cannot be read).
func threadState(path string) byte {
	var buf [512]byte
	n, ok := readSmall(path, buf[:])
	if !ok {
		return 0
	}
	return statState(buf[:n])
}

// statState returns the state letter in the text of a stat file
// ("pid (comm) S ppid ..."), 0 when there is none. The command name
// before it may hold spaces and parentheses, so the state is the first
// field after the last ')'.
func statState(data []byte) byte {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) || data[i+1] != ' ' {
		return 0
	}
	return data[i+2]
}

// statAfterComm returns the fields of the text of a stat file after the
// command name, which may hold spaces and parentheses: the state (field
// 3 of proc_pid_stat(5)) first, then ppid, pgrp and on (nil when the
// text has no command name or is cut short before the state).
func statAfterComm(data []byte) [][]byte {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil
	}
	f := bytes.Fields(data[i+1:])
	if len(f) == 0 || len(f[0]) != 1 {
		return nil
	}
	return f
}

// readSmall reads the start of a small file into buf.
func readSmall(path string, buf []byte) (int, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	return n, err == nil && n > 0
}

// childPids reads a thread's children file: the pids of the processes it
// started that still run.
func childPids(path string) []int {
	var buf [256]byte
	n, ok := readSmall(path, buf[:])
	if !ok {
		return nil
	}
	if n == len(buf) { // many children: read it all
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		return parsePids(string(data))
	}
	return parsePids(string(buf[:n]))
}

// parsePids reads the pids of a space-separated list.
func parsePids(text string) []int {
	var pids []int
	for _, f := range strings.Fields(text) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}
