package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"arena/game"
)

// postgresEnv names the variable that gives the tests a PostgreSQL
// server: a DSN (scripts/postgres.sh prints one), or "skip".
const postgresEnv = "ARENA_TEST_POSTGRES"

// backend makes a fresh, empty database for one test and returns its DSN.
type backend struct {
	name  string
	fresh func(tb testing.TB) string
}

var backends = []backend{
	{"sqlite", freshSQLite},
	{"postgres", freshPostgres},
}

// eachBackend runs f as a subtest on a fresh database of every backend.
func eachBackend(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.fresh(t)) })
	}
}

func freshSQLite(tb testing.TB) string {
	return filepath.Join(tb.TempDir(), "arena.db")
}

// freshPostgres creates a schema of its own on the test server, dropped
// when the test ends, and returns a DSN whose search_path selects it, so
// that test runs (and tests) never see each other's tables.
//
// Without a server the test fails rather than skips: a broken
// PostgreSQL path must not pass CI quietly.
func freshPostgres(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv(postgresEnv)
	switch base {
	case "":
		tb.Fatalf("%s is not set: run scripts/postgres.sh and export its DSN (%s=\"$(scripts/postgres.sh)\"), "+
			"or set %s=skip to skip the PostgreSQL tests", postgresEnv, postgresEnv, postgresEnv)
	case "skip":
		tb.Skipf("%s=skip", postgresEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatalf("connect to the test server (%s): %v", postgresEnv, err)
	}
	defer conn.Close(ctx)
	var suffix [6]byte
	rand.Read(suffix[:])
	schema := "arena_test_" + hex.EncodeToString(suffix[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		tb.Fatalf("%s must be a postgres:// URL, got %q", postgresEnv, base)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func open(tb testing.TB, dsn string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// sampleRecord is a game record of about size bytes of JSON, the shape
// a real game writes (moves with thinking output).
func sampleRecord(id string, size int) json.RawMessage {
	winner := 1
	r := game.Record{
		ID:   id,
		Game: "gomoku",
		Players: []game.PlayerRecord{
			{Name: "alpha", Command: "./alpha --fast", Protocol: "pipe", TimeMs: 1234.5},
			{Name: "beta", Command: "python3 beta.py", Protocol: "pipe", TimeMs: 987.25, Stderr: "warning: \"é\" \n"},
		},
		Seats:  []int{1, 0},
		Winner: &winner,
		Reason: "five",
		Start:  time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
		End:    time.Date(2026, 11, 22, 10, 3, 0, 0, time.UTC),
	}
	for i := 0; ; {
		data, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		if len(data) >= size {
			return data
		}
		// A move takes well under 200 bytes: add what surely fits.
		for n := (size-len(data))/200 + 1; n > 0; n-- {
			r.Moves = append(r.Moves, game.MoveRecord{
				Side:   i % 2,
				Move:   fmt.Sprintf("%d,%d", i%15, i/15%15),
				TimeMs: float64(i) * 1.5,
				Output: []string{fmt.Sprintf("MESSAGE depth %d eval %d nodes %d", i%20, i*7, i*1000)},
				Effect: json.RawMessage(`{"threats":[1,2,3]}`),
			})
			i++
		}
	}
}

// sampleGame is a complete game of tournament t, a draw when i is odd.
func sampleGame(t string, i int) Game {
	id := fmt.Sprintf("%s/r%03d/p%02d/o%02d/s01", t, i/10, i%10, i%3)
	g := Game{
		ID:         id,
		Tournament: t,
		Round:      i / 10,
		Players:    []string{"alpha", "beta"},
		Seats:      []int{i % 2, 1 - i%2},
		Reason:     "five",
		Detail:     fmt.Sprintf("game %d", i),
		Scores:     []int{i, 2 * i},
		Moves:      20 + i,
		Record:     sampleRecord(id, 2000),
		RecordPath: filepath.Join("out", "games", fmt.Sprintf("%d.json", i)),
		Start:      time.Date(2026, 11, 22, 10, 0, i, 123456789, time.UTC),
		End:        time.Date(2026, 11, 22, 10, 1, i, 987654321, time.FixedZone("CET", 3600)),
	}
	if i%3 == 1 {
		g.Reason = "draw"
	} else {
		w := i % 2
		g.Winner = &w
	}
	return g
}

// sameGame fails unless got is want as the store keeps it: times to the
// microsecond in UTC, the record the same JSON value.
func sameGame(t *testing.T, got, want Game) {
	t.Helper()
	if !sameJSON(got.Record, want.Record) {
		t.Errorf("game %s: record changed:\n got %.200s\nwant %.200s", want.ID, got.Record, want.Record)
	}
	if !got.Start.Equal(want.Start.Truncate(time.Microsecond)) || !got.End.Equal(want.End.Truncate(time.Microsecond)) {
		t.Errorf("game %s: times %v..%v, want %v..%v", want.ID, got.Start, got.End, want.Start, want.End)
	}
	if got.Start.Location() != time.UTC {
		t.Errorf("game %s: start not in UTC: %v", want.ID, got.Start)
	}
	got.Record, want.Record = nil, nil
	got.Start, got.End, want.Start, want.End = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("game read back differs:\n got %+v\nwant %+v", got, want)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
