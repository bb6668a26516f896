package game

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
)

// ReadOpenings reads the --opening file at path with the game's parser,
// refuses a file without openings, and shuffles them in an order of their
// own when seed is not 0. Errors name the flag and the file.
func ReadOpenings[T any](path string, seed int64, parse func(io.Reader) ([]T, error)) ([]T, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--opening: %w", err)
	}
	defer fh.Close()
	openings, err := parse(fh)
	if err != nil {
		return nil, fmt.Errorf("--opening %s: %w", path, err)
	}
	if len(openings) == 0 {
		return nil, fmt.Errorf("--opening %s: no openings in the file", path)
	}
	if seed != 0 {
		rng := rand.New(rand.NewPCG(uint64(seed), 0))
		rng.Shuffle(len(openings), func(i, j int) { openings[i], openings[j] = openings[j], openings[i] })
	}
	return openings, nil
}
