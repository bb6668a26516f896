package bot

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"

	"arena/sandbox"
)

// spareSlot holds a group's sandbox init started ahead of its bot (see
// sandbox.Prestarted), born inside the group's cgroups like any of its
// bots: the Gomocup file protocol starts the brain on every move, and
// the init for the next move is prestarted, planned for the bot that
// just ran, once the move's clean-up (Kill, KillAll) is over.
// A spare is not one of the group's processes: KillAll, signal and the
// freezer's bookkeeping leave it alone (a frozen spare only waits), and
// Close ends it. Its memory (about 2 MB) counts towards the group's
// memory limit while it waits, as an init's does before it executes a
// bot.
type spareSlot struct {
	mu      sync.Mutex
	pr      *sandbox.Prestarted
	filling chan struct{} // closed when the prestart under way is over; nil if none
	closed  bool          // the group is closing: prestart no more
	// wanted is the next spare to prestart, noted when the group's bot
	// was killed and started when the group's KillAll is over (see
	// wantSpare); nil if none.
	wanted *wantedSpare
}

// wantedSpare is a spare to prestart: for sb, set up for plan.
type wantedSpare struct {
	sb   *sandbox.Sandbox
	plan *sandbox.Plan
}

// pid is the process id of the spare (0 if none).
func (s *spareSlot) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pr == nil {
		return 0
	}
	return s.pr.Cmd.Process.Pid
}

// settledPid is pid once a prestart under way is over: a spare being
// born is in the group's cgroups before its process id is known here.
func (s *spareSlot) settledPid() int {
	s.mu.Lock()
	filling := s.filling
	s.mu.Unlock()
	if filling != nil {
		<-filling
	}
	return s.pid()
}

// takeSpare returns the group's spare init if it fits sb (nil if there
// is none), once a prestart under way is over: a spare about to be ready
// starts the bot sooner than a new init would.
func (g *Group) takeSpare(sb *sandbox.Sandbox) *sandbox.Prestarted {
	s := &g.spare
	s.settledPid()
	s.mu.Lock()
	defer s.mu.Unlock()
	pr := s.pr
	if pr != nil && !sb.Fits(pr) {
		go pr.Close()
		pr = nil
	}
	s.pr = nil
	if w := s.wanted; w != nil {
		// No KillAll came since the last bot was killed: the next
		// spare is prestarted while this bot runs.
		s.wanted = nil
		g.refillLocked(w.sb, w.plan)
	}
	return pr
}

// wantSpare notes that the group's next spare init is to be prestarted
// for sb, set up for plan (the bot that just ran: a seat's next bot is
// like it). Kill calls it once the group's bot is reaped and its CPU
// time final, and the prestart starts when the KillAll that follows is
// over (see startWanted), between the seat's moves: neither on its
// bot's CPU time, nor on the core it thinks on, nor on the KillAll,
// which would wait for a spare being born.
func (g *Group) wantSpare(sb *sandbox.Sandbox, plan *sandbox.Plan) {
	s := &g.spare
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.wanted = &wantedSpare{sb, plan}
	}
}

// startWanted starts the prestart wantSpare noted, if any; KillAll calls
// it as it ends.
func (g *Group) startWanted() {
	s := &g.spare
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.wanted; w != nil {
		s.wanted = nil
		g.refillLocked(w.sb, w.plan)
	}
}

// refillLocked has the group's next spare init prestarted in the
// background for sb and plan, unless it has one or one is under way;
// g.spare.mu is held.
func (g *Group) refillLocked(sb *sandbox.Sandbox, plan *sandbox.Plan) {
	s := &g.spare
	if s.filling == nil && s.pr == nil && !s.closed {
		done := make(chan struct{})
		s.filling = done
		go g.refillSpare(sb, plan, done)
	}
}

// refillSpare prestarts the group's next spare init for sb and plan.
func (g *Group) refillSpare(sb *sandbox.Sandbox, plan *sandbox.Plan, done chan struct{}) {
	defer close(done)
	pr, err := sb.Prestart(g.startInside, plan)
	s := &g.spare
	s.mu.Lock()
	defer s.mu.Unlock()
	s.filling = nil
	if err != nil {
		return // the next start starts its init itself, and says why if that fails too
	}
	if s.closed || s.pr != nil {
		go pr.Close()
		return
	}
	s.pr = pr
}

// Prepare has the init of the bot cfg describes (Args, Dir, Writable
// and Sandbox as for Start, which must be set) prestarted in the group
// with every layer set up, so that the next Start of that bot, or of one
// with the same folders, in the group costs little more than a bare
// start. The init replaces the group's spare, if it had one; Prepare
// returns its process id at once, while the init sets itself up. A
// Start of a bot that does not fit it starts through a new init, as
// without a spare.
func (g *Group) Prepare(cfg Config) (int, error) {
	if cfg.Sandbox == nil || len(cfg.Args) == 0 {
		return 0, errors.New("prepare a bot: it needs a command and a sandbox")
	}
	if err := startGuard(); err != nil {
		return 0, fmt.Errorf("prepare bot %s: %w", cfg.Args[0], err)
	}
	plan := cfg.Sandbox.Plan(&exec.Cmd{Path: cfg.Args[0], Args: cfg.Args, Dir: cfg.Dir}, cfg.Writable)
	if plan == nil {
		return 0, fmt.Errorf("prepare bot %s: its folders %s %v are not all there", cfg.Args[0], cfg.Dir, cfg.Writable)
	}
	s := &g.spare
	s.settledPid() // a prestart under way ends first
	pr, err := cfg.Sandbox.Prestart(g.startInside, plan)
	if err != nil {
		return 0, fmt.Errorf("prepare bot %s: %w", cfg.Args[0], err)
	}
	s.mu.Lock()
	old := s.pr
	closed := s.closed
	if !closed {
		s.pr = pr
	}
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
	if closed {
		pr.Close()
		return 0, errors.New("prepare a bot: the group is closed")
	}
	return pr.Cmd.Process.Pid, nil
}

// closeSpare ends the group's spare init, waiting for one being
// prestarted; none is prestarted after.
func (g *Group) closeSpare() {
	s := &g.spare
	s.mu.Lock()
	s.closed = true
	filling := s.filling
	s.mu.Unlock()
	if filling != nil {
		<-filling
	}
	s.mu.Lock()
	pr := s.pr
	s.pr = nil
	s.mu.Unlock()
	if pr != nil {
		pr.Close()
	}
}

// startSandboxed starts cmd (Path, Args, Dir and the standard files set)
// in cfg.Sandbox, inside the group: through the group's resident init
// when it has one (see Group.Reside), else through its spare init when
// it has one (a group shared by several starts, see Config.Group, or a
// group of its own taken from the sandbox's Pool), else through a new
// init.
func (p *Process) startSandboxed(cmd *exec.Cmd, cfg Config) (child, error) {
	if f := p.group.launched; f != nil && p.ownGroup {
		p.group.launched = nil
		defer f()
	}
	if r := p.group.takeResident(); r != nil {
		if ch, ok := p.startResident(r, cmd, cfg); ok {
			return ch, nil
		}
	}
	if !p.ownGroup {
		// The seat's next bot is like this one: its init is prestarted
		// for this bot's plan once this one is killed.
		plan := cfg.Sandbox.Plan(cmd, cfg.Writable)
		p.next = func() { p.group.wantSpare(cfg.Sandbox, plan) }
	}
	if pr := p.group.takeSpare(cfg.Sandbox); pr != nil {
		pid := pr.Cmd.Process.Pid
		p.group.mu.Lock()
		p.group.pgids[pid] = true
		p.group.mu.Unlock()
		if err := cfg.Sandbox.Launch(pr, cmd, cfg.Env, cfg.Writable); err == nil {
			return cmdChild(pr.Cmd, pr.Reaped), nil
		}
		p.group.forget(pid)
	}
	return p.startInit(cmd, cfg)
}

// startInit starts cmd through a new sandbox init, inside the group.
func (p *Process) startInit(cmd *exec.Cmd, cfg Config) (child, error) {
	if err := cfg.Sandbox.Wrap(cmd, cfg.Env, cfg.Writable); err != nil {
		return child{}, err
	}
	if err := p.group.start(cmd); err != nil {
		return child{}, err
	}
	return cmdChild(cmd, cfg.Sandbox.HoldMounts(cmd.Process.Pid)), nil
}
