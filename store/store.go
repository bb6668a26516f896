package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"
)

// Sentinel errors, for errors.Is.
var (
	// ErrExists is returned when creating a tournament or saving a game
	// whose name or ID is already stored.
	ErrExists = errors.New("already stored")
	// ErrNotFound is returned when a tournament or game is not stored.
	ErrNotFound = errors.New("not found")
	// ErrNoStore is returned by OpenExisting when the SQLite file it
	// names does not exist.
	ErrNoStore = errors.New("no store")
)

// Tournament states.
const (
	StatusRunning     = "running"
	StatusFinished    = "finished"
	StatusInterrupted = "interrupted"
)

// Tournament is one event: its name (unique), game, the arguments needed
// to resume it exactly (the command line after "arena tournament") and
// its state.
type Tournament struct {
	Name    string
	Game    string
	Args    []string
	Status  string // StatusRunning, StatusFinished or StatusInterrupted
	Created time.Time
	Updated time.Time // the last change of status or the last game saved
}

// Game is one finished game of a tournament (or of a plain match:
// Tournament "").
type Game struct {
	ID         string // stable: tournament, round, pairing, opening, seat order
	Tournament string
	Round      int
	Players    []string // player names, in the order of the record's Players
	Seats      []int    // seat -> index into Players
	Winner     *int     // index into Players, nil = draw
	Reason     string
	Detail     string
	Scores     []int
	Moves      int
	Record     json.RawMessage // the full game.Record as JSON
	RecordPath string          // where its files were written
	Start, End time.Time
}

// Store is an open store. Its methods are safe for concurrent use.
type Store struct {
	d    *dialect
	w    *sql.DB // writes (a single connection on SQLite)
	r    *sql.DB // reads (the same pool as w on PostgreSQL)
	name string  // the file or redacted DSN, for error messages

	// The statements of SaveGame, prepared once: on SQLite, parsing them
	// on every save took an eighth of its time.
	touchTournament, insertGame *sql.Stmt

	// commits writes the games saved, several to a transaction when
	// they arrive together (commit.go).
	commits *committer
	// ckpt copies SQLite's log into the database file, off the commit
	// path (checkpoint.go); nil on PostgreSQL.
	ckpt *checkpointer
	// packBufs are S2's output buffers, *[]byte (record.go).
	packBufs sync.Pool
}

// Open opens (creating the schema if needed) the store named by dsn:
// "postgres://..." or "postgresql://..." is PostgreSQL; anything else is
// a SQLite file path, "sqlite:PATH" accepted too.
func Open(ctx context.Context, dsn string) (*Store, error) {
	kind, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	var s *Store
	switch kind {
	case kindPostgres:
		s, err = openPostgres(ctx, target)
	default:
		s, err = openSQLite(ctx, target)
	}
	if err != nil {
		return nil, err
	}
	if err := retryBusy(ctx, func() error { return s.migrate(ctx) }); err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", s.name, oneLine(err))
	}
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", s.name, oneLine(err))
	}
	s.commits = newCommitter(s)
	return s, nil
}

// OpenExisting opens the store named by dsn as Open does, but never
// creates a SQLite file: where there is none it returns an error wrapping
// ErrNoStore and leaves the disk untouched, so that a command that only
// reads (standings, a list of games) does not leave an empty store
// behind. A PostgreSQL database is opened as Open opens it.
func OpenExisting(ctx context.Context, dsn string) (*Store, error) {
	kind, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if kind == kindSQLite {
		if _, err := os.Stat(target); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w at %s", ErrNoStore, target)
		}
	}
	return Open(ctx, dsn)
}

const (
	kindSQLite   = "sqlite"
	kindPostgres = "postgres"
)

// parseDSN tells which backend dsn names and what to hand it.
func parseDSN(dsn string) (kind, target string, err error) {
	switch {
	case strings.TrimSpace(dsn) == "":
		return "", "", errors.New("open store: empty database name")
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return kindPostgres, dsn, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" {
			return "", "", errors.New("open store: sqlite: needs a file path")
		}
		return kindSQLite, path, nil
	}
	return kindSQLite, dsn, nil
}

func (s *Store) prepare(ctx context.Context) error {
	var err error
	s.touchTournament, err = s.w.PrepareContext(ctx, s.d.q(`UPDATE tournaments SET updated = ? WHERE name = ?`))
	if err != nil {
		return err
	}
	s.insertGame, err = s.w.PrepareContext(ctx, s.d.q(`INSERT INTO games (`+insertColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`))
	return err
}

// Close closes the store. Saves in progress are written first: each of
// their callers learns its game's outcome; a save that starts once Close
// has been called fails.
func (s *Store) Close() error {
	if s.commits != nil {
		s.commits.close()
	}
	for _, st := range []*sql.Stmt{s.touchTournament, s.insertGame} {
		if st != nil {
			st.Close()
		}
	}
	var err error
	if s.ckpt != nil {
		err = s.ckpt.close()
	}
	err = errors.Join(err, s.w.Close())
	if s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// String names the store: its file, or its DSN without the password.
func (s *Store) String() string { return s.name }

var statuses = map[string]bool{StatusRunning: true, StatusFinished: true, StatusInterrupted: true}

func checkStatus(status string) error {
	if !statuses[status] {
		return fmt.Errorf("unknown tournament status %q (want running, finished or interrupted)", status)
	}
	return nil
}

// CreateTournament inserts t; if a tournament of that name exists, it
// returns ErrExists. An empty Status means running, and zero times mean
// now.
func (s *Store) CreateTournament(ctx context.Context, t Tournament) error {
	if t.Name == "" {
		return errors.New("create tournament: empty name")
	}
	if t.Status == "" {
		t.Status = StatusRunning
	}
	if err := checkStatus(t.Status); err != nil {
		return fmt.Errorf("create tournament %s: %w", t.Name, err)
	}
	now := time.Now()
	if t.Created.IsZero() {
		t.Created = now
	}
	if t.Updated.IsZero() {
		t.Updated = t.Created
	}
	args, err := json.Marshal(t.Args)
	if err != nil {
		return fmt.Errorf("create tournament %s: %w", t.Name, err)
	}
	res, err := s.w.ExecContext(ctx, s.d.q(`INSERT INTO tournaments (name, game, args, status, created, updated)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`),
		t.Name, t.Game, string(args), t.Status, s.d.timeArg(t.Created), s.d.timeArg(t.Updated))
	if err != nil {
		return fmt.Errorf("create tournament %s: %w", t.Name, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("create tournament %s: %w", t.Name, err)
	} else if n == 0 {
		return fmt.Errorf("create tournament %s: %w", t.Name, ErrExists)
	}
	return nil
}

const tournamentColumns = `name, game, args, status, created, updated`

// collect reads every row of a query (rows, err as QueryContext returns
// them) with scan; what names the list in errors.
func collect[T any](rows *sql.Rows, err error, what string, scan func(interface{ Scan(...any) error }) (T, error)) ([]T, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

func scanTournament(row interface{ Scan(...any) error }) (Tournament, error) {
	var t Tournament
	var args []byte
	err := row.Scan(&t.Name, &t.Game, &args, &t.Status, timeScanner{&t.Created}, timeScanner{&t.Updated})
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal(args, &t.Args); err != nil {
		return t, fmt.Errorf("tournament %s: args: %w", t.Name, err)
	}
	return t, nil
}

// Tournament returns the tournament of that name, or ErrNotFound.
func (s *Store) Tournament(ctx context.Context, name string) (Tournament, error) {
	row := s.r.QueryRowContext(ctx, s.d.q(`SELECT `+tournamentColumns+` FROM tournaments WHERE name = ?`), name)
	t, err := scanTournament(row)
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("tournament %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("tournament %s: %w", name, err)
	}
	return t, nil
}

// Tournaments lists every tournament, oldest first.
func (s *Store) Tournaments(ctx context.Context) ([]Tournament, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments ORDER BY created, name`)
	return collect(rows, err, "list tournaments", scanTournament)
}

// SetTournamentStatus changes a tournament's status (ErrNotFound if there
// is no such tournament).
func (s *Store) SetTournamentStatus(ctx context.Context, name, status string) error {
	if err := checkStatus(status); err != nil {
		return fmt.Errorf("set status of tournament %s: %w", name, err)
	}
	res, err := s.w.ExecContext(ctx, s.d.q(`UPDATE tournaments SET status = ?, updated = ? WHERE name = ?`),
		status, s.d.timeArg(time.Now()), name)
	if err != nil {
		return fmt.Errorf("set status of tournament %s: %w", name, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("set status of tournament %s: %w", name, err)
	} else if n == 0 {
		return fmt.Errorf("tournament %s: %w", name, ErrNotFound)
	}
	return nil
}

// SaveGame writes a finished game durably: once it has returned nil the
// game is on disk (or committed on the PostgreSQL server). Games saved
// together, from several goroutines, share one transaction (see
// commit.go), and each caller still learns its own game's outcome.
// Saving an ID that is already stored returns ErrExists and changes
// nothing (a resumed tournament never duplicates a game). The game's
// tournament, unless "", must exist (ErrNotFound otherwise); its Updated
// time becomes now. When ctx ends before the game is written, SaveGame
// stops waiting; the game is then stored whole or not at all.
func (s *Store) SaveGame(ctx context.Context, g Game) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("save game %s: %w", g.ID, err)
		}
	}()
	if g.ID == "" {
		return errors.New("empty game ID")
	}
	var lists [3]string
	for i, v := range []any{g.Players, g.Seats, g.Scores} {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		lists[i] = string(data)
	}
	var tournament any
	if g.Tournament != "" {
		tournament = g.Tournament
	}
	args, err := s.gameArgs(g, tournament, lists)
	if err != nil {
		return err
	}
	row := &gameRow{tournament: g.Tournament, args: args}
	return s.commits.save(ctx, &pending{key: g.ID, row: row, size: storedSize(args)})
}

// gameArgs are the values of insertColumns for g: its record checked
// and packed (record.go), its lists (players, seats, scores) as JSON.
// It runs on the caller's goroutine, before the game joins a batch.
func (s *Store) gameArgs(g Game, tournament any, lists [3]string) ([]any, error) {
	var record, name, winner any // NULL when there is none
	if len(g.Record) > 0 {
		if !looksLikeObject(g.Record) {
			return nil, errors.New("record is not a JSON object")
		}
		game, err := recordGame(g.Record)
		if err != nil {
			return nil, fmt.Errorf("record is not JSON: %w", err)
		}
		if game != "" {
			name = game
		}
		record = s.packRecord(g.Record)
	}
	if g.Winner != nil {
		winner = *g.Winner
	}
	return []any{g.ID, tournament, g.Round, lists[0], lists[1], winner, g.Reason, g.Detail, lists[2], g.Moves,
		record, g.RecordPath, s.d.timeArg(g.Start), s.d.timeArg(g.End), name}, nil
}

// recordArg is the record's place in insertColumns.
const recordArg = 10

// storedSize is about how many bytes the values of insertColumns take
// in the database: their record's, as stored.
func storedSize(args []any) int {
	switch r := args[recordArg].(type) {
	case []byte:
		return len(r)
	case string:
		return len(r)
	}
	return 0
}

const gameColumns = `id, tournament, round, players, seats, winner, reason, detail, scores, moves,
	record, record_path, start_time, end_time`

func (s *Store) scanGame(row interface{ Scan(...any) error }) (Game, error) {
	var g Game
	var tournament sql.NullString
	var winner sql.NullInt64
	var players, seats, scores []byte
	err := row.Scan(&g.ID, &tournament, &g.Round, &players, &seats, &winner, &g.Reason, &g.Detail,
		&scores, &g.Moves, recordScanner{&g.Record}, &g.RecordPath, timeScanner{&g.Start}, timeScanner{&g.End})
	if err != nil {
		return g, err
	}
	g.Tournament = tournament.String
	if winner.Valid {
		w := int(winner.Int64)
		g.Winner = &w
	}
	return g, decodeLists(g.ID, players, seats, scores, &g.Players, &g.Seats, &g.Scores)
}

// decodeLists reads a stored game's players, seats and scores, kept as
// JSON lists in their columns.
func decodeLists(id string, players, seats, scores []byte, toPlayers *[]string, toSeats, toScores *[]int) error {
	for _, c := range []struct {
		name string
		data []byte
		v    any
	}{{"players", players, toPlayers}, {"seats", seats, toSeats}, {"scores", scores, toScores}} {
		if err := json.Unmarshal(c.data, c.v); err != nil {
			return fmt.Errorf("game %s: %s: %w", id, c.name, err)
		}
	}
	return nil
}

// Game returns the game of that ID, or ErrNotFound.
func (s *Store) Game(ctx context.Context, id string) (Game, error) {
	row := s.r.QueryRowContext(ctx, s.d.q(`SELECT `+gameColumns+` FROM games WHERE id = ?`), id)
	g, err := s.scanGame(row)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return g, fmt.Errorf("game %s: %w", id, err)
	}
	return g, nil
}

// tournamentArg selects the games of a tournament, "" meaning the games
// of no tournament (plain matches).
func (s *Store) tournamentWhere(tournament string) (string, []any) {
	if tournament == "" {
		return `tournament IS NULL`, nil
	}
	return `tournament = ?`, []any{tournament}
}

// Games lists a tournament's games in the order they were stored
// (tournament "" lists the games of plain matches).
func (s *Store) Games(ctx context.Context, tournament string) ([]Game, error) {
	where, args := s.tournamentWhere(tournament)
	rows, err := s.r.QueryContext(ctx, s.d.q(`SELECT `+gameColumns+` FROM games WHERE `+where+` ORDER BY seq`), args...)
	return collect(rows, err, fmt.Sprintf("games of %q", tournament), s.scanGame)
}

// GameIDs is the set of a tournament's stored game IDs (for resume).
func (s *Store) GameIDs(ctx context.Context, tournament string) (map[string]bool, error) {
	where, args := s.tournamentWhere(tournament)
	rows, err := s.r.QueryContext(ctx, s.d.q(`SELECT id FROM games WHERE `+where), args...)
	if err != nil {
		return nil, fmt.Errorf("game IDs of %q: %w", tournament, err)
	}
	defer rows.Close()
	ids := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("game IDs of %q: %w", tournament, err)
		}
		ids[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("game IDs of %q: %w", tournament, err)
	}
	return ids, nil
}

// looksLikeObject tells a JSON object from a truncated or foreign
// record. It does not check the JSON in between: json.Valid would take
// 40 % of a SaveGame's time for records that json.Marshal made.
func looksLikeObject(data []byte) bool {
	data = bytes.TrimSpace(data)
	return len(data) >= 2 && data[0] == '{' && data[len(data)-1] == '}'
}

// timeScanner reads a time column: TIMESTAMPTZ arrives as time.Time,
// SQLite's TEXT as the string timeArg wrote.
type timeScanner struct{ t *time.Time }

func (ts timeScanner) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*ts.t = v.UTC()
	case string:
		return ts.parse(v)
	case []byte:
		return ts.parse(string(v))
	case nil:
		*ts.t = time.Time{}
	default:
		return fmt.Errorf("time column holds %T", src)
	}
	return nil
}

func (ts timeScanner) parse(s string) error {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("time column: %w", err)
	}
	*ts.t = t.UTC()
	return nil
}

// oneLine keeps an error message on one line: drivers sometimes add
// details on lines of their own.
func oneLine(err error) error {
	msg := err.Error()
	if !strings.ContainsAny(msg, "\r\n") {
		return err
	}
	return errors.New(strings.Join(strings.Fields(msg), " "))
}
