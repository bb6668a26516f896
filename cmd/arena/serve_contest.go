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

// contestRunner is where the contests' games are played: this machine's
// pool. (The workers of --workers plug in here: any engine.Runner.)
func contestRunner(local engine.Runner) engine.Runner { return local }

// startContests runs the contests of the store while ctx lasts: the
// uploads' builds and test games, and the ladder on slots games at
// once. wait waits for them after ctx ends.
func startContests(ctx context.Context, st *store.Store, out, work string, sb *sandbox.Sandbox, slots int, stderr io.Writer) (web.Contests, func(), error) {
	reg := registryOf(games())
	runner := contestRunner(engine.NewLocal(reg, match.Local{Out: out, Work: work, Sandbox: sb}))
	svc, err := contest.NewService(contest.Config{Store: st, Runner: runner, Games: reg, Dir: filepath.Join(out, "contests"), Sandbox: sb,
		Builtin: func(gameName string) (match.Player, error) {
			ps, err := parsePlayers([]string{"builtin"}, gameName)
			if err != nil {
				return match.Player{}, err
			}
			return ps[0], nil
		}})
	if err != nil {
		return nil, nil, err
	}
	ladder := contest.NewLadder(svc, slots)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ladder.Run(ctx, func(format string, args ...any) { fmt.Fprintf(stderr, "arena: "+format+"\n", args...) })
	}()
	return contest.NewWeb(svc, ladder), func() { <-done; svc.Wait() }, nil
}
