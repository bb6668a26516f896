package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// On PostgreSQL a batch's plain games are written with one COPY (pgx's
// CopyFrom, in the batch's transaction) rather than multi-row inserts:
// a multi-row insert's values travel in one Bind message, which pgx
// builds by growing a buffer from 1 KB (and drops again after sending),
// copying every record several times; that garbage (28 KB a game) and
// the collector's work were about half of arena's processor time. COPY
// streams the rows in 64 KB messages.
//
// COPY knows no ON CONFLICT: a batch holding a game already stored (a
// resumed tournament saving a game again, another process saving the
// same game) fails as a whole with a unique violation, and is then
// written again with inserts, which skip that game and report it
// (commit.go). Asking first which games are stored would cost every
// batch a round trip, and a scan of the table when its statistics say it
// is small.

// copyMinRows is the fewest games a batch writes with COPY: with 4 to 8
// games the multi-row insert (prepared, one round trip) costs as much,
// with 3 or fewer no more.
const copyMinRows = 4

// copyColumns are insertColumns, one name each.
var copyColumns = func() []string {
	names := strings.Split(insertColumns, ",")
	for i, name := range names {
		names[i] = strings.TrimSpace(name)
	}
	return names
}()

// copyGames writes the games of saves[rows] with one COPY on conn, in
// the transaction open there.
func (c *committer) copyGames(ctx context.Context, conn *sql.Conn, saves []*pending, rows []int) error {
	values := make([][]any, len(rows))
	for j, i := range rows {
		values[j] = saves[i].row.args
	}
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("copy games: the connection is a %T, not pgx's", dc)
		}
		n, err := pc.Conn().CopyFrom(ctx, pgx.Identifier{"games"}, copyColumns, pgx.CopyFromRows(values))
		if err != nil {
			return fmt.Errorf("copy games: %w", err)
		}
		if n != int64(len(values)) {
			return fmt.Errorf("copy games: %d of %d written", n, len(values))
		}
		return nil
	})
}
