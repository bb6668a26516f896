package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// saveBatch saves games from goroutines of their own while another
// connection holds the write lock, so that they all queue and are
// written by one transaction (after a first save, taken alone), and
// returns their errors in order.
func saveBatch(t *testing.T, s *Store, dsn string, games []Game) []error {
	t.Helper()
	ctx := context.Background()
	release := blockWrites(t, dsn)
	taken := s.commits.taken.Load()
	first := sampleGame("t", 900+int(taken))
	firstDone := saveAsync(func() error { return s.SaveGame(ctx, first) })
	waitFor(t, "the first save to be taken", func() bool { return s.commits.taken.Load() == taken+1 })
	done := make([]<-chan error, len(games))
	for i, g := range games {
		done[i] = saveAsync(func() error { return s.SaveGame(ctx, g) })
		waitFor(t, "a save to be queued", func() bool { return queued(s) == i+1 })
	}
	release()
	if err := <-firstDone; err != nil {
		t.Fatalf("first save: %v", err)
	}
	errs := make([]error, len(games))
	for i := range games {
		errs[i] = <-done[i]
	}
	return errs
}

// TestCopyBatch writes batches of games with 20 KB records, plain
// matches and tournament games, with and without a winner: on
// PostgreSQL the first batch goes through COPY, and the second, which
// also holds a game stored already, is written again with inserts (COPY
// cannot skip it); on both backends every game comes back as it was
// saved, its record byte for byte, the stored game is refused alone and
// each batch is one transaction.
func TestCopyBatch(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		var games []Game
		for i := range 12 {
			g := sampleGame("t", i)
			g.Record = sampleRecord(g.ID, 20_000+i*100)
			if i%4 == 3 {
				g = sampleGame("", i)
				g.Record = json.RawMessage(` {"id": "` + g.ID + `", "game": "khet", "note": "é\u2028"}` + "\n")
			}
			games = append(games, g)
		}
		for _, c := range []struct {
			name   string
			batch  []Game
			want   []error // nil: stored
			copied int     // games written by COPY, on PostgreSQL
		}{
			{"new games", games[:6], make([]error, 6), 6},
			{"new games and a stored one", append(games[6:], games[2]), append(make([]error, 6), ErrExists), 0},
		} {
			txs, copied := s.commits.txs.Load(), s.commits.copied.Load()
			errs := saveBatch(t, s, dsn, c.batch)
			for i, err := range errs {
				if !errors.Is(err, c.want[i]) {
					t.Errorf("%s: save %d: %v, want %v", c.name, i, err, c.want[i])
				}
			}
			// The first save's transaction, then the batch's.
			if n := s.commits.txs.Load() - txs; n != 2 {
				t.Errorf("%s: %d transactions, want 2", c.name, n)
			}
			want := 0
			if s.d.copy {
				want = c.copied
			}
			if n := s.commits.copied.Load() - copied; n != int64(want) {
				t.Errorf("%s: %d games written by COPY, want %d", c.name, n, want)
			}
		}
		for _, g := range games {
			got, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, got, g)
			if !bytes.Equal(got.Record, g.Record) {
				t.Errorf("game %s: record read back as %.100q, want %.100q", g.ID, got.Record, g.Record)
			}
		}
		recent, err := s.RecentGames(ctx, GameFilter{Game: "khet"})
		if err != nil || len(recent) != 3 {
			t.Errorf("plain matches of khet: %d, %v; want 3 (the game column written by COPY)", len(recent), err)
		}
	})
}
