package bot

import (
	"errors"
	"os"
	"testing"
	"time"

	"arena/sandbox"
)

// TestFreezeThaw freezes and thaws a group through its freezer, as
// Pause and Resume do for a sandboxed bot: the bot stops answering and
// answers again, and Close removes the group's cgroups, the one kept
// frozen beside it (v1) too.
func TestFreezeThaw(t *testing.T) {
	g := newGroup(0, true, sandbox.Cgroup{Freezer: true})
	defer g.Close()
	if g.freezer == "" {
		t.Skip("no freezer")
	}
	if !g.v2 && g.hold == "" {
		t.Fatal("no cgroup kept frozen beside a v1 freezer")
	}
	p := startSh(t, `while read l; do echo "$l"; done`, Config{Group: g})
	for i := range 3 {
		if !g.Freeze() {
			t.Fatal("freeze failed")
		}
		if err := p.WriteString("ping\n", soon()); err != nil {
			t.Fatal(err)
		}
		if line, err := p.ReadLine(time.Now().Add(50 * time.Millisecond)); !errors.Is(err, ErrTimeout) {
			t.Fatalf("round %d: a frozen bot answered %q %v", i, line, err)
		}
		if !g.Thaw() {
			t.Fatal("thaw failed")
		}
		if line, err := p.ReadLine(soon()); err != nil || line != "ping" {
			t.Fatalf("round %d: after the thaw %q %v", i, line, err)
		}
	}
	p.Close()
	dirs := append(g.v1Dirs(), g.hold, g.dir)
	g.Close()
	for _, d := range dirs {
		if _, err := os.Stat(d); d != "" && err == nil {
			t.Errorf("%s left behind", d)
		}
	}
}

// BenchmarkMemoryExceeded is the look at the memory cgroup a seat takes
// after every move when the bots have a memory limit.
func BenchmarkMemoryExceeded(b *testing.B) {
	g := newGroup(64<<20, true, sandbox.Cgroup{})
	defer g.Close()
	if g.dir == "" {
		b.Skip("no memory cgroup")
	}
	for b.Loop() {
		if g.MemoryExceeded() {
			b.Fatal("exceeded")
		}
	}
}
