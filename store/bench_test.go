package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSaveGame saves games with a typical record (20 KB of JSON)
// one after another, as a tournament does. sqlite is the store as Open
// makes it (synchronous=FULL); sqlite-normal and sqlite-nosync show
// what the fsync per game costs, for comparison only.
func BenchmarkSaveGame(b *testing.B) {
	for _, c := range []struct {
		name  string
		fresh func(testing.TB) string
		setup string
	}{
		{"sqlite", freshSQLite, ""},
		{"sqlite-normal", freshSQLite, "PRAGMA synchronous = NORMAL"},
		{"sqlite-nosync", freshSQLite, "PRAGMA synchronous = OFF"},
		{"postgres", freshPostgres, ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			s := open(b, c.fresh(b))
			if c.setup != "" {
				if _, err := s.w.ExecContext(ctx, c.setup); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
				b.Fatal(err)
			}
			g := sampleGame("t", 0)
			g.Record = sampleRecord(g.ID, 20_000)
			b.SetBytes(int64(len(g.Record)))
			i := 0
			for b.Loop() {
				g.ID = fmt.Sprintf("t/%d", i)
				i++
				if err := s.SaveGame(ctx, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGameIDs reads back the IDs of a 1000-game tournament, as a
// resume does once.
func BenchmarkGameIDs(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			ctx := context.Background()
			s := open(b, be.fresh(b))
			if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
				b.Fatal(err)
			}
			for i := range 1000 {
				g := sampleGame("t", i)
				g.Record = nil
				if err := s.SaveGame(ctx, g); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if ids, err := s.GameIDs(ctx, "t"); err != nil || len(ids) != 1000 {
					b.Fatal(len(ids), err)
				}
			}
		})
	}
}

// BenchmarkDurableWrite is the cost of one durable game write when
// several games finish together: 1, 8 or 64 writers call SaveGame at
// once, each with a typical record (20 KB of JSON), and ns/op is the wall
// time per game stored. SQLite is on the real disk (under /var/tmp, not a
// tmpfs), so every commit pays its fsync; the 1-writer figure is the
// floor, one fsync'd commit per game, and each figure is also given as a
// ratio against the floor measured in the same run (x-floor: against the
// median of the 1-writer runs so far, all of them with -count). The
// nosync rows, for reference only, write 64 at once with the commit's
// flush turned off (SQLite synchronous=OFF, PostgreSQL
// synchronous_commit=off): what is left of a game's cost once the flush
// is shared.
func BenchmarkDurableWrite(b *testing.B) {
	for _, be := range []backend{{"sqlite", diskSQLite}, {"postgres", freshPostgres}} {
		var floors []float64 // ns per game with one writer, each run
		for _, c := range []struct {
			writers int
			nosync  bool
		}{{1, false}, {8, false}, {64, false}, {64, true}} {
			name := fmt.Sprintf("%s/writers=%d", be.name, c.writers)
			if c.nosync {
				name = fmt.Sprintf("%s/nosync/writers=%d", be.name, c.writers)
			}
			b.Run(name, func(b *testing.B) {
				dsn := be.fresh(b)
				if c.nosync && be.name == "postgres" {
					dsn += "&synchronous_commit=off" // a runtime parameter of every connection
				}
				s := open(b, dsn)
				if c.nosync && be.name == "sqlite" {
					if _, err := s.w.ExecContext(context.Background(), "PRAGMA synchronous = OFF"); err != nil {
						b.Fatal(err)
					}
				}
				perGame := durableWrites(b, s, c.writers)
				if c.writers == 1 && !c.nosync {
					// Each run starts with a probe of b.N = 1; what it
					// reports is its last call.
					if b.N == 1 || len(floors) == 0 {
						floors = append(floors, perGame)
					} else {
						floors[len(floors)-1] = perGame
					}
				}
				if len(floors) > 0 {
					b.ReportMetric(perGame/median(floors), "x-floor")
				}
			})
		}
	}
}

// BenchmarkFsync is the disk's floor for a durable write, beside
// BenchmarkDurableWrite's: append a 20 KB record (or the 4 KB S2 makes of
// it) to a file under /var/tmp and fsync it, as a log does per commit.
func BenchmarkFsync(b *testing.B) {
	for _, size := range []int{20_000, 4_000} {
		b.Run(fmt.Sprintf("bytes=%d", size), func(b *testing.B) {
			f, err := os.Create(diskSQLite(b))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			data := make([]byte, size)
			b.SetBytes(int64(size))
			for b.Loop() {
				if _, err := f.Write(data); err != nil {
					b.Fatal(err)
				}
				if err := f.Sync(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// median is the middle value of xs (the mean of the two middle ones).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// diskSQLite is a fresh SQLite file on the real disk: the tests' TempDir
// may be a tmpfs, whose fsync costs nothing.
func diskSQLite(tb testing.TB) string {
	dir, err := os.MkdirTemp("/var/tmp", "arena-store-bench-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "arena.db")
}

// durableWrites saves b.N games from writers goroutines at once and
// returns the wall time per game, in ns. It also reports the processor
// time per game (user and system, all threads: on a shared machine the
// wall time says more about the neighbours than about the store) and
// the games per transaction.
func durableWrites(b *testing.B, s *Store, writers int) float64 {
	ctx := context.Background()
	if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
		b.Fatal(err)
	}
	g := sampleGame("t", 0)
	g.Record = sampleRecord(g.ID, 20_000)
	b.SetBytes(int64(len(g.Record)))
	var next atomic.Int64
	txs, games := s.commits.txs.Load(), s.commits.games.Load()
	b.ResetTimer()
	cpu := processorTime(b)
	start := time.Now()
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			g := g
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				g.ID = fmt.Sprintf("t/%d", i)
				if err := s.SaveGame(ctx, g); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu = processorTime(b) - cpu
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/game")
	if n := s.commits.txs.Load() - txs; n > 0 {
		b.ReportMetric(float64(s.commits.games.Load()-games)/float64(n), "games/tx")
	}
	if s.ckpt != nil {
		// Checkpoints per 1000 games: by the checkpointer, and by the
		// writer when the log had grown too long.
		b.ReportMetric(float64(s.ckpt.runs.Load())*1000/float64(b.N), "ckpt/kgame")
		b.ReportMetric(float64(s.ckpt.restarts.Load())*1000/float64(b.N), "restart/kgame")
	}
	return float64(elapsed.Nanoseconds()) / float64(b.N)
}

// processorTime is the user and system time of this process so far.
func processorTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGameArgs is what SaveGame does on its caller's goroutine
// before a game joins a batch, for a typical record (20 KB of JSON):
// check it, find its game and pack it (S2). stored-bytes is what the
// record column then holds.
func BenchmarkGameArgs(b *testing.B) {
	for _, d := range []*dialect{sqliteDialect, postgresDialect} {
		b.Run(d.name, func(b *testing.B) {
			s := &Store{d: d}
			g := sampleGame("t", 0)
			g.Record = sampleRecord(g.ID, 20_000)
			b.SetBytes(int64(len(g.Record)))
			var args []any
			for b.Loop() {
				var err error
				if args, err = s.gameArgs(g, "t", [3]string{"[]", "[]", "[]"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(storedSize(args)), "stored-bytes")
		})
	}
}
