package tournament

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunConcurrency plays every format with random game lengths and
// checks that no more than N games are ever in flight, every game is
// reported exactly once and the results are what the games returned.
func TestRunConcurrency(t *testing.T) {
	for _, f := range Formats() {
		for _, n := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%s-%d", f, n), func(t *testing.T) {
				s := mustNew(t, Config{Name: "T", Format: f, Players: 8, GamesPerPair: 2, Openings: 2})
				var inFlight, peak atomic.Int32
				var mu sync.Mutex
				played := map[string]int{}
				play := func(ctx context.Context, g Game) (Outcome, error) {
					now := inFlight.Add(1)
					defer inFlight.Add(-1)
					for {
						p := peak.Load()
						if now <= p || peak.CompareAndSwap(p, now) {
							break
						}
					}
					mu.Lock()
					played[g.ID]++
					mu.Unlock()
					time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
					return lowerWins(g), nil
				}
				reported := map[string]bool{}
				results := map[string]Outcome{}
				err := Run(context.Background(), s, results, n, play, func(g Game, o Outcome) error {
					if reported[g.ID] {
						t.Errorf("game %s reported twice", g.ID)
					}
					reported[g.ID] = true
					if o != lowerWins(g) {
						t.Errorf("game %s: outcome %v", g.ID, o)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if p := peak.Load(); p > int32(n) {
					t.Errorf("%d games in flight, limit %d", p, n)
				}
				_, want := simulate(t, mustNew(t, Config{Name: "T", Format: f, Players: 8, GamesPerPair: 2, Openings: 2}), lowerWins)
				if len(reported) != len(want) || len(results) != len(want) {
					t.Errorf("%d reported, %d results, want %d", len(reported), len(results), len(want))
				}
				for id, k := range played {
					if k != 1 {
						t.Errorf("game %s played %d times", id, k)
					}
				}
			})
		}
	}
}

// TestRunResume checks that games with a stored result are not played.
func TestRunResume(t *testing.T) {
	s := mustNew(t, Config{Name: "T", Format: Swiss, Players: 6, GamesPerPair: 2})
	full, order := simulate(t, s, lowerWins)
	results := map[string]Outcome{}
	for _, g := range order[:len(order)/2] {
		results[g.ID] = full[g.ID]
	}
	stored := len(results)
	var played atomic.Int32
	err := Run(context.Background(), s, results, 3, func(_ context.Context, g Game) (Outcome, error) {
		played.Add(1)
		return lowerWins(g), nil
	}, func(g Game, _ Outcome) error {
		if _, ok := full[g.ID]; !ok {
			t.Errorf("resume played %s, not in the uninterrupted event", g.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if int(played.Load()) != len(full)-stored || len(results) != len(full) {
		t.Errorf("played %d after %d stored, total %d; want %d in all", played.Load(), stored, len(results), len(full))
	}
}

// TestRunErrors checks that a failing game or report stops the
// tournament, cancels the games in flight and returns the error.
func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	s := mustNew(t, Config{Name: "T", Format: RoundRobin, Players: 6, GamesPerPair: 2})
	t.Run("game", func(t *testing.T) {
		var started atomic.Int32
		err := Run(context.Background(), s, map[string]Outcome{}, 3, func(ctx context.Context, g Game) (Outcome, error) {
			if started.Add(1) == 4 {
				return Outcome{}, boom
			}
			select {
			case <-ctx.Done():
				return Outcome{}, ctx.Err()
			case <-time.After(time.Millisecond):
				return Draw, nil
			}
		}, func(Game, Outcome) error { return nil })
		if !errors.Is(err, boom) {
			t.Fatalf("error %v, want boom", err)
		}
		if errors.Is(err, context.Canceled) {
			t.Errorf("error %v carries the cancellation of the other games", err)
		}
	})
	t.Run("report", func(t *testing.T) {
		n := 0
		err := Run(context.Background(), s, map[string]Outcome{}, 2, func(context.Context, Game) (Outcome, error) {
			return Draw, nil
		}, func(Game, Outcome) error {
			if n++; n == 3 {
				return boom
			}
			return nil
		})
		if !errors.Is(err, boom) {
			t.Fatalf("error %v, want boom", err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var reported atomic.Int32
		err := Run(ctx, s, map[string]Outcome{}, 2, func(ctx context.Context, g Game) (Outcome, error) {
			// ">=": the game started right after the fifth report may
			// begin only once a sixth is in.
			if reported.Load() >= 5 {
				cancel()
			}
			select {
			case <-ctx.Done():
				return Outcome{}, ctx.Err()
			case <-time.After(time.Millisecond):
				return Draw, nil
			}
		}, func(Game, Outcome) error { reported.Add(1); return nil })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want cancelled", err)
		}
		if reported.Load() >= int32(s.Total()) {
			t.Errorf("all %d games reported after a cancel", reported.Load())
		}
	})
	t.Run("bad concurrency", func(t *testing.T) {
		if err := Run(context.Background(), s, map[string]Outcome{}, 0, nil, nil); err == nil {
			t.Error("no error")
		}
	})
}

// BenchmarkSchedulerOverhead measures what the scheduler and pool cost per
// game: a round robin of 16 bots on 10 openings whose games end at once.
func BenchmarkSchedulerOverhead(b *testing.B) {
	for _, f := range []Format{RoundRobin, Swiss} {
		b.Run(string(f), func(b *testing.B) {
			cfg := Config{Name: "B", Format: f, Players: 16, GamesPerPair: 2, Openings: 10, Rounds: 8}
			games := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				err = Run(context.Background(), s, map[string]Outcome{}, 2, func(_ context.Context, g Game) (Outcome, error) {
					return lowerWins(g), nil
				}, func(Game, Outcome) error { games++; return nil })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(games), "ns/game")
		})
	}
}
