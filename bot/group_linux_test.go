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

// TestMemoryExceededByChild: a process of the bot killed at the memory
// limit while the bot itself lives on (the pipe seat's check after each
// move) is seen; on cgroup v1 through the OOM eventfd, not a read of
// memory.oom_control.
func TestMemoryExceededByChild(t *testing.T) {
	py, err := ResolveProgram("python3")
	if err != nil {
		t.Skip("no python3")
	}
	g := newGroup(64<<20, true, sandbox.Cgroup{})
	defer g.Close()
	if g.dir == "" {
		t.Skip("no memory cgroup here")
	}
	if !g.v2 && g.oomControl == nil {
		t.Error("a v1 memory cgroup with a limit has no OOM eventfd")
	}
	if g.MemoryExceeded() {
		t.Fatal("the limit is exceeded before anything ran")
	}
	p, err := Start(Config{Args: []string{"/bin/sh", "-c", py + ` -c "x = bytearray(256 << 20)"; echo "alive $?"; read x`},
		Group: g, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	line, err := p.ReadLine(soon())
	if err != nil || line != "alive 137" {
		t.Fatalf("the bot said %q (%v)", line, err)
	}
	if !g.MemoryExceeded() || !g.MemoryExceeded() {
		t.Error("a child killed at the limit is not seen (twice)")
	}
}
