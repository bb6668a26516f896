package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
)

// Checkpoints off the commit path (SQLite only).
//
// In WAL mode a commit appends the pages it changed to the log and
// fsyncs it; a checkpoint later copies them into the database file. With
// SQLite's automatic checkpoint that copy (a third of a game's cost when
// many games are saved together) lands on the commit that happens to
// cross 1000 pages of log, and every caller of that batch waits for it.
// Here the writer connection has wal_autocheckpoint=0 and a checkpointer
// goroutine, on a connection of its own, runs PASSIVE checkpoints (which
// never wait for, nor block, the writer or a reader) after every
// checkpointEvery bytes committed: the copy runs while the writer fills
// and syncs its next batches.
//
// Durability is the log's: a commit is durable once its log fsync has
// returned, whoever copies it later. The checkpointer's connection is
// synchronous=FULL, so the database file is synced before the log may be
// reused.
//
// The log is written again from its start only when a transaction begins
// with every frame copied, which a checkpointer always a little behind
// a busy writer may never see. So when the log has grown past
// walRestartFrames pages the writer runs a PASSIVE checkpoint itself,
// between two batches: it copies the few pages the checkpointer has not,
// and the next transaction starts the log again. It costs one commit of
// thousands a little time, and it never waits (a checkpoint already
// running makes it give up until the next batch).

// checkpointEvery is how many bytes of records committed (as stored)
// call for a checkpoint: about SQLite's default of 1000 pages of 4 KiB.
const checkpointEvery = 4 << 20

// walRestartFrames is the log's length, in pages, past which the writer
// makes sure the log is started again: 16 MiB of 4 KiB pages, what about
// 4000 games write (records packed).
const walRestartFrames = 4000

// walSizeLimit is what the log file is cut back to when it is started
// again, after a burst made it longer (journal_size_limit).
const walSizeLimit = 16 << 20

// checkpointer runs the PASSIVE checkpoints of one SQLite store.
type checkpointer struct {
	db *sql.DB // one connection, synchronous=FULL

	wake     chan struct{} // capacity 1: enough was committed
	stop     chan struct{} // closed by close
	stopOnce sync.Once
	exited   chan struct{} // closed when run has returned

	// every is checkpointEvery, but for the tests.
	every atomic.Int64
	// frames is the log's length in pages, as the last checkpoint (the
	// checkpointer's or the writer's) found it.
	frames atomic.Int64
	// Counts, for tests and benchmarks: checkpoints run by the
	// checkpointer, and by the writer when the log was too long.
	runs, restarts atomic.Int64
	// err is the last checkpoint's error, if it failed (a checkpoint that
	// fails loses nothing: the pages stay in the log for the next one).
	err atomic.Pointer[error]
}

func newCheckpointer(db *sql.DB) *checkpointer {
	c := &checkpointer{db: db, wake: make(chan struct{}, 1), stop: make(chan struct{}), exited: make(chan struct{})}
	c.every.Store(checkpointEvery)
	go c.run()
	return c
}

// poke asks for a checkpoint; one already asked for and not yet begun
// covers this one too.
func (c *checkpointer) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.exited)
	for {
		select {
		case <-c.stop:
			return
		case <-c.wake:
		}
		busy, frames, err := checkpoint(context.Background(), c.db)
		switch {
		case err != nil:
			c.err.Store(&err)
		case !busy:
			c.frames.Store(frames)
		}
		c.runs.Add(1)
	}
}

// close stops the checkpointer (a checkpoint under way ends first) and
// closes its connection. It may be called more than once.
func (c *checkpointer) close() error {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.exited
	return c.db.Close()
}

// checkpoint runs a PASSIVE checkpoint on db and returns the log's
// length in pages; busy is true when it could not run at all (another
// checkpoint was under way).
func checkpoint(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (busy bool, frames int64, err error) {
	var blocked, copied int64
	if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&blocked, &frames, &copied); err != nil {
		return false, 0, fmt.Errorf("checkpoint: %w", err)
	}
	return blocked != 0, frames, nil
}

// restartLog is run by the writer between two batches: when the log has
// grown past walRestartFrames, it copies what is left of it so that the
// next transaction starts it again. The length is then taken to be 0
// until the checkpointer's next run says otherwise, so that a reader
// holding the log's pages costs the writer at most one checkpoint per
// checkpointEvery bytes.
func (c *checkpointer) restartLog(ctx context.Context, w *sql.DB) {
	if c.frames.Load() < walRestartFrames {
		return
	}
	busy, _, err := checkpoint(ctx, w)
	switch {
	case err != nil:
		c.err.Store(&err)
	case !busy:
		c.frames.Store(0)
		c.restarts.Add(1)
	}
}
