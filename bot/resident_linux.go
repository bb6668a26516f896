package bot

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"arena/sandbox"
)

// residentSlot holds a group's resident init (see sandbox.Resident): made
// once for a seat that starts its bot on every move (the Gomocup file
// protocol), it starts each of them inside the namespaces and layers it
// set up at the seat's start, which costs about what a bare start costs.
// Like a spare, it is not one of the group's processes: KillAll and
// signal leave it alone, Close ends it. Its memory (a few MB) counts
// towards the group's memory limit. Once it breaks (a bot ended it, say)
// the seat goes on with spares, as without it.
type residentSlot struct {
	mu sync.Mutex
	r  *sandbox.Resident
	// stat is the init's /proc stat file, kept open: its count of
	// threads tells whether the init is alone in the group (see
	// residentAlone).
	stat *os.File
	// threads is a count of the init's threads seen (0: none yet).
	threads int
}

// residentGrace bounds how long Kill waits for a resident init to tell a
// killed bot's end before it ends the init too.
const residentGrace = 2 * time.Second

// Reside has a resident init made in the group for the bot cfg describes
// (Args, Dir, Writable and Sandbox as for Start, which must be set): each
// later Start of that bot, or of one with the same folders, in the group
// is started by it. Where the sandbox cannot have one (see
// sandbox.Sandbox.Resides), Reside is Prepare. It returns the init's
// process id at once, while the init sets itself up.
func (g *Group) Reside(cfg Config) (int, error) {
	if cfg.Sandbox == nil || len(cfg.Args) == 0 {
		return 0, errors.New("prepare a bot: it needs a command and a sandbox")
	}
	if !cfg.Sandbox.Resides() {
		return g.Prepare(cfg)
	}
	if err := startGuard(); err != nil {
		return 0, fmt.Errorf("prepare bot %s: %w", cfg.Args[0], err)
	}
	plan := cfg.Sandbox.Plan(&exec.Cmd{Path: cfg.Args[0], Args: cfg.Args, Dir: cfg.Dir}, cfg.Writable)
	if plan == nil {
		return 0, fmt.Errorf("prepare bot %s: its folders %s %v are not all there", cfg.Args[0], cfg.Dir, cfg.Writable)
	}
	r, err := cfg.Sandbox.StartResident(g.startInside, plan)
	if err != nil {
		return 0, fmt.Errorf("prepare bot %s: %w", cfg.Args[0], err)
	}
	stat, _ := os.Open("/proc/" + strconv.Itoa(r.Pid()) + "/stat")
	s := &g.resident
	s.mu.Lock()
	old, oldStat := s.r, s.stat
	closed := g.isClosed()
	if !closed {
		s.r, s.stat, s.threads = r, stat, 0
	}
	s.mu.Unlock()
	if oldStat != nil {
		oldStat.Close()
	}
	if old != nil {
		old.Close()
	}
	if closed && stat != nil {
		stat.Close()
	}
	if closed {
		r.Close()
		return 0, errors.New("prepare a bot: the group is closed")
	}
	return r.Pid(), nil
}

// isClosed reports whether Close has begun (it closes the spare slot
// first).
func (g *Group) isClosed() bool {
	g.spare.mu.Lock()
	defer g.spare.mu.Unlock()
	return g.spare.closed
}

// pid is the process id of the group's resident init (0: none).
func (s *residentSlot) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r == nil {
		return 0
	}
	return s.r.Pid()
}

// takeResident returns the group's resident init if it can start a bot
// of sb (nil if none); a broken one is closed and dropped.
func (g *Group) takeResident() *sandbox.Resident {
	s := &g.resident
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r != nil && s.r.Broken() {
		go s.r.Close()
		s.r = nil
		if s.stat != nil {
			s.stat.Close()
			s.stat = nil
		}
	}
	return s.r
}

// closeResident ends the group's resident init.
func (g *Group) closeResident() {
	s := &g.resident
	s.mu.Lock()
	r, stat := s.r, s.stat
	s.r, s.stat = nil, nil
	s.mu.Unlock()
	if stat != nil {
		stat.Close()
	}
	if r != nil {
		r.Close()
	}
}

// residentAlone reports whether the group's only processes are its
// resident init's threads, from the kernel's counts: the cgroup's tasks
// (pids.current) and the init's threads. The init kills and reaps
// whatever a bot left before it tells the bot's end, so after a move
// this spares KillAll the list of the cgroup's processes, which costs
// tens of microseconds on cgroup v1 (where something is left, KillAll
// lists and kills it as ever). False when the counts are not there to
// read.
func (g *Group) residentAlone() bool {
	s := &g.resident
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r == nil || s.stat == nil || g.spare.pid() != 0 {
		return false
	}
	dir := g.dir
	if !g.v2 {
		dir = g.extra["pids"]
	}
	if dir == "" {
		return false
	}
	tasks, ok := g.readNumberKept(dir, "pids.current")
	if !ok {
		return false
	}
	// The init's threads only come, never go (and once the init is gone,
	// so is everything in its namespace): as many tasks as it had
	// threads once are its threads alone.
	if s.threads > 0 && tasks == int64(s.threads) {
		return true
	}
	before := threadsOf(s.stat)
	tasks, ok = g.readNumberKept(dir, "pids.current")
	after := threadsOf(s.stat)
	if !ok || before <= 0 || before != after {
		return false
	}
	s.threads = after
	return tasks == int64(after)
}

// threadsOf reads the count of threads from a process's kept-open stat
// file (0 if it cannot).
func threadsOf(stat *os.File) int {
	var buf [1024]byte
	n, err := pread(stat, buf[:])
	if err != nil {
		return 0
	}
	// num_threads is field 20 of the line, the 18th after the command.
	f := statAfterComm(buf[:n])
	if len(f) < 18 {
		return 0
	}
	k, err := strconv.Atoi(string(f[17]))
	if err != nil {
		return 0
	}
	return k
}

// startResident starts cmd through the group's resident init r. A false
// ok means r did not start it and the caller starts it otherwise (an
// error then says why, nil if the bot does not fit r).
func (p *Process) startResident(r *sandbox.Resident, cmd *exec.Cmd, cfg Config) (ch child, ok bool) {
	run, err := cfg.Sandbox.LaunchResident(r, cmd, cfg.Env, cfg.Writable)
	if err != nil {
		// A bot that does not fit, or could not be executed, or an init
		// that is gone: the start through a new init says what it says
		// without the resident.
		return child{}, false
	}
	p.group.mu.Lock()
	p.group.pgids[run.Pid] = true
	p.group.mu.Unlock()
	return child{
		pid: run.Pid,
		wait: func() exitState {
			ws, cpu, err := run.Wait()
			if err != nil {
				return exitState{}
			}
			return exitState{status: ws, cpu: cpu, known: true}
		},
		abandon:  r.Abandon,
		resident: true,
	}, true
}
