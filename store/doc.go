// Package store keeps tournaments and every finished game durably, so
// that a tournament stopped by Ctrl-C, a crash or a power cut resumes
// where it stopped without replaying or duplicating a game, and so that
// standings, exports and the web page can be computed again later.
//
// Two backends share one schema and one set of SQL (a small dialect layer
// rewrites placeholders and column types):
//
//   - SQLite (modernc.org/sqlite, pure Go, no cgo), the default: a single
//     file, usually in the tournament's output folder. The file is in WAL
//     mode with synchronous=FULL, so a SaveGame that has returned is on
//     disk: a power cut afterwards cannot lose it. All writes of one Store
//     go through a single connection, and every connection waits on a
//     busy timeout, so concurrent SaveGame calls from a pool of games (or
//     a second process reading standings) never fail with SQLITE_BUSY.
//     The log is copied into the database file by a checkpointer on a
//     connection of its own, not by the commits (checkpoint.go).
//   - PostgreSQL (github.com/jackc/pgx/v5), chosen by a DSN starting with
//     "postgres://" or "postgresql://", for a shared server that several
//     machines or a web front end use. JSON lists (players, scores, ...)
//     are JSONB there, read back as the same JSON value, not necessarily
//     the same bytes (key order and spacing are PostgreSQL's).
//
// On both, a game's record is kept compressed (S2, about a fifth of its
// JSON), packed on the caller's goroutine, so that the database neither
// writes nor parses the whole JSON (record.go); read back, it is the same
// bytes as it was given.
//
// The durability guarantee, on both backends: SaveGame writes a game in
// one transaction, so after a crash a game is either stored whole or not
// at all, and a game ID is stored at most once (saving it again returns
// ErrExists and changes nothing). What a crash can lose is only the games
// whose SaveGame had not returned.
//
// Group commit: a durable commit costs one flush of the log whatever it
// holds, so the games saved while a commit is under way (from a pool of
// games, a coordinator's results) are written together by the next one,
// in one transaction of a few multi-row inserts (a COPY on PostgreSQL,
// where the next batch is written while a commit waits for its flush); a
// game saved alone is committed at once. Each caller still returns only once its own game is
// durable, with its own outcome: a duplicate or a game the database
// refuses fails alone and the others are written without it (commit.go).
//
// Times are kept to the microsecond, in UTC, on both backends. A record
// must be a JSON object: the store checks that it is an object from '{'
// to '}' and reads as JSON as far as its "game" member, not the whole of
// it, since checking 20 KB of JSON made by json.Marshal would double the
// cost of a save.
package store
