package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"arena/bot"
	"arena/sandbox"
)

// benchSandbox is auto on this machine, or nil for a bare start.
func benchSandbox(b *testing.B, sandboxed bool) *sandbox.Sandbox {
	if !sandboxed {
		return nil
	}
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, probed())
	if err != nil {
		b.Fatal(err)
	}
	return sb
}

// BenchmarkStart is the start of a bot: from bot.Start to the bot's
// own code running (a static C program whose main writes a line at once
// and exits), reported as median-start-ns, and on to its exit reaped
// (median-exit-ns), what the file protocol pays per move besides, and
// the clean-up after it (the bot's Close and the group's KillAll, as the
// file protocol's seat does after each move: median-kill-ns). The
// seat variants start every bot in one group, as the file protocol's
// seat does (a sandboxed one then gets an init prestarted while the
// previous bot ran), with the opponent's move (seatGap, not timed) in
// between. The pooled variant is a one-shot start (a pipe bot's, once
// per game) through a sandbox that keeps a bot.Pool of ready groups,
// with the pool full again (not timed) before each start, as it is
// between two games; pooled-limited gives each bot a memory limit as
// well, which the start sets in the group it takes. The resident-seat
// variants start every bot of the seat through the group's resident init
// (bot.Group.Reside), with the opponent's move in between, or back to
// back (-now), where a prestarted init would not be ready.
func BenchmarkStart(b *testing.B) {
	prog := firstLine(b)
	for _, c := range []struct {
		name                    string
		sandboxed, seat, pooled bool
		memory                  int64
		resident, backToBack    bool
	}{{"bare", false, false, false, 0, false, false}, {"sandboxed", true, false, false, 0, false, false},
		{"pooled", true, false, true, 0, false, false}, {"pooled-limited", true, false, true, 256 << 20, false, false},
		{"bare-seat", false, true, false, 0, false, false}, {"sandboxed-seat", true, true, false, 0, false, false},
		{"resident-seat", true, true, false, 0, true, false}, {"resident-seat-now", true, true, false, 0, true, true},
		{"bare-seat-now", false, true, false, 0, false, true}} {
		b.Run(c.name, func(b *testing.B) {
			sb := benchSandbox(b, c.sandboxed)
			dir := b.TempDir()
			var group *bot.Group
			if c.seat {
				group = bot.NewSandboxGroup(0, sb)
				defer group.Close()
			}
			if c.resident {
				if !sb.Resides() {
					b.Skip("this machine's sandbox cannot have a resident init")
				}
				if _, err := group.Reside(bot.Config{Args: []string{prog}, Dir: dir, Sandbox: sb}); err != nil {
					b.Fatal(err)
				}
			}
			var pool *bot.Pool
			if c.pooled {
				var err error
				if pool, err = bot.OpenPool(b.Context(), sb, 2); err != nil {
					b.Fatal(err)
				}
				defer pool.Close()
			}
			var starts, exits, kills []time.Duration
			for b.Loop() {
				if c.seat && !c.backToBack {
					b.StopTimer()
					time.Sleep(seatGap)
					b.StartTimer()
				}
				if pool != nil {
					b.StopTimer()
					if _, err := pool.Ready(b.Context()); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				t0 := time.Now()
				p, err := bot.Start(bot.Config{Args: []string{prog}, Dir: dir, Sandbox: sb, Group: group, Interactive: true,
					MemoryLimit: c.memory})
				if err != nil {
					b.Fatal(err)
				}
				line, err := p.ReadLine(time.Now().Add(10 * time.Second))
				if err != nil || line != "up" {
					b.Fatalf("the bot said %q (%v): %s", line, err, p.Stderr())
				}
				starts = append(starts, time.Since(t0))
				<-p.Done()
				if p.ExitCode() != 0 {
					b.Fatalf("exit %d: %s", p.ExitCode(), p.Stderr())
				}
				exits = append(exits, time.Since(t0))
				tk := time.Now()
				p.Close()
				if group != nil {
					group.KillAll()
				}
				kills = append(kills, time.Since(tk))
			}
			reportMedianAs(b, kills, "median-kill-ns")
			reportMedianAs(b, starts, "median-start-ns")
			reportMedianAs(b, exits, "median-exit-ns")
		})
	}
}

// firstLine builds the bot BenchmarkStart starts: a static C program
// whose first statement writes "up" to its standard output (skipped
// where there is no C compiler).
func firstLine(b *testing.B) string {
	cc, err := exec.LookPath("cc")
	if err != nil {
		b.Skip("no C compiler for the first-line bot")
	}
	dir := b.TempDir()
	src := filepath.Join(dir, "up.c")
	code := "#include <unistd.h>\nint main(void) { write(1, \"up\\n\", 3); return 0; }\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "up")
	if msg, err := exec.Command(cc, "-O2", "-static", "-o", out, src).CombinedOutput(); err != nil {
		b.Skipf("cannot build the first-line bot: %v: %s", err, msg)
	}
	return out
}

// seatGap stands for the opponent's move between two moves of a seat.
const seatGap = 20 * time.Millisecond

// BenchmarkPipeMove is one move of the pipe protocol: a line to the bot
// and its answer, with the bot paused in between as when the opponent
// thinks (ponder off), bare and sandboxed.
func BenchmarkPipeMove(b *testing.B) {
	for _, c := range []struct {
		name      string
		sandboxed bool
		pause     bool
	}{{"bare", false, false}, {"sandboxed", true, false}, {"bare-paused", false, true}, {"sandboxed-paused", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			sb := benchSandbox(b, c.sandboxed)
			cat, err := bot.ResolveProgram("cat")
			if err != nil {
				b.Skip("no cat")
			}
			p, err := bot.Start(bot.Config{Args: []string{cat}, Dir: b.TempDir(), Sandbox: sb, Interactive: true})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			var times []time.Duration
			for b.Loop() {
				t0 := time.Now()
				if c.pause {
					p.Resume()
				}
				deadline := time.Now().Add(10 * time.Second)
				if err := p.WriteString("move\n", deadline); err != nil {
					b.Fatal(err)
				}
				if _, err := p.ReadLine(deadline); err != nil {
					b.Fatal(err)
				}
				if c.pause {
					p.Pause()
				}
				times = append(times, time.Since(t0))
			}
			reportMedian(b, times)
		})
	}
}

// reportMedian adds the median time of an operation to a benchmark's
// results: on a loaded machine the mean is mostly the few operations
// that waited for a core.
func reportMedian(b *testing.B, times []time.Duration) {
	reportMedianAs(b, times, "median-ns/op")
}

// reportMedianAs reports the median of times as the metric unit.
func reportMedianAs(b *testing.B, times []time.Duration, unit string) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), unit)
}

// BenchmarkPause is pausing and continuing a bot: through the freezer
// (sandboxed, where the machine has one) or SIGSTOP and SIGCONT (bare).
func BenchmarkPause(b *testing.B) {
	for _, c := range []struct {
		name      string
		sandboxed bool
	}{{"sigstop", false}, {"freezer", true}} {
		b.Run(c.name, func(b *testing.B) {
			sb := benchSandbox(b, c.sandboxed)
			if c.sandboxed && !probed().On(sandbox.LayerFreezer) {
				b.Skip("no freezer")
			}
			sleep, err := bot.ResolveProgram("sleep")
			if err != nil {
				b.Skip("no sleep")
			}
			p, err := bot.Start(bot.Config{Args: []string{sleep, "600"}, Dir: b.TempDir(), Sandbox: sb, PauseGrace: -1})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			var times []time.Duration
			for b.Loop() {
				t0 := time.Now()
				p.Pause()
				p.Resume()
				times = append(times, time.Since(t0))
			}
			reportMedian(b, times)
		})
	}
}
