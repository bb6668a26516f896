package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/klauspost/compress/s2"
)

// TestRecordKept checks how a record is stored: an S2 block far smaller
// than its JSON (a BLOB on SQLite; on PostgreSQL BYTEA, not compressed
// again by the server); read back, the same bytes, and the game column
// says the record's game.
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
			typeOf, size = `pg_typeof(record)::text`, `octet_length(record)`
		}
		var kind, game string
		var n int
		if err := s.r.QueryRowContext(ctx, s.d.q(`SELECT `+typeOf+`, `+size+`, game FROM games WHERE id = ?`), g.ID).
			Scan(&kind, &n, &game); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{kindSQLite: "blob", kindPostgres: "bytea"}[s.d.name]
		if kind != want {
			t.Errorf("record stored as %s, want %s", kind, want)
		}
		if n*3 > len(g.Record) {
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
			var method, storage string
			if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(pg_column_compression(record), ''),
				(SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'games'::regclass AND attname = 'record')
				FROM games WHERE id = $1`, g.ID).Scan(&method, &storage); err != nil {
				t.Fatal(err)
			}
			if method != "" || storage != "e" {
				t.Errorf("record compressed by the server with %q, column storage %q; want neither (EXTERNAL)", method, storage)
			}
		}
	})
}

// TestOldSchemaRecords opens databases that an arena of schema version
// 2 (records as TEXT on SQLite, JSONB on PostgreSQL, no game column) or
// 3 (S2 BLOBs on SQLite, JSON on PostgreSQL) wrote, with records large
// enough for the server to have compressed them, and checks that every
// game reads back as it was (its record byte for byte as that arena read
// it), that the plain match's game is named from its record, and that
// games saved since and before are read alike.
func TestOldSchemaRecords(t *testing.T) {
	for _, version := range []int{2, 3} {
		t.Run(fmt.Sprintf("version=%d", version), func(t *testing.T) {
			eachBackend(t, func(t *testing.T, dsn string) { testOldSchema(t, dsn, version) })
		})
	}
}

func testOldSchema(t *testing.T, dsn string, version int) {
	ctx := context.Background()
	d := sqliteDialect
	if k, _, _ := parseDSN(dsn); k == kindPostgres {
		d = postgresDialect
	}
	old := createVersion(t, dsn, d, version)
	tourn := sampleGame("cup", 0)
	tourn.Record = sampleRecord(tourn.ID, 20_000)
	plain := sampleGame("", 1)
	plain.Record = json.RawMessage(` {"id":"` + plain.ID + `", "game": "khet",` + "\n\t" + `"moves": []}`)
	bare := sampleGame("", 2)
	bare.Record = nil
	if _, err := old.Exec(d.q(`INSERT INTO tournaments (name, game, args, status, created, updated)
		VALUES (?, ?, ?, ?, ?, ?)`), "cup", "gomoku", "[]", StatusRunning, d.timeArg(tourn.Start), d.timeArg(tourn.Start)); err != nil {
		t.Fatal(err)
	}
	for _, g := range []Game{tourn, plain, bare} {
		insertVersion(t, old, d, version, g)
	}
	// The records as that arena read them: JSONB (version 2 on
	// PostgreSQL) gives back its own spacing.
	records := map[string][]byte{}
	for _, g := range []Game{tourn, plain} {
		records[g.ID] = g.Record
		if d == postgresDialect {
			var text string
			if err := old.QueryRow(`SELECT record::text FROM games WHERE id = $1`, g.ID).Scan(&text); err != nil {
				t.Fatal(err)
			}
			if version == 3 && text != string(g.Record) {
				t.Fatalf("a JSON record changed on its way in: %.100s", text)
			}
			records[g.ID] = []byte(text)
		}
	}
	if d == postgresDialect {
		var method string
		if err := old.QueryRow(`SELECT COALESCE(pg_column_compression(record), '') FROM games WHERE id = $1`,
			tourn.ID).Scan(&method); err != nil || method == "" {
			t.Fatalf("the old 20 KB record is not compressed by the server (%q, %v): the test misses that case", method, err)
		}
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
	records[since.ID] = since.Record
	for _, want := range []Game{tourn, plain, bare, since} {
		got, err := s.Game(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		sameGame(t, got, want)
		if !bytes.Equal(got.Record, records[want.ID]) {
			t.Errorf("game %s: record read back as %.200s, want it byte for byte: %.200s", want.ID, got.Record, records[want.ID])
		}
	}
	games, err := s.Games(ctx, "cup")
	if err != nil || len(games) != 2 || !bytes.Equal(games[0].Record, records[tourn.ID]) {
		t.Errorf("the tournament's games: %d, %v; want 2, the old one's record byte for byte", len(games), err)
	}
	recent, err := s.RecentGames(ctx, GameFilter{Game: "khet"})
	if err != nil || len(recent) != 1 || recent[0].ID != plain.ID {
		t.Errorf("the old plain match by its record's game: %+v, %v", recent, err)
	}
	all, err := s.RecentGames(ctx, GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range all {
		names = append(names, g.Game)
	}
	if want := []string{"gomoku", "", "khet", "gomoku"}; !slices.Equal(names, want) {
		t.Errorf("games named %q, want %q", names, want)
	}
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

// insertVersion stores g as SaveGame did at schema version 2 (the
// record as text) or 3 (the game column too; on SQLite the record as an
// S2 block).
func insertVersion(t *testing.T, db *sql.DB, d *dialect, version int, g Game) {
	t.Helper()
	var tournament, winner, record, name any
	if g.Tournament != "" {
		tournament = g.Tournament
	}
	if g.Winner != nil {
		winner = *g.Winner
	}
	if g.Record != nil {
		record = string(g.Record)
		if version >= 3 && d == sqliteDialect {
			record = s2.Encode(nil, g.Record)
		}
		game, err := recordGame(g.Record)
		if err != nil {
			t.Fatal(err)
		}
		name = game
	}
	lists := make([]string, 3)
	for i, v := range []any{g.Players, g.Seats, g.Scores} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		lists[i] = string(data)
	}
	columns := `id, tournament, round, players, seats, winner, reason, detail, scores, moves, record, record_path,
		start_time, end_time`
	args := []any{g.ID, tournament, g.Round, lists[0], lists[1], winner, g.Reason, g.Detail, lists[2], g.Moves, record,
		g.RecordPath, d.timeArg(g.Start), d.timeArg(g.End)}
	if version >= 3 {
		columns += `, game`
		args = append(args, name)
	}
	query := `INSERT INTO games (` + columns + `) VALUES (?` + strings.Repeat(`, ?`, len(args)-1) + `)`
	if _, err := db.Exec(d.q(query), args...); err != nil {
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
// insertColumns, and that gameArgs gives a value for every column, the
// record packed on both backends.
func TestRecordArg(t *testing.T) {
	columns := strings.Split(insertColumns, ",")
	if got := strings.TrimSpace(columns[recordArg]); got != "record" {
		t.Errorf("insertColumns[%d] is %q, want record", recordArg, got)
	}
	for _, d := range []*dialect{sqliteDialect, postgresDialect} {
		s := &Store{d: d}
		args, err := s.gameArgs(sampleGame("t", 1), "t", [3]string{"[]", "[]", "[]"})
		if err != nil {
			t.Fatal(err)
		}
		if len(args) != len(columns) {
			t.Errorf("%s: %d values for %d columns", d.name, len(args), len(columns))
		}
		if _, ok := args[recordArg].([]byte); !ok {
			t.Errorf("%s: the record's value is a %T, want the packed []byte", d.name, args[recordArg])
		}
	}
}

// FuzzRecordColumn checks the record column's two forms against each
// other: any record, packed, reads back as the same bytes and its S2
// block never starts with the zero byte that marks a record kept as its
// JSON's bytes (PostgreSQL's records of before schema version 4), which
// read back as those bytes.
func FuzzRecordColumn(f *testing.F) {
	for _, seed := range []string{`{}`, `{"id":"a","game":"gomoku","moves":[]}`, "\x00", "{\x00}", string(sampleRecord("x", 2000))} {
		f.Add([]byte(seed))
	}
	s := &Store{d: postgresDialect}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return // no record: NULL
		}
		packed, ok := s.packRecord(data).([]byte)
		if !ok || len(packed) == 0 || packed[0] == rawRecord {
			t.Fatalf("record %q packed as %q", data, packed)
		}
		for _, column := range [][]byte{packed, append([]byte{rawRecord}, data...)} {
			var got json.RawMessage
			if err := (recordScanner{&got}).Scan(column); err != nil || !bytes.Equal(got, data) {
				t.Errorf("column %q read as %q, %v; want %q", column, got, err, data)
			}
		}
	})
}
