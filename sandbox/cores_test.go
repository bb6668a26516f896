package sandbox_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/bot"
	"arena/sandbox"
)

// TestBotsPinnedToCoresOfTheirOwn: the groups of one sandbox are pinned
// each to a core no other group holds while there is one, the bots in
// them run on that core only, a group beyond the cores runs unpinned,
// and a closed group's core goes to the next.
func TestBotsPinnedToCoresOfTheirOwn(t *testing.T) {
	if runtime.NumCPU() < 2 || !probed().On(sandbox.LayerCPU) {
		t.Skip("one core, or no cpu layer: nothing to pin")
	}
	sb := newSandbox(t, sandbox.Auto, sandbox.Policy{Mode: sandbox.Auto})
	sh := lookPath(t, "sh")
	allowed := func(g *bot.Group) string {
		t.Helper()
		p, err := bot.Start(bot.Config{Args: []string{sh, "-c", "grep Cpus_allowed_list /proc/self/status"},
			Dir: t.TempDir(), Group: g, Sandbox: sb, Interactive: true})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		line, err := p.ReadLine(time.Now().Add(30 * time.Second))
		if err != nil {
			t.Fatalf("%v %s", err, p.Stderr())
		}
		return strings.TrimSpace(strings.TrimPrefix(line, "Cpus_allowed_list:"))
	}
	var groups []*bot.Group
	defer func() {
		for _, g := range groups {
			g.Close()
		}
	}()
	seen := map[int]bool{}
	for range runtime.NumCPU() {
		g := bot.NewSandboxGroup(0, sb)
		groups = append(groups, g)
		core, ok := g.Core()
		if !ok {
			t.Skip("no cpuset cgroup here: bots are not pinned")
		}
		if seen[core] {
			t.Fatalf("core %d given to two groups", core)
		}
		seen[core] = true
		if got := allowed(g); got != strconv.Itoa(core) {
			t.Errorf("a bot of the group pinned to core %d may run on %q", core, got)
		}
	}
	extra := bot.NewSandboxGroup(0, sb)
	groups = append(groups, extra)
	if core, ok := extra.Core(); ok {
		t.Errorf("a group beyond the cores is pinned to %d", core)
	}
	own, _ := os.ReadFile("/proc/self/status")
	if got := allowed(extra); !strings.Contains(string(own), "Cpus_allowed_list:\t"+got+"\n") {
		t.Errorf("the unpinned bot may run on %q, arena on other cores", got)
	}
	first, _ := groups[0].Core()
	groups[0].Close()
	next := bot.NewSandboxGroup(0, sb)
	groups = append(groups, next)
	if core, ok := next.Core(); !ok || core != first {
		t.Errorf("the closed group's core %d was not given again (got %d, %v)", first, core, ok)
	}
}
