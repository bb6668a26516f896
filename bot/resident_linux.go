package bot

import (
	"errors"
	"fmt"
	"os/exec"
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
	s := &g.resident
	s.mu.Lock()
	old := s.r
	closed := g.isClosed()
	if !closed {
		s.r = r
	}
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
	if closed {
		r.Close()
		return 0, errors.New("prepare a bot: the group is closed")
	}
	return r.Pid(), nil
}

// isClosed reports whether Close has begun.
func (g *Group) isClosed() bool {
	g.spare.mu.Lock()
	defer g.spare.mu.Unlock()
	return g.spare.closed
}

// residentPid is the process id of the group's resident init (0: none).
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
	}
	return s.r
}

// closeResident ends the group's resident init.
func (g *Group) closeResident() {
	s := &g.resident
	s.mu.Lock()
	r := s.r
	s.r = nil
	s.mu.Unlock()
	if r != nil {
		r.Close()
	}
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
