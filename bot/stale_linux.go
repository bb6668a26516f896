package bot

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// What an arena that was killed (kill -9, a crash, a power cut) leaves
// behind, and how the next one finds it:
//
//   - cgroups named arena-PID-..., made beside the arena's own cgroup in
//     any hierarchy, with whatever the bots started still staleRunning inside
//     (a setsid daemon has left the process group but not the cgroup).
//     They are stale when PID is gone or is no longer a process of the
//     cgroup the arena-PID-... folder sits in (or below it): the PID was
//     reused by another program.
//   - work folders named arena-work-PID-START-... (WorkPrefix), START
//     being the arena's start time in clock ticks since boot, so that a
//     reused PID is told apart exactly.
//
// ReapStale kills the first and removes both. Neither is ever taken from
// a live arena.

// WorkPrefix is the prefix of this arena's work folders
// (ScratchDir's prefix): "arena-work-PID-START-".
func WorkPrefix() string {
	return fmt.Sprintf("arena-work-%d-%d-", os.Getpid(), staleStartTicks(os.Getpid()))
}

// Reaped is what ReapStale found and ended.
type Reaped struct {
	Cgroups   int // stale cgroups removed (or emptied)
	Processes int // processes killed in them
	Folders   int // stale work folders removed
	// Kept lists what could not be removed, with why.
	Kept []string
}

// String is one line for people, "" when nothing was stale.
func (r Reaped) String() string {
	if r.Cgroups == 0 && r.Processes == 0 && r.Folders == 0 && len(r.Kept) == 0 {
		return ""
	}
	s := fmt.Sprintf("left by arenas that did not end cleanly: killed %s in %s, removed %s",
		staleCount(r.Processes, "process", "processes"), staleCount(r.Cgroups, "cgroup", "cgroups"),
		staleCount(r.Folders, "work folder", "work folders"))
	if len(r.Kept) > 0 {
		s += "; could not remove " + strings.Join(r.Kept, ", ")
	}
	return s
}

func staleCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ReapStale ends what arenas that are gone left behind: it kills every
// process in their cgroups (thawing frozen ones first) and removes the
// cgroups, then removes their work folders found directly in workRoots.
// Call it when an arena starts, before it starts bots.
func ReapStale(workRoots ...string) Reaped {
	var r Reaped
	var stale []string
	for _, dir := range staleCgroupDirs() {
		stale = append(stale, staleCgroups(dir)...)
	}
	if len(stale) > 0 {
		r.Processes = reapKillCgroups(stale)
		for _, d := range stale {
			if removeCgroupTree(d); exists(d) {
				r.Kept = append(r.Kept, d+" (processes left)")
				continue
			}
			r.Cgroups++
		}
	}
	for _, root := range workRoots {
		for _, d := range staleWorkFolders(root) {
			if err := reapRemoveAll(d); err != nil {
				r.Kept = append(r.Kept, d+" ("+err.Error()+")")
				continue
			}
			r.Folders++
		}
	}
	return r
}

// staleCgroupDirs lists the folders of the calling thread's cgroups, one
// per mounted hierarchy (v1 controllers and v2).
func staleCgroupDirs() []string {
	type mount struct{ root, point string }
	v1 := map[string]mount{} // by each controller or name= option
	var v2 *mount
	if data, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			pre, post, ok := strings.Cut(line, " - ")
			pf, sf := strings.Fields(pre), strings.Fields(post)
			if !ok || len(pf) < 5 || len(sf) < 3 {
				continue
			}
			m := mount{root: pf[3], point: pf[4]}
			switch sf[0] {
			case "cgroup2":
				v2 = &m
			case "cgroup":
				for _, o := range strings.Split(sf[2], ",") {
					v1[o] = m
				}
			}
		}
	}
	f, err := os.Open("/proc/thread-self/cgroup")
	if err != nil {
		return nil
	}
	defer f.Close()
	var dirs []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var m *mount
		if parts[1] == "" {
			m = v2
		} else if mm, ok := v1[strings.Split(parts[1], ",")[0]]; ok {
			m = &mm
		}
		if m == nil {
			continue
		}
		rel, ok := strings.CutPrefix(parts[2], m.root)
		if m.root == "/" {
			rel, ok = parts[2], true
		}
		if !ok {
			continue
		}
		d := filepath.Join(m.point, rel)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// staleNamePID reads the PID from a name "PREFIX<PID>" or "PREFIX<PID>-...".
func staleNamePID(name, prefix string) (pid int, rest string, ok bool) {
	s, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, "", false
	}
	num, rest, _ := strings.Cut(s, "-")
	pid, err := strconv.Atoi(num)
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	return pid, rest, true
}

// staleCgroups lists the cgroups arena-PID-... in dir whose arena is
// gone.
func staleCgroups(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		pid, _, ok := staleNamePID(e.Name(), "arena-")
		if !e.IsDir() || !ok || pid == os.Getpid() {
			continue
		}
		if !staleRunning(pid) || !staleInCgroupTree(pid, dir) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// staleInCgroupTree says whether process pid belongs to the cgroup folder dir
// or one below it, in dir's hierarchy: where the arena that makes
// cgroups in dir lives.
func staleInCgroupTree(pid int, dir string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found || !d.IsDir() {
			return nil
		}
		for _, q := range staleCgroupProcs(p) {
			if q == pid {
				found = true
				return filepath.SkipAll
			}
		}
		return nil
	})
	return found
}

// staleCgroupProcs lists the processes of one cgroup (not those below it).
func staleCgroupProcs(dir string) []int {
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// reapKillCgroups kills every process in the cgroup trees dirs until they
// are empty (or a second has passed), and returns how many it killed.
// Frozen cgroups are thawed first: a frozen process does not die.
func reapKillCgroups(dirs []string) int {
	self := os.Getpid()
	killed := map[int]bool{}
	each := func(f func(dir string)) {
		for _, d := range dirs {
			filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
				if err == nil && e.IsDir() {
					f(p)
				}
				return nil
			})
		}
	}
	each(func(d string) {
		os.WriteFile(filepath.Join(d, "freezer.state"), []byte("THAWED"), 0) // v1
		os.WriteFile(filepath.Join(d, "cgroup.freeze"), []byte("0"), 0)      // v2
	})
	for deadline := time.Now().Add(time.Second); ; time.Sleep(time.Millisecond) {
		left := 0
		each(func(d string) {
			os.WriteFile(filepath.Join(d, "cgroup.kill"), []byte("1"), 0) // v2, 5.14+
			for _, pid := range staleCgroupProcs(d) {
				if pid == self {
					continue
				}
				left++
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed[pid] = true
				}
			}
		})
		if left == 0 || time.Now().After(deadline) {
			return len(killed)
		}
	}
}

// staleWorkFolders lists the folders arena-work-PID-START-... in root
// whose arena is gone: no process PID, or one that started at another
// time.
func staleWorkFolders(root string) []string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		pid, rest, ok := staleNamePID(e.Name(), "arena-work-")
		if !e.IsDir() || !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, "-")
		start, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			continue // not named by WorkPrefix: an older arena's, whose owner is unknown
		}
		if !staleRunning(pid) || staleStartTicks(pid) != start {
			out = append(out, filepath.Join(root, e.Name()))
		}
	}
	return out
}

// staleRunning says whether process pid exists and is not a zombie.
func staleRunning(pid int) bool {
	st, ok := staleStatOf(pid)
	return ok && st.state != 'Z' && st.state != 'X'
}

// staleStartTicks is the start time of process pid in clock ticks after boot
// (field 22 of /proc/PID/stat); -1 if there is no such process.
func staleStartTicks(pid int) int64 {
	st, ok := staleStatOf(pid)
	if !ok {
		return -1
	}
	return st.start
}

type stalePidStat struct {
	state byte
	start int64
}

func staleStatOf(pid int) (stalePidStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stalePidStat{}, false
	}
	// After the command name: state (field 3) ... starttime (field 22).
	f := statAfterComm(data)
	if len(f) < 20 {
		return stalePidStat{}, false
	}
	start, err := strconv.ParseInt(string(f[19]), 10, 64)
	if err != nil {
		return stalePidStat{}, false
	}
	return stalePidStat{state: f[0][0], start: start}, true
}

// reapRemoveAll removes a folder tree even where a bot took the write
// permission off its own folders.
func reapRemoveAll(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	err := os.RemoveAll(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
