package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// botUID and botGID are the ids a bot has inside its user namespace when
// the arena is root and can map a second user.
const (
	botUID = 1000
	botGID = 1000
)

// nobody is the unprivileged user bots run as, seen from outside, when
// the arena runs as root.
const nobody = 65534

// executable finds the program to start as the init: this one.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	return exe, nil
}

// botIDs returns the user and group a bot runs as, seen from outside:
// nobody when the arena is root, else the arena's own.
func botIDs() (int, int) {
	if os.Geteuid() == 0 {
		return nobody, nobody
	}
	return os.Geteuid(), os.Getegid()
}

// namespaces reports whether bots get namespaces of their own.
func (s *Sandbox) namespaces() bool { return s.report.On(LayerMount) }

// Wrap turns cmd, a bot's command about to be started (Path, Args and
// Dir set, SysProcAttr made), into the start of a sandbox init that sets
// the layers up and then executes the bot in place, with the arena's
// environment (less what looks like a secret) and extraEnv. writable
// names folders besides cmd.Dir the bot may write. The working folder
// (and writable) are handed to the bot's user. Once cmd has started,
// the caller must have its filter's notifications served (see
// Notifications), or the bot waits forever to install a signal handler.
func (s *Sandbox) Wrap(cmd *exec.Cmd, extraEnv, writable []string) error {
	sp, env, err := s.prepare(cmd, extraEnv, writable)
	if err != nil {
		return err
	}
	data, err := json.Marshal(sp)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	cmd.Env = append(env, envSpec+"="+string(data))
	cmd.Path, cmd.Args = s.exe, []string{initName}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if sp.NS {
		s.setNamespaces(cmd.SysProcAttr)
	}
	return nil
}

// prepare makes the spec of the bot cmd would start and its environment,
// and hands the bot's folders to its user (see Wrap).
func (s *Sandbox) prepare(cmd *exec.Cmd, extraEnv, writable []string) (spec, []string, error) {
	if cmd.Dir == "" || !filepath.IsAbs(cmd.Dir) {
		return spec{}, nil, fmt.Errorf("sandbox: the bot needs an absolute working folder, not %q", cmd.Dir)
	}
	sp := s.spec(cmd.Path, cmd.Args, cmd.Dir, writable)
	if err := s.handOver(append([]string{cmd.Dir}, writable...)); err != nil {
		return spec{}, nil, err
	}
	if sp.UID >= 0 {
		// The bot, as another user than arena, must be able to read its
		// own files: a folder made by mkdtemp (0700) is not. Without a
		// mount namespace it also passes through the machine's folders
		// above them (/root is often 0700).
		for _, p := range sp.ReadOnly {
			if err := readable(p); err != nil {
				return spec{}, nil, err
			}
			if !sp.NS {
				if err := reachable(p); err != nil {
					return spec{}, nil, err
				}
			}
		}
	}
	env := cleanEnv(os.Environ(), cmd.Dir)
	if !sp.NS {
		env[len(env)-1] = "TMPDIR=" + cmd.Dir // the machine's /tmp is not writable
	}
	return sp, append(env, extraEnv...), nil
}

// spec is what the init of a bot must do.
func (s *Sandbox) spec(path string, args []string, dir string, writable []string) spec {
	p := s.policy
	sp := spec{Path: path, Args: args, Dir: dir, NS: s.namespaces(), Loopback: p.Net == NetLoopback && s.report.On(LayerNet),
		Writable: writable, UID: -1, GID: -1, TmpSize: DefaultTmpSize,
		Rlimits: s.report.On(LayerRlimits), Pids: p.Pids, Files: p.OpenFiles, FileSize: p.FileSize,
		Seccomp: s.report.On(LayerSeccomp), Landlock: s.report.On(LayerLandlock)}
	sp.ReadOnly = ownFiles(path, args, s.exe)
	if !sp.NS {
		// Outside a user namespace RLIMIT_NPROC counts every process of
		// the user, which all bots (and, when arena is not root, the
		// organiser) share: only pids.max limits a bot alone there.
		sp.Pids = 0
	}
	if os.Geteuid() == 0 {
		if sp.NS {
			sp.UID, sp.GID = botUID, botGID
		} else {
			sp.UID, sp.GID = s.hostID, s.gid
		}
	}
	return sp
}

// setNamespaces asks for the bot's namespaces and maps its users: root
// of the namespace is the arena's user and, when the arena is root, the
// bot's user botUID is nobody outside.
func (s *Sandbox) setNamespaces(a *syscall.SysProcAttr) {
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
		syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS | syscall.CLONE_NEWNET
	uid, gid := os.Geteuid(), os.Getegid()
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
	if uid == 0 {
		a.UidMappings = append(a.UidMappings, syscall.SysProcIDMap{ContainerID: botUID, HostID: s.hostID, Size: 1})
		a.GidMappings = append(a.GidMappings, syscall.SysProcIDMap{ContainerID: botGID, HostID: s.gid, Size: 1})
		a.GidMappingsEnableSetgroups = true
	}
}

// handOver gives the bot's user the folders it may write (and what is in
// them), when that user is not the arena's own.
func (s *Sandbox) handOver(dirs []string) error {
	if os.Geteuid() != 0 || s.hostID == 0 {
		return nil
	}
	for _, d := range dirs {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real // a folder reached through a link: hand over the folder
		}
		if err := s.handOverTrees([]string{d}); err != nil {
			return err
		}
		if err := reachable(d); err != nil {
			return err
		}
	}
	return nil
}

// handOverTrees gives the bot's user each of dirs (no link on the way)
// and everything in them it does not have yet. The file protocol's seat
// hands its folder over before every move: the walk goes by descriptors
// (each name looked up in its folder, not from the root).
func (s *Sandbox) handOverTrees(dirs []string) error {
	if os.Geteuid() != 0 || s.hostID == 0 {
		return nil
	}
	for _, d := range dirs {
		if err := s.handOverTree(d); err != nil {
			return fmt.Errorf("sandbox: hand %s to the bot: %w", d, err)
		}
	}
	return nil
}

// handOverTree hands over dir and what is in it.
func (s *Sandbox) handOverTree(dir string) error {
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return err
	}
	if !s.handed(&st) {
		if err := unix.Lchown(dir, s.hostID, s.gid); err != nil {
			return err
		}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return nil
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return s.handOverIn(fd, dir)
}

// handOverIn hands over what is in the folder fd (at path, for errors).
func (s *Sandbox) handOverIn(fd int, path string) error {
	var names []string
	buf := make([]byte, 8<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	for _, name := range names {
		var st unix.Stat_t
		if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue // gone meanwhile
			}
			return fmt.Errorf("%s: %w", filepath.Join(path, name), err)
		}
		if !s.handed(&st) {
			if err := unix.Fchownat(fd, name, s.hostID, s.gid, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(path, name), err)
			}
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue
		}
		sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(path, name), err)
		}
		err = s.handOverIn(sub, filepath.Join(path, name))
		unix.Close(sub)
		if err != nil {
			return err
		}
	}
	return nil
}

// handed reports whether the file st describes is the bot's user's.
func (s *Sandbox) handed(st *unix.Stat_t) bool {
	return int(st.Uid) == s.hostID && int(st.Gid) == s.gid
}

// reachable lets anyone pass through (not list) the folders above dir,
// so the bot's user can reach its own folder.
func reachable(dir string) error {
	for d := filepath.Dir(dir); d != "/" && d != "."; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		if info.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(d, info.Mode().Perm()|0o111); err != nil {
				return fmt.Errorf("sandbox: let the bot reach its folder: %w", err)
			}
		}
	}
	return nil
}

// readable lets anyone read and pass through the folder p (a file: its
// own folder is handled by the caller's list).
func readable(p string) error {
	info, err := os.Stat(p)
	if err != nil || !info.IsDir() || info.Mode().Perm()&0o005 == 0o005 {
		return nil
	}
	if err := os.Chmod(p, info.Mode().Perm()|0o005); err != nil {
		return fmt.Errorf("sandbox: let the bot read its folder %s: %w", p, err)
	}
	return nil
}

// ownFiles lists what a bot needs to see of the machine besides the
// system: the folder of its program (the installation it belongs to
// when that folder is a bin or shims folder: an interpreter installed by
// pyenv, conda or in ~/.local needs its libraries), and each absolute
// path on its command line (the folder of a file: an interpreter's
// script imports its neighbours). The arena's own executable (a built-in
// bot) is shown alone, not its folder.
func ownFiles(path string, args []string, exe string) []string {
	var out []string
	add := func(p string) {
		if p == "/" || underSystem(p) {
			return
		}
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	program := func(p string) {
		switch dir := filepath.Dir(p); {
		case p == exe:
			add(p)
		case filepath.Base(dir) == "bin" || filepath.Base(dir) == "shims":
			add(filepath.Dir(dir))
		default:
			add(dir)
		}
	}
	program(path)
	if interp := interpreter(path); interp != "" {
		program(interp)
	}
	for _, a := range args[1:] {
		if !filepath.IsAbs(a) {
			continue
		}
		info, err := os.Stat(a)
		switch {
		case err != nil:
		case info.IsDir():
			add(filepath.Clean(a))
		case a == exe:
			add(a)
		default:
			add(filepath.Dir(a))
		}
	}
	return out
}

// interpreter returns the program a script's "#!" line runs, looked up
// on the PATH for "#!/usr/bin/env NAME" ("" for a binary or when it
// cannot be found).
func interpreter(script string) string {
	f, err := os.Open(script)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return ""
	}
	if filepath.Base(words[0]) != "env" {
		return words[0]
	}
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
			p, err := exec.LookPath(w)
			if err != nil {
				return ""
			}
			return p
		}
	}
	return ""
}

// underSystem reports whether p lies in the system folders every bot sees.
func underSystem(p string) bool {
	for _, s := range systemPaths {
		if p == s || strings.HasPrefix(p, s+"/") {
			return true
		}
	}
	return false
}

// errNoInit marks a probe whose init did not answer.
var errNoInit = errors.New("the sandbox init did not answer")
