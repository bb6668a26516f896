// Package match runs one game: a referee, one seat per side and the
// clocks, producing the moves, their times and a verdict. It knows turns
// and clocks, not any one game: the referee judges moves and decides what
// a failing side's fault means, the seats speak their bots' protocols.
package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"arena/bot"
	"arena/game"
)

// Referee is the rules of one game as the match loop sees them.
type Referee[M fmt.Stringer] interface {
	// ToMove lists the sides that move now: one for alternating games,
	// several for simultaneous ones, none when the game is over.
	ToMove() []int
	// Play applies a side's move; an error means the rules refuse it.
	Play(side int, m M) error
	// Forfeit records that a side failed (timeout, crash, ...); the game's
	// own rule decides what follows (in two-player games the side loses).
	Forfeit(side int, f game.Fault)
	// Result returns the result once the game is over.
	Result() (game.Result, bool)
}

// Seat is one side's player behind its protocol: it reads the game from
// the referee state it was built with and answers moves.
type Seat[M any] interface {
	// Start launches the player and completes the protocol's greeting.
	Start(ctx context.Context, req Request) (Greeting, error)
	// Move asks for the side's move in the current position. Errors are
	// faults: see Classify.
	Move(ctx context.Context, req Request) (Reply[M], error)
	// Finish tells the player the game is over, lets it exit within
	// grace and then kills everything it started.
	Finish(ctx context.Context, res game.Result, grace time.Duration) Farewell
}

// Effecter is implemented by referees that can say what the move just
// played did (a laser's path, captures) in the game's record JSON: the
// match loop puts it in the move's record before listeners see the move,
// so a live viewer gets the same effect the final record holds.
type Effecter interface {
	Effect() json.RawMessage
}

// Pauser is implemented by seats whose player can be stopped while the
// opponent thinks.
type Pauser interface {
	Pause()
	Resume()
}

// Killer is implemented by seats that can be killed at once from another
// goroutine (used when the match is cancelled).
type Killer interface {
	Kill()
}

// Request is what a seat knows about the clock when asked to act.
type Request struct {
	Deadline  time.Time     // hard deadline: limit + tolerance; zero = none
	TurnLimit time.Duration // per-move limit, 0 = none
	TimeLeft  time.Duration // match time left before this move, 0 = no match limit
	Unlimited bool          // no match limit
	Clock     Clock
	Ply       int // moves made so far in the game
}

// Greeting is what a player said when starting.
type Greeting struct {
	About  string   // the player's own description (name, version)
	Output []string // lines printed during start-up
}

// Reply is one answer of a player.
type Reply[M any] struct {
	Move   M
	Output []string // lines printed while thinking (messages, debug)
}

// Farewell is what remains of a player after the game.
type Farewell struct {
	Output     []string // lines printed after the last move
	Stderr     string   // the last part of its stderr
	Exit       string   // how its process ended
	PeakMemory int64    // bytes, where the machine measures it (0 otherwise)
	CPU        time.Duration
}

// Clock holds the time controls of a game, applied to each side.
// In JSON the durations are nanoseconds.
type Clock struct {
	Turn      time.Duration `json:"turn,omitempty"`      // per move; 0 = none
	Match     time.Duration `json:"match,omitempty"`     // per side for the whole game; 0 = none
	Increment time.Duration `json:"increment,omitempty"` // added to a side's match time before each of its moves
	Tolerance time.Duration `json:"tolerance,omitempty"` // grace after a limit before the move counts as late
	Startup   time.Duration `json:"startup,omitempty"`   // limit for start-up; 0 = DefaultStartup
}

// counting reports whether each side has a running game clock: a base
// time, or an increment alone (Fischer from zero, as Points Battle plays:
// every move has what the increments left on the clock).
func (c Clock) counting() bool { return c.Match > 0 || c.Increment > 0 }

// DefaultStartup limits start-up when the clock does not say.
const DefaultStartup = 30 * time.Second

// Config is one match's settings besides the seats.
type Config struct {
	Clock Clock
	// Clocks, where set, gives a side a clock of its own instead of Clock
	// (a person in the web page may have minutes while the bot keeps its
	// seconds). A zero entry keeps Clock.
	Clocks []Clock
	Ponder bool          // let idle players think (no SIGSTOP)
	Grace  time.Duration // time to exit after the end; 0 = 1 s
	// OnMove, if set, is called after every accepted move.
	OnMove func(ev MoveEvent)
	// OnAsk, if set, is called as a side is asked to move, with what its
	// seat is told of the clock.
	OnAsk func(side int, req Request)
}

// MoveEvent reports one accepted move to listeners.
type MoveEvent struct {
	Ply  int
	Move game.MoveRecord
}

// Outcome is what a match produced.
type Outcome struct {
	Result   game.Result
	Moves    []game.MoveRecord
	Sides    []SideReport // per side
	Start    time.Time
	End      time.Time
	Canceled bool // the context ended the match before the game did
}

// SideReport collects one side's greeting, farewell and thinking time.
type SideReport struct {
	Greeting Greeting
	Farewell Farewell
	Time     time.Duration // total time spent thinking (and starting)
	Fault    *game.Fault   // set when this side failed
}

// Run plays one game to its end. It returns early only when ctx ends, with
// Outcome.Canceled set and every player killed.
func Run[M fmt.Stringer](ctx context.Context, ref Referee[M], seats []Seat[M], cfg Config) Outcome {
	m := &runner[M]{ref: ref, seats: seats, cfg: cfg}
	return m.run(ctx)
}

type runner[M fmt.Stringer] struct {
	ref   Referee[M]
	seats []Seat[M]
	cfg   Config
	out   Outcome
	left  []time.Duration // match time left per side

	mu      sync.Mutex
	moving  map[int]bool // sides asked for a move right now
	quitter int          // the side that gave up mid-game, or -1
}

func (m *runner[M]) run(ctx context.Context) Outcome {
	n := len(m.seats)
	m.out.Start = time.Now()
	m.out.Sides = make([]SideReport, n)
	m.left = make([]time.Duration, n)
	for i := range m.left {
		m.left[i] = m.clock(i).Match
	}
	stop := context.AfterFunc(ctx, m.killAll)
	defer stop()

	m.moving, m.quitter = map[int]bool{}, -1
	if m.startAll(ctx) {
		stopQuit := m.watchQuitters()
		m.loop(ctx)
		stopQuit()
	}
	m.out.Canceled = ctx.Err() != nil
	m.finishAll(ctx)
	m.out.End = time.Now()
	if res, ok := m.ref.Result(); ok {
		m.out.Result = res
	}
	return m.out
}

// startAll starts every seat in parallel (start-up can be slow, and the
// clock of each side runs only for its own start-up).
func (m *runner[M]) startAll(ctx context.Context) bool {
	var wg sync.WaitGroup
	errs := make([]error, len(m.seats))
	for i, s := range m.seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clock := m.clock(i)
			lim := clock.Startup
			if lim <= 0 {
				lim = DefaultStartup
			}
			if clock.counting() && m.left[i] > 0 {
				lim = min(lim, m.left[i])
			}
			req := m.request(i, lim)
			req.TurnLimit = lim
			t0 := time.Now()
			g, err := s.Start(ctx, req)
			m.out.Sides[i].Greeting = g
			errs[i] = m.charge(i, time.Since(t0), lim, err)
		}()
	}
	wg.Wait()
	ok := true
	for i, err := range errs {
		if err != nil {
			m.fault(i, startFault(err))
			ok = false
		} else if p, isP := m.seats[i].(Pauser); isP && !m.cfg.Ponder {
			p.Pause()
		}
	}
	return ok && ctx.Err() == nil
}

// startFault is the verdict on a side that failed to start. A bot that
// ended then usually said why on stderr (a traceback, a missing file or
// module, "command not found"): its last lines join the verdict, so the
// user reads the cause without --debug.
func startFault(err error) game.Fault {
	f := Classify(fmt.Errorf("start-up: %w", err))
	var exit *bot.ExitError
	if errors.As(err, &exit) && exit.Stderr != "" {
		f.Detail += "; stderr: " + exit.Stderr
	}
	return f
}

func (m *runner[M]) loop(ctx context.Context) {
	for ctx.Err() == nil {
		sides := m.ref.ToMove()
		if len(sides) == 0 {
			return
		}
		if len(sides) == 1 {
			m.ask(ctx, sides[0])()
			continue
		}
		var wg sync.WaitGroup
		replies := make([]func(), len(sides))
		for k, side := range sides {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[k] = m.ask(ctx, side)
			}()
		}
		wg.Wait()
		for _, apply := range replies {
			apply()
		}
	}
}

// Quitter is implemented by seats whose player may give up at any moment,
// even while another side thinks (a person resigning in the web page).
type Quitter interface {
	// Quit is closed when the player gives up.
	Quit() <-chan struct{}
}

// watchQuitters ends the game as soon as a Quitter gives up: the sides
// thinking at that moment are killed (their answer no longer matters),
// and the quitter loses by resignation when their answer comes back.
// stop ends the watch.
func (m *runner[M]) watchQuitters() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for side, s := range m.seats {
		q, ok := s.(Quitter)
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-q.Quit():
			case <-done:
				return
			}
			m.mu.Lock()
			if m.quitter < 0 {
				m.quitter = side
			}
			var thinking []Seat[M]
			for other := range m.moving {
				if other != side {
					thinking = append(thinking, m.seats[other])
				}
			}
			m.mu.Unlock()
			for _, t := range thinking {
				if k, ok := t.(Killer); ok {
					k.Kill()
				}
			}
		}()
	}
	return func() { close(done); wg.Wait() }
}

// startMoving marks a side as thinking, unless somebody has given up
// (checked under the same lock the quit watch takes: either the watch
// sees the side thinking and kills it, or the side never starts).
func (m *runner[M]) startMoving(side int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.quitter >= 0 {
		return false
	}
	m.moving[side] = true
	return true
}

func (m *runner[M]) stopMoving(side int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.moving, side)
}

func (m *runner[M]) quitSide() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.quitter
}

// ask gets a side's answer and returns the step that applies it to the
// referee (run in side order, after all simultaneous answers are in).
func (m *runner[M]) ask(ctx context.Context, side int) func() {
	clock := m.clock(side)
	if clock.counting() {
		m.left[side] += clock.Increment
	}
	limit := time.Duration(0)
	if clock.Turn > 0 {
		limit = clock.Turn
	}
	if clock.counting() && (limit == 0 || m.left[side] < limit) {
		limit = max(m.left[side], 0)
	}
	req := m.request(side, limit)
	seat := m.seats[side]
	if !m.startMoving(side) { // somebody gave up: nobody thinks any more
		return func() { m.fault(m.quitSide(), errResigned) }
	}
	if m.cfg.OnAsk != nil {
		m.cfg.OnAsk(side, req)
	}
	pauser, pausable := seat.(Pauser)
	pausable = pausable && !m.cfg.Ponder
	if pausable {
		pauser.Resume()
	}
	t0 := time.Now()
	reply, err := seat.Move(ctx, req)
	took := time.Since(t0)
	m.stopMoving(side)
	if pausable {
		pauser.Pause()
	}
	err = m.charge(side, took, limit, err)
	rec := game.MoveRecord{Side: side, Output: reply.Output, TimeMs: float64(took.Microseconds()) / 1000}
	return func() {
		if ctx.Err() != nil {
			return
		}
		if q := m.quitSide(); q >= 0 {
			m.fault(q, errResigned)
			return
		}
		if err != nil {
			m.fault(side, Classify(err))
			return
		}
		rec.Move = reply.Move.String()
		if perr := m.ref.Play(side, reply.Move); perr != nil {
			m.fault(side, game.Fault{Reason: game.ReasonIllegal, Detail: perr.Error()})
			return
		}
		if e, ok := m.ref.(Effecter); ok {
			rec.Effect = e.Effect()
		}
		m.out.Moves = append(m.out.Moves, rec)
		if m.cfg.OnMove != nil {
			m.cfg.OnMove(MoveEvent{Ply: len(m.out.Moves), Move: rec})
		}
	}
}

// charge books time a side spent on its clock and turns an answer that
// came after limit + tolerance into a timeout (limit 0: no limit).
func (m *runner[M]) charge(side int, took, limit time.Duration, err error) error {
	clock := m.clock(side)
	m.out.Sides[side].Time += took
	if clock.counting() {
		m.left[side] -= took
	}
	if err == nil && limit > 0 && took > limit+clock.Tolerance {
		err = fmt.Errorf("%w: answered after %v (limit %v + tolerance %v)", bot.ErrTimeout,
			took.Round(time.Millisecond), limit, clock.Tolerance)
	}
	return err
}

// clock is the clock a side plays on.
func (m *runner[M]) clock(side int) Clock {
	if side < len(m.cfg.Clocks) && m.cfg.Clocks[side] != (Clock{}) {
		return m.cfg.Clocks[side]
	}
	return m.cfg.Clock
}

func (m *runner[M]) request(side int, limit time.Duration) Request {
	clock := m.clock(side)
	req := Request{TurnLimit: clock.Turn, Clock: clock, Ply: len(m.out.Moves)}
	if clock.counting() {
		req.TimeLeft = m.left[side]
	} else {
		req.Unlimited = true
	}
	if limit > 0 {
		req.Deadline = time.Now().Add(limit + clock.Tolerance)
	}
	return req
}

func (m *runner[M]) fault(side int, f game.Fault) {
	if m.out.Sides[side].Fault == nil {
		m.out.Sides[side].Fault = &f
	}
	m.ref.Forfeit(side, f)
}

func (m *runner[M]) finishAll(ctx context.Context) {
	res, _ := m.ref.Result()
	grace := m.cfg.Grace
	if grace <= 0 {
		grace = time.Second
	}
	var wg sync.WaitGroup
	for i, s := range m.seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p, ok := s.(Pauser); ok {
				p.Resume()
			}
			m.out.Sides[i].Farewell = s.Finish(ctx, res, grace)
		}()
	}
	wg.Wait()
}

func (m *runner[M]) killAll() {
	for _, s := range m.seats {
		if k, ok := s.(Killer); ok {
			k.Kill()
		}
	}
}

// Classify turns a seat's error into the verdict the game records.
// Seats may return a game.Fault directly; otherwise timeouts, exits,
// memory kills and over-long lines are recognised, and anything else is a
// protocol violation.
func Classify(err error) game.Fault {
	var f game.Fault
	var exit *bot.ExitError
	switch {
	case errors.As(err, &f):
		if f.Detail == "" {
			f.Detail = err.Error()
		}
		return f
	case errors.As(err, &exit) && exit.OOM:
		return game.Fault{Reason: game.ReasonMemory, Detail: err.Error()}
	case errors.As(err, &exit):
		return game.Fault{Reason: game.ReasonCrash, Detail: err.Error()}
	case errors.Is(err, bot.ErrTimeout), errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return game.Fault{Reason: game.ReasonTimeout, Detail: err.Error()}
	}
	return game.Fault{Reason: game.ReasonProtocol, Detail: err.Error()}
}

// RecordSides copies what each side's process did into the players of a
// record whose Players and Seats are set: its greeting and stray output,
// stderr tail, exit, memory, CPU and thinking time, and the fault it lost
// by, if any.
func (o Outcome) RecordSides(rec *game.Record) {
	for side, rep := range o.Sides {
		pr := &rec.Players[rec.Seats[side]]
		pr.About = rep.Greeting.About
		pr.Output = append(append(pr.Output, rep.Greeting.Output...), rep.Farewell.Output...)
		pr.Stderr = rep.Farewell.Stderr
		pr.Exit = rep.Farewell.Exit
		pr.PeakMemory = rep.Farewell.PeakMemory
		pr.CPUMs = float64(rep.Farewell.CPU.Microseconds()) / 1000
		pr.TimeMs = float64(rep.Time.Microseconds()) / 1000
		if rep.Fault != nil {
			pr.Fault = rep.Fault.Reason
		}
	}
}

// Goodbye ends a bot process at the end of a game. If the game's closing
// message was sent, it reads what the bot still prints until it exits or
// deadline passes, handing each non-empty line to keep (which returns
// false to stop reading), and waits for the exit; then it kills whatever
// is left and reports how the process ended. The caller adds the output.
func Goodbye(p *bot.Process, deadline time.Time, sent bool, keep func(line string) bool) Farewell {
	if sent {
		for {
			line, err := p.ReadLine(deadline)
			if err != nil || (line != "" && !keep(line)) {
				break
			}
		}
		p.WaitExit(time.Until(deadline))
	}
	peak := p.Group().PeakMemory()
	p.Close()
	f := Ended(p)
	f.PeakMemory, f.CPU = peak, p.CPUTime()
	return f
}

// Ended reports how a process that has been killed ended: its stderr tail
// and exit status.
func Ended(p *bot.Process) Farewell {
	f := Farewell{Stderr: p.Stderr()}
	if e := p.Exit(); e != nil {
		f.Exit = e.Error()
	}
	return f
}
