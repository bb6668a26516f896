package sandbox_test

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/bot"
	"arena/sandbox"
)

// TestPoolLeavesNothing: a pool of ready groups, however it ends (its
// Close, the end of the context it was opened with, the Close of the
// sandbox that keeps it), leaves none of its groups' cgroups and none of
// their waiting inits; a bot taken from it before runs on, in its own
// group, until its own Close, which leaves nothing either. The sandbox
// then starts bots as without a pool.
func TestPoolLeavesNothing(t *testing.T) {
	sh := lookPath(t, "sh")
	for _, c := range []struct {
		name string
		end  func(cancel context.CancelFunc, pool *bot.Pool, sb *sandbox.Sandbox)
	}{
		{"pool closed", func(_ context.CancelFunc, pool *bot.Pool, _ *sandbox.Sandbox) { pool.Close() }},
		{"context ended", func(cancel context.CancelFunc, _ *bot.Pool, _ *sandbox.Sandbox) { cancel() }},
		{"sandbox closed", func(_ context.CancelFunc, _ *bot.Pool, sb *sandbox.Sandbox) { sb.Close() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := groupsOf(os.Getpid())
			sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			pool, err := bot.OpenPool(ctx, sb, 2)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			if sb.Kept() != pool {
				t.Fatal("the sandbox does not keep the pool it was given")
			}
			taken := readyInits(t, sb)[0]
			p, err := bot.Start(bot.Config{Args: []string{sh, "-c", "while read x; do echo \"got $x\"; done"},
				Dir: t.TempDir(), Sandbox: sb, Interactive: true})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if p.Pid() != taken {
				t.Fatalf("the bot is process %d, not the init %d kept ready", p.Pid(), taken)
			}
			inits := readyInits(t, sb) // the taken group's replacement made
			if slices.Contains(inits, taken) {
				t.Fatalf("the taken init %d is still among the ready ones %v", taken, inits)
			}
			made := slices.DeleteFunc(groupsOf(os.Getpid()), func(g string) bool { return slices.Contains(before, g) })
			if len(made) < 3 && probed().On(sandbox.LayerMemory) {
				t.Fatalf("want the bot's group and two ready ones, found %v", made)
			}

			c.end(cancel, pool, sb)
			mine := min(len(made), 1) // the bot's group, where groups are cgroups
			if !eventually(func() bool { return sb.Kept() == nil && !anyAlive(inits) && len(still(made)) == mine }) {
				t.Fatalf("after the pool's end: kept %v, inits %v alive %v, groups left %v (want the bot's alone)",
					sb.Kept(), inits, anyAlive(inits), still(made))
			}
			deadline := time.Now().Add(30 * time.Second)
			if err := p.WriteString("on\n", deadline); err != nil {
				t.Fatal(err)
			}
			if line, err := p.ReadLine(deadline); err != nil || line != "got on" {
				t.Fatalf("the bot taken from the pool after its end: %q %v", line, err)
			}
			p.Close()
			if left := still(made); len(left) > 0 {
				t.Errorf("groups left after the bot's Close: %v", left)
			}
			// Without its pool, the sandbox starts bots as before.
			q, err := bot.Start(bot.Config{Args: []string{sh, "-c", "echo alone"}, Dir: t.TempDir(), Sandbox: sb, Interactive: true})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			if line, err := q.ReadLine(time.Now().Add(30 * time.Second)); err != nil || line != "alone" {
				t.Errorf("a bot after the pool's end: %q %v %s", line, err, q.Stderr())
			}
		})
	}
}

// anyAlive reports whether any of pids is a live process.
func anyAlive(pids []int) bool {
	for _, pid := range pids {
		if st := procState(pid); st != 0 && st != 'Z' && st != 'X' {
			return true
		}
	}
	return false
}

// still lists those of the cgroups names (of this process's groups)
// that are still there.
func still(names []string) []string {
	now := groupsOf(os.Getpid())
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(now, n) })
}

// TestPooledBotsPinnedAtTheTake: a bot started through a sandbox that
// keeps groups ready is pinned to a core of its own while there is one,
// although the ready groups were made before it: a ready group holds no
// core (two of them wait while the bots take every core), and the bot
// beyond the cores runs unpinned, as arena does.
func TestPooledBotsPinnedAtTheTake(t *testing.T) {
	if runtime.NumCPU() < 2 || !probed().On(sandbox.LayerCPU) {
		t.Skip("one core, or no cpu layer: nothing to pin")
	}
	sb := newSandbox(t, pooled, sandbox.Policy{Mode: sandbox.Auto})
	probe := bot.NewSandboxGroup(0, sb)
	_, pins := probe.Core()
	probe.Close()
	if !pins {
		t.Skip("no cpuset cgroup here: bots are not pinned")
	}
	sh := lookPath(t, "sh")
	own, _ := os.ReadFile("/proc/self/status")
	seen := map[string]bool{}
	for i := range runtime.NumCPU() + 1 {
		readyInits(t, sb) // the bots before have their replacements ready
		p, err := bot.Start(bot.Config{Args: []string{sh, "-c", "grep Cpus_allowed_list /proc/self/status; read x"},
			Dir: t.TempDir(), Sandbox: sb, Interactive: true})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		line, err := p.ReadLine(time.Now().Add(30 * time.Second))
		if err != nil {
			t.Fatalf("%v %s", err, p.Stderr())
		}
		got := strings.TrimSpace(strings.TrimPrefix(line, "Cpus_allowed_list:"))
		if i == runtime.NumCPU() {
			if !strings.Contains(string(own), "Cpus_allowed_list:\t"+got+"\n") {
				t.Errorf("the bot beyond the cores may run on %q, arena on other cores", got)
			}
			break
		}
		core, err := strconv.Atoi(got)
		if err != nil {
			t.Fatalf("bot %d may run on %q, want a core of its own", i, got)
		}
		if seen[got] {
			t.Errorf("core %d given to two bots", core)
		}
		seen[got] = true
	}
}

// TestMissingInterpreterNamed: a bot whose #! interpreter is missing
// is told so, started through a new init or through one kept ready
// (which binds the bot's own files from its copy of the machine's
// mounts: the interpreter's missing folder must not end the start).
func TestMissingInterpreterNamed(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.Auto, pooled} {
		t.Run(string(mode), func(t *testing.T) {
			sb := newSandbox(t, mode, testPolicy(mode))
			dir := t.TempDir()
			script := dir + "/bot"
			if err := os.WriteFile(script, []byte("#!/no/such/python9\nprint('hi')\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if mode == pooled {
				readyInits(t, sb)
			}
			p, err := bot.Start(bot.Config{Args: []string{script}, Dir: dir, Sandbox: sb, Interactive: true})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if !p.WaitExit(30 * time.Second) {
				t.Fatal("the bot did not end")
			}
			if want := `bad interpreter "/no/such/python9"`; !strings.Contains(p.FinalStderr(), want) {
				t.Errorf("exit %d, stderr %q: want it to say %s", p.ExitCode(), p.FinalStderr(), want)
			}
		})
	}
}

// TestPoolGrows: a pool grown after it was opened (a run that learns
// how many games it plays at once) keeps the larger number of groups
// ready; it never shrinks.
func TestPoolGrows(t *testing.T) {
	sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
	pool, err := bot.OpenPool(t.Context(), sb, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, c := range []struct{ grow, want int }{{0, 1}, {3, 3}, {2, 3}} {
		pool.Grow(c.grow)
		pids, err := pool.Ready(t.Context())
		if err != nil || len(pids) != c.want {
			t.Errorf("grown to %d: %d groups ready (%v), want %d", c.grow, len(pids), err, c.want)
		}
	}
}
