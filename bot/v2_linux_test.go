package bot

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/sandbox"
)

// TestCgroupV2Group runs a group on the unified (v2) hierarchy: the bot
// is born inside its cgroup (CLONE_INTO_CGROUP), the freezer stops it and
// a child that left its session, the group's CPU time counts the child,
// and KillAll and Close leave nothing. It needs no controller (memory,
// pids and cpu limits need them delegated to v2, which a machine whose
// controllers sit on v1 hierarchies cannot do: there this test is the
// part of the v2 path that can run).
func TestCgroupV2Group(t *testing.T) {
	_, v2 := sandbox.CgroupDirs()
	if v2 == "" {
		t.Skip("no unified cgroup hierarchy")
	}
	dir := filepath.Join(v2, "arena-"+strconv.Itoa(os.Getpid())+"-v2test")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("the unified hierarchy is not writable here: %v", err)
	}
	defer os.Remove(dir)
	if _, err := os.Stat(filepath.Join(dir, "cgroup.freeze")); err != nil {
		t.Skipf("no cgroup.freeze (Linux < 5.2): %v", err)
	}
	g := &Group{dir: dir, v2: true, parent: v2, pgids: map[int]bool{}, freezer: filepath.Join(dir, "cgroup.freeze"), accounting: true}
	defer g.Close()
	sh, err := ResolveProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p, err := Start(Config{Args: []string{sh, "-c", `setsid sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo ready; read x`},
		Group: g, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if line, err := p.ReadLine(time.Now().Add(30 * time.Second)); err != nil || line != "ready" {
		t.Fatalf("%q %v %s", line, err, p.Stderr())
	}
	own, _ := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/cgroup")
	if !strings.Contains(string(own), "0::"+strings.TrimPrefix(dir, v2)+"\n") {
		t.Errorf("the bot was not born in its cgroup: %q", own)
	}
	var pids []int
	for end := time.Now().Add(10 * time.Second); len(pids) < 2 && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		pids = g.cgroupPids()
	}
	if len(pids) < 2 {
		t.Fatalf("the busy child is not in the cgroup: %v", pids)
	}
	if !g.Freeze() {
		t.Fatal("no freezer")
	}
	frozen := false
	for end := time.Now().Add(10 * time.Second); !frozen && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		frozen = g.Frozen()
	}
	if !frozen {
		t.Fatal("the group did not freeze")
	}
	before, _ := g.CPUTime()
	time.Sleep(200 * time.Millisecond)
	if after, ok := g.CPUTime(); !ok || after != before {
		t.Errorf("a frozen group used CPU: %v then %v (%v)", before, after, ok)
	}
	if !g.Thaw() {
		t.Fatal("no thaw")
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if t2, _ := g.CPUTime(); t2 > before+50*time.Millisecond {
			break
		}
	}
	p.Close()
	if cpu := p.CPUTime(); cpu < 50*time.Millisecond {
		t.Errorf("the bot was charged %v: its busy child is not counted", cpu)
	}
	g.KillAll()
	if left := g.cgroupPids(); len(left) != 0 {
		t.Errorf("left in the cgroup after KillAll: %v", left)
	}
	g.Close()
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the cgroup %s is still there after Close", dir)
	}
}
