package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"arena/game"
	"arena/match"
)

// Series plays a number of games between the same players ("arena
// match"): game i is the spec Spec(i), up to Concurrency at once. Done
// is told every finished game, from one goroutine, in the order they
// end; stopped says the series is stopping (a game or Done failed), so
// the game counts but need not be reported.
type Series struct {
	Games       int
	Concurrency int
	Runner      Runner
	Spec        func(i int) match.Spec
	// Follow, if set, gives game i its hooks and what to call once it
	// is over; Failed, if set, is told a game that could not be played.
	Follow func(i int, spec match.Spec) (match.Local, func(), error)
	Failed func(i int, spec match.Spec)
	Done   func(i int, rec *game.Record, path string, stopped bool) error
}

// Run plays the games and returns how many finished. When a game cannot
// be played, Done fails or ctx ends, the games still running are stopped
// and the first error is returned (ctx's when it stopped the series).
func (s *Series) Run(ctx context.Context) (finished int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type played struct {
		i    int
		rec  *game.Record
		path string
		err  error
	}
	next := make(chan int)
	results := make(chan played)
	var workers sync.WaitGroup
	for range max(1, min(s.Concurrency, s.Games)) {
		workers.Go(func() {
			for i := range next {
				rec, path, err := s.play(ctx, i)
				results <- played{i, rec, path, err}
			}
		})
	}
	go func() {
		defer close(next)
		for i := range s.Games {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		workers.Wait()
		close(results)
	}()
	var runErr error
	for r := range results {
		if r.err == nil {
			finished++
			if s.Done != nil {
				if err := s.Done(r.i, r.rec, r.path, runErr != nil); runErr == nil {
					r.err = err
				}
			}
		} else if !errors.Is(r.err, context.Canceled) {
			r.err = fmt.Errorf("game %d: %w", r.i+1, r.err)
		}
		if r.err != nil && runErr == nil {
			runErr = r.err
			cancel() // the other games stop too
		}
	}
	if runErr == nil && finished < s.Games {
		runErr = ctx.Err() // stopped before every game was handed out
	}
	return finished, runErr
}

// play plays game i.
func (s *Series) play(ctx context.Context, i int) (*game.Record, string, error) {
	spec := s.Spec(i)
	var follow match.Local
	if s.Follow != nil {
		f, done, err := s.Follow(i, spec)
		if err != nil {
			return nil, "", err
		}
		defer done()
		follow = f
	}
	rec, path, err := s.Runner.Run(ctx, spec, follow)
	if err != nil && s.Failed != nil {
		s.Failed(i, spec)
	}
	return rec, path, err
}
