package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"arena/contest"
	"arena/engine"
	"arena/match"
	"arena/sandbox"
	"arena/store"
	"arena/web"
)

// startContests runs the contests of the store while ctx lasts: the
// uploads' builds and test games, and the ladder on slots games at
// once, here or on disp's workers (--workers, --nats; nil: here). wait
// waits for them after ctx ends.
func startContests(ctx context.Context, disp *dispatcher, st *store.Store, out, work string, sb *sandbox.Sandbox, slots int, stderr io.Writer) (web.Contests, func(), error) {
	reg := registryOf(games())
	// The ladder's games are not resumed: a stopped server's queued
	// games are withdrawn.
	runner, closeRunner, err := disp.runner(ctx, engine.NewLocal(reg, match.Local{Out: out, Work: work, Sandbox: sb}), out, "contests", true)
	if err != nil {
		return nil, nil, err
	}
	svc, err := contest.NewService(contest.Config{Store: st, Runner: runner, Games: reg, Dir: filepath.Join(out, "contests"), Sandbox: sb,
		Builtin: func(gameName string) (match.Player, error) {
			ps, err := parsePlayers([]string{"builtin"}, gameName)
			if err != nil {
				return match.Player{}, err
			}
			return ps[0], nil
		}})
	if err != nil {
		closeRunner()
		return nil, nil, err
	}
	ladder := contest.NewLadder(svc, slots)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ladder.Run(ctx, func(format string, args ...any) { fmt.Fprintf(stderr, "arena: "+format+"\n", args...) })
	}()
	return contest.NewWeb(svc, ladder), func() { <-done; svc.Wait(); closeRunner() }, nil
}
