package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// walFrames is the length of the store's log in pages, as an idle
// writer's PASSIVE checkpoint finds it (copying what is left).
func walFrames(t *testing.T, s *Store) int64 {
	t.Helper()
	busy, frames, err := checkpoint(context.Background(), s.w)
	if err != nil || busy {
		t.Fatalf("checkpoint: busy %v, %v", busy, err)
	}
	return frames
}

// TestCheckpointer checks that commits leave the log to the
// checkpointer: the writer never checkpoints on its own, and what the
// checkpointer copied is in the database file alone, without the log.
func TestCheckpointer(t *testing.T) {
	ctx := context.Background()
	path := freshSQLite(t)
	s := open(t, path)
	var auto int
	if err := s.w.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("writer's wal_autocheckpoint %d, %v; want 0", auto, err)
	}
	if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
		t.Fatal(err)
	}
	const n = 20
	s.ckpt.every.Store(1 << 62) // none yet
	for i := range n {
		if err := s.SaveGame(ctx, sampleGame("t", i)); err != nil {
			t.Fatal(err)
		}
	}
	if runs := s.ckpt.runs.Load(); runs != 0 {
		t.Fatalf("%d checkpoints before any was asked for", runs)
	}
	if got := countGames(t, copyAlone(t, path)); got != 0 {
		t.Errorf("the database file alone holds %d games before any checkpoint, want 0 (all in the log)", got)
	}

	// Now one checkpoint per commit: one starts after the last commit
	// and copies the whole log. (The writer asks for a checkpoint after
	// a commit's callers have their answer, so the last batch of the
	// saves above may ask for one too, before or after the last save's.)
	s.ckpt.every.Store(1)
	if err := s.SaveGame(ctx, sampleGame("t", n)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the checkpoint", func() bool { return s.ckpt.runs.Load() >= 1 })
	waitFor(t, "a checkpoint after the last commit", func() bool {
		return countGames(t, copyAlone(t, path)) == n+1
	})
	if err := s.ckpt.err.Load(); err != nil {
		t.Fatalf("checkpoint: %v", *err)
	}
	if frames := s.ckpt.frames.Load(); frames == 0 {
		t.Error("the checkpointer found an empty log")
	}
	if runs := s.ckpt.runs.Load(); runs > 2 {
		t.Errorf("%d checkpoints after two commits at most asked for them", runs)
	}
}

// TestLogRestart checks that when the log has grown past its limit, the
// writer checkpoints it between two batches so that the next transaction
// writes it again from its start.
func TestLogRestart(t *testing.T) {
	ctx := context.Background()
	s := open(t, freshSQLite(t))
	s.ckpt.every.Store(1 << 62) // the checkpointer stays idle
	if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := s.SaveGame(ctx, sampleGame("t", i)); err != nil {
			t.Fatal(err)
		}
	}
	// What the log held just before the restart: as long as the log's
	// length is under the limit, the writer leaves it alone.
	if err := s.SaveGame(ctx, sampleGame("t", 10)); err != nil {
		t.Fatal(err)
	}
	if r := s.ckpt.restarts.Load(); r != 0 {
		t.Fatalf("%d restarts of a short log", r)
	}
	s.ckpt.frames.Store(walRestartFrames) // as a checkpointer would report it
	if err := s.SaveGame(ctx, sampleGame("t", 11)); err != nil {
		t.Fatal(err)
	}
	if r := s.ckpt.restarts.Load(); r != 1 {
		t.Fatalf("%d restarts of a long log, want 1", r)
	}
	if f := s.ckpt.frames.Load(); f != 0 {
		t.Errorf("log length %d after the restart, want 0 until the next checkpoint says", f)
	}
	// The log now holds only the last game's transaction, not the
	// twelve it held. (walFrames copies it, so the next game's
	// transaction starts the log again too: it measures one.)
	after := walFrames(t, s)
	if err := s.SaveGame(ctx, sampleGame("t", 12)); err != nil {
		t.Fatal(err)
	}
	one := walFrames(t, s)
	if after <= 0 || after > 2*one {
		t.Errorf("the log holds %d pages after the restart; one game's transaction is %d", after, one)
	}
	if got := countGames(t, s.name); got != 13 {
		t.Errorf("%d games stored, want 13", got)
	}
}

// copyAlone copies the database file, without its log, into a folder of
// its own and returns the copy's path.
func copyAlone(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "alone.db")
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// countGames counts the games in the SQLite file at path, through a
// plain connection of its own: 0 when it has no games table yet.
func countGames(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", sqliteURI(path, []string{"_pragma=busy_timeout(10000)"}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'games'`).Scan(&n); err != nil || n == 0 {
		return 0
	}
	if err := db.QueryRow(`SELECT count(*) FROM games`).Scan(&n); err != nil {
		t.Fatalf("count games in %s: %v", path, err)
	}
	return n
}

// TestCheckpointWithoutRecords checks that games without records still
// call for checkpoints: every transaction writes pages of its own.
func TestCheckpointWithoutRecords(t *testing.T) {
	ctx := context.Background()
	s := open(t, freshSQLite(t))
	if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
		t.Fatal(err)
	}
	n := int(checkpointEvery/txPages) + 1
	for i := range n {
		g := sampleGame("t", i)
		g.Record = nil
		if err := s.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "a checkpoint", func() bool { return s.ckpt.runs.Load() > 0 })
}
