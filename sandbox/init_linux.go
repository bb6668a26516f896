package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// initName is argv[0] of the init, and envSpec the variable that carries
// its spec; both together mark a process as a sandbox init.
const (
	initName = "arena-sandbox-init"
	envSpec  = "ARENA_SANDBOX_INIT"
)

// spec tells the init what to set up and what to execute.
type spec struct {
	Path string   `json:"path"` // the bot's program, absolute
	Args []string `json:"args"` // its argv
	Dir  string   `json:"dir"`  // its working folder, the one it may write
	// NS: the init runs in new namespaces and builds the bot's view of
	// the file system; otherwise landlock is the file-system layer.
	NS       bool     `json:"ns,omitempty"`
	Loopback bool     `json:"loopback,omitempty"`
	ReadOnly []string `json:"ro,omitempty"` // the bot's own files, visible read-only
	Writable []string `json:"rw,omitempty"` // further folders it may write
	Rlimits  bool     `json:"rlimits,omitempty"`
	Pids     int      `json:"pids,omitempty"`
	Files    int      `json:"files,omitempty"`
	FileSize int64    `json:"fsize,omitempty"`
	TmpSize  int64    `json:"tmp,omitempty"`
	Seccomp  bool     `json:"seccomp,omitempty"`
	Landlock bool     `json:"landlock,omitempty"`
	// UID and GID, when not -1, are the ids the init takes before it
	// executes the bot when it runs without a user namespace as root.
	UID int `json:"uid"`
	GID int `json:"gid"`
	// Probe: try every step, print what failed as JSON on stdout and
	// exit instead of executing anything.
	Probe bool `json:"probe,omitempty"`
	// Wait: the init was prestarted and waits on launchFD for the spec
	// of its bot (see Prestarted); only NS and TmpSize are set besides,
	// unless Planned.
	Wait bool `json:"wait,omitempty"`
	// Planned (with Wait): the spec is that of the bot to come (a Plan)
	// but for Path, Args and Env, which arrive with the launch: the init
	// sets every layer up before it waits (see Prestart).
	Planned bool `json:"planned,omitempty"`
	// Resident (with Wait and Planned): the init stays, and starts a bot
	// for each launch until its socket closes (see Resident).
	Resident bool `json:"resident,omitempty"`
	// Env is the bot's environment when it came with the spec (a
	// prestarted init); nil: the init's own.
	Env []string `json:"env,omitempty"`
	// From gives, for the paths of ReadOnly, Dir and Writable with a
	// symbolic link on the way, what they resolve to on the machine: a
	// prestarted init that has left the machine's root binds them from
	// a detached copy of its mounts, where links would resolve wrong.
	From map[string]string `json:"from,omitempty"`
}

// init turns a process started as a sandbox init into one: it never
// returns to the program's main there. Any other process passes through.
func init() {
	if len(os.Args) == 0 || os.Args[0] != initName {
		return
	}
	data, ok := os.LookupEnv(envSpec)
	if !ok {
		return
	}
	// Every per-thread setting (capabilities, no_new_privs, seccomp,
	// landlock) must be on the thread that executes the bot.
	runtime.LockOSThread()
	var s spec
	if err := json.Unmarshal([]byte(data), &s); err != nil {
		fail(fmt.Errorf("read spec: %w", err))
	}
	os.Unsetenv(envSpec)
	var pre prepared
	if s.Wait && s.Planned && s.Resident {
		reside(s)
	}
	if s.Wait && s.Planned {
		// Everything is set up before the launch, which brings only
		// what to execute, with what environment and standard files. A
		// set-up that failed is told on the bot's standard error, where
		// the arena quotes it, once the launch has brought it.
		err := setUp(s, pre)
		l := awaitLaunch()
		if err != nil {
			fail(err)
		}
		s.Path, s.Args, s.Env = l.Path, l.Args, l.Env
		execute(s)
	}
	if s.Wait {
		// What is the same for every bot is done before the bot is known.
		ns, tmp := s.NS, s.TmpSize
		if ns {
			if err := prepareView(tmp); err != nil {
				fail(fmt.Errorf("%s: %w", LayerMount, err))
			}
			pre.view = true
			machine, ok, err := earlyRoot()
			if err != nil {
				fail(fmt.Errorf("%s: %w", LayerMount, err))
			}
			if ok {
				pre.machine = machine
			}
		}
		prog, err := compileFilter(true)
		if err != nil {
			fail(fmt.Errorf("%s: %w", LayerSeccomp, err))
		}
		pre.filter = prog
		s = awaitLaunch()
		if s.NS != ns || (ns && s.TmpSize != tmp) || s.Wait || s.Probe {
			fail(errors.New("the spec does not fit the prestarted init"))
		}
	}
	if s.Probe {
		probeChild(s)
	}
	if err := setUp(s, pre); err != nil {
		fail(err)
	}
	execute(s)
}

// execute executes the bot of s in place of the init.
func execute(s spec) {
	env := s.Env
	if env == nil {
		env = os.Environ()
	}
	if err := unix.Exec(s.Path, s.Args, env); err != nil {
		fail(fmt.Errorf("execute %s: %w", s.Path, ExplainExec(s.Path, err)))
	}
}

// source is where path (of the bot's view) is on the machine.
func (s spec) source(path string) string {
	if real, ok := s.From[path]; ok {
		return real
	}
	return path
}

// fail reports why the sandbox could not start the bot, on stderr where
// the arena quotes it in the verdict, and exits.
func fail(err error) {
	fmt.Fprintf(os.Stderr, "arena sandbox: %v\n", err)
	os.Exit(126)
}

// setUp applies every layer of s to this process, in order, stopping at
// the first that fails.
func setUp(s spec, pre prepared) error {
	for _, st := range steps(s, pre) {
		if err := st.run(); err != nil {
			return fmt.Errorf("%s: %w", st.layer, err)
		}
	}
	return nil
}

// step is one layer's part of the set-up.
type step struct {
	layer string
	run   func() error
}

// prepared is what a prestarted init did before it knew its bot.
type prepared struct {
	view   bool              // prepareView is done
	filter []unix.SockFilter // the seccomp filter, compiled
	// machine, when above 0, is a detached copy of the machine's mounts:
	// earlyRoot made the new root the process's already.
	machine int
}

// steps lists the set-up of s in the order it must happen.
func steps(s spec, pre prepared) []step {
	var st []step
	if s.NS {
		view := func() error { return buildView(s) }
		switch {
		case pre.machine > 0:
			view = func() error { return finishEarlyView(s, pre.machine) }
		case pre.view:
			view = func() error { return finishView(s) }
		}
		st = append(st,
			step{LayerMount, view},
			step{LayerUTS, func() error { return unix.Sethostname([]byte("arena")) }},
		)
		if s.Loopback {
			st = append(st, step{LayerNet, loopbackUp})
		}
	}
	if s.Rlimits {
		st = append(st, step{LayerRlimits, func() error { return setRlimits(s) }})
	}
	st = append(st, step{LayerNoNewPrivs, func() error { return unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) }})
	if s.Landlock {
		st = append(st, step{LayerLandlock, func() error { return restrictFiles(s) }})
	}
	privileges := func() error { return dropPrivileges(s) }
	if s.Resident {
		privileges = func() error { return dropAllPrivileges(s) }
	}
	st = append(st, step{"privileges", privileges},
		// A change of user clears the parent-death signal arena asked for:
		// the bot must still die with arena.
		step{"parent death", func() error { return unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0) }})
	switch {
	case s.Seccomp && s.Resident:
		st = append(st, step{LayerSeccomp, loadResidentFilter})
	case s.Seccomp:
		st = append(st, step{LayerSeccomp, func() error { return loadFilter(pre.filter) }})
	}
	if !s.NS {
		st = append(st, step{"chdir", func() error { return os.Chdir(s.Dir) }})
	}
	return st
}

// probeChild runs every step of s, noting which failed, prints the
// failures as JSON ({"layer": "why"}) and exits.
func probeChild(s spec) {
	failed := map[string]string{}
	for _, st := range steps(s, prepared{}) {
		if err := st.run(); err != nil {
			failed[st.layer] = err.Error()
		}
	}
	if s.Seccomp && failed[LayerSeccomp] == "" {
		// The filter is on: ptrace must now be refused.
		if err := unix.PtraceAttach(1); err == nil || !errors.Is(err, unix.EPERM) {
			failed[LayerSeccomp] = fmt.Sprintf("ptrace was not refused after loading the filter (%v)", err)
		}
	}
	json.NewEncoder(os.Stdout).Encode(failed)
	os.Exit(0)
}

// setRlimits caps processes, file size, open files and core dumps.
func setRlimits(s spec) error {
	for _, l := range []struct {
		name     string
		resource int
		v        uint64
	}{
		{"processes", unix.RLIMIT_NPROC, uint64(s.Pids)},
		{"file size", unix.RLIMIT_FSIZE, uint64(s.FileSize)},
		{"open files", unix.RLIMIT_NOFILE, uint64(s.Files)},
		{"core dumps", unix.RLIMIT_CORE, 0},
	} {
		if l.v == 0 && l.resource != unix.RLIMIT_CORE {
			continue
		}
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: l.v, Max: l.v}); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
	}
	return nil
}

// loopbackUp brings up the private loopback interface of the bot's
// network namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback up: %w", err)
	}
	return nil
}

// dropPrivileges leaves the bot without any capability and, where there
// is another user to be, as that user (s.UID and s.GID). In a user
// namespace the init is root there: the bounding set is emptied first,
// then it either changes to the namespace's unprivileged user or, when
// only root is mapped (an arena that is not root), stays root with root's
// special treatment switched off, so that exec grants nothing. Without a
// user namespace an init that runs as root takes s.UID and s.GID.
func dropPrivileges(s spec) error {
	if s.NS {
		if err := dropBoundingSet(); err != nil {
			return err
		}
		if s.UID < 0 {
			return noRoot()
		}
	} else if os.Geteuid() != 0 || s.UID < 0 {
		return nil
	}
	// Raw calls: they change this thread only, which is the one that
	// executes the bot.
	if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); e != 0 {
		return fmt.Errorf("setgroups: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, uintptr(s.GID), uintptr(s.GID), uintptr(s.GID)); e != 0 {
		return fmt.Errorf("setresgid: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, uintptr(s.UID), uintptr(s.UID), uintptr(s.UID)); e != 0 {
		return fmt.Errorf("setresuid: %w", e)
	}
	return nil
}

// dropBoundingSet empties this thread's bounding set of capabilities
// (nothing can be gained back on exec) and its ambient set.
func dropBoundingSet() error {
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	return nil
}

// noRoot keeps a root that must stay root from getting capabilities back
// on exec, and clears those it has.
func noRoot() error {
	const (
		secbitNoRoot           = 1 << 0
		secbitNoRootLocked     = 1 << 1
		secbitNoSetuidFixup    = 1 << 2
		secbitNoSetuidFixupLck = 1 << 3
		secbitKeepCapsLocked   = 1 << 5
	)
	bits := secbitNoRoot | secbitNoRootLocked | secbitNoSetuidFixup | secbitNoSetuidFixupLck | secbitKeepCapsLocked
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, uintptr(bits), 0, 0, 0); err != nil {
		return fmt.Errorf("securebits: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

// cleanEnv drops from env the marker and variables that look like
// secrets of the organiser (tokens, passwords, keys), which a bot has no
// business reading, and points HOME and TMPDIR at places the bot may use.
func cleanEnv(env []string, home string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(k)
		switch {
		case k == envSpec, k == "HOME", k == "TMPDIR", strings.HasPrefix(u, "ARENA_"),
			strings.Contains(u, "TOKEN"), strings.Contains(u, "SECRET"), strings.Contains(u, "PASSWORD"),
			strings.Contains(u, "PASSWD"), strings.Contains(u, "CREDENTIAL"), strings.HasSuffix(u, "_KEY"),
			strings.Contains(u, "PGPASS"), u == "DATABASE_URL":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+home, "TMPDIR=/tmp")
}
