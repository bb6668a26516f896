package sandbox_test

import (
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

// BenchmarkStart is the start of a bot (a program that exits at once)
// to its end: what the file protocol pays per move. The seat variants
// start every bot in one group, as the file protocol's seat does (a
// sandboxed one then gets an init prestarted while the previous bot
// ran), with the opponent's move (seatGap, not timed) in between.
func BenchmarkStart(b *testing.B) {
	for _, c := range []struct {
		name            string
		sandboxed, seat bool
	}{{"bare", false, false}, {"sandboxed", true, false}, {"bare-seat", false, true}, {"sandboxed-seat", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			sb := benchSandbox(b, c.sandboxed)
			prog, err := bot.ResolveProgram("true")
			if err != nil {
				b.Skip("no true")
			}
			dir := b.TempDir()
			var group *bot.Group
			if c.seat {
				group = bot.NewSandboxGroup(0, sb)
				defer group.Close()
			}
			var times []time.Duration
			for b.Loop() {
				if c.seat {
					b.StopTimer()
					time.Sleep(seatGap)
					b.StartTimer()
				}
				t0 := time.Now()
				p, err := bot.Start(bot.Config{Args: []string{prog}, Dir: dir, Sandbox: sb, Group: group})
				if err != nil {
					b.Fatal(err)
				}
				<-p.Done()
				if p.ExitCode() != 0 {
					b.Fatalf("exit %d: %s", p.ExitCode(), p.Stderr())
				}
				times = append(times, time.Since(t0))
				p.Close()
				if group != nil {
					group.KillAll()
				}
			}
			reportMedian(b, times)
		})
	}
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
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/op")
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
