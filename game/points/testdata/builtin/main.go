// Command builtin is arena's own Points player (bots/pointsbot) as a
// program of its own, for the tests that play a person against it: the
// package under test cannot build the arena command.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"arena/bots/pointsbot"
)

func main() {
	playouts := flag.Int("playouts", 200, "playouts per move")
	flag.Parse()
	opts := pointsbot.Options{Playouts: *playouts, Seed: 1}
	if err := pointsbot.RunPipe(context.Background(), os.Stdin, os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
