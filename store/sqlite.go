package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver
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
// wal_autocheckpoint=0: the checkpoints are the checkpointer's, off the
// commit path (checkpoint.go).
var sqliteWriterParams = []string{
	fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeoutMs),
	"_pragma=journal_mode(WAL)",
	"_pragma=synchronous(FULL)",
	"_pragma=foreign_keys(1)",
	"_pragma=wal_autocheckpoint(0)",
	fmt.Sprintf("_pragma=journal_size_limit(%d)", walSizeLimit),
	"_txlock=immediate",
}

// sqliteCheckpointerParams configure the checkpointer's connection:
// synchronous=FULL, so that a checkpoint syncs the database file before
// the log it copied may be written over.
var sqliteCheckpointerParams = []string{
	fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeoutMs),
	"_pragma=synchronous(FULL)",
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
		return nil, fail(errors.New("is a directory"))
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
	// Touch the file now, so that an unreadable or corrupt file is
	// reported by Open and not by the first game saved.
	if err := retryBusy(ctx, func() error { return sqliteCheck(ctx, w) }); err != nil {
		w.Close()
		return nil, fail(err)
	}
	r, err := sql.Open("sqlite", sqliteURI(abs, sqliteReaderParams))
	if err != nil {
		w.Close()
		return nil, fail(err)
	}
	r.SetMaxOpenConns(4)
	c, err := sql.Open("sqlite", sqliteURI(abs, sqliteCheckpointerParams))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fail(err)
	}
	c.SetMaxOpenConns(1)
	return &Store{d: sqliteDialect, w: w, r: r, name: path, ckpt: newCheckpointer(c)}, nil
}

// sqliteCheck reads the file's schema, which fails on a file that is not
// a database.
func sqliteCheck(ctx context.Context, db *sql.DB) error {
	var n int
	return db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n)
}

// sqliteURI is a file: URI for path, so that any character may appear in
// the path (a plain name would be cut at its first '?').
func sqliteURI(abs string, params []string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), OmitHost: true}
	return u.String() + "?" + strings.Join(params, "&")
}

// retryBusy runs f again while it fails with SQLITE_BUSY, up to the busy
// timeout. Some locks are taken without waiting on the busy timeout:
// switching a new file to WAL, or the WAL's recovery, while another
// connection opens the same file. Open retries those.
func retryBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(sqliteBusyTimeoutMs * time.Millisecond)
	pause := time.Millisecond
	for {
		err := f()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// isBusy tells SQLite's SQLITE_BUSY (and its extended codes) apart.
func isBusy(err error) bool {
	const sqliteBusy = 5
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqliteBusy
}
