package bot

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Survivors lists the live (not zombie) processes whose process group is
// pgid. The arena's tests use it to prove that nothing a bot started is
// left running.
func Survivors(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if pg, _ := strconv.Atoi(f[2]); pg == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}
