package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/game"
	"arena/match"
	"arena/standings"
	"arena/store"
	"arena/tournament"
)

// instantRunner plays no game at all: it returns a record at once in
// which the player of lower index wins, so that tests and benchmarks see
// only what the engine itself does per game. After failAfter games (if
// set) it fails instead.
type instantRunner struct {
	mu        sync.Mutex
	played    []string
	failAfter int
}

func (r *instantRunner) Openings(match.Spec) (int, error) { return 1, nil }

func (r *instantRunner) Run(_ context.Context, spec match.Spec, _ match.Local) (*game.Record, string, error) {
	r.mu.Lock()
	if r.failAfter > 0 && len(r.played) >= r.failAfter {
		r.mu.Unlock()
		return nil, "", errors.New("the runner is gone")
	}
	r.played = append(r.played, spec.ID)
	r.mu.Unlock()
	order, seats := match.Participants(spec.Seats)
	winner := 0
	rec := &game.Record{ID: spec.ID, Game: spec.Game, Seats: seats, Winner: &winner, Reason: "five",
		Moves: make([]game.MoveRecord, 40), Start: time.Now(), End: time.Now()}
	for _, pi := range order {
		rec.Players = append(rec.Players, game.PlayerRecord{Name: spec.Players[pi].Name})
	}
	return rec, "/dev/null", nil
}

func (r *instantRunner) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.played)
}

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newTournament(t testing.TB, st *store.Store, name string, players int, r Runner) *Tournament {
	spec := match.Spec{Game: "gomoku"}
	for i := range players {
		spec.Players = append(spec.Players, match.Player{Name: fmt.Sprint("b", i)})
	}
	return &Tournament{
		Name: name, Args: []string{"gomoku", "--name=" + name},
		Schedule: tournament.Config{Format: tournament.RoundRobin, Players: players, Seats: 2, GamesPerPair: 2},
		Match:    spec, Runner: r, Store: st, Out: t.TempDir(), Concurrency: 2,
	}
}

// A tournament stores every game once; one stopped by a failing runner
// is marked interrupted, and a second run plays only the games missing,
// ending with the standings of every game.
func TestTournamentResume(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	failing := &instantRunner{failAfter: 5}
	tt := newTournament(t, st, "cup", 4, failing)
	var storedIDs []string
	tt.Stored = func(g tournament.Game, rec *game.Record, _ string, table *standings.Table) error {
		storedIDs = append(storedIDs, rec.ID)
		if table.Played() != len(storedIDs) {
			t.Errorf("the standings count %d games after %d stored", table.Played(), len(storedIDs))
		}
		return nil
	}
	res, err := tt.Run(ctx)
	if err == nil || res.Report.Finished {
		t.Fatalf("a failing runner: err %v, finished %t", err, res.Report.Finished)
	}
	if got, _ := st.Tournament(ctx, "cup"); got.Status != store.StatusInterrupted {
		t.Fatalf("status %q after a failure, want interrupted", got.Status)
	}
	first := len(storedIDs)
	if first == 0 || first > 5 {
		t.Fatalf("%d games stored before the failure", first)
	}

	working := &instantRunner{}
	again := newTournament(t, st, "cup", 4, working)
	var started int
	again.Started = func(stored int, s *tournament.Schedule) { started = stored }
	res, err = again.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	total := res.Schedule.Total()
	if started != first || working.count() != total-first || !res.Report.Finished || res.Table.Played() != total {
		t.Fatalf("resume: %d stored before, %d played now, %d of %d in the standings (finished %t)",
			started, working.count(), res.Table.Played(), total, res.Report.Finished)
	}
	games, err := st.Games(ctx, "cup")
	if err != nil || len(games) != total {
		t.Fatalf("%d games stored (%v), want %d", len(games), err, total)
	}
	// b0 wins every game it plays: 2 games against each of 3 others.
	if top := res.Report.Standings[0]; top.Player != "b0" || top.Games != 6 || top.Points != 6 {
		t.Fatalf("top of the standings %+v", top)
	}

	other := newTournament(t, st, "cup", 4, working)
	other.Args = append(other.Args, "--format=swiss")
	if _, err := other.Run(ctx); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Fatalf("another event under the same name: %v", err)
	}
}

// TestStoredGame is the one conversion of a record to a stored game.
func TestStoredGame(t *testing.T) {
	w := 1
	rec := &game.Record{ID: "g1", Game: "ants", Seats: []int{1, 0}, Winner: &w, Reason: "score", Turns: 30,
		Moves: make([]game.MoveRecord, 60), Scores: []int{1, 3},
		Players: []game.PlayerRecord{{Name: "a"}, {Name: "b"}}}
	g, err := StoredGame(rec, "/out/g1.json", "cup", 2)
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != "g1" || g.Tournament != "cup" || g.Round != 2 || g.Moves != 30 || *g.Winner != 1 ||
		strings.Join(g.Players, ",") != "a,b" || g.RecordPath != "/out/g1.json" || !strings.Contains(string(g.Record), `"turns":30`) {
		t.Fatalf("stored %+v", g)
	}
}

// BenchmarkTournamentOverhead measures arena's own cost per game in a
// tournament: scheduling, the pool, the store write (SQLite, one
// transaction per game) and the standings, with games that take no time.
func BenchmarkTournamentOverhead(b *testing.B) {
	st := openStore(b)
	games := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tt := newTournament(b, st, fmt.Sprint("bench", i), 8, &instantRunner{})
		res, err := tt.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		games += res.Table.Played()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(games), "µs/game")
}
