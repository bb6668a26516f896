package bot

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"arena/sandbox"
)

// Defaults for Config fields left zero.
const (
	DefaultMaxLine    = 1 << 20  // bytes per line
	DefaultStderrTail = 16 << 10 // bytes of stderr kept
)

// Errors of line I/O. A deadline error wraps os.ErrDeadlineExceeded.
var (
	ErrTimeout     = errors.New("no answer in time")
	ErrLineTooLong = errors.New("line too long")
)

// ExitError reports that the bot is gone: it exited, was killed, or closed
// its output. OOM is set when the memory limit killed it.
type ExitError struct {
	Status string // e.g. "exit status 3", "signal: segmentation fault"
	OOM    bool
	// Stderr holds the last lines the bot wrote to stderr before it ended
	// (see Process.StderrLines), which usually say why: a traceback, "No
	// such file", "command not found". Error leaves it out.
	Stderr string
}

func (e *ExitError) Error() string {
	if e.OOM {
		return "exceeded its memory limit (" + e.Status + ")"
	}
	return e.Status
}

// Config says how to start a bot.
type Config struct {
	// Args is the command; Args[0] should be an absolute path (see
	// ResolveProgram), it is also passed as argv[0].
	Args []string
	Dir  string   // working folder; "" = the arena's
	Env  []string // added to the arena's environment
	// Group collects the processes of one seat across several starts (the
	// file protocol starts the brain once per move); with a Sandbox, the
	// init of the next start is prestarted in it while a bot runs. When
	// nil, the process gets a group of its own with MemoryLimit.
	Group       *Group
	MemoryLimit int64 // bytes, 0 = none; used only when Group is nil
	// Interactive connects stdin and stdout to pipes for line I/O. When
	// false, stdin is /dev/null and stdout joins stderr in the kept tail.
	Interactive bool
	MaxLine     int // longest accepted line, bytes
	StderrTail  int // bytes of stderr (and stdout when not interactive) kept
	// Transcript, if set, logs every line to and from the bot.
	Transcript *Transcript
	// PauseGrace is the longest Pause waits for every thread of the bot
	// to block before stopping it (0 = DefaultPauseGrace, negative = stop
	// at once).
	PauseGrace time.Duration
	// Sandbox, when set, starts the bot inside its layers (and, when
	// Group is nil, gives the group its cgroup limits); nil starts the
	// bot as it is. A sandboxed bot needs an absolute Dir.
	Sandbox *sandbox.Sandbox
	// Writable lists folders besides Dir that a sandboxed bot may write
	// (the persistent folder of Gomocup's INFO folder).
	Writable []string
}

// Process is one running bot. Its methods are meant to be called from one
// goroutine (the seat's), except Kill, Pause and Resume, which may be
// called from anywhere.
type Process struct {
	pid      int
	group    *Group
	ownGroup bool
	stdin    *os.File
	stdout   *os.File
	stderr   *tail
	maxLine  int
	log      *Transcript
	grace    time.Duration // see Config.PauseGrace
	// sandboxed: Pause also stops the processes of the cgroup that left
	// the process group (without the sandbox, Pause is what it was).
	sandboxed bool

	buf    []byte // stdout bytes read but not yet returned as lines
	r, w   int
	skipLF bool // the last line ended in CR: drop a following LF

	// cpuFrom is the group's CPU time when the process started, and
	// cgroupCPU the group's CPU time since then, in nanoseconds, as last
	// noted (at the reaping and at Kill; -1: no cgroup accounts for it).
	cpuFrom struct {
		t  time.Duration
		ok bool
	}
	cgroupCPU atomic.Int64
	// next asks for the group's next spare init (nil: none); Kill calls
	// it once, after the bot's CPU time is final (spare_linux.go).
	next     func()
	nextOnce sync.Once

	done       chan struct{} // closed when the process has been reaped
	stderrDone chan struct{} // closed when stderr reached its end
	state      exitState
	// abandon ends the wait for a killed bot whose end is not told in
	// time (nil: the arena reaps the bot itself, see child).
	abandon func()

	pauseMu    sync.Mutex // guards what follows, which a timer also uses
	paused     bool
	held       bool        // Pause stopped the bot (it was not idle)
	recontinue *time.Timer // the next late continue (see recontinueAfter)
	late       int         // how many late continues this Resume has sent
	// contCPU is the group's CPU time when the bot was last continued
	// (contCPUOK: its cgroup counts it), at contAt; a timeout's message
	// says what the bot used since (see stall).
	contCPU   time.Duration
	contCPUOK bool
	contAt    time.Time
	watch     watch // the files Pause reads to see the bot blocked
	// notify follows the bot's seccomp notifications (sandboxed bots with
	// the filter on; nil otherwise): while it does, a look need not read
	// again the stat file of a process known to catch no signal.
	notify *sandbox.Notifier
	sb     *sandbox.Sandbox // the bot's sandbox (nil: none)
}

// recontinueAfter lists the delays after a Resume at which the group is
// continued again. A child whose fork straddles the stop and the continue
// can be handed the stop but miss the continue, and stays stopped while
// its parent waits for it: a shell-script bot (pyenv's shims, for one)
// then hangs until its deadline. A second continue, once the fork has
// finished, wakes such a child; to a running process it is a no-op.
var recontinueAfter = [...]time.Duration{200 * time.Microsecond, 2 * time.Millisecond, 20 * time.Millisecond, 200 * time.Millisecond}

// Start launches the bot in its own process group.
func Start(cfg Config) (*Process, error) {
	if len(cfg.Args) == 0 {
		return nil, errors.New("start bot: empty command")
	}
	p := &Process{maxLine: cfg.MaxLine, group: cfg.Group, log: cfg.Transcript, done: make(chan struct{}), stderrDone: make(chan struct{})}
	if p.maxLine <= 0 {
		p.maxLine = DefaultMaxLine
	}
	p.grace = cfg.PauseGrace
	p.sandboxed = cfg.Sandbox != nil
	p.sb = cfg.Sandbox
	if p.grace == 0 {
		p.grace = DefaultPauseGrace
	}
	tailSize := cfg.StderrTail
	if tailSize <= 0 {
		tailSize = DefaultStderrTail
	}
	p.stderr = newTail(tailSize)
	if cfg.Sandbox != nil {
		// A sandboxed bot must die with the arena, however it ends.
		if err := startGuard(); err != nil {
			return nil, fmt.Errorf("start bot %s: %w", cfg.Args[0], err)
		}
	}
	if p.group == nil {
		p.group = ownGroup(cfg)
		p.ownGroup = true
	}

	p.cgroupCPU.Store(-1)
	p.cpuFrom.t, p.cpuFrom.ok = p.group.CPUTime()
	cmd := &exec.Cmd{Path: cfg.Args[0], Args: cfg.Args, Dir: cfg.Dir}
	if len(cfg.Env) > 0 {
		cmd.Env = append(os.Environ(), cfg.Env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}

	// The pipes are made here rather than by os/exec so that Wait never
	// waits for a grandchild that keeps a pipe open.
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, p.fail(fmt.Errorf("start bot: %w", err))
	}
	var closeAfterStart = []*os.File{errW}
	cmd.Stderr = errW
	if cfg.Interactive {
		inR, inW, err := os.Pipe()
		if err != nil {
			errR.Close()
			errW.Close()
			return nil, p.fail(fmt.Errorf("start bot: %w", err))
		}
		outR, outW, err := os.Pipe()
		if err != nil {
			errR.Close()
			errW.Close()
			inR.Close()
			inW.Close()
			return nil, p.fail(fmt.Errorf("start bot: %w", err))
		}
		cmd.Stdin, cmd.Stdout = inR, outW
		p.stdin, p.stdout = inW, outR
		closeAfterStart = append(closeAfterStart, inR, outW)
		p.buf = make([]byte, 0, 4096)
	} else {
		cmd.Stdout = errW
	}

	var ch child
	if cfg.Sandbox != nil {
		ch, err = p.startSandboxed(cmd, cfg)
	} else if err = p.group.start(cmd); err == nil {
		ch = cmdChild(cmd, nil)
	}
	for _, f := range closeAfterStart {
		f.Close()
	}
	if err != nil {
		errR.Close()
		if p.stdin != nil {
			p.stdin.Close()
			p.stdout.Close()
		}
		return nil, p.fail(fmt.Errorf("start bot %s: %w", cfg.Args[0], sandbox.ExplainExec(cfg.Args[0], err)))
	}
	p.pid, p.abandon = ch.pid, ch.abandon
	p.log.Log('#', fmt.Sprintf("started %q, pid %d", cfg.Args, ch.pid))
	if !ch.resident {
		// A resident init's bots have no listener to serve (they are
		// never paused: see sandbox.Resident).
		p.notify = cfg.Sandbox.Notifications(ch.pid, p.done)
	}
	go func() {
		drain(errR, p.stderr, p.log)
		close(p.stderrDone)
	}()
	go func() {
		state := ch.wait()
		p.noteCPU()
		p.state = state
		p.log.Log('#', state.String())
		close(p.done)
		if ch.reaped != nil {
			ch.reaped()
		}
	}()
	return p, nil
}

// child is a started bot's process: its id and how its end is awaited.
type child struct {
	pid    int
	wait   func() exitState // blocks until the process is reaped
	reaped func()           // called once its end is told (nil: nothing)
	// abandon, when set, ends the wait for a process whose end is not
	// told in time after it was killed: a bot a resident init started
	// is reaped by the init, not by the arena.
	abandon  func()
	resident bool // started by a resident init
}

// cmdChild is the child of cmd, started, which the arena reaps itself.
func cmdChild(cmd *exec.Cmd, reaped func()) child {
	return child{pid: cmd.Process.Pid, reaped: reaped, wait: func() exitState {
		cmd.Wait()
		s := cmd.ProcessState
		if s == nil {
			return exitState{}
		}
		ws, _ := s.Sys().(syscall.WaitStatus)
		return exitState{status: ws, cpu: s.UserTime() + s.SystemTime(), known: true}
	}}
}

// exitState is how a reaped bot ended.
type exitState struct {
	status syscall.WaitStatus
	cpu    time.Duration // user and system, its waited-for children's included
	known  bool          // false: nobody could tell (its resident init died with it)
}

// String says how the bot ended, as a log line or a verdict puts it.
func (e exitState) String() string {
	switch {
	case !e.known:
		return "unknown exit"
	case e.status.Signaled():
		return "killed by signal " + e.status.Signal().String()
	case e.status.Exited():
		return "exit status " + strconv.Itoa(e.status.ExitStatus())
	}
	return fmt.Sprintf("wait status %#x", uint32(e.status))
}

// exitCode is the exit status of a bot that exited (-1 if a signal
// ended it, or its end is unknown).
func (e exitState) exitCode() int {
	if !e.known || !e.status.Exited() {
		return -1
	}
	return e.status.ExitStatus()
}

func (p *Process) fail(err error) error {
	if p.ownGroup {
		p.group.Close()
	}
	return err
}

// drain copies r into t until EOF, so a bot never blocks on a full stderr
// pipe.
func drain(r *os.File, t *tail, log *Transcript) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			t.Write(buf[:n])
			log.Log('!', string(buf[:n]))
		}
		if err != nil {
			r.Close()
			t.end()
			return
		}
	}
}

// Pid returns the process id, which is also its process group id.
func (p *Process) Pid() int { return p.pid }

// Group returns the group the process belongs to.
func (p *Process) Group() *Group { return p.group }

// WriteString sends text to the bot's stdin, giving up at the deadline
// (a bot that does not read cannot block the arena).
func (p *Process) WriteString(s string, deadline time.Time) error {
	if p.stdin == nil {
		return errors.New("bot has no input pipe")
	}
	p.log.Log('>', s)
	return p.writeRest(s, deadline)
}

// writeRest writes s to the bot's stdin, giving up at the deadline.
func (p *Process) writeRest(s string, deadline time.Time) error {
	p.stdin.SetWriteDeadline(deadline)
	_, err := p.stdin.WriteString(s)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w: the bot does not read its input", ErrTimeout)
	case errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed):
		return p.exitError(time.Second)
	}
	return fmt.Errorf("write to bot: %w", err)
}

// ReadLine returns the next line the bot printed, without its end (LF, CR
// or CRLF). It fails with ErrTimeout at the deadline, ErrLineTooLong when
// a line exceeds the cap (the rest of that line is still unread), and an
// *ExitError when the bot's output ends.
func (p *Process) ReadLine(deadline time.Time) (string, error) {
	setDeadline := false
	for {
		if p.skipLF && p.r < p.w {
			if p.buf[p.r] == '\n' {
				p.r++
			}
			p.skipLF = false
		}
		if i := bytes.IndexAny(p.buf[p.r:p.w], "\r\n"); i >= 0 {
			if i > p.maxLine {
				return "", fmt.Errorf("%w: more than %d bytes without a line end", ErrLineTooLong, p.maxLine)
			}
			line := string(p.buf[p.r : p.r+i])
			if p.log != nil {
				p.log.Log('<', line)
			}
			if p.buf[p.r+i] == '\r' {
				p.skipLF = true
			}
			p.r += i + 1
			return line, nil
		}
		if p.w-p.r > p.maxLine {
			return "", fmt.Errorf("%w: more than %d bytes without a line end", ErrLineTooLong, p.maxLine)
		}
		if p.r > 0 {
			p.w = copy(p.buf[:cap(p.buf)], p.buf[p.r:p.w])
			p.r = 0
		}
		if p.w == cap(p.buf) {
			grown := make([]byte, p.w, max(min(2*cap(p.buf), p.maxLine+1), cap(p.buf)+1))
			copy(grown, p.buf[:p.w])
			p.buf = grown
		}
		if !setDeadline {
			p.stdout.SetReadDeadline(deadline)
			setDeadline = true
		}
		n, err := p.stdout.Read(p.buf[p.w:cap(p.buf)])
		p.w += n
		p.buf = p.buf[:p.w]
		if n > 0 {
			continue
		}
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			if s := p.stall(); s != "" {
				return "", fmt.Errorf("%w (%s)", ErrTimeout, s)
			}
			return "", ErrTimeout
		case err == io.EOF:
			return "", p.exitError(time.Second)
		case err != nil:
			return "", fmt.Errorf("read from bot: %w", err)
		}
	}
}

// exitError waits up to grace for the bot to be reaped and describes how
// it ended. A bot that closed its output but lives on is killed.
func (p *Process) exitError(grace time.Duration) error {
	if !p.WaitExit(grace) {
		p.Kill()
		return &ExitError{Status: "closed its output", OOM: p.group.MemoryExceeded(), Stderr: p.StderrLines(StderrLines)}
	}
	return p.Exit()
}

// WaitExit waits up to d for the process to end and reports whether it did.
func (p *Process) WaitExit(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// Done is closed when the process has ended and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit describes how a reaped process ended; nil while it runs.
func (p *Process) Exit() *ExitError {
	select {
	case <-p.done:
	default:
		return nil
	}
	return &ExitError{Status: p.state.String(), OOM: p.group.MemoryExceeded(), Stderr: p.StderrLines(StderrLines)}
}

// ExitCode returns the exit status of a reaped process (-1 if a signal
// ended it or it still runs).
func (p *Process) ExitCode() int {
	select {
	case <-p.done:
		return p.state.exitCode()
	default:
		return -1
	}
}

// CPUTime returns the CPU time (user + system) the reaped process and
// the children it waited for used or, where the bot's cgroup accounts
// for more, what every process of the cgroup used while the bot ran
// (children that left its process tree, such as a setsid daemon,
// included, until Kill); 0 while it runs.
func (p *Process) CPUTime() time.Duration {
	select {
	case <-p.done:
		t := p.state.cpu
		if c := time.Duration(p.cgroupCPU.Load()); c > t {
			return c
		}
		return t
	default:
		return 0
	}
}

// Stderr returns the last part of what the bot wrote to stderr (and, when
// not interactive, stdout).
func (p *Process) Stderr() string { return p.stderr.String() }

// StderrLines is how many lines of stderr an ExitError quotes.
const StderrLines = 5

// stderrSettle bounds the wait for the rest of an ended bot's stderr: a
// child it left behind may hold the pipe open.
const stderrSettle = 100 * time.Millisecond

// StderrLines returns the last n non-blank lines of FinalStderr (each cut
// to 200 bytes), joined with " | " so that they fit a one-line verdict;
// "" when the bot wrote nothing.
func (p *Process) StderrLines(n int) string {
	return lastLines(p.FinalStderr(), n, 200)
}

// FinalStderr returns Stderr, first waiting (briefly) for the rest of an
// ended bot's output to arrive from the pipe, so that what it printed
// just before it ended is there.
func (p *Process) FinalStderr() string {
	if p.stderr == nil {
		return ""
	}
	select {
	case <-p.done:
		t := time.NewTimer(stderrSettle)
		select {
		case <-p.stderrDone:
		case <-t.C:
		}
		t.Stop()
	default:
	}
	return p.stderr.String()
}

// lastLines returns the last n non-blank lines of text, each cut to max
// bytes, joined with " | ".
func lastLines(text string, n, max int) string {
	var lines []string
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			l = clipMiddle(l, max)
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// Pause stops the bot and everything it started so it cannot think on
// the opponent's time: through the freezer of its cgroup where the
// sandbox gives it one, otherwise with SIGSTOP to its process group and
// to every process of its cgroup (which catches children that left the
// group). It first lets the bot finish what it does right after
// answering: it stops the bot once every thread of it is blocked, or
// after the grace (Config.PauseGrace). A bot that is then idle, blocked
// where only the arena's next command can wake it (a brain reading its
// input, with no thread or process that a timer or another process could
// wake, see blocked), cannot think and is left as it is: stopping it and
// continuing it would only cost the move time.
func (p *Process) Pause() {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	if !p.paused {
		idle := p.waitBlocked(p.grace)
		p.paused, p.held = true, !idle
		if idle {
			return
		}
		if p.ownGroup && p.group.Freeze() {
			return
		}
		syscall.Kill(-p.Pid(), syscall.SIGSTOP)
		if p.sandboxed {
			p.signalAll(syscall.SIGSTOP)
		}
		if p.recontinue != nil {
			p.recontinue.Stop()
		}
	}
}

// Resume continues a paused bot, and continues its group again a few
// times over the next 200 ms unless it is paused or gone by then (see
// recontinueAfter).
func (p *Process) Resume() {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	if p.paused {
		p.paused = false
		p.contAt = time.Now()
		p.contCPU, p.contCPUOK = p.group.CPUTime()
		if !p.held {
			return // idle, never stopped
		}
		p.held = false
		if p.ownGroup && p.group.Thaw() {
			return
		}
		syscall.Kill(-p.Pid(), syscall.SIGCONT)
		if p.sandboxed {
			p.signalAll(syscall.SIGCONT)
		}
		p.late = 0
		if p.recontinue == nil {
			p.recontinue = time.AfterFunc(recontinueAfter[0], p.continueLate)
		} else {
			p.recontinue.Reset(recontinueAfter[0])
		}
	}
}

// WriteResume sends text to a paused bot and then continues it, so that
// the bot, woken once, finds its input waiting rather than being woken
// by the continue and again by the input. When the pipe cannot take all
// of s at once, or the bot is not paused, the bot is continued first and
// the rest written as WriteString does.
func (p *Process) WriteResume(s string, deadline time.Time) error {
	if p.stdin == nil {
		return errors.New("bot has no input pipe")
	}
	p.pauseMu.Lock()
	paused := p.paused
	p.pauseMu.Unlock()
	if !paused {
		return p.WriteString(s, deadline)
	}
	p.log.Log('>', s)
	n, err := p.writeNow(s)
	p.Resume()
	if err == nil && n == len(s) {
		return nil
	}
	return p.writeRest(s[n:], deadline)
}

// writeNow writes what the input pipe takes of s without waiting.
func (p *Process) writeNow(s string) (int, error) {
	rc, err := p.stdin.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		n, werr = syscall.Write(int(fd), []byte(s))
		n = max(n, 0)
		return true
	})
	return n, cmp.Or(werr, err)
}

// signalAll sends sig to every process of a sandboxed bot that may have
// left its process group: those of its cgroup, and its descendants (in a
// pid namespace the bot is the init, so every process it started, a
// double-forked daemon too, stays its descendant).
func (p *Process) signalAll(sig syscall.Signal) {
	if p.ownGroup {
		p.group.signal(sig)
	}
	for _, pid := range p.descendants() {
		syscall.Kill(pid, sig)
	}
}

// continueLate sends one late continue and schedules the next.
func (p *Process) continueLate() {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	select {
	case <-p.done:
		return // reaped: the group id may belong to someone else
	default:
	}
	if p.paused {
		return
	}
	syscall.Kill(-p.Pid(), syscall.SIGCONT)
	p.late++
	if p.late < len(recontinueAfter) {
		p.recontinue.Reset(recontinueAfter[p.late])
	}
}

// Kill ends the bot and every process it started, then reaps it.
func (p *Process) Kill() {
	syscall.Kill(-p.Pid(), syscall.SIGKILL)
	if p.ownGroup {
		p.group.KillAll()
	}
	p.awaitKilled()
	p.noteCPU()
	p.group.forget(p.Pid())
	if p.next != nil {
		p.nextOnce.Do(p.next)
	}
}

// awaitKilled waits for the killed bot to be reaped; one whose resident
// init does not tell its end in time has the init ended too.
func (p *Process) awaitKilled() {
	if p.abandon == nil {
		<-p.done
		return
	}
	t := time.NewTimer(residentGrace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		p.abandon()
		<-p.done
	}
}

// Close kills the bot if it still runs, closes the pipes and, when the
// process owns its group, removes the group.
func (p *Process) Close() {
	p.Kill()
	if p.stdin != nil {
		p.stdin.Close()
		p.stdout.Close()
	}
	if p.ownGroup {
		p.group.Close()
	}
	p.pauseMu.Lock()
	p.watch.close()
	p.pauseMu.Unlock()
}

// clipMiddle shortens a line longer than max bytes by cutting out its
// middle: the start says what spoke and the end usually says what went
// wrong ("...: [Errno 2] No such file or directory"), while a long path in
// between is what can go.
func clipMiddle(line string, max int) string {
	if len(line) <= max {
		return line
	}
	head := max / 3
	tail := max - head
	for head > 0 && !utf8.RuneStart(line[head]) {
		head--
	}
	from := len(line) - tail
	for from < len(line) && !utf8.RuneStart(line[from]) {
		from++
	}
	return line[:head] + " ... " + line[from:]
}
