package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

// Most of what a sandboxed start costs is the init's own start: a fork
// with new namespaces and the execution of the arena's executable, whose
// Go runtime and package initialisation take milliseconds, and the
// detach of the machine's root from the bot's mount namespace, where the
// kernel waits for an RCU grace period (0.05 to 25 ms on a busy
// machine). None of it depends on what the bot executes. A Prestarted
// init has paid the start ahead of time and waits, in its new
// namespaces, for the bot it is to become: its spec, environment and
// standard files arrive over a socket (the files as SCM_RIGHTS). An init
// prestarted for a Plan (the bot's folders and layers) has set every
// layer up, the detach included, before it waits: the launch brings only
// what to execute. The Gomocup file protocol starts the brain on every
// move, with the same folders each time; with an init planned for it
// between two moves, the start of the next costs a message and an exec.

// Prestarted is a sandbox init started ahead of its bot. It belongs to
// no bot's cgroup: the caller moves it into the bot's cgroups before
// Launch, which is safe as the init starts nothing before it executes
// the bot.
type Prestarted struct {
	// Cmd is the init's process, started; once launched, it is the bot.
	Cmd  *exec.Cmd
	ns   bool  // started in new namespaces
	plan *Plan // the bot it set every layer up for (nil: none)
	sock int   // the arena's end of the socket the init waits on
	// mnt holds the init's mount namespace (-1: none), so that the bot's
	// exit does not wait for its mounts to be taken down (see Reaped).
	mnt int
}

// launchFD is the init's end of its socket.
const launchFD = 3

// Plan is the start of a bot as far as it does not depend on what
// exactly is executed: its view of the file system and every other
// layer. An init prestarted for a plan (see Prestart) sets all of it up
// before its bot is launched, the detach of the machine's root from the
// bot's mount namespace included (the kernel waits for an RCU grace
// period there, up to milliseconds on a busy machine): a seat's next
// bot, which has the same folders as the one before, then costs a
// message and an exec.
type Plan struct {
	sp spec
	// ids are the files the plan's view binds, as they were when it was
	// made: a folder replaced since (same path, another file) is not
	// the one the init bound.
	ids []fileID
}

// fileID tells a file apart from another that later takes its path.
type fileID struct{ dev, ino uint64 }

// Plan makes the plan of the bot cmd (Path, Args and Dir set) would
// start, with the further writable folders, for a Prestart ahead of a
// bot like it (nil when there is no plan to make).
func (s *Sandbox) Plan(cmd *exec.Cmd, writable []string) *Plan {
	if cmd.Dir == "" || !filepath.IsAbs(cmd.Dir) {
		return nil
	}
	sp := s.spec(cmd.Path, cmd.Args, cmd.Dir, writable)
	ids, ok := viewIDs(sp)
	if !ok {
		return nil
	}
	sp.Path, sp.Args, sp.Env = "", nil, nil
	return &Plan{sp: sp, ids: ids}
}

// viewIDs lists the ids of the files the view of sp binds (ok false if
// one is missing).
func viewIDs(sp spec) ([]fileID, bool) {
	paths := append(append([]string{sp.Dir}, sp.Writable...), sp.ReadOnly...)
	ids := make([]fileID, len(paths))
	for i, p := range paths {
		var st unix.Stat_t
		if err := unix.Stat(p, &st); err != nil {
			return nil, false
		}
		ids[i] = fileID{uint64(st.Dev), st.Ino}
	}
	return ids, true
}

// fits reports whether the bot of spec sp (made by prepare) can be the
// bot of an init set up for plan p: the same layers and view, of the
// same files.
func (p *Plan) fits(sp spec) bool {
	sp.Path, sp.Args, sp.Env = "", nil, nil
	if !reflect.DeepEqual(sp, p.sp) {
		return false
	}
	ids, ok := viewIDs(sp)
	return ok && slices.Equal(ids, p.ids)
}

// Prestart starts an init that waits for the bot it is to become (see
// Prestarted), in its own process group, dying with the arena. start
// starts the init's command (nil: its Start method), as a group starts
// it inside the bot's cgroups. With a plan the init sets every layer of
// that plan up before it waits, and only a bot that fits the plan can be
// launched in it; without one it prepares what is the same for every
// bot.
func (s *Sandbox) Prestart(start func(*exec.Cmd) error, plan *Plan) (*Prestarted, error) {
	ns := s.namespaces()
	sp := spec{Wait: true, NS: ns, TmpSize: DefaultTmpSize, UID: -1, GID: -1}
	if plan != nil && plan.sp.NS == ns {
		sp = plan.sp
		sp.Wait, sp.Planned = true, true
	} else {
		plan = nil
	}
	cmd, sock, err := s.startWaiting(start, sp)
	if err != nil {
		return nil, fmt.Errorf("sandbox: prestart: %w", err)
	}
	return &Prestarted{Cmd: cmd, ns: ns, plan: plan, sock: sock, mnt: s.holdMounts(cmd.Process.Pid)}, nil
}

// startWaiting starts an init of spec sp that waits on a socket at
// launchFD (a prestarted or a resident init), in its own process group,
// dying with the arena, through start (nil: the command's Start). It
// returns the init's command and the arena's end of the socket.
func (s *Sandbox) startWaiting(start func(*exec.Cmd) error, sp spec) (*exec.Cmd, int, error) {
	if start == nil {
		start = (*exec.Cmd).Start
	}
	data, err := json.Marshal(sp)
	if err != nil {
		return nil, -1, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, -1, err
	}
	theirs := os.NewFile(uintptr(fds[1]), "sandbox-launch")
	defer theirs.Close()
	cmd := &exec.Cmd{Path: s.exe, Args: []string{initName}, Env: []string{envSpec + "=" + string(data)},
		ExtraFiles:  []*os.File{theirs}, // launchFD
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}}
	if sp.NS {
		s.setNamespaces(cmd.SysProcAttr)
	}
	if err := start(cmd); err != nil {
		unix.Close(fds[0])
		return nil, -1, err
	}
	return cmd, fds[0], nil
}

// Fits reports whether pr can become a bot of s: it was started in the
// namespaces s asks for.
func (s *Sandbox) Fits(pr *Prestarted) bool { return pr.ns == s.namespaces() && pr.Cmd.Path == s.exe }

// Launch makes the prestarted init pr the bot that cmd describes (Path,
// Args and Dir set; its Stdin, Stdout and Stderr *os.File or nil for
// /dev/null), as
// Wrap and a start of cmd would: the same layers, environment (the
// arena's less its secrets, plus extraEnv) and writable folders. On
// success cmd is pr.Cmd's to use no more: the bot's process is pr.Cmd.
// A failed Launch leaves the init killed and reaped.
func (s *Sandbox) Launch(pr *Prestarted, cmd *exec.Cmd, extraEnv, writable []string) error {
	// The socket stays open until the bot is reaped (see Reaped): closed
	// with the init's ready message unread in it, it would end the launch
	// message too (the init's receive fails with ECONNRESET).
	err := s.launch(pr, cmd, extraEnv, writable)
	if err != nil {
		pr.Cmd.Process.Kill()
		pr.Cmd.Wait()
		pr.Reaped()
		return err
	}
	s.Notifications(pr.Cmd.Process.Pid, nil)
	return nil
}

func (s *Sandbox) launch(pr *Prestarted, cmd *exec.Cmd, extraEnv, writable []string) error {
	if !s.Fits(pr) {
		return errors.New("sandbox: the prestarted init does not fit this sandbox")
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("sandbox: launch: %w", err)
	}
	defer null.Close()
	stdio, err := stdioOf(cmd, null)
	if err != nil {
		return err
	}
	sp, env, err := s.prepare(cmd, extraEnv, writable)
	if err != nil {
		return err
	}
	if pr.plan != nil && !pr.plan.fits(sp) {
		return ErrUnplanned
	}
	if pr.plan == nil && sp.NS {
		// The init binds from its copy of the machine's mounts, where a
		// missing path is an error: a bot's own file that is not there
		// (the folder of a missing #! interpreter) is left out, as a new
		// init leaves it out, and the bot's exec says what is missing.
		sp.ReadOnly = slices.DeleteFunc(sp.ReadOnly, func(p string) bool {
			_, err := os.Lstat(p)
			return errors.Is(err, os.ErrNotExist)
		})
		sp.From = resolved(append(append([]string{sp.Dir}, sp.Writable...), sp.ReadOnly...))
	}
	sp.Env = env
	data, err := json.Marshal(sp)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if err := unix.Sendmsg(pr.sock, data, unix.UnixRights(stdio[:]...), nil, unix.MSG_NOSIGNAL); err != nil {
		return fmt.Errorf("sandbox: launch the prestarted init: %w", err)
	}
	return nil
}

// stdioOf returns the descriptors of cmd's standard files, null's for
// those that are nil.
func stdioOf(cmd *exec.Cmd, null *os.File) ([3]int, error) {
	var stdio [3]int
	for i, f := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		if f == nil {
			f = null
		}
		file, ok := f.(*os.File)
		if !ok {
			return stdio, errors.New("sandbox: launch: the bot's standard files must be files")
		}
		stdio[i] = int(file.Fd())
	}
	return stdio, nil
}

// resolved maps each of paths that has a symbolic link on the way to
// what it resolves to (see spec.From).
func resolved(paths []string) map[string]string {
	var from map[string]string
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			if from == nil {
				from = map[string]string{}
			}
			from[p] = real
		}
	}
	return from
}

// ErrUnplanned is Launch's answer for a bot that does not fit the plan
// its init was prestarted for (other folders, or the same paths holding
// other files now): the caller starts it through a new init.
var ErrUnplanned = errors.New("sandbox: the bot does not fit the plan its init was prestarted for")

// holdMounts opens the mount namespace of the init pid (-1 when it has
// none of its own): while it is open, the bot's exit need not wait for
// the kernel to take its mounts down, which costs an RCU grace period.
func (s *Sandbox) holdMounts(pid int) int {
	if !s.namespaces() {
		return -1
	}
	fd, err := unix.Open(fmt.Sprintf("/proc/%d/ns/mnt", pid), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
}

// HoldMounts keeps the mount namespace of the bot pid, just started
// through Wrap, until release is called (after the bot is reaped), so
// that taking its mounts down is not part of the bot's exit, which the
// arena times. release is never nil.
func (s *Sandbox) HoldMounts(pid int) (release func()) {
	fd := s.holdMounts(pid)
	return func() {
		if fd >= 0 {
			unix.Close(fd)
			fd = -1
		}
	}
}

// readyByte is the message a prestarted init sends on its socket once it
// waits for its bot, its set-up done.
const readyByte = 'r'

// Ready waits until the prestarted init has done what it can do ahead of
// its bot (its start, the layers of its plan or the part of them that is
// the same for every bot) and waits for it, so that a Launch then costs
// what it costs at best. An error says the init is gone (it could not
// set itself up: its launch would fail), or that ctx ended first. Call
// it before Launch, not during.
func (pr *Prestarted) Ready(ctx context.Context) error {
	fds := []unix.PollFd{{Fd: int32(pr.sock), Events: unix.POLLIN}}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := unix.Poll(fds, 50)
		if errors.Is(err, unix.EINTR) || (err == nil && n == 0) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox: wait for the prestarted init: %w", err)
		}
		var msg [1]byte
		got, _, err := unix.Recvfrom(pr.sock, msg[:], unix.MSG_DONTWAIT)
		switch {
		case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("sandbox: wait for the prestarted init: %w", err)
		case got == 1 && msg[0] == readyByte:
			return nil
		}
		return errors.New("sandbox: the prestarted init ended before it was ready")
	}
}

// Close ends a prestarted init that will not be launched, and reaps it.
func (pr *Prestarted) Close() {
	pr.closeSock() // the init exits when its socket ends
	pr.Cmd.Process.Kill()
	pr.Cmd.Wait()
	pr.Reaped()
}

// Reaped lets the mount namespace and the socket of a launched init go,
// once the bot has been reaped. The namespace outlives the bot until
// then: taking its mounts down (the kernel waits for an RCU grace
// period) is then not part of the bot's exit, which the arena times.
func (pr *Prestarted) Reaped() {
	pr.closeSock()
	if pr.mnt >= 0 {
		unix.Close(pr.mnt)
		pr.mnt = -1
	}
}

// closeSock closes the arena's end of the init's socket, once.
func (pr *Prestarted) closeSock() {
	if pr.sock >= 0 {
		unix.Close(pr.sock)
		pr.sock = -1
	}
}

// awaitLaunch is the init's side of Launch: it waits for the spec, puts
// the bot's standard files in place and returns the spec. It exits
// quietly when the arena closes the socket without a launch.
func awaitLaunch() spec {
	// Ready: what could be done ahead is done (see Prestarted.Ready).
	// The arena may have let go already; it then reads nothing.
	unix.Sendto(launchFD, []byte{readyByte}, unix.MSG_NOSIGNAL, nil)
	buf := make([]byte, 1<<20)
	oob := make([]byte, unix.CmsgSpace(3*4))
	n, oobn, _, _, err := unix.Recvmsg(launchFD, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		fail(fmt.Errorf("wait for the bot: %w", err))
	}
	if n == 0 {
		os.Exit(0) // not needed after all
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		fail(fmt.Errorf("the bot's files: %v", err))
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 3 {
		fail(fmt.Errorf("the bot's files: %d, %v", len(fds), err))
	}
	for i, fd := range fds {
		if err := unix.Dup3(fd, i, 0); err != nil {
			fail(fmt.Errorf("the bot's files: %w", err))
		}
	}
	for _, fd := range append(fds, launchFD) {
		if fd > 2 {
			unix.Close(fd)
		}
	}
	var s spec
	if err := json.Unmarshal(buf[:n], &s); err != nil {
		fail(fmt.Errorf("read spec: %w", err))
	}
	return s
}
