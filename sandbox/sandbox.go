package sandbox

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Mode says how much sandbox a run asks for.
type Mode string

const (
	// Auto uses every layer the machine offers.
	Auto Mode = "auto"
	// Strict refuses to start bots when a layer is missing.
	Strict Mode = "strict"
	// Off runs bots as before the sandbox: their own process group and,
	// where the machine allows, a memory cgroup.
	Off Mode = "off"
)

// ParseMode reads "auto", "strict" or "off".
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case Auto, Strict, Off:
		return m, nil
	}
	return "", fmt.Errorf("sandbox mode %q: want auto, strict or off", s)
}

// Net says what network a sandboxed bot has.
type Net string

const (
	// NetNone: no network at all (an empty network namespace).
	NetNone Net = "none"
	// NetLoopback: a private loopback interface of its own, for contests
	// whose bots talk to helpers of their own over 127.0.0.1.
	NetLoopback Net = "loopback"
)

// ParseNet reads "none" (or "") and "loopback".
func ParseNet(s string) (Net, error) {
	switch n := Net(strings.ToLower(strings.TrimSpace(s))); n {
	case "", NetNone:
		return NetNone, nil
	case NetLoopback:
		return n, nil
	}
	return "", fmt.Errorf("sandbox network %q: want none or loopback", s)
}

// Layer names, as the record's "sandbox" field and arena doctor list them.
const (
	LayerUser       = "user"
	LayerMount      = "mount"
	LayerPID        = "pid"
	LayerNet        = "net"
	LayerIPC        = "ipc"
	LayerUTS        = "uts"
	LayerMemory     = "memory"
	LayerPids       = "pids"
	LayerCPU        = "cpu"
	LayerFreezer    = "freezer"
	LayerRlimits    = "rlimits"
	LayerNoNewPrivs = "no_new_privs"
	LayerSeccomp    = "seccomp"
	LayerLandlock   = "landlock"
)

// AllLayers lists every layer in the order they are reported.
func AllLayers() []string {
	return []string{LayerUser, LayerMount, LayerPID, LayerNet, LayerIPC, LayerUTS,
		LayerMemory, LayerPids, LayerCPU, LayerFreezer, LayerRlimits, LayerNoNewPrivs, LayerSeccomp, LayerLandlock}
}

// Defaults for Policy fields left zero.
const (
	DefaultPids      = 512       // processes and threads per bot (a JVM needs dozens)
	DefaultFileSize  = 1 << 30   // bytes, the largest file a bot may write
	DefaultOpenFiles = 4096      // open files per process
	DefaultTmpSize   = 256 << 20 // bytes of the private /tmp (and /dev/shm)
	DefaultCPU       = 1.0       // cores of CPU time per bot
	cpuPeriod        = 100 * time.Millisecond
)

// Policy is what a run asks of the sandbox.
type Policy struct {
	Mode Mode
	Net  Net
	// Pids caps the processes and threads of a bot (pids.max and
	// RLIMIT_NPROC); 0 = DefaultPids.
	Pids int
	// FileSize caps the size of any file a bot writes; 0 = DefaultFileSize.
	FileSize int64
	// OpenFiles caps the open files of each process; 0 = DefaultOpenFiles.
	OpenFiles int
	// CPU is how many cores' worth of CPU time a bot may use at once;
	// 0 = DefaultCPU.
	CPU float64
}

func (p Policy) withDefaults() Policy {
	if p.Mode == "" {
		p.Mode = Auto
	}
	if p.Net == "" {
		p.Net = NetNone
	}
	if p.Pids <= 0 {
		p.Pids = DefaultPids
	}
	if p.FileSize <= 0 {
		p.FileSize = DefaultFileSize
	}
	if p.OpenFiles <= 0 {
		p.OpenFiles = DefaultOpenFiles
	}
	if p.CPU <= 0 {
		p.CPU = DefaultCPU
	}
	return p
}

// Status is one layer on this machine: on, or off and why.
type Status struct {
	Layer string `json:"layer"`
	On    bool   `json:"on"`
	Why   string `json:"why,omitempty"`
}

// Report is what Probe found on this machine.
type Report struct {
	Layers []Status `json:"layers"`
}

// On reports whether layer is on.
func (r Report) On(layer string) bool {
	for _, s := range r.Layers {
		if s.Layer == layer {
			return s.On
		}
	}
	return false
}

// Missing lists the layers that are off, each with why.
func (r Report) Missing() []Status {
	var off []Status
	for _, s := range r.Layers {
		if !s.On {
			off = append(off, s)
		}
	}
	return off
}

// Sandbox is the set of layers a run puts around each bot. A nil
// *Sandbox is the sandbox turned off: bots start as they did before it.
type Sandbox struct {
	policy Policy
	report Report
	exe    string // the executable started as the init
	hostID int    // the user the bot runs as, seen from outside
	gid    int
	cores  *cores // the cores bot groups are pinned to (see Core)
	notify *notifiers
	pipes  *PipeSleeps // follows bots' pipe reads in the kernel (see PipeSleep)

	mu      sync.Mutex
	reserve Reserve // what is kept ready for its bots (see Keep); nil: none
}

// New makes the sandbox of policy p from what Probe found on this
// machine. Mode Off gives nil. In Strict mode a missing layer is an
// error that names it and says why it is missing.
func New(p Policy, r Report) (*Sandbox, error) {
	p = p.withDefaults()
	if p.Mode == Off {
		return nil, nil
	}
	if p.Mode == Strict {
		if off := r.Missing(); len(off) > 0 {
			var b strings.Builder
			for i, s := range off {
				if i > 0 {
					b.WriteString("; ")
				}
				b.WriteString(s.Layer + ": " + s.Why)
			}
			return nil, fmt.Errorf("--sandbox strict: this machine lacks %d layer(s): %s", len(off), b.String())
		}
	}
	exe, err := executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	uid, gid := botIDs()
	return &Sandbox{policy: p, report: r, exe: exe, hostID: uid, gid: gid, cores: newCores(), notify: &notifiers{}, pipes: &PipeSleeps{}}, nil
}

// Layers lists the layers that are on, in the order of AllLayers; empty
// (not nil) for a nil Sandbox.
func (s *Sandbox) Layers() []string {
	on := []string{}
	if s == nil {
		return on
	}
	for _, st := range s.report.Layers {
		if st.On {
			on = append(on, st.Layer)
		}
	}
	return on
}

// Report returns what the probe found.
func (s *Sandbox) Report() Report {
	if s == nil {
		return Report{}
	}
	return s.report
}

// Policy returns the policy with its defaults filled in.
func (s *Sandbox) Policy() Policy {
	if s == nil {
		return Policy{Mode: Off}
	}
	return s.policy
}

// Cgroup is what package bot sets in a bot's cgroups.
type Cgroup struct {
	Pids     int           // pids.max; 0 = no limit
	CPUQuota time.Duration // CPU time per CPUPeriod; 0 = no limit
	Period   time.Duration
	Freezer  bool // pause through the freezer rather than SIGSTOP
	// Accounting: the CPU time of a bot is that of every process of its
	// cgroup (children that left its process tree included), where the
	// cgroup accounts for it.
	Accounting bool
	// Pin: the group is pinned to core Core through a cpuset cgroup,
	// where there is one; see Sandbox.Core, which the caller asks for it.
	// With Core -1 the group gets a cpuset cgroup on the cores Cpus (a
	// cpuset list, see Sandbox.Cores) instead, to be pinned to one later:
	// a group made ahead of its bot holds no core while it waits.
	Pin  bool
	Core int
	Cpus string
}

// Cgroup returns the cgroup limits of the layers that are on; the zero
// Cgroup for a nil Sandbox.
func (s *Sandbox) Cgroup() Cgroup {
	if s == nil {
		return Cgroup{}
	}
	var c Cgroup
	if s.report.On(LayerPids) {
		c.Pids = s.policy.Pids
	}
	if s.report.On(LayerCPU) {
		c.Period = cpuPeriod
		c.CPUQuota = time.Duration(float64(cpuPeriod) * s.policy.CPU)
	}
	c.Freezer = s.report.On(LayerFreezer)
	c.Accounting = true
	return c
}
