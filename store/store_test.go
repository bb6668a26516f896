package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTournaments(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if ts, err := s.Tournaments(ctx); err != nil || len(ts) != 0 {
			t.Fatalf("new store lists %v, %v; want nothing", ts, err)
		}
		created := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
		want := []Tournament{
			{Name: "spring", Game: "gomoku", Args: []string{"gomoku", "--bot", "a=./a", "--games-per-pair", "2"},
				Status: StatusRunning, Created: created, Updated: created},
			{Name: "ants cup «2»", Game: "ants", Args: nil,
				Status: StatusInterrupted, Created: created.Add(time.Hour), Updated: created.Add(2 * time.Hour)},
		}
		for _, tr := range want {
			if err := s.CreateTournament(ctx, tr); err != nil {
				t.Fatal(err)
			}
		}
		dup := want[0]
		dup.Game = "khet"
		if err := s.CreateTournament(ctx, dup); !errors.Is(err, ErrExists) {
			t.Errorf("creating %q twice: %v, want ErrExists", dup.Name, err)
		}
		got, err := s.Tournaments(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Tournaments:\n got %+v\nwant %+v", got, want)
		}
		one, err := s.Tournament(ctx, "spring")
		if err != nil || !reflect.DeepEqual(one, want[0]) {
			t.Errorf("Tournament(spring) = %+v, %v; want %+v", one, err, want[0])
		}

		before := time.Now().Add(-time.Second)
		if err := s.SetTournamentStatus(ctx, "spring", StatusFinished); err != nil {
			t.Fatal(err)
		}
		one, err = s.Tournament(ctx, "spring")
		if err != nil || one.Status != StatusFinished || one.Updated.Before(before) || !one.Created.Equal(created) {
			t.Errorf("after SetTournamentStatus: %+v, %v", one, err)
		}

		// Defaults: running, created now.
		if err := s.CreateTournament(ctx, Tournament{Name: "plain", Game: "points"}); err != nil {
			t.Fatal(err)
		}
		one, err = s.Tournament(ctx, "plain")
		if err != nil || one.Status != StatusRunning || one.Created.Before(before) || !one.Updated.Equal(one.Created) {
			t.Errorf("defaults: %+v, %v", one, err)
		}

		// Survives closing and reopening.
		s.Close()
		s = open(t, dsn)
		if got, err := s.Tournaments(ctx); err != nil || len(got) != 3 {
			t.Errorf("after reopening: %+v, %v", got, err)
		}
	})
}

func TestTournamentErrors(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			err  error
			want error // nil: any error
		}{
			{"missing tournament", errOnly(s.Tournament(ctx, "nope")), ErrNotFound},
			{"status of missing tournament", s.SetTournamentStatus(ctx, "nope", StatusFinished), ErrNotFound},
			{"unknown status", s.SetTournamentStatus(ctx, "t", "paused"), nil},
			{"create with unknown status", s.CreateTournament(ctx, Tournament{Name: "u", Status: "done"}), nil},
			{"create without name", s.CreateTournament(ctx, Tournament{Game: "gomoku"}), nil},
		} {
			if c.err == nil || (c.want != nil && !errors.Is(c.err, c.want)) {
				t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
			}
		}
		if tr, err := s.Tournament(ctx, "t"); err != nil || tr.Status != StatusRunning {
			t.Errorf("a refused status changed the tournament: %+v, %v", tr, err)
		}
	})
}

func errOnly[T any](_ T, err error) error { return err }

func TestGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		for _, name := range []string{"a", "b"} {
			if err := s.CreateTournament(ctx, Tournament{Name: name, Game: "gomoku"}); err != nil {
				t.Fatal(err)
			}
		}
		plain := sampleGame("", 7)
		plain.ID = "match-1"
		noRecord := sampleGame("b", 3)
		noRecord.Record = nil
		noRecord.Players, noRecord.Seats, noRecord.Scores = nil, nil, []int{}
		tests := []struct {
			name string
			game Game
		}{
			{"win", sampleGame("a", 0)},
			{"draw", sampleGame("a", 1)},
			{"other tournament", sampleGame("b", 2)},
			{"win in a later round", sampleGame("a", 12)},
			{"plain match", plain},
			{"no record, empty lists", noRecord},
			{"big record", func() Game { g := sampleGame("a", 5); g.Record = sampleRecord(g.ID, 300_000); return g }()},
		}
		for _, c := range tests {
			if err := s.SaveGame(ctx, c.game); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		for _, c := range tests {
			got, err := s.Game(ctx, c.game.ID)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			sameGame(t, got, c.game)
		}

		// Listing: in the order stored, per tournament.
		for _, c := range []struct {
			tournament string
			want       []int // indexes into tests
		}{{"a", []int{0, 1, 3, 6}}, {"b", []int{2, 5}}, {"", []int{4}}, {"none", nil}} {
			games, err := s.Games(ctx, c.tournament)
			if err != nil {
				t.Fatal(err)
			}
			ids, err := s.GameIDs(ctx, c.tournament)
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != len(c.want) || len(ids) != len(c.want) {
				t.Errorf("tournament %q: %d games, %d IDs; want %d", c.tournament, len(games), len(ids), len(c.want))
				continue
			}
			for i, j := range c.want {
				sameGame(t, games[i], tests[j].game)
				if !ids[tests[j].game.ID] {
					t.Errorf("tournament %q: GameIDs lacks %s", c.tournament, tests[j].game.ID)
				}
			}
		}
	})
}

func TestSaveGameRefuses(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		first := sampleGame("t", 0)
		if err := s.SaveGame(ctx, first); err != nil {
			t.Fatal(err)
		}
		tr, _ := s.Tournament(ctx, "t")
		changed := sampleGame("t", 1)
		changed.ID = first.ID
		badJSON := sampleGame("t", 2)
		badJSON.Record = json.RawMessage(`{"moves": [`)
		orphan := sampleGame("nowhere", 3)
		noID := sampleGame("t", 4)
		noID.ID = ""
		for _, c := range []struct {
			name string
			game Game
			want error // nil: any error
		}{
			{"same ID again", first, ErrExists},
			{"same ID, other content", changed, ErrExists},
			{"record not JSON", badJSON, nil},
			{"unknown tournament", orphan, ErrNotFound},
			{"no ID", noID, nil},
		} {
			err := s.SaveGame(ctx, c.game)
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
				t.Errorf("%s: error %v, want %v", c.name, err, c.want)
			}
			if err != nil && c.game.ID != "" && !strings.Contains(err.Error(), c.game.ID) {
				t.Errorf("%s: error %q does not name the game", c.name, err)
			}
		}
		// Nothing of the refused saves is stored.
		got, err := s.Game(ctx, first.ID)
		if err != nil {
			t.Fatal(err)
		}
		sameGame(t, got, first)
		if games, err := s.Games(ctx, "t"); err != nil || len(games) != 1 {
			t.Errorf("after refused saves: %d games, %v; want 1", len(games), err)
		}
		if _, err := s.Game(ctx, orphan.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the orphan game: %v, want ErrNotFound", err)
		}
		if after, _ := s.Tournament(ctx, "t"); !after.Updated.Equal(tr.Updated) {
			t.Errorf("a refused save touched the tournament: updated %v -> %v", tr.Updated, after.Updated)
		}
	})
}

func TestSaveGameUpdatesTournament(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		long := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku", Created: long}); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveGame(ctx, sampleGame("t", 0)); err != nil {
			t.Fatal(err)
		}
		tr, err := s.Tournament(ctx, "t")
		if err != nil || !tr.Updated.After(long) || !tr.Created.Equal(long) {
			t.Errorf("after a game: %+v, %v; want updated now", tr, err)
		}
	})
}

// TestConcurrentSaves saves from many goroutines at once, as a
// tournament's pool of games does, with readers alongside: no save may
// fail (no SQLITE_BUSY), none may be lost, and of several saves of one ID
// exactly one wins.
func TestConcurrentSaves(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		// A second Store on the same database: another process's writer.
		other := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		const writers, perWriter = 8, 12
		var wg sync.WaitGroup
		errs := make(chan error, writers*perWriter*2)
		for w := range writers {
			wg.Go(func() {
				st := s
				if w%2 == 1 {
					st = other
				}
				for i := range perWriter {
					if err := st.SaveGame(ctx, sampleGame("t", w*perWriter+i)); err != nil {
						errs <- err
					}
				}
			})
		}
		// Everyone saves the same game: one wins, the rest get ErrExists.
		dup := sampleGame("t", 1000)
		var wins sync.Map
		for w := range writers {
			wg.Go(func() {
				st := s
				if w%2 == 1 {
					st = other
				}
				err := st.SaveGame(ctx, dup)
				switch {
				case err == nil:
					wins.Store(w, true)
				case !errors.Is(err, ErrExists):
					errs <- err
				}
			})
		}
		for range 2 {
			wg.Go(func() {
				for range 10 {
					if _, err := s.Games(ctx, "t"); err != nil {
						errs <- err
					}
					if _, err := other.GameIDs(ctx, "t"); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		n := 0
		wins.Range(func(_, _ any) bool { n++; return true })
		if n != 1 {
			t.Errorf("%d saves of one ID succeeded, want 1", n)
		}
		ids, err := s.GameIDs(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != writers*perWriter+1 {
			t.Errorf("%d games stored, want %d", len(ids), writers*perWriter+1)
		}
		for i := range writers * perWriter {
			if id := sampleGame("t", i).ID; !ids[id] {
				t.Errorf("game %s lost", id)
			}
		}
	})
}

func TestSchemaVersion(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		var v int
		if err := s.r.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != len(migrations) {
			t.Fatalf("schema version %d, %v; want %d", v, err, len(migrations))
		}
		// Reopening an up-to-date database changes nothing.
		open(t, dsn).Close()
		// A database from a newer arena is refused, not damaged.
		if _, err := s.w.ExecContext(ctx, `UPDATE schema_version SET version = 99`); err != nil {
			t.Fatal(err)
		}
		_, err := Open(ctx, dsn)
		if err == nil || !strings.Contains(err.Error(), "newer") {
			t.Errorf("opening a newer schema: %v, want an error saying it is newer", err)
		}
	})
}

func TestParseDSN(t *testing.T) {
	for _, c := range []struct {
		dsn, kind, target string
		err               bool
	}{
		{"arena.db", kindSQLite, "arena.db", false},
		{"out/t 1/arena.db", kindSQLite, "out/t 1/arena.db", false},
		{"sqlite:/tmp/x.db", kindSQLite, "/tmp/x.db", false},
		{"postgres:///arena?host=/tmp", kindPostgres, "postgres:///arena?host=/tmp", false},
		{"postgresql://u:p@db/arena", kindPostgres, "postgresql://u:p@db/arena", false},
		{"", "", "", true},
		{"  ", "", "", true},
		{"sqlite:", "", "", true},
	} {
		kind, target, err := parseDSN(c.dsn)
		if (err != nil) != c.err || kind != c.kind || target != c.target {
			t.Errorf("parseDSN(%q) = %q, %q, %v; want %q, %q, error %v", c.dsn, kind, target, err, c.kind, c.target, c.err)
		}
	}
}

func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{"arena.db", "sqlite:x", "postgres://u:p@h/d", "postgresql:///d?host=/tmp", "", "sqlite:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		kind, target, err := parseDSN(dsn)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if kind != kindSQLite && kind != kindPostgres || target == "" {
			t.Errorf("parseDSN(%q) = %q, %q", dsn, kind, target)
		}
		if kind == kindPostgres && target != dsn {
			t.Errorf("postgres DSN %q changed to %q", dsn, target)
		}
	})
}

func TestRedact(t *testing.T) {
	for _, dsn := range []string{
		"postgres://arena:s3cret@db.example/arena",
		"postgres:///arena?host=/tmp&password=s3cret",
	} {
		if got := redact(dsn); strings.Contains(got, "s3cret") {
			t.Errorf("redact(%q) = %q", dsn, got)
		}
	}
	_, err := Open(context.Background(), "postgres://arena:s3cret@/arena?host=/nonexistent-dir&connect_timeout=5")
	if err == nil || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "\n") {
		t.Errorf("connecting to no server: %v; want a one-line error without the password", err)
	}
}

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "arena-store-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := Open(ctx, "sqlite:"+filepath.Join(dir, "arena.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	s.CreateTournament(ctx, Tournament{Name: "demo", Game: "gomoku", Args: []string{"gomoku", "--bot", "a=./a"}})
	winner := 0
	s.SaveGame(ctx, Game{ID: "demo/r1/p1/o1/s01", Tournament: "demo", Round: 1,
		Players: []string{"a", "b"}, Seats: []int{0, 1}, Winner: &winner, Reason: "five", Moves: 31,
		Record: json.RawMessage(`{"id":"demo/r1/p1/o1/s01"}`)})
	err = s.SaveGame(ctx, Game{ID: "demo/r1/p1/o1/s01", Tournament: "demo"})
	fmt.Println(errors.Is(err, ErrExists))
	ids, _ := s.GameIDs(ctx, "demo")
	fmt.Println(len(ids))
	// Output:
	// true
	// 1
}

// TestConcurrentOpen opens a new database from several goroutines at
// once, as several processes starting on one store do: the schema is
// created once and every Open succeeds.
func TestConcurrentOpen(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		var wg sync.WaitGroup
		stores := make([]*Store, 4)
		errs := make([]error, len(stores))
		for i := range stores {
			wg.Go(func() { stores[i], errs[i] = Open(ctx, dsn) })
		}
		wg.Wait()
		for i, s := range stores {
			if errs[i] != nil {
				t.Error(errs[i])
				continue
			}
			defer s.Close()
			if err := s.CreateTournament(ctx, Tournament{Name: fmt.Sprint(i), Game: "gomoku"}); err != nil {
				t.Error(err)
			}
		}
		if t.Failed() {
			return
		}
		if ts, err := stores[0].Tournaments(ctx); err != nil || len(ts) != len(stores) {
			t.Errorf("%d tournaments, %v; want %d", len(ts), err, len(stores))
		}
	})
}

// TestCancelledSave: a save whose context is done stores nothing and
// leaves the store usable.
func TestCancelledSave(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		if err := s.CreateTournament(context.Background(), Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		g := sampleGame("t", 0)
		if err := s.SaveGame(ctx, g); !errors.Is(err, context.Canceled) {
			t.Errorf("save with a cancelled context: %v", err)
		}
		if _, err := s.Game(context.Background(), g.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the cancelled game: %v, want ErrNotFound", err)
		}
		if err := s.SaveGame(context.Background(), g); err != nil {
			t.Errorf("saving after a cancelled save: %v", err)
		}
	})
}
