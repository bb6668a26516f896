package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// Sizes used by the misbehaviours.
const (
	longLineBytes = 8 << 20  // longline, longmsg
	stderrBytes   = 1 << 20  // stderr
	floodLines    = 200000   // flood
	memStep       = 16 << 20 // memory: allocation step
	crashStatus   = 3        // crash: exit status
	childSleep    = "600"    // fork: argument of sleep
	floodLine     = "MESSAGE spam"
)

// appendPid appends "PID PGID" for process pid to file; it does nothing if
// file is empty. Errors go to stderr only: the brain keeps playing.
func appendPid(file string, pid int) {
	if file == "" {
		return
	}
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		pgid = -1
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbrain:", err)
		return
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "%d %d\n", pid, pgid); err != nil {
		fmt.Fprintln(os.Stderr, "testbrain:", err)
	}
}

// hang sleeps forever. With stubborn it first ignores the polite
// termination signals, so only SIGKILL ends it.
func hang(stubborn bool) {
	if stubborn {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	}
	for {
		time.Sleep(time.Hour)
	}
}

// allocate returns mib MiB of memory in 16 MiB blocks, every page written
// so that it is really resident.
func allocate(mib int) [][]byte {
	page := os.Getpagesize()
	total := mib << 20
	var hold [][]byte
	for total > 0 {
		n := min(memStep, total)
		blk := make([]byte, n)
		for i := 0; i < n; i += page {
			blk[i] = 1
		}
		hold = append(hold, blk)
		total -= n
	}
	return hold
}

// forkChildren starts three "sleep 600" processes and leaves them running:
// two in the brain's process group and one in a new session (which escapes
// the process group). Their pids go to pidFile like the brain's own.
func forkChildren(pidFile string) {
	for i := range 3 {
		cmd := exec.Command("sleep", childSleep)
		if i == 2 {
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "testbrain: fork:", err)
			continue
		}
		appendPid(pidFile, cmd.Process.Pid)
		// Reap the child if it ever ends while the brain still runs.
		go cmd.Wait()
	}
}

// spamStderr writes 1 MiB to stderr in 64-byte lines.
func spamStderr() {
	line := append(bytes.Repeat([]byte("e"), 63), '\n')
	os.Stderr.Write(bytes.Repeat(line, stderrBytes/len(line)))
}

// longLine returns 8 MiB of 'a' (no line ending).
func longLine() []byte {
	return bytes.Repeat([]byte("a"), longLineBytes)
}

// spinCPU keeps the processor busy until the process has used d more of
// CPU time. It counts CPU time, not wall time, so being stopped in the
// middle makes it no shorter.
func spinCPU(d time.Duration) {
	start := cpuTime()
	for cpuTime()-start < d {
		// Each look at the clock is a system call: the loop is the work.
	}
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readable reports whether input is waiting on file descriptor fd
// (false for -1).
func readable(fd int) bool {
	if fd < 0 {
		return false
	}
	var set syscall.FdSet
	set.Bits[fd/64] |= 1 << (uint(fd) % 64)
	n, err := syscall.Select(fd+1, &set, nil, nil, &syscall.Timeval{})
	return err == nil && n > 0
}
