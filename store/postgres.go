package store

import (
	"context"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// openPostgres connects to the PostgreSQL server named by dsn.
func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	name := redact(dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", name, oneLine(err))
	}
	db := stdlib.OpenDB(*cfg)
	// Enough for a pool of games and a web page reading at once, without
	// eating a shared server's connection limit.
	db.SetMaxOpenConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", name, oneLine(err))
	}
	return &Store{d: postgresDialect, w: db, r: db, name: name}, nil
}

// redact is dsn without its password, for messages.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unparsable DSN)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
