package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit: the games saved while a commit is on its way to the disk
// are written together by the next one, in one transaction of a few
// multi-row inserts (one COPY on PostgreSQL, copy.go). A durable commit
// costs one fsync (SQLite) or one WAL flush (PostgreSQL) whatever it
// holds, so when many games finish together each pays only a share of
// it; a game saved alone is committed at once, as before. On PostgreSQL
// a second writer writes the next batch, on a connection of its own,
// while the first's COMMIT waits for the flush; SQLite has one writer.
//
// Every game keeps its own outcome: its caller returns once the
// transaction holding it has committed, with its own error. A game that
// is refused without touching anything (ErrExists, ErrNotFound) is just
// left out; a game whose statement fails (a constraint, a trigger) rolls
// the transaction back, gets that error alone, and the others are
// written again without it.

// maxBatch bounds one transaction, so that a flood of saves is committed
// in steps rather than held in memory until it stops.
const maxBatch = 128

// gatherWindow is the longest the writer waits for more games before
// committing, and it waits only when the previous transaction held more
// games than it has in hand: games are finishing together and the rest
// of them are on their way. A lone writer does not wait (but for its
// first save after a burst, at most this long).
const gatherWindow = time.Millisecond

// errClosed is returned by a save after Close.
var errClosed = errors.New("store is closed")

// A writeFunc is what one save does inside a batch's transaction. It must
// change nothing when it returns an error wrapping ErrExists or
// ErrNotFound (the batch goes on without it); any other error aborts the
// transaction, which is then written again without this write.
type writeFunc func(ctx context.Context, b *batch) error

// The states of a pending write.
const (
	waiting   int32 = iota // queued, no transaction has it yet
	taken                  // in the transaction being written
	withdrawn              // its caller stopped waiting before it was taken
)

// pending is one save waiting for its transaction: a plain game (row),
// written with the batch's other games in a few multi-row inserts, or
// anything else (write).
type pending struct {
	key   string // the game ID: two writes of one key never share a batch
	size  int    // about how many bytes it writes (its record's, as stored)
	row   *gameRow
	write writeFunc
	state atomic.Int32
	done  chan error // receives the outcome, once; buffered
}

// gameRow is a game as SaveGame writes it.
type gameRow struct {
	tournament string // "" for none
	args       []any  // the values of insertColumns
}

// committer writes the saves of one Store, batch after batch, from one
// goroutine.
type committer struct {
	s *Store

	mu     sync.Mutex
	queue  []*pending // saves not yet seen by the writer
	closed bool

	wake   chan struct{} // capacity 1: something was queued, or Close
	exited chan struct{} // closed when the writers have drained and stopped

	// writing is held by the writer that takes a batch, until it sends
	// the batch's COMMIT (see run). What follows, up to written, is its
	// holder's only.
	writing sync.Mutex
	next    []*pending // queued, not yet written
	last    int        // the size of the previous batch
	// inserts are the multi-row insert statements, by number of rows,
	// prepared once each: parsing one every batch took a tenth of the
	// writer's time (closed when the writers stop).
	inserts map[int]*sql.Stmt
	// unprepared are the numbers of rows whose statement a transaction
	// wrote out in full, to be prepared before the next batch.
	unprepared []int
	// tournaments are those seen stored: tournaments are never deleted,
	// so a batch need not ask again.
	tournaments map[string]bool

	// written is how many bytes (records) were committed since the last
	// checkpoint was asked for (SQLite's one writer's).
	written int64

	// Counts, for tests and benchmarks: saves handed to a transaction,
	// transactions committed, the games they wrote and, of those, the
	// games written by COPY.
	taken, txs, games, copied atomic.Int64
}

func newCommitter(s *Store) *committer {
	c := &committer{s: s, wake: make(chan struct{}, 1), exited: make(chan struct{}), inserts: map[int]*sql.Stmt{},
		tournaments: map[string]bool{}}
	var writers sync.WaitGroup
	for range max(s.d.writers, 1) {
		writers.Go(c.run)
	}
	go func() {
		writers.Wait()
		for _, stmt := range c.inserts {
			stmt.Close()
		}
		close(c.exited)
	}()
	return c
}

// save queues a write and waits until it is durable or refused. When ctx
// ends first, a write that no transaction has taken is withdrawn (not
// saved); one already taken is stored whole or not at all, and save
// returns without waiting to learn which.
func (c *committer) save(ctx context.Context, p *pending) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("not saved: %w", err)
	}
	p.done = make(chan error, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errClosed
	}
	c.queue = append(c.queue, p)
	c.mu.Unlock()
	c.poke()
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		if p.state.CompareAndSwap(waiting, withdrawn) {
			return fmt.Errorf("not saved: %w", ctx.Err())
		}
		select {
		case err := <-p.done: // it ended as ctx did
			return err
		default:
		}
		return fmt.Errorf("stopped waiting while it was being committed (stored whole or not at all): %w", ctx.Err())
	}
}

func (c *committer) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// close refuses new saves, waits until every queued one is written and
// stops the writers. It may be called more than once.
func (c *committer) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.poke()
	<-c.exited
}

// drain takes the queue.
func (c *committer) drain() (queue []*pending, closed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	queue, c.queue = c.queue, nil
	return queue, c.closed
}

// run is a writer: it commits what is queued, batch after batch, until
// the committer is closed and nothing is left. A writer holds c.writing
// from taking a batch until its COMMIT is sent; while the COMMIT waits
// for the log's flush, another writer (PostgreSQL has two) takes and
// writes the next batch.
func (c *committer) run() {
	ctx := context.Background()
	for {
		c.writing.Lock()
		saves, ok := c.take()
		if !ok {
			c.writing.Unlock()
			return
		}
		c.prepare(ctx)
		size := 0
		for _, p := range saves {
			size += p.size
		}
		c.commit(saves) // unlocks c.writing; may reorder and clear saves
		c.committed(size)
	}
}

// take waits for the next batch and claims it, or returns false once
// the committer is closed and nothing is left. The caller holds
// c.writing.
func (c *committer) take() ([]*pending, bool) {
	for {
		queue, closed := c.drain()
		c.next = append(c.next, queue...)
		if len(c.next) == 0 {
			if closed {
				return nil, false
			}
			<-c.wake
			continue
		}
		if len(c.next) < c.last && !closed {
			c.next = c.gather(c.next, c.last)
		}
		if ck := c.s.ckpt; ck != nil {
			ck.restartLog(context.Background(), c.s.w)
		}
		var saves []*pending
		saves, c.next = claim(c.next)
		if len(saves) > 0 {
			c.last = len(saves)
			c.taken.Add(int64(len(saves)))
			return saves, true
		}
	}
}

// txPages is about how many bytes of log a transaction writes besides
// its records: the leaf and index pages of the games it inserts, its
// tournament's row. A stream of games without records still calls for
// checkpoints.
const txPages = 4 * 4096

// committed asks for a checkpoint once enough was written since the
// last one: a transaction's records, size bytes, and its other pages.
func (c *committer) committed(size int) {
	ck := c.s.ckpt
	if ck == nil {
		return
	}
	c.written += int64(size) + txPages
	if c.written >= ck.every.Load() {
		c.written = 0
		ck.poke()
	}
}

// gather waits, at most gatherWindow, until want saves are in hand.
func (c *committer) gather(have []*pending, want int) []*pending {
	timer := time.NewTimer(gatherWindow)
	defer timer.Stop()
	for len(have) < want {
		select {
		case <-c.wake:
		case <-timer.C:
			return have
		}
		queue, closed := c.drain()
		have = append(have, queue...)
		if closed {
			break
		}
	}
	return have
}

// claim splits the saves in hand into the next batch and the rest: at
// most maxBatch, no key twice (a second save of one game waits for the
// first's outcome), none withdrawn by its caller.
func claim(next []*pending) (saves, rest []*pending) {
	keys := make(map[string]bool, len(next))
	for _, p := range next {
		if len(saves) == maxBatch || keys[p.key] {
			rest = append(rest, p)
			continue
		}
		if !p.state.CompareAndSwap(waiting, taken) {
			continue // withdrawn: its caller has gone
		}
		keys[p.key] = true
		saves = append(saves, p)
	}
	return saves, rest
}

// commit writes a batch in one transaction and tells every save its
// outcome. A save whose statement fails is told its error and the rest
// are written again without it. The caller holds c.writing: commit
// unlocks it as the COMMIT is sent (or when it gives up).
func (c *committer) commit(saves []*pending) {
	handedOver := false
	handOver := func() {
		if !handedOver {
			handedOver = true
			c.writing.Unlock()
		}
	}
	defer handOver()
	how := byCopy
	if !c.s.d.copy {
		how = byRows
	}
	for len(saves) > 0 {
		errs, bad, err := c.try(saves, how, handOver)
		switch bad {
		case someRow:
			// A COPY fails on a game already stored: write the games
			// with inserts, which skip those. An insert of several games
			// failed: find which, with one statement each.
			how++
		case wholeBatch:
			for i, p := range saves {
				if err != nil {
					p.done <- err
				} else {
					p.done <- errs[i]
				}
			}
			return
		default:
			saves[bad].done <- err
			saves = slices.Delete(saves, bad, bad+1)
		}
	}
}

// How try writes a batch's plain games, from the fastest way to the one
// that tells which game failed.
const (
	byCopy   = iota // one COPY on PostgreSQL (copy.go); multi-row inserts elsewhere
	byRows          // multi-row inserts, that skip the games already stored
	oneByOne        // an insert each
)

// What try's bad means, besides the index of the save that failed.
const (
	wholeBatch = -1 // every save has the outcome: errs, or err for all
	someRow    = -2 // a multi-row insert failed, for one of its rows
)

// maxRows is the most games one insert statement writes (15 values
// each).
const maxRows = 32

// try writes the batch in one transaction. It returns each save's own
// refusal (ErrExists, ErrNotFound) in errs when the transaction
// committed (bad = wholeBatch); the index of the save whose statement
// failed, with its error, when one did (the transaction is rolled back);
// someRow when a COPY or multi-row insert failed; or wholeBatch and the
// error of the transaction itself (begin, commit), which is every save's.
// how is byCopy, byRows or oneByOne: with oneByOne, each game has an
// insert of its own, so that a failure names its game. handOver is
// called as the COMMIT is sent.
func (c *committer) try(saves []*pending, how int, handOver func()) (errs []error, bad int, err error) {
	// The batch's writes belong to several callers: none of their
	// contexts may cut it short. Close waits for it.
	ctx := context.Background()
	// Where COPY is used, a connection of its own, so that the COPY
	// runs in the transaction (copy.go).
	var conn *sql.Conn
	begin := c.s.w.BeginTx
	if c.s.d.copy {
		if conn, err = c.s.w.Conn(ctx); err != nil {
			return nil, wholeBatch, err
		}
		defer conn.Close()
		begin = conn.BeginTx
	}
	tx, err := begin(ctx, nil)
	if err != nil {
		return nil, wholeBatch, err
	}
	defer tx.Rollback() // a no-op once committed, and run before conn.Close
	b := &batch{s: c.s, tx: tx, known: c.tournaments, exists: map[string]bool{}}
	errs = make([]error, len(saves))

	// The plain games first, all in a few statements. Their tournaments
	// first, so that a missing one is told apart from a duplicate game
	// (and no foreign key fails).
	var rows []int
	for i, p := range saves {
		if p.row == nil {
			continue
		}
		if t := p.row.tournament; t != "" {
			ok, err := b.tournamentExists(ctx, t)
			if err != nil {
				return nil, wholeBatch, err
			}
			if !ok {
				errs[i] = fmt.Errorf("tournament %s: %w", t, ErrNotFound)
				continue
			}
		}
		rows = append(rows, i)
	}
	copied := 0
	if how == byCopy && c.s.d.copy && len(rows) >= copyMinRows {
		if err := c.copyGames(ctx, conn, saves, rows); err != nil {
			return nil, someRow, err
		}
		for _, i := range rows {
			if t := saves[i].row.tournament; t != "" {
				b.gained(t)
			}
		}
		copied, rows = len(rows), nil
	}
	for len(rows) > 0 {
		n := maxRows
		if how == oneByOne {
			n = 1
		}
		chunk := rows[:min(n, len(rows))]
		rows = rows[len(chunk):]
		inserted, err := c.insertGames(ctx, tx, saves, chunk)
		if err != nil {
			if len(chunk) == 1 {
				return nil, chunk[0], err
			}
			return nil, someRow, err
		}
		for _, i := range chunk {
			if !inserted[saves[i].key] {
				errs[i] = ErrExists
			} else if t := saves[i].row.tournament; t != "" {
				b.gained(t)
			}
		}
	}

	for i, p := range saves {
		if p.write == nil {
			continue
		}
		err := p.write(ctx, b)
		switch {
		case err == nil:
		case errors.Is(err, ErrExists), errors.Is(err, ErrNotFound):
			errs[i] = err
		default:
			return nil, i, err
		}
	}
	if err := b.touchTournaments(ctx); err != nil {
		return nil, wholeBatch, err
	}
	handOver()
	if err := tx.Commit(); err != nil {
		return nil, wholeBatch, err
	}
	c.txs.Add(1)
	c.copied.Add(int64(copied))
	for _, err := range errs {
		if err == nil {
			c.games.Add(1)
		}
	}
	return errs, wholeBatch, nil
}

// insertColumns are the columns of a game that a save writes.
const insertColumns = `id, tournament, round, players, seats, winner, reason, detail, scores, moves,
	record, record_path, start_time, end_time, game`

// insertQuery is the statement that inserts n games.
func (c *committer) insertQuery(n int) string {
	one := "(" + strings.Repeat("?, ", strings.Count(insertColumns, ",")) + "?)"
	return c.s.d.q(`INSERT INTO games (` + insertColumns + `) VALUES ` +
		strings.Repeat(one+", ", n-1) + one + ` ON CONFLICT (id) DO NOTHING RETURNING id`)
}

// prepare prepares the insert statements that the last transactions
// lacked. It runs once a batch is taken, before its transaction, with
// c.writing held: on SQLite the writer's one connection is busy during a
// transaction. On PostgreSQL preparing an insert takes a lock on the
// table, so a batch waits there as its inserts would, already taken. A
// statement that fails to prepare is written out again next time.
func (c *committer) prepare(ctx context.Context) {
	for _, n := range c.unprepared {
		if _, ok := c.inserts[n]; ok {
			continue
		}
		if stmt, err := c.s.w.PrepareContext(ctx, c.insertQuery(n)); err == nil {
			c.inserts[n] = stmt
		}
	}
	c.unprepared = c.unprepared[:0]
}

// insertGames inserts the games of saves[chunk] in one statement and
// returns the IDs it inserted: an ID already stored is skipped.
func (c *committer) insertGames(ctx context.Context, tx *sql.Tx, saves []*pending, chunk []int) (map[string]bool, error) {
	args := make([]any, 0, len(chunk)*len(saves[chunk[0]].row.args))
	for _, i := range chunk {
		args = append(args, saves[i].row.args...)
	}
	var rows *sql.Rows
	var err error
	if stmt, ok := c.inserts[len(chunk)]; ok {
		rows, err = tx.StmtContext(ctx, stmt).QueryContext(ctx, args...)
	} else {
		rows, err = tx.QueryContext(ctx, c.insertQuery(len(chunk)), args...)
		c.unprepared = append(c.unprepared, len(chunk))
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	inserted := make(map[string]bool, len(chunk))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		inserted[id] = true
	}
	return inserted, rows.Err()
}

// batch is one transaction's state, shared by its writes.
type batch struct {
	s  *Store
	tx *sql.Tx

	insertGame *sql.Stmt       // s.insertGame in tx, once needed
	known      map[string]bool // tournaments stored, as seen by earlier batches
	exists     map[string]bool // tournaments looked up in tx
	touched    []string        // tournaments that gained a game
}

// insert is the store's prepared game insert, in the transaction.
func (b *batch) insert(ctx context.Context) *sql.Stmt {
	if b.insertGame == nil {
		b.insertGame = b.tx.StmtContext(ctx, b.s.insertGame)
	}
	return b.insertGame
}

// tournamentExists tells whether the tournament is stored.
func (b *batch) tournamentExists(ctx context.Context, name string) (bool, error) {
	if b.known[name] {
		return true, nil
	}
	if ok, seen := b.exists[name]; seen {
		return ok, nil
	}
	var one int
	err := b.tx.QueryRowContext(ctx, b.s.d.q(`SELECT 1 FROM tournaments WHERE name = ?`), name).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		b.exists[name] = false
	case err != nil:
		return false, err
	default:
		b.exists[name] = true
		b.known[name] = true
	}
	return b.exists[name], nil
}

// gained records that the tournament gained a game in this batch.
func (b *batch) gained(name string) {
	if !slices.Contains(b.touched, name) {
		b.touched = append(b.touched, name)
	}
}

// touchTournaments sets the updated time of the tournaments that gained
// a game: once per batch, and never for a save that was refused.
func (b *batch) touchTournaments(ctx context.Context) error {
	if len(b.touched) == 0 {
		return nil
	}
	now := b.s.d.timeArg(time.Now())
	stmt := b.tx.StmtContext(ctx, b.s.touchTournament)
	for _, name := range b.touched {
		if _, err := stmt.ExecContext(ctx, now, name); err != nil {
			return fmt.Errorf("tournament %s: %w", name, err)
		}
	}
	return nil
}
