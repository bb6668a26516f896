// Package sprttest runs a bot package's in-process SPRT: pairs of games
// (one per colour) between a new and an old version, on two goroutines,
// tallied as fishtest does (pentanomial, elo0 0 / elo1 5, alpha = beta =
// 0.05) until the test decides or the pairs run out.
package sprttest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"arena/rating"
)

// Result is where an SPRT stopped.
type Result struct {
	LLR, Elo, Margin float64
	Games            int
	WDL              [3]int // the new version's wins, draws, losses
	Verdict          string
}

// String is the result as one line of a log.
func (r Result) String() string {
	return fmt.Sprintf("%s; LLR %.2f, %d games, W/D/L %d/%d/%d, Elo %+.1f ± %.1f",
		r.Verdict, r.LLR, r.Games, r.WDL[0], r.WDL[1], r.WDL[2], r.Elo, r.Margin)
}

// Run plays pair(i) for i = 0, 1, ... up to maxPairs, two at a time; a
// pair returns the new version's scores (1, 0.5 or 0) in its two games.
// Each pair is logged as it is tallied.
func Run(t *testing.T, maxPairs int, pair func(i int) (s1, s2 float64)) Result {
	t.Helper()
	lower, upper := rating.SPRTBounds(0.05, 0.05)
	var (
		mu    sync.Mutex
		penta rating.Pentanomial
		wdl   [3]int
		done  bool
	)
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	next := make(chan int)
	go func() {
		defer close(next)
		for i := 0; i < maxPairs; i++ {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for i := range next {
				s1, s2 := pair(i)
				mu.Lock()
				if !done {
					penta.Add(s1, s2)
					for _, s := range []float64{s1, s2} {
						wdl[int(2-2*s)]++ // 1 -> win, 0.5 -> draw, 0 -> loss
					}
					llr := penta.LLR(0, 5)
					elo, margin := penta.Elo()
					t.Logf("pair %d: LLR %.2f [%.2f, %.2f] W/D/L %d/%d/%d Elo %+.1f ± %.1f penta %v (%v)",
						penta.Pairs(), llr, lower, upper, wdl[0], wdl[1], wdl[2], elo, margin, penta, time.Since(start).Round(time.Second))
					if llr <= lower || llr >= upper {
						done = true
						cancel()
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	r := Result{LLR: penta.LLR(0, 5), Games: 2 * penta.Pairs(), WDL: wdl, Verdict: "no decision"}
	r.Elo, r.Margin = penta.Elo()
	switch {
	case r.LLR >= upper:
		r.Verdict = "H1 accepted (new is stronger)"
	case r.LLR <= lower:
		r.Verdict = "H0 accepted (no gain of 5 Elo)"
	}
	return r
}
