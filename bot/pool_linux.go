package bot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"arena/sandbox"
)

// Pool keeps groups ready for the one-shot starts of a sandbox (a bot
// started with no Config.Group: a pipe bot, started once per game).
// Such a start costs a bare start and milliseconds more: the group's
// cgroups are made (a folder and a few files in each v1 hierarchy), and
// the sandbox init is started in them in new namespaces, where it
// starts a Go runtime and builds the bot's view of the machine. A ready
// group has all of it done: its cgroups are made, with the sandbox's
// limits, and its init, born inside them, has set up what is the same
// for every bot and waits (an unplanned sandbox.Prestarted). A start
// takes a ready group, sets what differs per bot (the memory limit, and
// the core it is pinned to while one is free), and sends the init its
// bot; the pool makes another group in the background.
//
// A ready group holds no core: its cpuset cgroup has all of arena's
// cores until it is taken. Its init is not a bot's process: it dies with
// the arena (its parent-death signal, and the socket it waits on, which
// only the arena holds), and its cgroups are named as every group's
// (arena-PID-N), which the guard removes when the arena is killed.
//
// The pool belongs to whoever opened it (OpenPool): it ends with its
// context, or with Close, or with the Sandbox's Close, which keeps it.
type Pool struct {
	sb   *sandbox.Sandbox
	size int
	// ctx ends with the opener's context or with Close, which it calls:
	// a group being made is given up.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	ready   []*Group      // each with its init waiting in its spare slot
	filling bool          // a goroutine is making groups
	due     *time.Timer   // starts the making of groups, refillDelay after a start (nil: none due)
	changed chan struct{} // closed, and replaced, when ready or filling change
	err     error         // why the last group could not be made (nil: none)
	closed  bool

	fills    sync.WaitGroup // the goroutine making groups
	closeOne sync.Once
}

// OpenPool keeps size groups ready for the one-shot starts through sb,
// from now until ctx ends or the pool (or sb) is closed, and attaches
// the pool to sb (see sandbox.Sandbox.Keep), where Start finds it. A nil
// sb (the sandbox off), or a size below 1, keeps nothing: the pool is
// nil, and Close on it does nothing. The first groups are made in the
// background; a start that comes before one is ready waits for the one
// being made, which is sooner than a start of its own.
func OpenPool(ctx context.Context, sb *sandbox.Sandbox, size int) (*Pool, error) {
	if sb == nil || size < 1 {
		return nil, nil
	}
	// A ready init must die with the arena, and its cgroups go with it.
	if err := startGuard(); err != nil {
		return nil, fmt.Errorf("keep bot groups ready: %w", err)
	}
	p := &Pool{sb: sb, size: size, changed: make(chan struct{})}
	if err := sb.Keep(p); err != nil {
		return nil, fmt.Errorf("keep bot groups ready: %w", err)
	}
	p.ctx, p.cancel = context.WithCancel(ctx)
	context.AfterFunc(p.ctx, p.Close)
	p.mu.Lock()
	p.refillLocked()
	p.mu.Unlock()
	return p, nil
}

// Close ends every ready group, and waits for the one being made, if
// any; the groups taken from the pool are their bots' (Process.Close
// ends them). After it, starts through the sandbox make their groups as
// without a pool. It may be called more than once, and on a nil Pool;
// every call returns once the pool is empty.
func (p *Pool) Close() {
	if p == nil {
		return
	}
	p.closeOne.Do(func() {
		p.cancel()
		p.sb.Release(p)
		p.mu.Lock()
		p.closed = true
		if p.due != nil {
			p.due.Stop()
			p.due = nil
		}
		ready := p.ready
		p.ready = nil
		p.changedLocked()
		p.mu.Unlock()
		p.fills.Wait() // the group being made is ended there
		for _, g := range ready {
			g.Close()
		}
	})
}

// Grow keeps at least size groups ready from now on: a run learns how
// many games it plays at once after it has opened its pool.
func (p *Pool) Grow(size int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if size > p.size {
		p.size = size
		p.refillLocked()
	}
}

// Ready waits until the pool is full, or makes no more groups (closed,
// or a group could not be made: the error says why), and lists the
// process ids of the inits waiting in its ready groups, the next to be
// taken first.
func (p *Pool) Ready(ctx context.Context) ([]int, error) {
	if p == nil {
		return nil, errors.New("no pool")
	}
	p.mu.Lock()
	for (p.filling || p.due != nil) && !p.closed {
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
	}
	defer p.mu.Unlock()
	pids := make([]int, 0, len(p.ready))
	for _, g := range p.ready {
		pids = append(pids, g.spare.pid())
	}
	if len(pids) < p.size {
		return pids, fmt.Errorf("the pool holds %d of %d groups: %w", len(pids), p.size, whyNotFull(p.err, p.closed))
	}
	return pids, nil
}

// whyNotFull says why a pool is not full.
func whyNotFull(err error, closed bool) error {
	if closed {
		return errors.New("it is closed")
	}
	if err != nil {
		return err
	}
	return errors.New("no group is being made")
}

// take hands out a ready group for a bot with the memory limit limit
// (bytes, 0: none), pinned to a core of its own while the sandbox has
// one free; another group is made in its place once its bot is launched
// (see Group.launched), not on the launch's way. A start that finds no
// group ready waits for the one being made; nil when there is none
// (the caller makes a group itself), or when the bot's settings could
// not be set on it.
func (p *Pool) take(limit int64) *Group {
	p.mu.Lock()
	if len(p.ready) == 0 && p.due != nil {
		p.fillNowLocked() // no group to wait for the refill with
	}
	for len(p.ready) == 0 && p.filling && !p.closed {
		ch := p.changed
		p.mu.Unlock()
		<-ch
		p.mu.Lock()
	}
	if p.closed || len(p.ready) == 0 {
		p.refillLocked()
		p.mu.Unlock()
		return nil
	}
	g := p.ready[0]
	p.ready = p.ready[1:]
	p.changedLocked()
	p.mu.Unlock()
	if !g.settle(limit, p.sb) {
		g.Close()
		p.refill()
		return nil
	}
	g.launched = p.refill
	return g
}

// changedLocked wakes whoever waits for the pool to change; p.mu is
// held.
func (p *Pool) changedLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// refillDelay is how long after a start the pool begins to make groups
// again, unless another start comes first, which puts it off again. The
// starts of one game come together (its seats, one after the other);
// the making of a group (cgroups made, mounts, a process started) slows
// a start beside it down, by more than a millisecond on a busy machine.
const refillDelay = 50 * time.Millisecond

// refill has groups made in the background until the pool is full,
// refillDelay after the last start.
func (p *Pool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if p.due != nil {
		p.due.Reset(refillDelay)
		return
	}
	var t *time.Timer
	t = time.AfterFunc(refillDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.due == t {
			p.fillNowLocked()
		}
	})
	p.due = t
	p.changedLocked()
}

// fillNowLocked makes groups now, the refill due or not; p.mu is held.
func (p *Pool) fillNowLocked() {
	if p.due != nil {
		p.due.Stop()
		p.due = nil
	}
	p.refillLocked()
	p.changedLocked()
}

// refillLocked has groups made in the background until the pool is
// full, unless that is under way; p.mu is held.
func (p *Pool) refillLocked() {
	if p.closed || p.filling || len(p.ready) >= p.size {
		return
	}
	p.filling = true
	p.changedLocked()
	p.fills.Add(1)
	go p.fill()
}

// fill makes groups, one at a time (each is the start of a process:
// several at once would take every core from the bots that think),
// until the pool is full or closed, or a group cannot be made; the next
// take tries again.
func (p *Pool) fill() {
	defer p.fills.Done()
	for {
		g, err := p.make()
		p.mu.Lock()
		p.err = err
		var drop *Group
		if g != nil && p.closed {
			drop = g
		} else if g != nil {
			p.ready = append(p.ready, g)
		}
		more := err == nil && !p.closed && len(p.ready) < p.size
		if !more {
			p.filling = false
		}
		p.changedLocked()
		p.mu.Unlock()
		if drop != nil {
			drop.Close()
		}
		if !more {
			return
		}
	}
}

// make makes a ready group: the sandbox's cgroups, with a cpuset on all
// of arena's cores where groups are pinned, and an init waiting inside.
func (p *Pool) make() (*Group, error) {
	lim := p.sb.Cgroup()
	if p.sb.Pins() {
		lim.Pin, lim.Core, lim.Cpus = true, -1, p.sb.Cores()
	}
	g := newGroup(0, true, lim)
	pr, err := p.sb.Prestart(g.startInside, nil)
	if err != nil {
		g.Close()
		return nil, fmt.Errorf("keep a bot group ready: %w", err)
	}
	// Ready once the init waits, its set-up done: a start then costs a
	// message and an exec, and the next group is not begun while this
	// one's init still sets itself up.
	if err := pr.Ready(p.ctx); err != nil {
		pr.Close()
		g.Close()
		return nil, fmt.Errorf("keep a bot group ready: %w", err)
	}
	g.spare.mu.Lock()
	g.spare.pr = pr
	g.spare.mu.Unlock()
	return g, nil
}

// settle gives a group taken from a pool what differs per bot: the
// memory limit (the group was made without one) and the core of its own
// that sb has free, if any. It reports false when the limit cannot be
// set in the group's memory cgroup (the init already waiting inside
// uses more, or the cgroup refuses).
func (g *Group) settle(limit int64, sb *sandbox.Sandbox) bool {
	if limit > 0 {
		g.limit = limit
		switch {
		case g.dir != "":
			if !g.setLimit(limit) {
				return false
			}
		default:
			g.stop = make(chan struct{})
			go g.sample()
		}
	}
	if d := g.cpusetDir(); d != "" {
		cpu, release := sb.Core()
		if cpu >= 0 && os.WriteFile(filepath.Join(d, "cpuset.cpus"), []byte(strconv.Itoa(cpu)), 0) == nil {
			g.releaseCore = release
		} else {
			release()
		}
	}
	return true
}

// cpusetDir is the group's cpuset cgroup ("" if it has none).
func (g *Group) cpusetDir() string {
	if d, ok := g.extra["cpuset"]; ok {
		return d
	}
	if g.v2 && g.dir != "" {
		if _, err := os.Stat(filepath.Join(g.dir, "cpuset.cpus")); err == nil {
			return g.dir
		}
	}
	return ""
}

// ownGroup is the group of a bot started with no Config.Group: one
// taken from the pool its sandbox keeps, when there is one ready, else a
// new one.
func ownGroup(cfg Config) *Group {
	if pool, ok := cfg.Sandbox.Kept().(*Pool); ok {
		if g := pool.take(cfg.MemoryLimit); g != nil {
			return g
		}
	}
	return NewSandboxGroup(cfg.MemoryLimit, cfg.Sandbox)
}
