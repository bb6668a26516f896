package sandbox

import (
	"path/filepath"
	"strings"
	"testing"
)

const sampleMountinfo = `22 27 0:21 / /proc rw,relatime - proc proc rw
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`

const sampleCgroup = `8:pids:/
4:memory:/process_api/7c92
1:cpu,cpuacct:/user.slice
0::/init.scope
`

func TestParseCgroups(t *testing.T) {
	mounts, unified := parseMountinfo(sampleMountinfo)
	v1, v2 := parseOwnCgroups(sampleCgroup, mounts, unified)
	want := map[string]string{
		"memory":  "/sys/fs/cgroup/memory/process_api/7c92",
		"pids":    "/sys/fs/cgroup/pids",
		"cpu":     "/sys/fs/cgroup/cpu,cpuacct/user.slice",
		"cpuacct": "/sys/fs/cgroup/cpu,cpuacct/user.slice",
	}
	for c, w := range want {
		if v1[c] != w {
			t.Errorf("%s: %q, want %q", c, v1[c], w)
		}
	}
	if len(v1) != len(want) {
		t.Errorf("v1 %v, want %v", v1, want)
	}
	if v2 != "/sys/fs/cgroup/unified/init.scope" {
		t.Errorf("v2 %q", v2)
	}
}

// FuzzParseCgroups feeds arbitrary mountinfo and cgroup files: the
// parsers never panic and every path they return is absolute and clean
// below its hierarchy's mount point.
func FuzzParseCgroups(f *testing.F) {
	f.Add(sampleMountinfo, sampleCgroup)
	f.Add("1 2 3 4 /x - cgroup2 none rw", "0::/../../etc")
	f.Add("", "::\n0::")
	f.Fuzz(func(t *testing.T, mountinfo, cgroup string) {
		mounts, unified := parseMountinfo(mountinfo)
		v1, v2 := parseOwnCgroups(cgroup, mounts, unified)
		for c, d := range v1 {
			if !filepath.IsAbs(d) || d != filepath.Clean(d) {
				t.Errorf("%s: %q is not a clean absolute path", c, d)
			}
			if !strings.HasPrefix(d, mounts[c]) {
				t.Errorf("%s: %q is not below its mount point %q", c, d, mounts[c])
			}
		}
		if v2 != "" && (!filepath.IsAbs(v2) || !strings.HasPrefix(v2, unified)) {
			t.Errorf("v2 %q is not below %q", v2, unified)
		}
	})
}
