package bot

import (
	"os"
	"strconv"
)

// Survivors lists the live (not zombie) processes whose process group is
// pgid. The arena's tests use it to prove that nothing a bot started is
// left running.
func Survivors(pgid int) []int {
	var pids []int
	eachProcess(func(st procStat) {
		if st.pgrp == pgid && st.state != 'Z' && st.state != 'X' {
			pids = append(pids, st.pid)
		}
	})
	return pids
}

// procStat is what the arena reads from /proc/PID/stat.
type procStat struct {
	pid, pgrp int
	state     byte
	rssPages  int64
}

// eachProcess calls f with the stat of every process on the machine.
func eachProcess(f func(procStat)) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// After the command name: state ppid pgrp ...; rss is the 22nd.
		fields := statAfterComm(data)
		if len(fields) < 22 {
			continue
		}
		st := procStat{pid: pid, state: fields[0][0]}
		st.pgrp, _ = strconv.Atoi(string(fields[2]))
		st.rssPages, _ = strconv.ParseInt(string(fields[21]), 10, 64)
		f(st)
	}
}
