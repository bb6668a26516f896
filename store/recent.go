package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// GameFilter selects games for RecentGames. Empty fields select
// everything.
type GameFilter struct {
	Tournament string // only this tournament's games
	Game       string // only games of this game ("gomoku", ...)
	Limit      int    // at most this many; 0 or less: DefaultLimit
	Offset     int    // skip this many of the newest first
}

// DefaultLimit is how many games RecentGames lists when the filter does
// not say.
const DefaultLimit = 50

// GameSummary is a stored game without its record: what a list of games
// shows.
type GameSummary struct {
	ID         string
	Game       string // the game's name, from its tournament or its record
	Tournament string // "" for a plain match
	Round      int
	Players    []string
	Seats      []int
	Winner     *int // index into Players, nil = draw
	Reason     string
	Scores     []int
	Moves      int
	Start, End time.Time
}

// RecentGames lists stored games across tournaments and plain matches,
// the last stored first.
func (s *Store) RecentGames(ctx context.Context, f GameFilter) ([]GameSummary, error) {
	// Plain matches have no tournament row to name their game: their
	// game column does, taken from the record (record.go).
	gameExpr := `COALESCE(t.game, g.game, '')`
	query := `SELECT g.id, ` + gameExpr + `, g.tournament, g.round, g.players, g.seats, g.winner, g.reason,
		g.scores, g.moves, g.start_time, g.end_time
		FROM games g LEFT JOIN tournaments t ON t.name = g.tournament WHERE 1 = 1`
	var args []any
	if f.Tournament != "" {
		query += ` AND g.tournament = ?`
		args = append(args, f.Tournament)
	}
	if f.Game != "" {
		query += ` AND ` + gameExpr + ` = ?`
		args = append(args, f.Game)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	query += ` ORDER BY g.seq DESC LIMIT ? OFFSET ?`
	args = append(args, limit, max(f.Offset, 0))

	rows, err := s.r.QueryContext(ctx, s.d.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("recent games: %w", err)
	}
	defer rows.Close()
	var gs []GameSummary
	for rows.Next() {
		var g GameSummary
		var tournament sql.NullString
		var winner sql.NullInt64
		var players, seats, scores []byte
		if err := rows.Scan(&g.ID, &g.Game, &tournament, &g.Round, &players, &seats, &winner, &g.Reason,
			&scores, &g.Moves, timeScanner{&g.Start}, timeScanner{&g.End}); err != nil {
			return nil, fmt.Errorf("recent games: %w", err)
		}
		g.Tournament = tournament.String
		if winner.Valid {
			w := int(winner.Int64)
			g.Winner = &w
		}
		if err := decodeLists(g.ID, players, seats, scores, &g.Players, &g.Seats, &g.Scores); err != nil {
			return nil, fmt.Errorf("recent games: %w", err)
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("recent games: %w", err)
	}
	return gs, nil
}

// GameCounts tells how many games each tournament has stored; plain
// matches count under "".
func (s *Store) GameCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT COALESCE(tournament, ''), COUNT(*) FROM games GROUP BY tournament`)
	if err != nil {
		return nil, fmt.Errorf("count games: %w", err)
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return nil, fmt.Errorf("count games: %w", err)
		}
		counts[name] += n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count games: %w", err)
	}
	return counts, nil
}
