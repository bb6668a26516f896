package sandbox

import (
	"errors"
	"fmt"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// deniedSyscalls are refused (EPERM) to a bot: debugging and reading
// other processes, the kernel's administration, new namespaces and mounts,
// and the rarely used interfaces that carry most kernel bugs.
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"mount", "umount2", "pivot_root", "chroot", "mount_setattr", "move_mount", "open_tree",
	"fsopen", "fsconfig", "fsmount", "fspick", "unshare", "setns",
	"kexec_load", "kexec_file_load", "reboot", "init_module", "finit_module", "delete_module",
	"bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd",
	"open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "quotactl", "syslog",
	"swapon", "swapoff", "acct", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"sethostname", "setdomainname", "iopl", "ioperm", "uselib", "vhangup", "nfsservctl", "_sysctl",
	"fanotify_init", "io_uring_setup", "io_uring_enter", "io_uring_register",
}

// newNamespaces are the clone flags that would give a bot namespaces of
// its own (and the kernel surface that comes with them).
const newNamespaces = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// NotifyFD is the descriptor at which every process of a bot whose
// filter is on holds the listener of the filter's notifications: the
// init leaves it there, open across the exec, so that arena can take a
// copy (pidfd_getfd) however the bot was started, and serve it (see
// package bot). The filter refuses the bot every ioctl of a listener,
// so holding it gives the bot nothing; a bot that closes it can no
// longer install a signal handler (the kernel then answers ENOSYS).
const NotifyFD = 100

// seccompIoctlType is the ioctl type of the seccomp listener's requests
// (bits 8-15 of the request: '!').
const seccompIoctlType = 0x21

// filter is the seccomp policy of the bot's native system calls:
// everything is allowed but deniedSyscalls and a clone that asks for
// namespaces; clone3, whose flags a filter cannot read, answers "not
// implemented" so that C libraries fall back to clone. Installing a
// signal handler (rt_sigaction with a new action) is allowed once arena,
// told through the listener, has noted it: a bot that catches no signal
// and waits for its input cannot be woken by a timer, so arena may leave
// it running while the opponent thinks, and must know when that stops
// being true. The listener's own requests are refused. Without notify
// (a resident init's bots, which are never paused: see Resident) the
// filter holds nothing back.
func filter(notify bool) seccomp.Filter {
	f := seccomp.Filter{
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, Names: deniedSyscalls},
				{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{{
					Name:       "clone",
					Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: newNamespaces}},
				}, {
					Name: "ioctl",
					// (request & 0xff00) == '!' << 8: each bit of the
					// type is tested alone (BitsSet is "any of").
					Conditions: seccomp.ArgumentConditions{
						{Argument: 1, Operation: seccomp.BitsSet, Value: 0x2000},
						{Argument: 1, Operation: seccomp.BitsSet, Value: 0x0100},
						{Argument: 1, Operation: seccomp.BitsNotSet, Value: 0xff00 &^ (seccompIoctlType << 8)},
					},
				}}},
				{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
			},
		},
	}
	if notify && notifiable() {
		f.Policy.Syscalls = append(f.Policy.Syscalls, seccomp.SyscallGroup{
			Action: seccomp.ActionUserNotify, NamesWithCondtions: []seccomp.NameWithConditions{{
				Name:       "rt_sigaction",
				Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.NotEqual, Value: 0}},
			}}})
	}
	return f
}

// notifiable reports whether arena can take a bot's listener
// (pidfd_getfd, Linux 5.6, which also answers with
// SECCOMP_USER_NOTIF_FLAG_CONTINUE): on an older kernel the filter holds
// nothing back, for nobody could answer.
func notifiable() bool {
	_, err := unix.PidfdGetfd(-1, 0, 0)
	return !errors.Is(err, unix.ENOSYS)
}

// compileFilter assembles the filter (with notifications or without, see
// filter) into the program the kernel loads: the i386 system calls a
// 64-bit process can make (int $0x80) first, under the same rules, then
// the native ones.
func compileFilter(notify bool) ([]unix.SockFilter, error) {
	f := filter(notify)
	insts, err := f.Policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("assemble the filter: %w", err)
	}
	compat, err := compatFilter(notify)
	if err != nil {
		return nil, fmt.Errorf("assemble the filter: %w", err)
	}
	raw, err := bpf.Assemble(append(compat, insts...))
	if err != nil {
		return nil, fmt.Errorf("assemble the filter: %w", err)
	}
	prog := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		prog[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return prog, nil
}

// Offsets in struct seccomp_data.
const (
	dataNr   = 0
	dataArch = 4
	dataArg0 = 16 // each argument is 8 bytes; an i386 one is the low half
)

// compatFilter is the i386 part of the filter, which the native one
// (seccomp.Policy.Assemble) would let through whole: a 64-bit process
// can make i386 system calls, and the kernel would run, say, unshare or
// ptrace for it. It ends where the native part starts, for any other
// architecture.
func compatFilter(holdHandlers bool) ([]bpf.Instruction, error) {
	nr := func(name string) (uint32, error) {
		n, ok := arch.I386.SyscallNames[name]
		if !ok {
			return 0, fmt.Errorf("no i386 system call %s", name)
		}
		return uint32(n), nil
	}
	const (
		errPerm   = uint32(seccomp.ActionErrno) | uint32(unix.EPERM)
		errNosys  = uint32(seccomp.ActionErrno) | uint32(unix.ENOSYS)
		allow     = uint32(seccomp.ActionAllow)
		notify    = uint32(seccomp.ActionUserNotify)
		argOffset = 8
	)
	// body checks the system call number (loaded); each rule is a test
	// of it, then of one argument (loaded over it: a rule that does not
	// match reloads the number).
	var body []bpf.Instruction
	deny := func(n uint32, ret uint32) {
		body = append(body, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: n, SkipTrue: 1}, bpf.RetConstant{Val: ret})
	}
	withArg := func(n uint32, arg uint32, test []bpf.Instruction, ret uint32) {
		// jne n -> past; ld arg; test (skips 1 when it does not match); ret; ld nr
		body = append(body, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: n, SkipTrue: uint8(len(test) + 3)},
			bpf.LoadAbsolute{Off: dataArg0 + argOffset*arg, Size: 4})
		body = append(body, test...)
		body = append(body, bpf.RetConstant{Val: ret}, bpf.LoadAbsolute{Off: dataNr, Size: 4})
	}
	// umount is i386's old umount2 without flags.
	for _, name := range append(deniedSyscalls, "umount") {
		n, ok := arch.I386.SyscallNames[name]
		if !ok {
			continue // not on i386 (or under another name)
		}
		deny(uint32(n), errPerm)
	}
	clone3, err := nr("clone3")
	if err != nil {
		return nil, err
	}
	deny(clone3, errNosys)
	clone, err := nr("clone")
	if err != nil {
		return nil, err
	}
	withArg(clone, 0, []bpf.Instruction{bpf.JumpIf{Cond: bpf.JumpBitsNotSet, Val: newNamespaces, SkipTrue: 1}}, errPerm)
	ioctl, err := nr("ioctl")
	if err != nil {
		return nil, err
	}
	withArg(ioctl, 1, []bpf.Instruction{
		bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: 0xff00},
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: seccompIoctlType << 8, SkipTrue: 1},
	}, errPerm)
	// Handlers: rt_sigaction and sigaction with a new action, signal
	// with any handler but SIG_DFL (0).
	handlers := []string{"rt_sigaction", "sigaction", "signal"}
	if !holdHandlers || !notifiable() {
		handlers = nil
	}
	for _, name := range handlers {
		n, err := nr(name)
		if err != nil {
			return nil, err
		}
		withArg(n, 1, []bpf.Instruction{bpf.JumpIf{Cond: bpf.JumpEqual, Val: 0, SkipTrue: 1}}, notify)
	}
	body = append(body, bpf.RetConstant{Val: allow})

	if len(body) > 254 {
		return nil, fmt.Errorf("the i386 filter is too long (%d instructions)", len(body))
	}
	head := []bpf.Instruction{
		bpf.LoadAbsolute{Off: dataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: uint32(arch.I386.ID), SkipTrue: uint8(len(body) + 1)},
		bpf.LoadAbsolute{Off: dataNr, Size: 4},
	}
	return append(head, body...), nil
}

// loadFilter installs the filter (compiled, or nil to compile it now) on
// the calling thread, which then executes the bot (no_new_privs is set
// by an earlier step), and leaves the listener of its notifications at
// NotifyFD.
func loadFilter(prog []unix.SockFilter) error {
	if prog == nil {
		var err error
		if prog, err = compileFilter(true); err != nil {
			return err
		}
	}
	if len(prog) == 0 {
		return fmt.Errorf("an empty filter")
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if !notifiable() {
		if _, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
			return fmt.Errorf("load the filter: %w", e)
		}
		return nil
	}
	// A bot held back for arena is interrupted by any signal it
	// handles, and the call then fails with EINTR unless the handler
	// asked for SA_RESTART: a call that never fails so otherwise
	// (sigaction) could surprise it. With WAIT_KILLABLE_RECV (Linux 5.19)
	// the wait, once arena has taken the notification, is interrupted by
	// nothing but a fatal signal, which leaves only the microseconds
	// before arena takes it; older kernels refuse the flag (EINVAL).
	flags := uintptr(unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)
	fd, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&fprog)))
	if e == unix.EINVAL {
		fd, _, e = unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER,
			uintptr(unsafe.Pointer(&fprog)))
	}
	if e != 0 {
		return fmt.Errorf("load the filter: %w", e)
	}
	if int(fd) != NotifyFD {
		// Open across the exec, unlike the listener the kernel gave.
		if _, _, e := unix.RawSyscall(unix.SYS_DUP3, fd, NotifyFD, 0); e != 0 {
			return fmt.Errorf("place the filter's listener: %w", e)
		}
		unix.Close(int(fd))
	}
	return nil
}

// loadResidentFilter installs the filter without notifications on every
// thread of the process (TSYNC): a resident init is a Go program whose
// runtime threads live beside the bots it starts, and they get the bots'
// filter too; no_new_privs goes with it to each thread.
func loadResidentFilter() error {
	prog, err := compileFilter(false)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	tid, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog)))
	if e != 0 {
		return fmt.Errorf("load the filter on every thread: %w", e)
	}
	if tid != 0 {
		return fmt.Errorf("load the filter on every thread: thread %d could not take it", tid)
	}
	return nil
}

// Landlock access rights by ABI version.
const (
	llRead    = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	llFileAll = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llV1 = 1<<13 - 1 // EXECUTE .. MAKE_SYM
)

// landlockABI returns the kernel's landlock ABI version (0: none).
func landlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

// handledFS is what landlock ABI abi can restrict of the file system.
func handledFS(abi int) uint64 {
	h := uint64(llV1)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return h
}

// restrictFiles confines the calling thread with landlock: read and
// execute on the system (the whole of the new root when there is one),
// everything on the working folder, the writable folders and the private
// /tmp. Without a network namespace it also refuses TCP, and it keeps
// signals and abstract sockets inside the bot where the kernel can.
func restrictFiles(s spec) error {
	abi := landlockABI()
	if abi == 0 {
		return fmt.Errorf("the kernel has no landlock")
	}
	handled := handledFS(abi)
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	size := unsafe.Sizeof(attr.Handled_access_fs)
	if abi >= 4 && !s.NS {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = 2 * unsafe.Sizeof(attr.Handled_access_fs)
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		size = 3 * unsafe.Sizeof(attr.Handled_access_fs)
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return fmt.Errorf("create ruleset: %w", e)
	}
	defer unix.Close(int(fd))

	dev := uint64(llRead | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV)
	rules := map[string]uint64{}
	if s.NS {
		rules["/"] = llRead
		rules["/dev"] = dev // the bot's own minimal /dev
		rules["/tmp"] = handled
		rules["/dev/shm"] = handled
	} else {
		// The machine's /dev holds /dev/shm, where working folders live:
		// only the harmless devices.
		for _, d := range devices {
			rules["/dev/"+d] = dev
		}
		for _, p := range append(append([]string{}, systemPaths...), "/proc") {
			rules[p] = llRead
		}
		for _, p := range s.ReadOnly {
			rules[p] = llRead
		}
	}
	rules[s.Dir] = handled
	for _, p := range s.Writable {
		rules[p] = handled
	}
	for path, access := range rules {
		if err := addRule(int(fd), path, access&handled); err != nil {
			return err
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); e != 0 {
		return fmt.Errorf("restrict: %w", e)
	}
	return nil
}

// addRule allows access beneath path (a missing path is skipped: it
// cannot be reached anyway).
func addRule(ruleset int, path string, access uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= llFileAll
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if e != 0 {
		return fmt.Errorf("landlock rule for %s: %w", path, e)
	}
	return nil
}
