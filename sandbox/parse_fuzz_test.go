package sandbox

import (
	"os"
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

func TestOwnFiles(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(script, []byte("#!/usr/bin/env -S python3 -u\nprint(1)\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	interp := filepath.Join(dir, "venv", "bin", "python9")
	if err := os.MkdirAll(filepath.Dir(interp), 0o755); err != nil {
		t.Fatal(err)
	}
	direct := filepath.Join(dir, "direct.sh")
	if err := os.WriteFile(direct, []byte("#!"+interp+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	for _, c := range []struct {
		path string
		args []string
		want []string
	}{
		{"/usr/bin/python3", []string{"python3", script}, []string{dir}},
		{direct, []string{direct, "--book", data}, []string{dir, filepath.Join(dir, "venv"), data}},
		{"/arena", []string{"/arena", "bot", "gomoku"}, []string{"/arena"}},
		{filepath.Join(dir, "venv", "bin", "python9"), []string{"python9", "/"}, []string{filepath.Join(dir, "venv")}},
	} {
		got := ownFiles(c.path, c.args, "/arena")
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("ownFiles(%s, %v) = %v, want %v", c.path, c.args, got, c.want)
		}
	}
}

// FuzzResidentLaunch: a launch message reads back as it was written, and
// garbage is refused without a panic.
func FuzzResidentLaunch(f *testing.F) {
	f.Add([]byte("/bin/sh\x001\x00sh\x00HOME=/x\x00"))
	f.Add([]byte("/bin/sh\x009\x00"))
	f.Add([]byte("\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parseLaunch(data)
		if err != nil {
			return
		}
		again, err := parseLaunch(l.encode())
		if err != nil || again.Path != l.Path || strings.Join(again.Args, "\x00") != strings.Join(l.Args, "\x00") ||
			len(again.Args) != len(l.Args) || strings.Join(again.Env, "\x00") != strings.Join(l.Env, "\x00") {
			t.Fatalf("%q read back as %+v (%v), was %+v", data, again, err, l)
		}
	})
}

// FuzzResidentEnd: an end message is 12 bytes and reads back as written.
func FuzzResidentEnd(f *testing.F) {
	f.Add([]byte("\x00\x03\x00\x00\x40\x42\x0f\x00\x00\x00\x00\x00"))
	f.Add([]byte("short"))
	f.Fuzz(func(t *testing.T, data []byte) {
		end, err := parseEnd(data)
		if (err == nil) != (len(data) == 12) {
			t.Fatalf("%d bytes: %v", len(data), err)
		}
		if err == nil && string(end.encode()) != string(data) {
			t.Fatalf("%q read back as %+v", data, end)
		}
	})
}
