// Command antssample is a simple Ants bot in the style of the official
// engine's Python sample bots, for tests and for measuring arena's own
// bot:
//
//	antssample --strategy random|hold|lefty|greedy|hunter|phalanx [--seed N]
//
// It speaks the AI Challenge bot protocol on stdin/stdout. The seed
// defaults to the player_seed the engine sends, as the sample bots do.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"arena/bots/antsbot"
)

func main() {
	strategy := flag.String("strategy", "hunter", "random, hold, lefty, greedy, hunter or phalanx")
	seed := flag.Int64("seed", 0, "random seed (default: the engine's player_seed)")
	flag.Parse()
	pl, err := antsbot.NewSample(*strategy, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "antssample:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := antsbot.Run(ctx, os.Stdin, os.Stdout, pl); err != nil {
		fmt.Fprintln(os.Stderr, "antssample:", err)
		os.Exit(1)
	}
}
