package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Probe finds out which layers work on this machine for a bot with
// network net: it checks the cgroup controllers and starts an init in
// probe mode (in new namespaces, and without them if those fail), which
// tries every layer and says which failed.
func Probe(ctx context.Context, net Net) Report {
	status := map[string]Status{}
	set := func(layer string, on bool, why string) { status[layer] = Status{Layer: layer, On: on, Why: why} }
	for layer, why := range probeCgroups() {
		set(layer, why == "", why)
	}

	tmp, err := os.MkdirTemp("", "arena-probe-")
	if err != nil {
		for _, l := range AllLayers() {
			if _, ok := status[l]; !ok {
				set(l, false, "cannot make a folder to probe in: "+err.Error())
			}
		}
		return report(status)
	}
	defer os.RemoveAll(tmp)
	s := &Sandbox{policy: Policy{Net: net}.withDefaults()}
	s.exe, err = executable()
	if err == nil {
		s.hostID, s.gid = botIDs()
	}
	sp := s.spec("/bin/true", []string{"true"}, tmp, nil)
	sp.Probe, sp.Rlimits, sp.Seccomp, sp.Landlock = true, true, true, true
	sp.Loopback = net == NetLoopback
	if l := landlockABI(); l == 0 {
		sp.Landlock = false
		set(LayerLandlock, false, "the kernel has no landlock (CONFIG_SECURITY_LANDLOCK, or \"landlock\" missing from the lsm= boot option)")
	}

	nsLayers := []string{LayerUser, LayerMount, LayerPID, LayerNet, LayerIPC, LayerUTS}
	sp.NS = true
	if os.Geteuid() == 0 {
		sp.UID, sp.GID = botUID, botGID
	}
	failed, err := s.runProbe(ctx, sp)
	if err == nil && failed[LayerMount] != "" {
		err = fmt.Errorf("the bot's view of the file system: %s", failed[LayerMount])
	}
	if err == nil && failed[LayerUTS] != "" {
		err = fmt.Errorf("host name: %s", failed[LayerUTS])
	}
	if err != nil {
		why := err.Error() + userNSHint()
		for _, l := range nsLayers {
			set(l, false, why)
		}
		sp.NS, sp.UID, sp.GID = false, -1, -1
		if os.Geteuid() == 0 {
			sp.UID, sp.GID = s.hostID, s.gid
		}
		failed, err = s.runProbe(ctx, sp)
		if err != nil {
			for _, l := range []string{LayerRlimits, LayerNoNewPrivs, LayerSeccomp, LayerLandlock} {
				if _, ok := status[l]; !ok {
					set(l, false, err.Error())
				}
			}
			return report(status)
		}
	} else {
		for _, l := range nsLayers {
			set(l, true, "")
		}
		if why := failed[LayerNet]; why != "" {
			set(LayerNet, false, "private loopback: "+why)
		}
	}
	for _, l := range []string{LayerRlimits, LayerNoNewPrivs, LayerSeccomp, LayerLandlock} {
		if _, ok := status[l]; ok {
			continue
		}
		why := failed[l]
		if l == LayerNoNewPrivs && why == "" && failed["privileges"] != "" {
			why = "dropping privileges: " + failed["privileges"]
		}
		set(l, why == "", why)
	}
	return report(status)
}

// report orders status by Layers.
func report(status map[string]Status) Report {
	var r Report
	for _, l := range AllLayers() {
		st, ok := status[l]
		if !ok {
			st = Status{Layer: l, Why: "not probed"}
		}
		r.Layers = append(r.Layers, st)
	}
	return r
}

// runProbe starts an init in probe mode and returns what it says failed.
func (s *Sandbox) runProbe(ctx context.Context, sp spec) (map[string]string, error) {
	if s.exe == "" {
		return nil, errNoInit
	}
	data, err := json.Marshal(sp)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.exe)
	cmd.Args = []string{initName}
	cmd.Dir = sp.Dir
	cmd.Env = append(os.Environ(), envSpec+"="+string(data))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if sp.NS {
		s.setNamespaces(cmd.SysProcAttr)
	}
	if err := s.handOver([]string{sp.Dir}); err != nil {
		return nil, err
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return nil, fmt.Errorf("%w: %s", err, msg)
		}
		return nil, fmt.Errorf("start a process in new namespaces: %w", err)
	}
	failed := map[string]string{}
	if err := json.Unmarshal(out.Bytes(), &failed); err != nil {
		return nil, fmt.Errorf("%w: %q", errNoInit, out.String())
	}
	return failed, nil
}

// userNSHint says what usually switches user namespaces off.
func userNSHint() string {
	if v, err := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); err == nil && strings.TrimSpace(string(v)) == "0" && os.Geteuid() != 0 {
		return " (kernel.unprivileged_userns_clone is 0: not root and no user namespaces)"
	}
	if v, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(v)) == "0" {
		return " (user.max_user_namespaces is 0)"
	}
	if v, err := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); err == nil && strings.TrimSpace(string(v)) == "1" && os.Geteuid() != 0 {
		return " (AppArmor restricts unprivileged user namespaces)"
	}
	return ""
}

// CgroupDirs finds the calling thread's own cgroup in each v1 hierarchy
// (by controller name) and in the unified v2 hierarchy ("" if none). It
// reads the thread's cgroups: the process's main thread may be inside a
// bot's cgroup for the instant it starts one.
func CgroupDirs() (v1 map[string]string, v2 string) {
	mountinfo, _ := os.ReadFile("/proc/self/mountinfo")
	own, err := os.ReadFile("/proc/thread-self/cgroup")
	if err != nil {
		return map[string]string{}, ""
	}
	mounts, unified := parseMountinfo(string(mountinfo))
	return parseOwnCgroups(string(own), mounts, unified)
}

// parseOwnCgroups reads a /proc/PID/cgroup file ("ID:CONTROLLERS:PATH"
// lines) against the mount points of the hierarchies.
func parseOwnCgroups(text string, mounts map[string]string, unified string) (v1 map[string]string, v2 string) {
	v1 = map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") {
			continue
		}
		parts[2] = filepath.Clean(parts[2]) // no way up out of the hierarchy
		if parts[0] == "0" && parts[1] == "" {
			if unified != "" {
				v2 = filepath.Join(unified, parts[2])
			}
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if m, ok := mounts[c]; ok {
				v1[c] = filepath.Join(m, parts[2])
			}
		}
	}
	return v1, v2
}

// parseMountinfo maps each v1 controller the arena uses to its
// hierarchy's mount point, and returns the unified hierarchy's mount
// point, from the text of /proc/self/mountinfo.
func parseMountinfo(text string) (map[string]string, string) {
	m := map[string]string{}
	unified := ""
	for _, line := range strings.Split(text, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		pf, sf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(sf) < 3 || !strings.HasPrefix(pf[4], "/") {
			continue
		}
		switch sf[0] {
		case "cgroup2":
			unified = pf[4]
		case "cgroup":
			for _, o := range strings.Split(sf[2], ",") {
				switch o {
				case "memory", "pids", "cpu", "freezer", "cpuacct", "cpuset":
					m[o] = pf[4]
				}
			}
		}
	}
	return m, unified
}

// cgroupFiles are the files that show a controller works in a cgroup.
var cgroupFiles = map[string][2]string{ // layer: v1 file, v2 file
	LayerMemory:  {"memory.limit_in_bytes", "memory.max"},
	LayerPids:    {"pids.max", "pids.max"},
	LayerCPU:     {"cpu.cfs_quota_us", "cpu.max"},
	LayerFreezer: {"freezer.state", "cgroup.freeze"},
}

// probeCgroups makes a cgroup next to its own for each controller and
// reports, per cgroup layer, "" when it works and else why not.
func probeCgroups() map[string]string {
	v1, v2 := CgroupDirs()
	out := map[string]string{}
	name := "arena-probe-" + strconv.Itoa(os.Getpid())
	var v2dir string
	if v2 != "" {
		d := filepath.Join(v2, name)
		if os.Mkdir(d, 0o755) == nil {
			v2dir = d
			defer os.Remove(d)
		}
	}
	for layer, files := range cgroupFiles {
		ctrl := layer
		if dir, ok := v1[ctrl]; ok {
			d := filepath.Join(dir, name)
			err := os.Mkdir(d, 0o755)
			if err == nil {
				_, err = os.Stat(filepath.Join(d, files[0]))
				os.Remove(d)
			}
			if err == nil {
				out[layer] = ""
				continue
			}
			out[layer] = fmt.Sprintf("cgroup v1 %s controller not writable here: %v", ctrl, err)
			continue
		}
		if v2dir != "" {
			if _, err := os.Stat(filepath.Join(v2dir, files[1])); err == nil {
				out[layer] = ""
				continue
			}
			out[layer] = fmt.Sprintf("cgroup v2: the %s controller is not delegated to %s (cgroup.subtree_control)", ctrl, v2)
			continue
		}
		out[layer] = fmt.Sprintf("no %s cgroup controller mounted, or no cgroup of our own is writable", ctrl)
	}
	return out
}
