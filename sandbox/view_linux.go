package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// systemPaths are the parts of the machine a bot sees, read-only: the
// programs, libraries and settings an interpreter or a JVM needs. The
// organiser's home, the repository, the store and other bots' folders
// are not among them.
var systemPaths = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"}

// devices are bound from the machine's /dev into the bot's.
var devices = []string{"null", "zero", "full", "random", "urandom", "tty"}

// viewRoot is where the bot's new root is built before it becomes "/":
// a folder no bot's files lie under, and that the init does not need
// (the machine's /sys is hidden in the bot's mount namespace only).
const viewRoot = "/sys"

// buildView gives the process (in its own mount namespace, as root of its
// own user namespace) a new root: a small tmpfs holding read-only binds
// of the system folders and of the bot's own files, its working folder
// (and s.Writable) writable, a private /tmp and /dev/shm, a minimal /dev
// and a /proc of its own pid namespace. Everything else of the machine
// is gone once the old root is detached.
func buildView(s spec) error {
	if err := prepareView(s.TmpSize); err != nil {
		return err
	}
	return finishView(s)
}

// prepareView builds the part of the new root that is the same for every
// bot (everything but the bot's own folders) at viewRoot: a prestarted
// init does it before it knows its bot.
func prepareView(tmpSize int64) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	var system []bind
	for _, p := range systemPaths {
		b, err := openBind(p, false, false)
		if err != nil {
			return err
		}
		system = append(system, b...)
	}
	defer closeBinds(system)
	devFDs := map[string]int{}
	for _, d := range devices {
		if fd, err := unix.Open("/dev/"+d, unix.O_PATH|unix.O_CLOEXEC, 0); err == nil {
			devFDs[d] = fd
			defer unix.Close(fd)
		}
	}
	root := viewRoot
	if err := unix.Mount("arena", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m"); err != nil {
		return fmt.Errorf("new root: %w", err)
	}
	if err := privateTmp(root, tmpSize); err != nil {
		return err
	}
	if err := buildDev(root, devFDs, tmpSize); err != nil {
		return err
	}
	if err := mountPoint(root+"/proc", true); err != nil {
		return err
	}
	if err := unix.Mount("proc", root+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	return bindAll(root, system)
}

// earlyRoot makes the root prepareView built at viewRoot the process's
// root before the bot is known, detaching the machine's, and returns a
// detached copy of the machine's mounts (see lateBinds), from which
// finishEarlyView later binds the bot's own folders. The detach, where
// the kernel waits for an RCU grace period, is then paid before the bot
// is launched. ok is false, and nothing changed, where the kernel cannot
// bind from a detached copy (before Linux 6.15 or so): the caller builds
// the view as finishView does.
func earlyRoot() (machine int, ok bool, err error) {
	machine, err = unix.OpenTree(unix.AT_FDCWD, "/", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return -1, false, nil
	}
	// A copy of a part of a detached copy is what finishEarlyView makes.
	probe, err := unix.OpenTree(machine, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH|unix.AT_RECURSIVE)
	if err != nil {
		unix.Close(machine)
		return -1, false, nil
	}
	unix.Close(probe)
	if err := unix.Chdir(viewRoot); err != nil {
		unix.Close(machine)
		return -1, false, fmt.Errorf("enter new root: %w", err)
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		unix.Close(machine)
		return -1, false, fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		unix.Close(machine)
		return -1, false, fmt.Errorf("detach old root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		unix.Close(machine)
		return -1, false, fmt.Errorf("enter new root: %w", err)
	}
	return machine, true, nil
}

// finishEarlyView binds the bot's own folders into the root earlyRoot
// made, from machine, the detached copy of the machine's mounts (closed
// here), and makes the root read-only. The paths are resolved by the
// arena (s.From): inside the copy a symbolic link would resolve against
// the new root.
func finishEarlyView(s spec, machine int) error {
	defer unix.Close(machine)
	type late struct {
		dst, src string
		writable bool
	}
	var binds []late
	for _, p := range s.ReadOnly {
		binds = append(binds, late{dst: p, src: s.source(p)})
	}
	for _, p := range append([]string{s.Dir}, s.Writable...) {
		binds = append(binds, late{dst: p, src: s.source(p), writable: true})
	}
	sort.SliceStable(binds, func(i, j int) bool {
		return strings.Count(binds[i].dst, "/") < strings.Count(binds[j].dst, "/")
	})
	for _, b := range binds {
		tree, err := unix.OpenTree(machine, strings.TrimPrefix(b.src, "/"),
			unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE|unix.AT_SYMLINK_NOFOLLOW)
		if err != nil {
			return fmt.Errorf("bind %s: %w", b.dst, err)
		}
		err = moveTree(tree, b.dst, b.writable)
		unix.Close(tree)
		if err != nil {
			return err
		}
	}
	if err := unix.MountSetattr(-1, "/", 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("make / read-only: %w", err)
	}
	if err := unix.Chdir(s.Dir); err != nil {
		return fmt.Errorf("enter working folder: %w", err)
	}
	return nil
}

// moveTree mounts the detached tree at dst (in the new root), nosuid,
// nodev and, unless writable, read-only.
func moveTree(tree int, dst string, writable bool) error {
	var st unix.Stat_t
	if err := unix.Fstat(tree, &st); err != nil {
		return fmt.Errorf("stat %s: %w", dst, err)
	}
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if !writable {
		attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
	}
	if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
		return fmt.Errorf("make %s read-only: %w", dst, err)
	}
	if err := mountPoint(dst, st.Mode&unix.S_IFMT == unix.S_IFDIR); err != nil {
		return err
	}
	if err := unix.MoveMount(tree, "", unix.AT_FDCWD, dst, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("bind %s: %w", dst, err)
	}
	return nil
}

// finishView adds the bot's own folders to the new root prepareView
// built, and makes it the process's root.
func finishView(s spec) error {
	var own []bind
	defer func() { closeBinds(own) }()
	for _, p := range s.ReadOnly {
		b, err := openBind(p, false, false)
		if err != nil {
			return err
		}
		own = append(own, b...)
	}
	for _, p := range append([]string{s.Dir}, s.Writable...) {
		b, err := openBind(p, true, true)
		if err != nil {
			return err
		}
		own = append(own, b...)
	}
	root := viewRoot
	if err := bindAll(root, own); err != nil {
		return err
	}
	if err := unix.Chdir(root); err != nil {
		return fmt.Errorf("enter new root: %w", err)
	}
	// pivot_root(".", ".") stacks the old root under the new one, and the
	// detach removes it: nothing of the machine stays reachable.
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach old root: %w", err)
	}
	if err := unix.MountSetattr(-1, "/", 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("make / read-only: %w", err)
	}
	if err := unix.Chdir(s.Dir); err != nil {
		return fmt.Errorf("enter working folder: %w", err)
	}
	return nil
}

// bind is a folder or file of the machine to show in the new root.
type bind struct {
	fd       int // an O_PATH descriptor of the source (-1 for a link)
	dst      string
	writable bool
	dir      bool
	link     string // a symbolic link to recreate instead (/bin -> usr/bin)
}

// openBind opens path as a bind source (none when it is missing and need
// not exist).
func openBind(path string, writable, mustExist bool) ([]bind, error) {
	if link, err := os.Readlink(path); err == nil && filepath.Dir(path) == "/" {
		return []bind{{fd: -1, dst: path, link: link}}, nil
	}
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if !mustExist && errors.Is(err, unix.ENOENT) {
			return nil, nil
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	return []bind{{fd: fd, dst: path, writable: writable, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR}}, nil
}

func closeBinds(binds []bind) {
	for _, b := range binds {
		if b.fd >= 0 {
			unix.Close(b.fd)
		}
	}
}

// bindAll mounts binds under root, parents before what lies below them
// so that no bind hides another; all are nosuid and nodev, and read-only
// unless writable.
func bindAll(root string, binds []bind) error {
	sort.SliceStable(binds, func(i, j int) bool {
		return strings.Count(binds[i].dst, "/") < strings.Count(binds[j].dst, "/")
	})
	for _, b := range binds {
		dst := filepath.Join(root, b.dst)
		if b.link != "" {
			if err := os.Symlink(b.link, dst); err != nil && !errors.Is(err, os.ErrExist) {
				return fmt.Errorf("link %s: %w", b.dst, err)
			}
			continue
		}
		if err := mountPoint(dst, b.dir); err != nil {
			return err
		}
		if err := unix.Mount(fdPath(b.fd), dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", b.dst, err)
		}
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
		if !b.writable {
			attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
		}
		if err := unix.MountSetattr(-1, dst, unix.AT_RECURSIVE, &attr); err != nil {
			return fmt.Errorf("make %s read-only: %w", b.dst, err)
		}
	}
	return nil
}

// privateTmp mounts an empty tmpfs on the new root's /tmp.
func privateTmp(root string, size int64) error {
	if err := mountPoint(root+"/tmp", true); err != nil {
		return err
	}
	opts := "mode=1777,size=" + strconv.FormatInt(size, 10)
	if err := unix.Mount("tmp", root+"/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("private /tmp: %w", err)
	}
	return nil
}

// buildDev makes a minimal /dev: the harmless devices bound from the
// machine's, the usual links, and a private /dev/shm.
func buildDev(root string, fds map[string]int, shmSize int64) error {
	dev := root + "/dev"
	if err := mountPoint(dev, true); err != nil {
		return err
	}
	if err := unix.Mount("dev", dev, "tmpfs", unix.MS_NOSUID, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("/dev: %w", err)
	}
	for name, fd := range fds {
		if err := mountPoint(dev+"/"+name, false); err != nil {
			return err
		}
		if err := unix.Mount(fdPath(fd), dev+"/"+name, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", name, err)
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, dev+"/"+name); err != nil {
			return fmt.Errorf("/dev/%s: %w", name, err)
		}
	}
	if err := mountPoint(dev+"/shm", true); err != nil {
		return err
	}
	opts := "mode=1777,size=" + strconv.FormatInt(shmSize, 10)
	if err := unix.Mount("shm", dev+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("/dev/shm: %w", err)
	}
	return nil
}

// mountPoint creates what a mount at path needs: a folder, or an empty
// file for a file.
func mountPoint(path string, dir bool) error {
	if dir {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return fmt.Errorf("mount point: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("mount point: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o644)
	if err != nil {
		return fmt.Errorf("mount point: %w", err)
	}
	return f.Close()
}

func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }
