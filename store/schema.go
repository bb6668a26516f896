package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// migrations are the schema's versions: migrations[i] takes a database
// from version i to i+1. Only ever append: a database records the version
// it is at in schema_version, and Open applies what it lacks.
var migrations = [][]string{
	{
		`CREATE TABLE tournaments (
			name    TEXT PRIMARY KEY,
			game    TEXT NOT NULL,
			args    {json} NOT NULL,
			status  TEXT NOT NULL,
			created {time} NOT NULL,
			updated {time} NOT NULL
		)`,
		`CREATE TABLE games (
			seq         {serial},
			id          TEXT NOT NULL UNIQUE,
			tournament  TEXT REFERENCES tournaments (name),
			round       INTEGER NOT NULL,
			players     {json} NOT NULL,
			seats       {json} NOT NULL,
			winner      INTEGER,
			reason      TEXT NOT NULL,
			detail      TEXT NOT NULL,
			scores      {json} NOT NULL,
			moves       INTEGER NOT NULL,
			record      {json},
			record_path TEXT NOT NULL,
			start_time  {time} NOT NULL,
			end_time    {time} NOT NULL
		)`,
		`CREATE INDEX games_tournament ON games (tournament, seq)`,
	},
	contestMigration, // store/contest.go
	recordMigration,  // store/record.go
	packedMigration,  // store/record.go
}

// migrate brings the schema up to date in one transaction.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.d.lock != "" {
		if _, err := tx.ExecContext(ctx, s.d.lock); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	var version int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	if version > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this arena knows (%d): upgrade arena", version, len(migrations))
	}
	if version == len(migrations) {
		return nil // commit nothing: a reader need not take the write lock
	}
	for v := version; v < len(migrations); v++ {
		for _, stmt := range migrations[v] {
			stmt = s.d.types.Replace(stmt)
			if stmt == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE schema_version SET version = ?`), len(migrations)); err != nil {
		return err
	}
	return tx.Commit()
}
