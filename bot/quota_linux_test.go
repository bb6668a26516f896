package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/sandbox"
)

// TestQuotaOnlyWherePinNotEnough: a group pinned to one core gets no CPU
// quota of a core or more (the pin bounds it already, and on cgroup v1 a
// cpu cgroup of its own makes every wake-up of the bot dearer), while a
// group that is not pinned, or whose quota is below one core, gets its
// quota.
func TestQuotaOnlyWherePinNotEnough(t *testing.T) {
	own, _ := sandbox.CgroupDirs()
	for _, c := range []struct {
		name      string
		quota     time.Duration
		pin       bool
		wantQuota bool
	}{
		{"pinned, one core", 100 * time.Millisecond, true, false},
		{"pinned, two cores", 200 * time.Millisecond, true, false},
		{"pinned, half a core", 50 * time.Millisecond, true, true},
		{"not pinned, one core", 100 * time.Millisecond, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGroup(0, true, sandbox.Cgroup{CPUQuota: c.quota, Period: 100 * time.Millisecond, Pin: c.pin, Core: 0})
			defer g.Close()
			if c.pin {
				if _, ok := g.Core(); !ok {
					t.Skip("no cpuset cgroup to pin a group")
				}
			}
			got, ok := groupQuota(g, own["cpu"])
			if !ok && c.wantQuota {
				t.Skip("no cpu cgroup")
			}
			if got != c.wantQuota {
				t.Errorf("quota set: %v, want %v", got, c.wantQuota)
			}
		})
	}
}

// groupQuota reports whether the group's cpu cgroup limits its CPU time,
// and whether the group has a cpu cgroup to look at (v1: a cpu cgroup
// of its own may be missing by design).
func groupQuota(g *Group, v1cpu string) (quota, ok bool) {
	if g.v2 {
		data, err := os.ReadFile(filepath.Join(g.dir, "cpu.max"))
		if err != nil {
			return false, false
		}
		return !strings.HasPrefix(string(data), "max"), true
	}
	if v1cpu == "" {
		return false, false
	}
	d, made := g.extra["cpu"]
	if !made {
		return false, true
	}
	data, err := os.ReadFile(filepath.Join(d, "cpu.cfs_quota_us"))
	if err != nil {
		return false, false
	}
	return strings.TrimSpace(string(data)) != "-1", true
}
