package bot

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/sandbox"
)

// CPUTime returns the CPU time (user and system) every process that has
// been in the group's cgroup used, children that left the bot's process
// tree (a setsid daemon) included, and whether a cgroup accounts for it:
// cpuacct.usage on cgroup v1, cpu.stat's usage_usec on v2. Only a
// sandboxed group's cgroup does (without the sandbox a bot's CPU time is
// what it was before the sandbox).
func (g *Group) CPUTime() (time.Duration, bool) {
	if !g.accounting {
		return 0, false
	}
	if g.v2 && g.dir != "" {
		if us, ok := g.readKeyKept(g.dir, "cpu.stat", "usage_usec"); ok {
			return time.Duration(us) * time.Microsecond, true
		}
		return 0, false
	}
	for _, d := range []string{g.extra["cpuacct"], g.extra["cpu"], g.dir} {
		if d == "" {
			continue
		}
		if ns, ok := g.readNumberKept(d, "cpuacct.usage"); ok {
			return time.Duration(ns), true
		}
	}
	return 0, false
}

// noteCPU records what the group's cgroup accounts for the process so
// far: the group's CPU time since the process started.
func (p *Process) noteCPU() {
	if !p.cpuFrom.ok {
		return
	}
	if t, ok := p.group.CPUTime(); ok && t >= p.cpuFrom.t {
		p.cgroupCPU.Store(int64(t - p.cpuFrom.t))
	}
}

// readNumber reads a cgroup file that holds one number.
func readNumber(path string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}

// parentMems is the memory nodes of the arena's own v1 cpuset cgroup,
// which a bot's cpuset cgroup must be given before it takes a process.
func parentMems() string {
	own, _ := sandbox.CgroupDirs()
	if d, ok := own["cpuset"]; ok {
		if data, err := os.ReadFile(filepath.Join(d, "cpuset.effective_mems")); err == nil {
			return strings.TrimSpace(string(data))
		}
		if data, err := os.ReadFile(filepath.Join(d, "cpuset.mems")); err == nil {
			return strings.TrimSpace(string(data))
		}
	}
	return "0"
}

// Core reports the core the group is pinned to, if it is (see
// sandbox.Sandbox.Core).
func (g *Group) Core() (int, bool) {
	d, ok := g.extra["cpuset"]
	if !ok && g.v2 && g.dir != "" {
		d = g.dir
	}
	if d == "" {
		return 0, false
	}
	n, ok := readNumber(filepath.Join(d, "cpuset.cpus"))
	return int(n), ok
}
