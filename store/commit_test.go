package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// blockWrites holds the write lock of the store at dsn from another
// connection, as another process's long transaction would, until the
// returned function is called. The store's next transaction waits for
// it (SQLite at BEGIN, PostgreSQL at its first insert), so the saves that
// arrive meanwhile pile up in the queue.
func blockWrites(t *testing.T, dsn string) (release func()) {
	t.Helper()
	ctx := context.Background()
	other := open(t, dsn)
	conn, err := other.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lock := []string{"BEGIN IMMEDIATE"}
	if other.d == postgresDialect {
		lock = []string{"BEGIN", "LOCK TABLE games IN EXCLUSIVE MODE"}
	}
	for _, q := range lock {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
				t.Error(err)
			}
			conn.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// waitFor polls until cond holds; it fails the test after a minute
// (something is stuck, not slow).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// queued is how many saves wait in the committer's queue.
func queued(s *Store) int {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	return len(s.commits.queue)
}

// saveAsync runs save on its own goroutine; its error arrives on the
// channel.
func saveAsync(save func() error) <-chan error {
	done := make(chan error, 1)
	go func() { done <- save() }()
	return done
}

// TestBatchOutcomes writes one batch holding good games, a duplicate of
// a stored game, a game saved twice, a game of an unknown tournament, a
// game the database refuses to insert and a ladder game whose second
// statement fails: each save gets its own outcome, and only the failing
// ones are left out.
func TestBatchOutcomes(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		stored := sampleGame("t", 99)
		if err := s.SaveGame(ctx, stored); err != nil {
			t.Fatal(err)
		}
		before, err := s.Tournament(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		refused := sampleGame("t", 7)
		refuseInsert(t, s, refused.ID)

		release := blockWrites(t, dsn)
		// The first save is taken alone and waits on the lock; the rest
		// queue behind it and form the next batch.
		taken, txs := s.commits.taken.Load(), s.commits.txs.Load()
		first := sampleGame("t", 0)
		firstDone := saveAsync(func() error { return s.SaveGame(ctx, first) })
		waitFor(t, "the first save to be taken", func() bool { return s.commits.taken.Load() == taken+1 })

		twice := sampleGame("t", 3)
		orphan := sampleGame("nope", 4)
		orphan.Tournament = "nope"
		// A ladder game of a contest that does not exist: its second
		// statement breaks a foreign key, an error of the database.
		broken := sampleGame("", 5)
		broken.Tournament = ""
		cases := []struct {
			name string
			save func() error
			want error // nil: stored; errAny: some other error
		}{
			{"good game", func() error { return s.SaveGame(ctx, sampleGame("t", 1)) }, nil},
			{"duplicate of a stored game", func() error { return s.SaveGame(ctx, stored) }, ErrExists},
			{"saved once", func() error { return s.SaveGame(ctx, twice) }, nil},
			{"saved twice", func() error { return s.SaveGame(ctx, twice) }, ErrExists},
			{"unknown tournament", func() error { return s.SaveGame(ctx, orphan) }, ErrNotFound},
			{"statement fails", func() error {
				return s.SaveContestGame(ctx, broken, ContestGame{Contest: "no-such-contest", Users: []string{"a", "b"}}, nil)
			}, errAny},
			{"insert fails", func() error { return s.SaveGame(ctx, refused) }, errAny},
			{"another good game", func() error { return s.SaveGame(ctx, sampleGame("t", 2)) }, nil},
		}
		done := make([]<-chan error, len(cases))
		for i, c := range cases {
			done[i] = saveAsync(c.save)
			// In order, so that "saved once" comes before "saved twice".
			waitFor(t, c.name+" to be queued", func() bool { return queued(s) == i+1 })
		}
		release()
		if err := <-firstDone; err != nil {
			t.Errorf("first save: %v", err)
		}
		for i, c := range cases {
			err := <-done[i]
			switch {
			case c.want == nil && err != nil:
				t.Errorf("%s: %v, want it stored", c.name, err)
			case c.want == errAny && (err == nil || errors.Is(err, ErrExists) || errors.Is(err, ErrNotFound)):
				t.Errorf("%s: %v, want the database's error", c.name, err)
			case c.want != nil && c.want != errAny && !errors.Is(err, c.want):
				t.Errorf("%s: %v, want %v", c.name, err, c.want)
			}
		}
		// Three commits: the first save's; the batch's, in one
		// transaction (once the tries with the failing saves were
		// rolled back); then the second save of one game, alone.
		if n := s.commits.txs.Load() - txs; n != 3 {
			t.Errorf("%d transactions committed, want 3", n)
		}

		ids, err := s.GameIDs(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 1, 2, 3, 99} {
			g := sampleGame("t", i)
			if !ids[g.ID] {
				t.Errorf("game %s is not stored", g.ID)
				continue
			}
			got, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, got, g)
		}
		if len(ids) != 5 {
			t.Errorf("%d games stored in t, want 5", len(ids))
		}
		for _, id := range []string{orphan.ID, broken.ID, refused.ID} {
			if _, err := s.Game(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Errorf("game %s: %v, want it not stored", id, err)
			}
		}
		if after, err := s.Tournament(ctx, "t"); err != nil || !after.Updated.After(before.Updated) {
			t.Errorf("tournament after the batch: %+v, %v; want updated later than %v", after, err, before.Updated)
		}
		if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the orphan's tournament: %v", err)
		}
	})
}

// refuseInsert makes the database refuse to insert the game id: a
// trigger raises an error, as a broken constraint would.
func refuseInsert(t *testing.T, s *Store, id string) {
	t.Helper()
	ddl := []string{`CREATE TRIGGER refuse BEFORE INSERT ON games WHEN NEW.id = '` + id + `'
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`}
	if s.d == postgresDialect {
		ddl = []string{`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN IF NEW.id = '` + id + `' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`,
			`CREATE TRIGGER refuse BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION refuse()`}
	}
	for _, q := range ddl {
		if _, err := s.w.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
}

// errAny stands for "an error other than ErrExists and ErrNotFound".
var errAny = errors.New("any other error")

// TestSaveContextEnds: a caller whose context ends stops waiting. A save
// still queued is withdrawn and never stored; one whose transaction is
// already under way is stored whole (here it commits once unblocked).
func TestSaveContextEnds(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		release := blockWrites(t, dsn)
		takenCtx, cancelTaken := context.WithCancel(ctx)
		inTx := sampleGame("t", 0)
		inTxDone := saveAsync(func() error { return s.SaveGame(takenCtx, inTx) })
		waitFor(t, "the first save to be taken", func() bool { return s.commits.taken.Load() == 1 })

		queuedCtx, cancelQueued := context.WithCancel(ctx)
		withdrawn := sampleGame("t", 1)
		withdrawnDone := saveAsync(func() error { return s.SaveGame(queuedCtx, withdrawn) })
		waitFor(t, "the second save to be queued", func() bool { return queued(s) == 1 })
		cancelQueued()
		if err := <-withdrawnDone; !errors.Is(err, context.Canceled) {
			t.Errorf("withdrawn save: %v, want context.Canceled", err)
		}
		cancelTaken()
		if err := <-inTxDone; !errors.Is(err, context.Canceled) {
			t.Errorf("save in a transaction, cancelled: %v, want context.Canceled", err)
		}
		release()
		// A later save goes through, and is written after the blocked
		// transaction: once it returns, that one has committed.
		later := sampleGame("t", 2)
		if err := s.SaveGame(ctx, later); err != nil {
			t.Fatal(err)
		}
		got, err := s.Game(ctx, inTx.ID)
		if err != nil {
			t.Fatalf("the save whose caller left mid-transaction: %v", err)
		}
		sameGame(t, got, inTx)
		if _, err := s.Game(ctx, withdrawn.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the withdrawn save: %v, want it not stored", err)
		}
		// The withdrawn game can be saved again.
		if err := s.SaveGame(ctx, withdrawn); err != nil {
			t.Errorf("saving the withdrawn game again: %v", err)
		}
	})
}

// TestCloseWhileSaving closes a store with saves in flight: each of them
// is written and told so, a save after Close fails, and the writer
// goroutine is gone when Close returns.
func TestCloseWhileSaving(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		release := blockWrites(t, dsn)
		const n = 6
		var done []<-chan error
		for i := range n {
			done = append(done, saveAsync(func() error { return s.SaveGame(ctx, sampleGame("t", i)) }))
		}
		waitFor(t, "the saves to be queued or taken", func() bool {
			return int(s.commits.taken.Load())+queued(s) == n
		})
		closed := saveAsync(s.Close)
		waitFor(t, "Close to refuse saves", func() bool {
			s.commits.mu.Lock()
			defer s.commits.mu.Unlock()
			return s.commits.closed
		})
		if err := s.SaveGame(ctx, sampleGame("t", n)); err == nil || !errors.Is(err, errClosed) {
			t.Errorf("save after Close: %v, want %v", err, errClosed)
		}
		select {
		case err := <-closed:
			t.Fatalf("Close returned (%v) with saves blocked", err)
		default:
		}
		release()
		for i, d := range done {
			if err := <-d; err != nil {
				t.Errorf("save %d: %v", i, err)
			}
		}
		if err := <-closed; err != nil {
			t.Errorf("Close: %v", err)
		}
		select {
		case <-s.commits.exited:
		default:
			t.Error("the writer goroutine outlived Close")
		}
		again := open(t, dsn)
		ids, err := again.GameIDs(ctx, "t")
		if err != nil || len(ids) != n {
			t.Errorf("after Close: %d games stored, %v; want %d", len(ids), err, n)
		}
	})
}

// TestManyWriters saves from 64 goroutines at once, each of its own
// games and of games others save too: every game is stored exactly once,
// and of the saves of one ID exactly one succeeds.
func TestManyWriters(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		const writers, own, shared = 64, 4, 8
		var mu sync.Mutex
		wins := map[string]int{}
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				for i := range own + 1 {
					g := sampleGame("t", w*own+i)
					if i == own {
						g = sampleGame("t", 10_000+w%shared) // saved by writers/shared goroutines
					}
					err := s.SaveGame(ctx, g)
					switch {
					case err == nil:
						mu.Lock()
						wins[g.ID]++
						mu.Unlock()
					case i < own || !errors.Is(err, ErrExists):
						t.Errorf("writer %d, game %s: %v", w, g.ID, err)
					}
				}
			})
		}
		wg.Wait()
		ids, err := s.GameIDs(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != writers*own+shared {
			t.Errorf("%d games stored, want %d", len(ids), writers*own+shared)
		}
		for id, n := range wins {
			if n != 1 || !ids[id] {
				t.Errorf("game %s: %d saves succeeded, stored %v", id, n, ids[id])
			}
		}
		if len(wins) != len(ids) {
			t.Errorf("%d games saved, %d stored", len(wins), len(ids))
		}
		var rows int
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&rows); err != nil || rows != len(ids) {
			t.Errorf("%d rows for %d games, %v", rows, len(ids), err)
		}
		t.Logf("%d transactions for %d games", s.commits.txs.Load(), s.commits.games.Load())
	})
}
