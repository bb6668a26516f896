package bot

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// stallThreads bounds the threads a stall description looks at: a bot
// with thousands of them is described by its first ones.
const stallThreads = 256

// stall describes what a bot that missed its deadline was doing then,
// for the timeout's message: the CPU time it used since it was last
// continued (where its cgroup counts it), where its threads were (the
// kernel function each one sleeps in), and, for a bot paused through a
// freezer, the freezer's state. A bot that used next to no CPU and whose
// threads all sleep was waiting for something, not thinking: its author
// looks for a deadlock or a read of the wrong stream, and the arena's
// keeper, should the threads be frozen or stopped, for a bot the arena
// failed to continue.
func (p *Process) stall() string {
	var parts []string
	p.pauseMu.Lock()
	from, fromOK, since := p.contCPU, p.contCPUOK, p.contAt
	p.pauseMu.Unlock()
	if fromOK {
		if now, ok := p.group.CPUTime(); ok && now >= from {
			parts = append(parts, fmt.Sprintf("used %s of CPU in the %s since it was continued",
				roundDuration(now-from), roundDuration(time.Since(since))))
		}
	}
	if t := threadSummary(append([]int{p.Pid()}, p.descendants()...)); t != "" {
		parts = append(parts, t)
	}
	if p.group.freezer != "" {
		if data, err := os.ReadFile(p.group.freezer); err == nil {
			parts = append(parts, "freezer "+freezerState(data))
		}
	}
	return strings.Join(parts, "; ")
}

// threadSummary counts the threads of the processes pids by what they
// do: running, or asleep (stopped, frozen) in a kernel function, most
// common first, as "threads: 2 running, 3 asleep in futex_wait_queue".
func threadSummary(pids []int) string {
	count := map[string]int{}
	n := 0
	for _, pid := range pids {
		tasks, err := taskIDs(pid)
		if err != nil {
			continue
		}
		for _, task := range tasks {
			if n == stallThreads {
				break
			}
			dir := "/proc/" + strconv.Itoa(pid) + "/task/" + task + "/"
			st := threadState(dir + "stat")
			if st == 0 {
				continue // gone
			}
			n++
			count[threadDoing(st, dir)]++
		}
	}
	if n == 0 {
		return ""
	}
	labels := slices.SortedFunc(maps.Keys(count), func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = strconv.Itoa(count[l]) + " " + l
	}
	return "threads: " + strings.Join(out, ", ")
}

// threadDoing names what a thread in state st (its stat file's letter)
// does, with where it sleeps when its wait channel says.
func threadDoing(st byte, dir string) string {
	what := "asleep"
	switch st {
	case 'R':
		return "running"
	case 'T', 't':
		what = "stopped"
	case 'Z', 'X':
		return "ended"
	case 'D':
		what = "waiting"
	}
	var buf [64]byte
	if n, ok := readSmall(dir+"wchan", buf[:]); ok {
		if w := string(bytes.TrimSpace(buf[:n])); w != "" && w != "0" {
			return what + " in " + w
		}
	}
	return what
}

// freezerState reads a freezer's state file: FROZEN, FREEZING or THAWED
// on cgroup v1; on v2 (cgroup.freeze) 1 or 0.
func freezerState(data []byte) string {
	switch s := string(bytes.TrimSpace(data)); s {
	case "1":
		return "frozen"
	case "0":
		return "thawed"
	default:
		return s
	}
}

// roundDuration rounds d for a message: to 0.1 ms below a second, to the
// millisecond above.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
