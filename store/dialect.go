package store

import (
	"strconv"
	"strings"
	"time"
)

// dialect is what differs between the backends: placeholders, column
// types and how a time is written. Everything else is one set of SQL.
type dialect struct {
	name   string
	dollar bool // placeholders are $1, $2, ... instead of ?
	// types replaces the markers of the schema's migrations: {json},
	// {time}, {serial} and those of recordMigration and
	// packedMigration. A statement that
	// is left empty is not run.
	types *strings.Replacer
	// lock, when set, is run first in the migration transaction so that
	// two processes opening a new database do not both create it.
	lock string
	// copy: a batch's games are written with COPY (copy.go).
	copy bool
	// writers is how many batches may be under way at once: one being
	// written, the others' commits waiting for the log's flush
	// (commit.go). SQLite has a single writer connection.
	writers int
}

var sqliteDialect = &dialect{
	name: kindSQLite,
	types: strings.NewReplacer(
		"{json}", "TEXT",
		"{time}", "TEXT",
		// An alias of the rowid: increasing in the order of insertion,
		// since rows are never deleted.
		"{serial}", "INTEGER PRIMARY KEY",
		"{record_game}", "json_extract(record, '$.game')",
		"{record_type}", "", // no types to change: records become BLOBs row by row
		"{record_compression}", "",
		"{record_bytes}", "", // records are BLOBs since schema version 3
		"{record_storage}", "",
	),
	writers: 1,
}

var postgresDialect = &dialect{
	name:   kindPostgres,
	dollar: true,
	types: strings.NewReplacer(
		"{json}", "JSONB",
		"{time}", "TIMESTAMPTZ",
		"{serial}", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
		"{record_game}", "(record->>'game')",
		"{record_type}", postgresRecordType,
		"{record_compression}", postgresRecordCompression,
		"{record_bytes}", postgresRecordBytes,
		"{record_storage}", postgresRecordStorage,
	),
	// Any constant will do, as long as it is the store's own.
	lock:    `SELECT pg_advisory_xact_lock(7273917001)`,
	copy:    true,
	writers: 2,
}

// q rewrites a query's ? placeholders for the dialect. The store's SQL
// has no ? anywhere else (no string literals holding one).
func (d *dialect) q(query string) string {
	if !d.dollar {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// sqliteTime is fixed-width so that times sort as text too.
const sqliteTime = "2006-01-02T15:04:05.000000Z07:00"

// timeArg is a time as a query argument: UTC, to the microsecond (what
// TIMESTAMPTZ keeps), so both backends give back the same time.
func (d *dialect) timeArg(t time.Time) any {
	t = t.UTC().Truncate(time.Microsecond)
	if d.dollar {
		return t
	}
	return t.Format(sqliteTime)
}
