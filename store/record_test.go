package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// TestRecordKept checks how a record is stored: on SQLite a BLOB far
// smaller than its JSON, on PostgreSQL JSON, compressed as the column
// says (lz4 where the server has it); read back, the same bytes, and the
// game column says the record's game.
func TestRecordKept(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		g := sampleGame("", 1)
		g.Record = sampleRecord(g.ID, 20_000)
		if err := s.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		typeOf, size := `typeof(record)`, `length(record)`
		if s.d == postgresDialect {
			typeOf, size = `pg_typeof(record)::text`, `length(record::text)`
		}
		var kind, game string
		var n int
		if err := s.r.QueryRowContext(ctx, s.d.q(`SELECT `+typeOf+`, `+size+`, game FROM games WHERE id = ?`), g.ID).
			Scan(&kind, &n, &game); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{kindSQLite: "blob", kindPostgres: "json"}[s.d.name]
		if kind != want {
			t.Errorf("record stored as %s, want %s", kind, want)
		}
		if s.d.packed && n*3 > len(g.Record) {
			t.Errorf("record of %d bytes stored in %d", len(g.Record), n)
		}
		if game != "gomoku" {
			t.Errorf("game column %q, want gomoku", game)
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		sameGame(t, got, g)
		if !bytes.Equal(got.Record, g.Record) {
			t.Error("the store gave back other bytes than it was given")
		}
		if s.d == postgresDialect {
			var method, column string
			if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(pg_column_compression(record), ''),
				(SELECT attcompression::text FROM pg_attribute WHERE attrelid = 'games'::regclass AND attname = 'record')
				FROM games WHERE id = $1`, g.ID).Scan(&method, &column); err != nil {
				t.Fatal(err)
			}
			wantMethod := map[string]string{"l": "lz4", "p": "pglz", "": "pglz"}[column]
			if method != wantMethod {
				t.Errorf("record compressed with %q, want %q (column compression %q)", method, wantMethod, column)
			}
			t.Logf("record compressed with %s", method)
		}
	})
}

// TestOldSchemaRecords opens a database that an arena of schema version
// 2 wrote (records as TEXT on SQLite, no game column) and checks that
// its games read back as they were, that the plain match's game is
// named from its record, and that games saved since (packed) and before
// (not) are read alike.
func TestOldSchemaRecords(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		d := sqliteDialect
		if k, _, _ := parseDSN(dsn); k == kindPostgres {
			d = postgresDialect
		}
		old := createVersion(t, dsn, d, 2)
		tourn := sampleGame("cup", 0)
		plain := sampleGame("", 1)
		plain.Record = json.RawMessage(`{"id":"` + plain.ID + `", "game": "khet", "moves": []}`)
		bare := sampleGame("", 2)
		bare.Record = nil
		if _, err := old.Exec(d.q(`INSERT INTO tournaments (name, game, args, status, created, updated)
			VALUES (?, ?, ?, ?, ?, ?)`), "cup", "gomoku", "[]", StatusRunning, d.timeArg(tourn.Start), d.timeArg(tourn.Start)); err != nil {
			t.Fatal(err)
		}
		for _, g := range []Game{tourn, plain, bare} {
			insertVersion2(t, old, d, g)
		}
		old.Close()

		s := open(t, dsn)
		var v int
		if err := s.r.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != len(migrations) {
			t.Fatalf("schema version %d, %v; want %d", v, err, len(migrations))
		}
		since := sampleGame("cup", 3)
		if err := s.SaveGame(ctx, since); err != nil {
			t.Fatal(err)
		}
		for _, want := range []Game{tourn, plain, bare, since} {
			got, err := s.Game(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, got, want)
		}
		if d.packed {
			got, err := s.Game(ctx, plain.ID)
			if err == nil && !bytes.Equal(got.Record, plain.Record) {
				t.Errorf("an old TEXT record read back as %s, want it byte for byte", got.Record)
			}
		}
		recent, err := s.RecentGames(ctx, GameFilter{Game: "khet"})
		if err != nil || len(recent) != 1 || recent[0].ID != plain.ID {
			t.Errorf("the old plain match by its record's game: %+v, %v", recent, err)
		}
		all, err := s.RecentGames(ctx, GameFilter{})
		if err != nil {
			t.Fatal(err)
		}
		var games []string
		for _, g := range all {
			games = append(games, g.Game)
		}
		if want := []string{"gomoku", "", "khet", "gomoku"}; !slices.Equal(games, want) {
			t.Errorf("games named %q, want %q", games, want)
		}
	})
}

// createVersion makes the database at dsn hold the schema up to version
// v, as an arena of that version left it, and returns a plain
// connection to it.
func createVersion(t *testing.T, dsn string, d *dialect, v int) *sql.DB {
	t.Helper()
	var db *sql.DB
	if d == postgresDialect {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			t.Fatal(err)
		}
		db = stdlib.OpenDB(*cfg)
	} else {
		var err error
		db, err = sql.Open("sqlite", sqliteURI(dsn, []string{"_pragma=journal_mode(WAL)"}))
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { db.Close() })
	stmts := []string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`}
	for _, m := range migrations[:v] {
		for _, stmt := range m {
			if stmt = d.types.Replace(stmt); stmt != "" {
				stmts = append(stmts, stmt)
			}
		}
	}
	stmts = append(stmts, d.q(`INSERT INTO schema_version (version) VALUES (?)`))
	for i, stmt := range stmts {
		var args []any
		if i == len(stmts)-1 {
			args = []any{v}
		}
		if _, err := db.Exec(stmt, args...); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return db
}

// insertVersion2 stores g as SaveGame did at schema version 2: the
// record as text.
func insertVersion2(t *testing.T, db *sql.DB, d *dialect, g Game) {
	t.Helper()
	var tournament, winner, record any
	if g.Tournament != "" {
		tournament = g.Tournament
	}
	if g.Winner != nil {
		winner = *g.Winner
	}
	if g.Record != nil {
		record = string(g.Record)
	}
	lists := make([]string, 3)
	for i, v := range []any{g.Players, g.Seats, g.Scores} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		lists[i] = string(data)
	}
	if _, err := db.Exec(d.q(`INSERT INTO games (id, tournament, round, players, seats, winner, reason, detail, scores,
		moves, record, record_path, start_time, end_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		g.ID, tournament, g.Round, lists[0], lists[1], winner, g.Reason, g.Detail, lists[2], g.Moves, record,
		g.RecordPath, d.timeArg(g.Start), d.timeArg(g.End)); err != nil {
		t.Fatal(err)
	}
}

// FuzzRecordGame checks recordGame against a full decoding: on any JSON
// object with one "game" member it finds what encoding/json finds, and
// it never panics.
func FuzzRecordGame(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","game":"gomoku","moves":[]}`,
		`{"game":"khet"}`,
		`{"id":{"game":"inner"},"game":"ants"}`,
		`{"id":"x"}`,
		`{"game":3}`,
		`{"game":"\u00e9\"q"}`,
		` {"a":[1,{"b":2}], "game" : "points" } `,
		`[1,2]`,
		`{"game":`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := recordGame(data)
		var whole map[string]json.RawMessage
		if json.Unmarshal(data, &whole) != nil || bytes.Count(data, []byte(`game`)) != 1 {
			return // not an object, or "game" also elsewhere (nested, escaped, twice)
		}
		raw, has := whole["game"]
		var want string
		isString := has && json.Unmarshal(raw, &want) == nil
		switch {
		case !has && (err != nil || got != ""):
			t.Errorf("recordGame(%q) = %q, %v; want \"\" (no game)", data, got, err)
		case isString && (err != nil || got != want):
			t.Errorf("recordGame(%q) = %q, %v; want %q", data, got, err, want)
		case has && !isString && err == nil:
			t.Errorf("recordGame(%q) = %q; want an error (game %s is not a string)", data, got, raw)
		}
	})
}

// TestRecordArg checks that recordArg names the record among
// insertColumns, and that gameArgs gives a value for every column.
func TestRecordArg(t *testing.T) {
	columns := strings.Split(insertColumns, ",")
	if got := strings.TrimSpace(columns[recordArg]); got != "record" {
		t.Errorf("insertColumns[%d] is %q, want record", recordArg, got)
	}
	s := &Store{d: sqliteDialect}
	args, err := s.gameArgs(sampleGame("t", 1), "t", [3]string{"[]", "[]", "[]"})
	if err != nil {
		t.Fatal(err)
	}
	if len(args) != len(columns) {
		t.Errorf("%d values for %d columns", len(args), len(columns))
	}
	if _, ok := args[recordArg].([]byte); !ok {
		t.Errorf("the record's value is a %T, want the packed []byte", args[recordArg])
	}
}
