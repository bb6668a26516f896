package sandbox

import (
	"fmt"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
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

// filter is the seccomp policy: everything is allowed but deniedSyscalls
// and a clone that asks for namespaces; clone3, whose flags a filter
// cannot read, answers "not implemented" so that C libraries fall back
// to clone.
func filter() seccomp.Filter {
	return seccomp.Filter{
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, Names: deniedSyscalls},
				{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{{
					Name:       "clone",
					Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: newNamespaces}},
				}}},
				{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
			},
		},
	}
}

// compileFilter assembles the filter into the program the kernel loads.
func compileFilter() ([]unix.SockFilter, error) {
	f := filter()
	insts, err := f.Policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("assemble the filter: %w", err)
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("assemble the filter: %w", err)
	}
	prog := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		prog[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return prog, nil
}

// loadFilter installs the filter (compiled, or nil to compile it now) on
// the calling thread, which then executes the bot (no_new_privs is set
// by an earlier step).
func loadFilter(prog []unix.SockFilter) error {
	if prog == nil {
		var err error
		if prog, err = compileFilter(); err != nil {
			return err
		}
	}
	if len(prog) == 0 {
		return fmt.Errorf("an empty filter")
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return fmt.Errorf("load the filter: %w", e)
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
