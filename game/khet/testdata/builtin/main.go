// Command builtin is arena's own Khet player (bots/khetbot) as a program
// of its own, for the tests that play a person against it: the package
// under test cannot build the arena command.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"arena/bots/khetbot"
)

func main() {
	depth := flag.Int("depth", 2, "search depth limit")
	turn := flag.Duration("turn-time", time.Second, "the match's per-move limit")
	flag.Parse()
	opts := khetbot.Options{Depth: *depth, TurnTime: *turn, TTMB: 1}
	if err := khetbot.Run(context.Background(), os.Stdin, os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
