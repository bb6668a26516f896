package tournament

import (
	"context"
	"errors"
	"fmt"
)

// PlayFunc plays one game to its end. An error means the game could not
// be played (never a bot's fault: that is an outcome).
type PlayFunc func(ctx context.Context, g Game) (Outcome, error)

// ReportFunc receives every finished game, in completion order, from a
// single goroutine; it typically stores the game and updates the
// standings. An error stops the tournament.
type ReportFunc func(g Game, o Outcome) error

// Plan is what Run plays: a Schedule, or an open-ended plan such as an
// SPRT that stops when the statistics decide. Pending is called from
// Run's goroutine only, after every report, with the results so far.
type Plan interface {
	Pending(results map[string]Outcome) (games []Game, done bool)
}

// Run plays the games of the plan that have no result in results, at
// most concurrency at once, until the tournament is over, ctx is
// cancelled or a game or report fails. results holds the outcomes already
// stored (a resumed tournament); Run adds every finished game to it. On
// any stop it cancels the games in flight and waits for them, so no
// goroutine outlives it; those that still finish are reported, those
// cancelled are not (a resume plays them). Every error is returned.
func Run(ctx context.Context, s Plan, results map[string]Outcome, concurrency int, play PlayFunc, report ReportFunc) error {
	if concurrency < 1 {
		return fmt.Errorf("concurrency %d: must be at least 1", concurrency)
	}
	if results == nil {
		return errors.New("tournament: nil results map")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type finished struct {
		g   Game
		o   Outcome
		err error
	}
	done := make(chan finished, concurrency)
	inFlight := map[string]bool{}
	var queue []Game
	var errs []error
	stopping := false
	stop := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
		stopping = true
		cancel()
	}
	for {
		if !stopping && ctx.Err() != nil {
			stop(ctx.Err())
		}
		if !stopping && len(queue) == 0 {
			pending, over := s.Pending(results)
			if over && len(inFlight) == 0 {
				return nil
			}
			for _, g := range pending {
				if !inFlight[g.ID] {
					queue = append(queue, g)
				}
			}
		}
		for !stopping && len(queue) > 0 && len(inFlight) < concurrency {
			g := queue[0]
			queue = queue[1:]
			inFlight[g.ID] = true
			go func() {
				o, err := play(ctx, g)
				done <- finished{g, o, err}
			}()
		}
		if len(inFlight) == 0 {
			if stopping {
				return errors.Join(errs...)
			}
			// Pending listed nothing new yet the event is not over: a
			// schedule that waits on itself.
			return errors.New("tournament: schedule stalled with no game in flight")
		}
		f := <-done
		delete(inFlight, f.g.ID)
		switch {
		case f.err != nil && ctx.Err() != nil && errors.Is(f.err, context.Canceled):
			// Cancelled, by the caller or by our own stop: one error
			// says so, not one per game.
			if !stopping {
				stop(ctx.Err())
			}
		case f.err != nil:
			stop(fmt.Errorf("game %s: %w", f.g.ID, f.err))
		default:
			// A game that ends while stopping is still a whole result.
			results[f.g.ID] = f.o
			if err := report(f.g, f.o); err != nil {
				stop(fmt.Errorf("game %s: %w", f.g.ID, err))
			}
		}
	}
}
