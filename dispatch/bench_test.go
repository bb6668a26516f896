package dispatch

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/engine"
	"arena/game"
	"arena/match"
)

// instantPlay plays a game in no time and writes no file.
func instantPlay(ctx context.Context, spec match.Spec, _ match.Local) (*game.Record, string, error) {
	return fakeRecord(spec), spec.ID + ".json", nil
}

// direct is the local pool's runner for the same instant games.
type direct struct{ localOnly }

func (direct) Run(ctx context.Context, spec match.Spec, _ match.Local) (*game.Record, string, error) {
	return instantPlay(ctx, spec, match.Local{})
}

// runGames plays n instant games through r, conc at once.
func runGames(b *testing.B, r engine.Runner, n, conc int, prefix string) {
	b.Helper()
	ps := players(2)
	var wg sync.WaitGroup
	ids := make(chan int)
	for range conc {
		wg.Go(func() {
			for i := range ids {
				spec := match.Spec{ID: fmt.Sprintf("%s-%d", prefix, i), Game: "gomoku", Players: ps, Seats: []int{i % 2, 1 - i%2}}
				if _, _, err := r.Run(context.Background(), spec, match.Local{}); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for i := range n {
		ids <- i
	}
	close(ids)
	wg.Wait()
}

// BenchmarkDispatchOverhead is the cost per game of sending it through
// the embedded JetStream server to an in-process worker and back (the
// record written on the coordinator, as local play writes it), against
// the local pool running the same instant games: ns/op is per game.
func BenchmarkDispatchOverhead(b *testing.B) {
	for _, conc := range []int{1, 64} {
		b.Run(fmt.Sprintf("local/conc=%d", conc), func(b *testing.B) {
			runGames(b, direct{}, b.N, conc, "l")
		})
		b.Run(fmt.Sprintf("jetstream/conc=%d", conc), func(b *testing.B) {
			srv := startServer(b, b.TempDir(), "")
			out := b.TempDir()
			w, err := NewWorker(context.Background(), connect(b, srv.URL()), WorkerConfig{Name: "w", Slots: conc, Games: testGames, Out: out, Cache: b.TempDir(), Play: instantPlay})
			if err != nil {
				b.Fatal(err)
			}
			r := newRunner(b, connect(b, srv.URL()), "bench", 30*time.Second, nil)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { w.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			runGames(b, r, 10, conc, "warm") // the queue joined, the files warm
			b.ResetTimer()
			runGames(b, r, b.N, conc, fmt.Sprintf("g%d", b.N))
		})
	}
}

// BenchmarkSimulation100x16 simulates 100 workers of 16 slots each (in
// this process, each with its own connection) playing games of a fixed
// 50 ms through one coordinator that stores every game in SQLite: it
// reports the games per second sustained, the processor time per game
// of the whole process (coordinator, server and simulated workers) and
// the store's writes per second.
func BenchmarkSimulation100x16(b *testing.B) {
	const workers, slots, gameTime = 100, 16, 50 * time.Millisecond
	srv := startServer(b, b.TempDir(), "")
	r := newRunner(b, connect(b, srv.URL()), "sim", 30*time.Second, nil)
	f := newFakeGames(gameTime)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range workers {
		out := b.TempDir()
		w, err := NewWorker(ctx, connect(b, srv.URL()), WorkerConfig{Name: fmt.Sprintf("w%d", i), Slots: slots, Games: testGames, Out: out, Cache: b.TempDir(),
			Play: func(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error) {
				select {
				case <-ctx.Done():
					return nil, "", ctx.Err()
				case <-time.After(f.delay):
				}
				return instantPlay(ctx, spec, follow)
			}})
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() { w.Run(ctx) })
	}
	defer func() { cancel(); wg.Wait() }()
	st := openStore(b)
	var games int
	var elapsed time.Duration
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		tour := roundRobin(fmt.Sprintf("sim%d", i), 100, 1, r, st, b.TempDir()) // 4950 games
		tour.Concurrency = workers * slots
		before := cpuTime()
		start := time.Now()
		res, err := tour.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		cpu += cpuTime() - before
		games += res.Table.Played()
	}
	b.ReportMetric(float64(games)/elapsed.Seconds(), "games/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(games), "cpu-µs/game")
	b.ReportMetric(float64(games)/elapsed.Seconds(), "store-writes/s")
}

// cpuTime is the processor time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
