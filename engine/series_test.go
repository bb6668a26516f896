package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"arena/game"
	"arena/match"
)

func seriesOf(r Runner, games int, done *[]string) *Series {
	return &Series{
		Games: games, Concurrency: 2, Runner: r,
		Spec: func(i int) match.Spec {
			return match.Spec{ID: fmt.Sprint("s-", i+1), Game: "gomoku", Seats: []int{i % 2, 1 - i%2},
				Players: []match.Player{{Name: "a"}, {Name: "b"}}}
		},
		Done: func(_ int, rec *game.Record, _ string, _ bool) error {
			*done = append(*done, rec.ID)
			return nil
		},
	}
}

// A series plays every game once and reports each; one that cannot be
// played stops the series with an error naming it.
func TestSeries(t *testing.T) {
	var done []string
	n, err := seriesOf(&instantRunner{}, 7, &done).Run(context.Background())
	if err != nil || n != 7 || len(done) != 7 {
		t.Fatalf("%d finished, %d reported, %v", n, len(done), err)
	}
	done = nil
	n, err = seriesOf(&instantRunner{failAfter: 3}, 7, &done).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "the runner is gone") || !strings.HasPrefix(err.Error(), "game ") || n != 3 || len(done) != 3 {
		t.Fatalf("a failing runner: %d finished, %d reported, %v", n, len(done), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := seriesOf(&instantRunner{}, 3, &done).Run(ctx); err == nil {
		t.Fatal("a cancelled series ran")
	}
}
