package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"arena/engine"
	"arena/game"
	"arena/game/ants"
	"arena/game/gomoku"
	"arena/match"
	"arena/standings"
	"arena/store"
	"arena/tournament"
)

// testGames are the games a test's coordinator and workers know: two
// whose options name files (Gomoku's --opening, Ants' --map).
var testGames match.Games = mustRegistry(gomoku.Def{}, ants.Def{})

func mustRegistry(games ...match.Game) *game.Registry[match.Game] {
	r, err := game.NewRegistry(games...)
	if err != nil {
		panic(err)
	}
	return r
}

// startServer starts an embedded server keeping its streams in dir,
// listening on addr ("" for any free port), stopped at the test's end.
func startServer(t testing.TB, dir, addr string) *Server {
	t.Helper()
	s, err := StartServer(ServerConfig{StoreDir: dir, Listen: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// freeAddr is a free TCP address of 127.0.0.1.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func connect(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := Connect(url, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// fakeGames plays no real game: each game takes delay (or until block
// is closed) and the seat-0 player wins when its ID hashes even. It
// counts how often each game was played, by any worker.
type fakeGames struct {
	delay time.Duration
	mu    sync.Mutex
	plays map[string]int
	// check, if set, is called with every spec a worker plays.
	check func(spec match.Spec) error
	// started, if set, is told the ID of every game that starts.
	started chan string
}

func newFakeGames(delay time.Duration) *fakeGames {
	return &fakeGames{delay: delay, plays: map[string]int{}}
}

// play is a worker's Play writing its record under out.
func (f *fakeGames) play(out string) func(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error) {
	return func(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error) {
		if f.started != nil {
			f.started <- spec.ID
		}
		if f.check != nil {
			if err := f.check(spec); err != nil {
				return nil, "", err
			}
		}
		select {
		case <-ctx.Done():
			return nil, "", ctx.Err()
		case <-time.After(f.delay):
		}
		f.mu.Lock()
		f.plays[spec.ID]++
		f.mu.Unlock()
		rec := fakeRecord(spec)
		if l := follow.Listener; l != nil {
			l.Started(&game.Record{ID: spec.ID, Game: spec.Game, Seats: rec.Seats, Players: rec.Players})
			for i := range rec.Moves {
				l.Moved(i+1, game.MoveRecord{Side: i % 2, Move: fmt.Sprintf("m%d", i+1)})
			}
		}
		rec.Options = spec.Options // as the worker played them, as games record them
		path := filepath.Join(out, spec.ID+".json")
		if err := rec.WriteFile(path); err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(filepath.Join(out, spec.ID+".txt"), []byte("moves of "+spec.ID), 0o644); err != nil {
			return nil, "", err
		}
		return rec, path, nil
	}
}

// fakeRecord is the record of spec's game as fakeGames plays it.
func fakeRecord(spec match.Spec) *game.Record {
	order, seats := match.Participants(spec.Seats)
	h := fnv.New32a()
	h.Write([]byte(spec.ID))
	var winner *int
	if h.Sum32()%3 != 2 {
		w := seats[0]
		if h.Sum32()%3 == 1 {
			w = seats[1]
		}
		winner = &w
	}
	rec := &game.Record{ID: spec.ID, Game: spec.Game, Seats: seats, Winner: winner, Reason: "five",
		Moves: make([]game.MoveRecord, 9), Start: time.Unix(0, 0).UTC(), End: time.Unix(1, 0).UTC()}
	for _, pi := range order {
		rec.Players = append(rec.Players, game.PlayerRecord{Name: spec.Players[pi].Name})
	}
	return rec
}

func (f *fakeGames) playsOf() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.plays {
		out[k] = v
	}
	return out
}

// startWorker runs a worker on nc until the test ends or stop is
// called; stop waits until it has returned.
func startWorker(t testing.TB, nc *nats.Conn, name string, slots int, f *fakeGames) (stop func()) {
	t.Helper()
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := NewWorker(ctx, nc, WorkerConfig{Name: name, Slots: slots, Games: testGames, Out: out, Cache: t.TempDir(), Self: "/arena-itself",
		Play: f.play(out), Heartbeat: 100 * time.Millisecond})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

// localOnly is the coordinator's local runner: every match has one
// opening, and no game is played here.
type localOnly struct{}

func (localOnly) Openings(match.Spec) (int, error) { return 1, nil }
func (localOnly) Run(context.Context, match.Spec, match.Local) (*game.Record, string, error) {
	return nil, "", errors.New("played locally")
}

// logBuffer is a logger writing into a buffer safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newRunner(t testing.TB, nc *nats.Conn, event string, lease time.Duration, log *logBuffer) *Runner {
	t.Helper()
	cfg := Config{Event: event, Out: t.TempDir(), Games: testGames, Local: localOnly{}, Lease: lease}
	if log != nil {
		cfg.Log = slog.New(slog.NewTextHandler(log, nil))
	}
	r, err := NewRunner(context.Background(), nc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// players are n bots of a fake match.
func players(n int) []match.Player {
	ps := make([]match.Player, n)
	for i := range ps {
		ps[i] = match.Player{Name: fmt.Sprintf("b%d", i), Command: "builtin", Args: []string{"/coordinator/arena", "bot", "gomoku"}, Builtin: true}
	}
	return ps
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

// roundRobin is a round robin of n fake bots, games per pair gpp, on
// runner r, stored in st.
func roundRobin(name string, n, gpp int, r engine.Runner, st *store.Store, out string) *engine.Tournament {
	return &engine.Tournament{
		Name: name, Args: []string{"test"},
		Schedule: tournament.Config{Format: tournament.RoundRobin, Players: n, Seats: 2, GamesPerPair: gpp},
		Match:    match.Spec{Game: "gomoku", Players: players(n), Seed: 7},
		Runner:   r, Store: st, Out: out, Concurrency: 64,
	}
}

// checkOnce checks the store holds every game of the tournament once,
// want in all, and each with the worker that played it.
func checkOnce(t *testing.T, st *store.Store, name string, want int) {
	t.Helper()
	gs, err := st.Games(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, g := range gs {
		seen[g.ID]++
		var rec struct {
			Worker string `json:"worker"`
		}
		if err := json.Unmarshal(g.Record, &rec); err != nil || rec.Worker == "" {
			t.Errorf("game %s: stored record names no worker (%v)", g.ID, err)
		}
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("game %s stored %d times", id, n)
		}
	}
	if len(seen) != want || len(gs) != want {
		t.Errorf("%d games stored (%d distinct), want %d", len(gs), len(seen), want)
	}
}

type (
	tournamentGame = tournament.Game
	standingsTable = standings.Table
)

type gameRecord = game.Record
