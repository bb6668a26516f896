// Command antsbig writes a large Ants replay (4 players, 200x200, more
// than 1000 ants for 1000 turns) for trying the web page's Ants view by
// hand; tests call antstest.BigReplay directly.
//
//	go run ./internal/cmd/antsbig -o big.replay
package main

import (
	"flag"
	"fmt"
	"os"

	"arena/game/ants/antstest"
)

func main() {
	out := flag.String("o", "big.replay", "file to write")
	turns := flag.Int("turns", 1000, "turns to play")
	seed := flag.Int64("seed", 1, "seed")
	flag.Parse()
	data, err := antstest.BigReplay(*turns, *seed)
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "antsbig:", err)
		os.Exit(1)
	}
}
