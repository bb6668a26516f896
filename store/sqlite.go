package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// sqliteBusyTimeoutMs is how long a connection waits for another
// process's write lock before giving up. Writes take milliseconds, so
// this is only reached when something holds the file for long.
const sqliteBusyTimeoutMs = 30000

// sqliteWriterParams configure the one connection that writes.
//
// synchronous=FULL rather than NORMAL: in WAL mode NORMAL only syncs the
// log at checkpoints, so a power cut (not a mere crash of arena) can undo
// the last commits. A tournament that was told a game was saved would
// then replay it on resume, or worse, have reported a result that is
// gone; the issue promises that a power cut loses only games in progress.
// FULL costs one fsync of the log per game, which is nothing next to the
// length of a game. _txlock=immediate takes the write lock at BEGIN, so
// two processes writing one file wait for each other on the busy timeout
// instead of deadlocking when both try to upgrade a read lock.
var sqliteWriterParams = []string{
	fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeoutMs),
	"_pragma=journal_mode(WAL)",
	"_pragma=synchronous(FULL)",
	"_pragma=foreign_keys(1)",
	"_txlock=immediate",
}

// sqliteReaderParams configure the read pool: in WAL mode readers never
// wait for the writer, and query_only guards against a write slipping in
// outside the single writer connection.
var sqliteReaderParams = []string{
	fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeoutMs),
	"_pragma=foreign_keys(1)",
	"_pragma=query_only(1)",
}

// openSQLite opens the SQLite file at path, creating it and its folder.
func openSQLite(ctx context.Context, path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	fail := func(err error) error { return fmt.Errorf("open store %s: %w", path, oneLine(err)) }
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, fail(fmt.Errorf("is a directory"))
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fail(err)
	}
	w, err := sql.Open("sqlite", sqliteURI(abs, sqliteWriterParams))
	if err != nil {
		return nil, fail(err)
	}
	// One writer: concurrent SaveGame calls queue in database/sql
	// instead of contending for SQLite's lock.
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	// Touch the file now, so that an unreadable or corrupt file is
	// reported by Open and not by the first game saved.
	if err := sqliteCheck(ctx, w); err != nil {
		w.Close()
		return nil, fail(err)
	}
	r, err := sql.Open("sqlite", sqliteURI(abs, sqliteReaderParams))
	if err != nil {
		w.Close()
		return nil, fail(err)
	}
	r.SetMaxOpenConns(4)
	return &Store{d: sqliteDialect, w: w, r: r, name: path}, nil
}

// sqliteCheck reads the file's schema, which fails on a file that is not
// a database, and checks that the journal really is in WAL mode (it is
// not on file systems without shared memory, and then readers would
// block the writer).
func sqliteCheck(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil {
		return err
	}
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %s, not WAL", mode)
	}
	return nil
}

// sqliteURI is a file: URI for path, so that any character may appear in
// the path (a plain name would be cut at its first '?').
func sqliteURI(abs string, params []string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), OmitHost: true}
	return u.String() + "?" + strings.Join(params, "&")
}
