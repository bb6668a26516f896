package sandbox

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// cores hands each bot group a core of its own while there is one, as
// fastchess's affinity does: two bots that think at once then never
// share a core (nor its caches), and a bot's speed does not depend on
// which other bot runs beside it. The cores are those arena may run on
// when the sandbox is made.
type cores struct {
	mu    sync.Mutex
	free  []int        // cores nobody holds, lowest first
	taken map[int]bool // cores held by a group
}

func newCores() *cores {
	c := &cores{taken: map[int]bool{}}
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil {
		return c
	}
	for cpu := 0; cpu < len(set)*64 && len(c.free) < set.Count(); cpu++ {
		if set.IsSet(cpu) {
			c.free = append(c.free, cpu)
		}
	}
	return c
}

// Core gives a bot group a core of its own to be pinned to (-1 when
// every core is held by another group, or there is only one: the group
// then runs wherever the machine puts it), and the release to call when
// the group is gone. A nil Sandbox pins nothing.
func (s *Sandbox) Core() (cpu int, release func()) {
	if s == nil || s.cores == nil || !s.report.On(LayerCPU) {
		return -1, func() {}
	}
	c := s.cores
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.free)+len(c.taken) < 2 || len(c.free) == 0 {
		return -1, func() {}
	}
	cpu = c.free[0]
	c.free = c.free[1:]
	c.taken[cpu] = true
	var once sync.Once
	return cpu, func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			delete(c.taken, cpu)
			i := 0
			for i < len(c.free) && c.free[i] < cpu {
				i++
			}
			c.free = append(c.free[:i], append([]int{cpu}, c.free[i:]...)...)
		})
	}
}

// Pins reports whether Core can ever pin a group to a core: the cpu
// layer is on and arena may run on more than one. A group made ahead of
// its bot (package bot's pool) then gets a cpuset cgroup on all of
// arena's cores, narrowed to the core Core gives when it is taken.
func (s *Sandbox) Pins() bool {
	if s == nil || s.cores == nil || !s.report.On(LayerCPU) {
		return false
	}
	c := s.cores
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.free)+len(c.taken) >= 2
}

// Cores lists the cores arena may run on, as a cpuset list ("0-3" or
// "0,2"): what a group made ahead of its bot may run on until it is
// taken ("" when unknown).
func (s *Sandbox) Cores() string {
	if s == nil || s.cores == nil {
		return ""
	}
	c := s.cores
	c.mu.Lock()
	defer c.mu.Unlock()
	all := append(append([]int{}, c.free...), slices.Collect(maps.Keys(c.taken))...)
	slices.Sort(all)
	parts := make([]string, len(all))
	for i, cpu := range all {
		parts[i] = strconv.Itoa(cpu)
	}
	return strings.Join(parts, ",")
}
