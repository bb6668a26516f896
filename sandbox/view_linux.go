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

// buildView gives the process (in its own mount namespace, as root of its
// own user namespace) a new root: a small tmpfs holding read-only binds
// of the system folders and of the bot's own files, its working folder
// (and s.Writable) writable, a private /tmp and /dev/shm, a minimal /dev
// and a /proc of its own pid namespace. Everything else of the machine
// is gone once the old root is detached.
func buildView(s spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	// Sources are opened before the new root hides their paths (the new
	// root goes on /tmp, where working folders may live).
	type bind struct {
		fd       int
		dst      string
		writable bool
		dir      bool
		link     string // a symbolic link to recreate instead (/bin -> usr/bin)
	}
	var binds []bind
	add := func(path string, writable, mustExist bool) error {
		if link, err := os.Readlink(path); err == nil && filepath.Dir(path) == "/" {
			binds = append(binds, bind{fd: -1, dst: path, link: link})
			return nil
		}
		fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if !mustExist && errors.Is(err, unix.ENOENT) {
				return nil
			}
			return fmt.Errorf("open %s: %w", path, err)
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
			return fmt.Errorf("stat %s: %w", path, err)
		}
		binds = append(binds, bind{fd: fd, dst: path, writable: writable, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR})
		return nil
	}
	defer func() {
		for _, b := range binds {
			if b.fd >= 0 {
				unix.Close(b.fd)
			}
		}
	}()
	for _, p := range systemPaths {
		if err := add(p, false, false); err != nil {
			return err
		}
	}
	for _, p := range s.ReadOnly {
		if err := add(p, false, false); err != nil {
			return err
		}
	}
	for _, p := range append([]string{s.Dir}, s.Writable...) {
		if err := add(p, true, true); err != nil {
			return err
		}
	}
	devFDs := map[string]int{}
	for _, d := range devices {
		if fd, err := unix.Open("/dev/"+d, unix.O_PATH|unix.O_CLOEXEC, 0); err == nil {
			devFDs[d] = fd
			defer unix.Close(fd)
		}
	}

	root := "/tmp"
	if err := unix.Mount("arena", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m"); err != nil {
		return fmt.Errorf("new root: %w", err)
	}
	if err := privateTmp(root, s.TmpSize); err != nil {
		return err
	}
	if err := buildDev(root, devFDs, s.TmpSize); err != nil {
		return err
	}
	if err := mountPoint(root+"/proc", true); err != nil {
		return err
	}
	if err := unix.Mount("proc", root+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	// Parents before what lies below them, so no bind hides another.
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
