// Command builtin is arena's own Gomoku brain (bots/gomokubot) as a
// program of its own, for the tests that play a person against it: the
// package under test cannot build the arena command.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"arena/bots/gomokubot"
)

func main() {
	depth := flag.Int("depth", 2, "search depth limit")
	flag.Parse()
	if err := gomokubot.RunPipe(context.Background(), os.Stdin, os.Stdout, gomokubot.Options{MaxDepth: *depth}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
