package bot

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultPauseGrace is the longest Pause waits for a bot to block before
// it stops the bot anyway (see Config.PauseGrace).
const DefaultPauseGrace = 5 * time.Millisecond

// waitBlocked waits until no thread of the bot's processes is running
// (state R), or until grace has passed. A brain that has just printed its
// move still has a few instructions to run (clearing its "thinking" flag,
// going back to read): stopped in between, it may take the next command
// for one that came while it thought and refuse it. The wait is charged
// to nobody: the clock stopped when the move arrived.
func (p *Process) waitBlocked(grace time.Duration) {
	if grace <= 0 {
		return
	}
	end := time.Now().Add(grace)
	wait := 20 * time.Microsecond
	for !p.blocked() {
		left := time.Until(end)
		if left <= 0 {
			return
		}
		nap(min(wait, left))
		wait = min(2*wait, 500*time.Microsecond)
	}
}

// nap sleeps for d on the calling thread. A Go timer's slack can turn a
// sleep of microseconds into a millisecond, while a bot needs only
// microseconds to get back to reading; looking again without a pause
// would take the CPU the bot needs for it.
func nap(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}

// blocked reports whether every thread of every process the bot started
// is blocked: sleeping, waiting on a disk, stopped or gone. Where the bot
// has a cgroup, its processes are those the cgroup lists (which includes
// any that left the process tree); otherwise they are the bot and its
// descendants.
func (p *Process) blocked() bool {
	select {
	case <-p.done:
		return true
	default:
	}
	seen := map[int]bool{}
	queue := []int{p.Pid()}
	walk := true
	if p.group.dir != "" {
		if pids := p.group.cgroupPids(); len(pids) > 0 {
			queue, walk = append(queue, pids...), false
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		tasks, err := taskIDs(pid)
		if err != nil {
			continue // gone
		}
		for _, task := range tasks {
			dir := "/proc/" + strconv.Itoa(pid) + "/task/" + task
			if threadState(dir+"/stat") == 'R' {
				return false
			}
			if walk {
				queue = append(queue, childPids(dir+"/children")...)
			}
		}
	}
	return true
}

// descendants lists the live processes below the bot in the process
// tree (not the bot itself).
func (p *Process) descendants() []int {
	var out []int
	seen := map[int]bool{}
	queue := []int{p.Pid()}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if pid != p.Pid() {
			out = append(out, pid)
		}
		tasks, err := taskIDs(pid)
		if err != nil {
			continue
		}
		for _, task := range tasks {
			queue = append(queue, childPids("/proc/"+strconv.Itoa(pid)+"/task/"+task+"/children")...)
		}
	}
	return out
}

// taskIDs lists the threads of a process.
func taskIDs(pid int) ([]string, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// threadState reads the state letter of a thread from its stat file
// (0 when it cannot be read). The command name before it may hold spaces
// and parentheses, so the state is the first field after the last ')'.
// It reads with bare system calls into a buffer on the stack: Pause looks
// at every thread of a bot, often several times, between two moves.
func threadState(path string) byte {
	var buf [512]byte
	n, ok := readSmall(path, buf[:])
	if !ok {
		return 0
	}
	return statState(buf[:n])
}

// statState returns the state letter in the text of a stat file
// ("pid (comm) S ppid ..."), 0 when there is none.
func statState(data []byte) byte {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) || data[i+1] != ' ' {
		return 0
	}
	return data[i+2]
}

// readSmall reads the start of a small file into buf.
func readSmall(path string, buf []byte) (int, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	return n, err == nil && n > 0
}

// childPids reads a thread's children file: the pids of the processes it
// started that still run.
func childPids(path string) []int {
	var buf [256]byte
	n, ok := readSmall(path, buf[:])
	if !ok {
		return nil
	}
	if n == len(buf) { // many children: read it all
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		return parsePids(string(data))
	}
	return parsePids(string(buf[:n]))
}

// parsePids reads the pids of a space-separated list.
func parsePids(text string) []int {
	var pids []int
	for _, f := range strings.Fields(text) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}
