package store

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkSaveGame saves games with a typical record (20 KB of JSON)
// one after another, as a tournament does. sqlite is the store as Open
// makes it (synchronous=FULL); sqlite-normal and sqlite-nosync show
// what the fsync per game costs, for comparison only.
func BenchmarkSaveGame(b *testing.B) {
	for _, c := range []struct {
		name  string
		fresh func(testing.TB) string
		setup string
	}{
		{"sqlite", freshSQLite, ""},
		{"sqlite-normal", freshSQLite, "PRAGMA synchronous = NORMAL"},
		{"sqlite-nosync", freshSQLite, "PRAGMA synchronous = OFF"},
		{"postgres", freshPostgres, ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			s := open(b, c.fresh(b))
			if c.setup != "" {
				if _, err := s.w.ExecContext(ctx, c.setup); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
				b.Fatal(err)
			}
			g := sampleGame("t", 0)
			g.Record = sampleRecord(g.ID, 20_000)
			b.SetBytes(int64(len(g.Record)))
			i := 0
			for b.Loop() {
				g.ID = fmt.Sprintf("t/%d", i)
				i++
				if err := s.SaveGame(ctx, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGameIDs reads back the IDs of a 1000-game tournament, as a
// resume does once.
func BenchmarkGameIDs(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			ctx := context.Background()
			s := open(b, be.fresh(b))
			if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
				b.Fatal(err)
			}
			for i := range 1000 {
				g := sampleGame("t", i)
				g.Record = nil
				if err := s.SaveGame(ctx, g); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if ids, err := s.GameIDs(ctx, "t"); err != nil || len(ids) != 1000 {
					b.Fatal(len(ids), err)
				}
			}
		})
	}
}
