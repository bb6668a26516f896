package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The Gomocup file protocol starts its brain on every move. A prestarted
// init (Prestarted) takes the set-up off the move, but it is made between
// two moves: a brain whose opponent answers at once, and every move of a
// benchmark, waits for it. A Resident init is made once for the seat's
// whole game: it sets every layer up, then stays in its namespaces as
// their pid 1 and starts each move's bot itself (a fork and an exec,
// like a bare start), waits for it, kills whatever it left in the
// namespace and tells the arena how it ended. The bots it starts inherit
// every layer from the thread that forks them; the init's other
// threads (the Go runtime's) get the same seccomp filter and user.
//
// What a bot may do to its resident init: it runs as the same user, so
// it may send it a signal, which ends the init at worst (the arena then
// sees the init gone, and its seat starts the next bots without it). The
// init is not dumpable, so the bot cannot read or write its memory or
// take its descriptors, and the filter refuses ptrace. Its bots' filter
// holds no signal handler back for the arena (see filter): they run only
// during their move, and are never paused.

// Messages of a resident init to the arena, the first byte of each.
const (
	residentReady   = 'r' // set up; waiting for a launch
	residentFailed  = 'e' // the set-up failed (the text follows); the init exits
	residentStarted = 's' // the bot is started; its pidfd comes as SCM_RIGHTS
	residentNoExec  = 'x' // the bot could not be executed (the text follows)
	residentEnded   = 'w' // the bot ended (a residentEnd follows, see encode)
)

// residentSeen is the arena's answer to residentStarted, once it has read
// the bot's process id: the init reaps the bot only after it, so the id
// is the bot's while the arena reads it.
const residentSeen = 'a'

// residentLaunch is a launch's message to a resident init: what to
// execute; its standard files come as SCM_RIGHTS. On the socket it is
// NUL-terminated strings: the path, the count of arguments, the
// arguments, then the environment (none of which can hold a NUL).
type residentLaunch struct {
	Path string
	Args []string
	Env  []string
}

// encode writes l as the init reads it (see parseLaunch).
func (l residentLaunch) encode() []byte {
	var b []byte
	for _, s := range append(append([]string{l.Path, strconv.Itoa(len(l.Args))}, l.Args...), l.Env...) {
		b = append(append(b, s...), 0)
	}
	return b
}

// parseLaunch reads a launch message (see residentLaunch).
func parseLaunch(data []byte) (residentLaunch, error) {
	if len(data) == 0 || data[len(data)-1] != 0 {
		return residentLaunch{}, errors.New("the launch does not end in NUL")
	}
	f := strings.Split(string(data[:len(data)-1]), "\x00")
	if len(f) < 2 {
		return residentLaunch{}, errors.New("the launch names no program")
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 0 || n > len(f)-2 {
		return residentLaunch{}, fmt.Errorf("the launch's count of arguments %q", f[1])
	}
	l := residentLaunch{Path: f[0], Args: f[2 : 2+n], Env: f[2+n:]}
	if l.Path == "" {
		return residentLaunch{}, errors.New("the launch names no program")
	}
	return l, nil
}

// residentEnd tells how a resident init's bot ended: its wait status and
// the CPU time it and the children it waited for used. On the socket it
// is 12 bytes, little-endian: the status (4), the nanoseconds (8).
type residentEnd struct {
	Status uint32
	CPU    int64
}

// encode writes e as the arena reads it (see parseEnd).
func (e residentEnd) encode() []byte {
	return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint32(nil, e.Status), uint64(e.CPU))
}

// parseEnd reads an end message (see residentEnd).
func parseEnd(data []byte) (residentEnd, error) {
	if len(data) != 12 {
		return residentEnd{}, fmt.Errorf("an end of %d bytes, not 12", len(data))
	}
	return residentEnd{Status: binary.LittleEndian.Uint32(data), CPU: int64(binary.LittleEndian.Uint64(data[4:]))}, nil
}

// Resident is a sandbox init that stays in its namespaces for a seat's
// whole game and starts every bot of the seat (see the comment above).
// It belongs to no bot's cgroup: the caller starts it inside the seat's
// cgroups (the start function of StartResident), where its bots are then
// born. One bot at a time: a Launch waits until the bot before has been
// waited for.
type Resident struct {
	// Cmd is the init's process.
	Cmd  *exec.Cmd
	plan *Plan
	// sock is the arena's end of the init's socket, blocking: the wait
	// for a bot's end is a thread's recvmsg, woken by the init's message
	// itself (Go's poller would add a second wake-up to every move).
	sock int

	mu    sync.Mutex // held from a Launch until its bot's end is read
	ready bool       // the ready message was read
	// last is the launch before, kept so that the next launch of the
	// same bot (a seat's next move) need not be prepared again.
	last residentCache
	null *os.File // /dev/null, for the standard files a bot has not
	// rbuf and roob take the init's messages (see read): one message
	// at a time is read, under mu, and used before the next.
	rbuf [4096]byte
	roob [24]byte // unix.CmsgSpace(4): one descriptor
	// broken: the init is gone, or said something out of turn; it is
	// launched no more.
	broken bool
}

// Resides reports whether bots of s can be started by a Resident: its
// bots have namespaces of their own (the init is their pid 1 and kills
// whatever a bot leaves there) and run as a user of their own, which
// every thread of the init becomes too.
func (s *Sandbox) Resides() bool {
	return s != nil && s.namespaces() && os.Geteuid() == 0
}

// StartResident starts a resident init that sets every layer of plan up
// and then waits for its bots (see Resident), in its own process group,
// dying with the arena. start starts the init's command (nil: its Start
// method), as a group starts it inside the bot's cgroups.
func (s *Sandbox) StartResident(start func(*exec.Cmd) error, plan *Plan) (*Resident, error) {
	if !s.Resides() {
		return nil, errors.New("sandbox: this sandbox's bots cannot be started by a resident init")
	}
	if plan == nil || !plan.sp.NS {
		return nil, errors.New("sandbox: a resident init needs the plan of its bots")
	}
	sp := plan.sp
	sp.Wait, sp.Planned, sp.Resident = true, true, true
	cmd, sock, err := s.startWaiting(start, sp)
	if err != nil {
		return nil, fmt.Errorf("sandbox: start a resident init: %w", err)
	}
	return &Resident{Cmd: cmd, plan: plan, sock: sock}, nil
}

// devNull is /dev/null, opened at the first launch that needs it.
func (r *Resident) devNull() (*os.File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.null == nil {
		null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
		if err != nil {
			return nil, err
		}
		r.null = null
	}
	return r.null, nil
}

// Pid is the init's process id.
func (r *Resident) Pid() int { return r.Cmd.Process.Pid }

// Broken reports whether the init is gone or failed (it is launched no
// more).
func (r *Resident) Broken() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.broken
}

// residentCache is a launch as LaunchResident prepared it: what it was
// asked for, the message it sent, and the folders it handed to the bot
// (resolved), which the next launch of the same bot hands over again
// when they changed (a seat may write new files there between two
// moves).
type residentCache struct {
	path, dir     string
	args, env, rw []string
	data          []byte
	handed        []string
	// stamps are the modification times of the handed folders taken just
	// before they were last handed over; nil when they were too recent to
	// tell a later change by (see folderStamps).
	stamps []unix.Timespec
}

// stampSettle is how old a folder's modification time must be for a
// later change to be sure to give it another: file times come from a
// clock that ticks once a jiffy (at most 10 ms).
const stampSettle = 50 * time.Millisecond

// folderStamps returns the modification times of dirs, and whether all
// are older than stampSettle (nil if one cannot be read).
func folderStamps(dirs []string) ([]unix.Timespec, bool) {
	stamps := make([]unix.Timespec, len(dirs))
	settled := true
	limit := time.Now().Add(-stampSettle).UnixNano()
	for i, d := range dirs {
		var st unix.Stat_t
		if err := unix.Stat(d, &st); err != nil {
			return nil, false
		}
		stamps[i] = st.Mtim
		if st.Mtim.Nano() > limit {
			settled = false
		}
	}
	return stamps, settled
}

// same reports whether c is the launch of cmd with extraEnv and writable.
func (c *residentCache) same(cmd *exec.Cmd, extraEnv, writable []string) bool {
	return c.data != nil && c.path == cmd.Path && c.dir == cmd.Dir && slices.Equal(c.args, cmd.Args) &&
		slices.Equal(c.env, extraEnv) && slices.Equal(c.rw, writable)
}

// residentAnswer bounds how long the arena waits for the init to be set
// up, and then for each bot to be started: both take milliseconds.
const residentAnswer = 10 * time.Second

// ErrResidentGone is Launch's answer when the init can start no more
// bots: it is gone, failed to set itself up, or broke its protocol.
var ErrResidentGone = errors.New("sandbox: the resident init is gone")

// ResidentRun is one bot a Resident started.
type ResidentRun struct {
	// Pid is the bot's process id (in the arena's pid namespace); the
	// bot leads a process group of its own.
	Pid int
	r   *Resident
}

// Launch has the resident init start the bot cmd describes (Path, Args
// and Dir set; its Stdin, Stdout and Stderr *os.File or nil for
// /dev/null) as Wrap and a start of cmd would: the same layers,
// environment and folders. The bot must fit the init's plan
// (ErrUnplanned otherwise). ErrResidentGone: the init can start no bot
// any more; any other error leaves it ready for the next launch (the
// bot could not be executed, say). Wait for the run's end before the
// next Launch.
func (s *Sandbox) LaunchResident(r *Resident, cmd *exec.Cmd, extraEnv, writable []string) (*ResidentRun, error) {
	null, err := r.devNull()
	if err != nil {
		return nil, fmt.Errorf("sandbox: launch: %w", err)
	}
	stdio, err := stdioOf(cmd, null)
	if err != nil {
		return nil, err
	}
	data, err := s.residentLaunch(r, cmd, extraEnv, writable)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	run, err := r.launch(data, stdio[:])
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	return run, nil // r.mu is released by Wait
}

// residentLaunch prepares the launch message of cmd as Wrap would
// prepare its spec: folders handed to the bot's user, the environment
// cleaned, and the bot checked against r's plan. The launch of the same
// bot as the one before only hands its folders over again and checks
// that they are still the files the init bound.
func (s *Sandbox) residentLaunch(r *Resident, cmd *exec.Cmd, extraEnv, writable []string) ([]byte, error) {
	r.mu.Lock()
	last := r.last
	r.mu.Unlock()
	if last.same(cmd, extraEnv, writable) {
		if ids, ok := viewIDs(r.plan.sp); !ok || !slices.Equal(ids, r.plan.ids) {
			return nil, ErrUnplanned
		}
		// A folder whose entries were neither added, removed nor renamed
		// since it was last handed over holds nothing new to hand over:
		// the seat rewrites its files in place (a walk of the folder
		// costs a tenth of a bare start).
		stamps, settled := folderStamps(last.handed)
		if stamps != nil && last.stamps != nil && slices.Equal(stamps, last.stamps) {
			return last.data, nil
		}
		if err := s.handOverTrees(last.handed); err != nil {
			return nil, err
		}
		if !settled {
			stamps = nil
		}
		r.mu.Lock()
		r.last.stamps = stamps
		r.mu.Unlock()
		return last.data, nil
	}
	sp, env, err := s.prepare(cmd, extraEnv, writable)
	if err != nil {
		return nil, err
	}
	if !r.plan.fits(sp) {
		return nil, ErrUnplanned
	}
	data := residentLaunch{Path: sp.Path, Args: sp.Args, Env: env}.encode()
	var handed []string
	for _, d := range append([]string{cmd.Dir}, writable...) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		handed = append(handed, d)
	}
	r.mu.Lock()
	r.last = residentCache{path: cmd.Path, dir: cmd.Dir, args: slices.Clone(cmd.Args), env: slices.Clone(extraEnv),
		rw: slices.Clone(writable), data: data, handed: handed}
	r.mu.Unlock()
	return data, nil
}

// launch sends the launch and reads its answer; r.mu is held.
func (r *Resident) launch(data []byte, stdio []int) (*ResidentRun, error) {
	if r.broken {
		return nil, ErrResidentGone
	}
	if !r.ready {
		kind, text, _, err := r.read(time.Now().Add(residentAnswer))
		if err != nil || kind != residentReady {
			return nil, r.fail(kind, text, err)
		}
		r.ready = true
	}
	if err := unix.Sendmsg(r.sock, data, unix.UnixRights(stdio...), nil, unix.MSG_NOSIGNAL); err != nil {
		return nil, r.fail(0, nil, err)
	}
	kind, text, fds, err := r.read(time.Now().Add(residentAnswer))
	switch {
	case err == nil && kind == residentStarted && len(fds) == 1:
		pid, perr := pidOfPidfd(fds[0])
		unix.Close(fds[0])
		if perr != nil {
			// The bot runs, but cannot be told apart: end the init, and
			// with it the bot.
			return nil, r.fail(0, nil, perr)
		}
		if err := unix.Send(r.sock, []byte{residentSeen}, unix.MSG_NOSIGNAL); err != nil {
			return nil, r.fail(0, nil, err)
		}
		return &ResidentRun{Pid: pid, r: r}, nil
	case err == nil && kind == residentNoExec:
		return nil, errors.New(string(text))
	}
	for _, fd := range fds {
		unix.Close(fd)
	}
	return nil, r.fail(kind, text, err)
}

// fail marks the init broken, ends it, and says why; r.mu is held.
func (r *Resident) fail(kind byte, text []byte, err error) error {
	r.broken = true
	r.Cmd.Process.Kill()
	switch {
	case kind == residentFailed:
		return fmt.Errorf("%w: %s", ErrResidentGone, text)
	case err != nil:
		return fmt.Errorf("%w: %v", ErrResidentGone, err)
	}
	return fmt.Errorf("%w: it said %q out of turn", ErrResidentGone, kind)
}

// read reads one message of the init: its kind, the rest of it (valid
// until the next read), and the descriptors it carried; r.mu is held. A
// zero deadline waits as long as it takes: the init's end ends the wait
// too (the socket then reads as closed).
func (r *Resident) read(deadline time.Time) (kind byte, text []byte, fds []int, err error) {
	for !deadline.IsZero() {
		left := time.Until(deadline)
		if left <= 0 {
			return 0, nil, nil, errors.New("the init did not answer in time")
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(r.sock), Events: unix.POLLIN}}, int(left/time.Millisecond)+1)
		if err == nil && n > 0 {
			break
		}
		if err != nil && !errors.Is(err, unix.EINTR) {
			return 0, nil, nil, err
		}
	}
	buf, oob := r.rbuf[:], r.roob[:]
	var n, oobn int
	for {
		n, oobn, _, _, err = unix.Recvmsg(r.sock, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return 0, nil, nil, err
	}
	if oobn > 0 {
		if msgs, perr := unix.ParseSocketControlMessage(oob[:oobn]); perr == nil {
			for _, m := range msgs {
				got, _ := unix.ParseUnixRights(&m)
				fds = append(fds, got...)
			}
		}
	}
	if n == 0 {
		return 0, nil, fds, errors.New("the init closed its socket")
	}
	return buf[0], buf[1:n], fds, nil
}

// pidOfPidfd reads the process id a pidfd stands for, in the arena's
// pid namespace: one ioctl (Linux 6.13), else the pidfd's fdinfo.
func pidOfPidfd(fd int) (int, error) {
	info := unix.PidfdInfo{Mask: unix.PIDFD_INFO_PID}
	if err := unix.IoctlPidfdInfo(fd, &info); err == nil && info.Mask&unix.PIDFD_INFO_PID != 0 && info.Pid > 0 {
		return int(info.Pid), nil
	}
	data, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
	if err != nil {
		return 0, fmt.Errorf("the bot's pidfd: %w", err)
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("Pid:")); ok {
			pid, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			if err != nil || pid <= 0 {
				return 0, fmt.Errorf("the bot's pidfd names no process (%q)", v)
			}
			return pid, nil
		}
	}
	return 0, errors.New("the bot's pidfd names no process")
}

// Wait waits until the bot has ended and been reaped, and returns its
// wait status and CPU time (its own and its waited-for children's), once
// the init has killed and reaped whatever the bot left. An error says
// the init is gone
// (killed, or out of turn): the bot and everything of it died with the
// init's namespace, and its status is unknown.
func (run *ResidentRun) Wait() (syscall.WaitStatus, time.Duration, error) {
	r := run.r
	defer r.mu.Unlock()
	kind, text, fds, err := r.read(time.Time{})
	for _, fd := range fds {
		unix.Close(fd)
	}
	if err == nil && kind == residentEnded {
		if end, perr := parseEnd(text); perr == nil {
			return syscall.WaitStatus(end.Status), time.Duration(end.CPU), nil
		}
	}
	err = r.fail(kind, text, err)
	r.Cmd.Wait()
	return 0, 0, err
}

// Abandon ends the init, and with it the bot and its namespace: for a
// bot whose end the init does not tell in time. A Wait under way then
// returns.
func (r *Resident) Abandon() { r.Cmd.Process.Kill() }

// Close ends the init (and whatever still runs in its namespace) and
// reaps it. A Wait under way returns first.
func (r *Resident) Close() {
	r.Cmd.Process.Kill()
	r.mu.Lock()
	r.broken = true
	if r.sock >= 0 {
		unix.Close(r.sock)
		r.sock = -1
	}
	if r.null != nil {
		r.null.Close()
		r.null = nil
	}
	r.mu.Unlock()
	r.Cmd.Wait()
}

// dropAllPrivileges is dropPrivileges for a resident init: every thread
// of the process becomes the bot's user, not only the one that starts
// the bots (the runtime's system calls change the ids of all threads).
func dropAllPrivileges(s spec) error {
	if s.UID < 0 {
		return errors.New("a resident init needs a user of its own for its bots")
	}
	if err := dropBoundingSet(); err != nil {
		return err
	}
	if err := syscall.Setgroups(nil); err != nil {
		return fmt.Errorf("setgroups: %w", err)
	}
	if err := syscall.Setresgid(s.GID, s.GID, s.GID); err != nil {
		return fmt.Errorf("setresgid: %w", err)
	}
	if err := syscall.Setresuid(s.UID, s.UID, s.UID); err != nil {
		return fmt.Errorf("setresuid: %w", err)
	}
	// Not dumpable: a bot, the same user, may not read or write the
	// init's memory nor take its descriptors through /proc.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("not dumpable: %w", err)
	}
	return nil
}

// reside is the resident init's side (see Resident): it sets every layer
// of s up, then starts a bot for each launch until the arena closes the
// socket. It never returns.
func reside(s spec) {
	tell := func(kind byte, text string, rights []byte) {
		unix.Sendmsg(launchFD, append([]byte{kind}, text...), rights, nil, unix.MSG_NOSIGNAL)
	}
	if err := setUp(s, prepared{}); err != nil {
		tell(residentFailed, err.Error(), nil)
		os.Exit(126)
	}
	// The bots must not inherit the socket.
	if _, err := unix.FcntlInt(launchFD, unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		tell(residentFailed, fmt.Sprintf("the launch socket: %v", err), nil)
		os.Exit(126)
	}
	tell(residentReady, "", nil)
	buf := make([]byte, 256<<10)
	oob := make([]byte, unix.CmsgSpace(3*4))
	for {
		n, oobn, _, _, err := unix.Recvmsg(launchFD, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			os.Exit(0) // the arena let go
		}
		stdio, err := launchFiles(oob[:oobn])
		if err != nil {
			tell(residentFailed, err.Error(), nil)
			os.Exit(126)
		}
		l, err := parseLaunch(buf[:n])
		if err != nil {
			tell(residentFailed, fmt.Sprintf("read the launch: %v", err), nil)
			os.Exit(126)
		}
		pidfd := -1
		pid, err := syscall.ForkExec(l.Path, l.Args, &syscall.ProcAttr{Env: l.Env,
			Files: []uintptr{uintptr(stdio[0]), uintptr(stdio[1]), uintptr(stdio[2])},
			Sys:   &syscall.SysProcAttr{Setpgid: true, PidFD: &pidfd}})
		for _, fd := range stdio {
			unix.Close(fd)
		}
		if err != nil {
			tell(residentNoExec, fmt.Sprintf("execute %s: %v", l.Path, ExplainExec(l.Path, err)), nil)
			continue
		}
		tell(residentStarted, "", unix.UnixRights(pidfd))
		unix.Close(pidfd)
		// The bot's end first, left unreaped (its pid stays its own), then
		// the arena's word that it has read the pid, which has arrived
		// long before but for a bot that ended at once: the init is not
		// woken while its bot runs.
		awaitEnd(pid)
		if !awaitSeen() {
			os.Exit(0) // the arena let go: the namespace dies with the init
		}
		end := reapBot(pid)
		killRest()
		tell(residentEnded, string(end.encode()), nil)
	}
}

// awaitSeen waits for the arena's residentSeen (false: the arena let go,
// or broke the protocol).
func awaitSeen() bool {
	var b [1]byte
	for {
		n, _, err := unix.Recvfrom(launchFD, b[:], 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n == 1 && b[0] == residentSeen
	}
}

// awaitEnd waits until the bot pid has ended, without reaping it.
func awaitEnd(pid int) {
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// launchFiles takes the bot's three standard files out of a launch's
// control message.
func launchFiles(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil || len(msgs) != 1 {
		return nil, fmt.Errorf("the bot's files: %v", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 3 {
		return nil, fmt.Errorf("the bot's files: %d, %v", len(fds), err)
	}
	return fds, nil
}

// reapBot waits for the bot pid and tells how it ended.
func reapBot(pid int) residentEnd {
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, &ru); !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return residentEnd{Status: uint32(ws), CPU: int64(cpu)}
}

// killRest kills and reaps every other process of the namespace: what a
// bot left ends with it, before its end is told, as it would had the bot
// been the namespace's init. An init without children is alone in the
// namespace: whatever the bot started that lives on is a descendant of
// the init (an orphan's new parent is the init, or a descendant of it
// that asked to be), so the usual look costs one wait4.
func killRest() {
	for {
		other, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		if errors.Is(err, syscall.EINTR) || other > 0 {
			continue // one that had ended is reaped: look again
		}
		if err == nil {
			syscall.Kill(-1, syscall.SIGKILL)
			for {
				if _, err := syscall.Wait4(-1, nil, 0, nil); errors.Is(err, syscall.ECHILD) {
					break
				}
			}
		}
		return
	}
}
