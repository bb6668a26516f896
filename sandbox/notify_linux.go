package sandbox

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Notifier follows the notifications of one bot's seccomp filter, whose
// listener every process of the bot holds at NotifyFD: the filter holds
// back each installation of a signal handler until arena has answered
// it. What arena learns that way is that nothing changed: a process of
// the bot found catching no signal goes on catching none while the count
// of notifications stays the same, so a look at an idle bot need not
// read its stat file again (package bot).
type Notifier struct {
	// gen counts the notifications answered. It is raised before the
	// answer: by the time a handler is in place, gen has moved.
	gen atomic.Uint64
	// served: the listener is held and served. Once false again (the
	// bot is gone, or never let its listener be taken), nothing may be
	// concluded from gen any more.
	served atomic.Bool
}

// Snapshot returns the count of notifications answered and whether the
// count is kept (false for a nil Notifier).
func (n *Notifier) Snapshot() (gen uint64, served bool) {
	if n == nil {
		return 0, false
	}
	served = n.served.Load()
	return n.gen.Load(), served
}

// notifiers holds a sandbox's Notifiers, by bot pid, while they serve.
type notifiers struct {
	mu sync.Mutex
	m  map[int]*Notifier
}

// notifyTake bounds how long a Notifier waits for the listener to
// appear at NotifyFD (the init places it there just before it executes
// the bot; a prestarted init, earlier).
const notifyTake = 10 * time.Second

// Notifications starts serving the notifications of the sandboxed bot
// pid, just started, and returns its Notifier; a second call for the
// same bot returns the same Notifier (Launch serves its bots, and the
// starter asks again). Every notification must be answered, or the bot
// waits forever to install its handler: whoever starts a bot through
// Wrap calls Notifications. It serves until the bot is gone or done is
// closed. Nil for a nil Sandbox, or without the filter.
func (s *Sandbox) Notifications(pid int, done <-chan struct{}) *Notifier {
	if s == nil || s.notify == nil || !s.report.On(LayerSeccomp) {
		return nil
	}
	s.notify.mu.Lock()
	defer s.notify.mu.Unlock()
	if n := s.notify.m[pid]; n != nil {
		return n
	}
	n := &Notifier{}
	if s.notify.m == nil {
		s.notify.m = map[int]*Notifier{}
	}
	s.notify.m[pid] = n
	go func() {
		n.serve(pid, done)
		s.notify.mu.Lock()
		if s.notify.m[pid] == n {
			delete(s.notify.m, pid)
		}
		s.notify.mu.Unlock()
	}()
	return n
}

// serve takes the listener of process pid's filter and answers every
// notification (the system call then goes on as asked) until the
// process is gone or done is closed.
func (n *Notifier) serve(pid int, done <-chan struct{}) {
	f := takeListener(pid, done)
	if f == nil {
		return
	}
	defer f.Close()
	if done != nil {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-done:
				f.Close()
			case <-stop:
			}
		}()
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	n.served.Store(true)
	defer n.served.Store(false)
	for {
		var end bool
		err := rc.Read(func(fd uintptr) bool {
			var ready bool
			ready, end = n.answer(int(fd))
			return ready || end
		})
		if err != nil || end {
			return
		}
	}
}

// takeListener takes a copy of the listener the process pid holds at
// NotifyFD, waiting for it to appear (nil if it does not, or the
// process is gone first). It checks that what it took is a listener: a
// bot may have put something else there, and then gets no shortcut.
func takeListener(pid int, done <-chan struct{}) *os.File {
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(pidfd)
	end := time.Now().Add(notifyTake)
	wait := 20 * time.Microsecond
	for {
		fd, err := unix.PidfdGetfd(pidfd, NotifyFD, 0)
		switch {
		case err == nil && isListener(fd):
			if unix.SetNonblock(fd, true) != nil {
				unix.Close(fd)
				return nil
			}
			return os.NewFile(uintptr(fd), "seccomp listener of "+strconv.Itoa(pid))
		case err == nil:
			unix.Close(fd)
			return nil
		case !errors.Is(err, unix.EBADF):
			return nil // gone, or not ours to take
		}
		select {
		case <-done:
			return nil
		default:
		}
		if time.Now().After(end) {
			return nil
		}
		// A Go timer's slack would make the bot wait a millisecond for
		// its first handler.
		ts := unix.NsecToTimespec(int64(wait))
		unix.Nanosleep(&ts, nil)
		wait = min(2*wait, time.Millisecond)
	}
}

// isListener reports whether fd is a seccomp listener.
func isListener(fd int) bool {
	var buf [64]byte
	n, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf[:])
	return err == nil && string(buf[:n]) == "anon_inode:seccomp notify"
}

// seccompNotif and seccompNotifResp are struct seccomp_notif and struct
// seccomp_notif_resp of linux/seccomp.h.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	data  struct {
		nr   int32
		arch uint32
		ip   uint64
		args [6]uint64
	}
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

// answer answers the notification waiting on the listener fd, if there
// is one (ready), and reports the end of the bot (no process uses the
// filter any more, or the listener fails).
func (n *Notifier) answer(fd int) (ready, end bool) {
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if k, err := unix.Poll(pfd, 0); err != nil || k == 0 {
		return false, err != nil && !errors.Is(err, unix.EINTR)
	}
	if pfd[0].Revents&unix.POLLIN == 0 {
		return false, true // POLLHUP: the bot is gone
	}
	var req seccompNotif
	if err := notifyIoctl(fd, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req)); err != nil {
		// ENOENT: the caller was interrupted (or died) meanwhile.
		return true, !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EINTR)
	}
	n.gen.Add(1)
	resp := seccompNotifResp{id: req.id, flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
	notifyIoctl(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp)) // ENOENT: interrupted, it calls again
	return true, false
}

func notifyIoctl(fd int, req uint, arg unsafe.Pointer) error {
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg)); e != 0 {
		return e
	}
	return nil
}
