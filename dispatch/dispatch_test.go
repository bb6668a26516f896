package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/game"
	"arena/match"
)

// TestTournamentOnWorkers plays a round robin on three workers through
// the embedded server: every game is stored once, with its worker, and
// played once.
func TestTournamentOnWorkers(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	f := newFakeGames(5 * time.Millisecond)
	for _, name := range []string{"w1", "w2", "w3"} {
		startWorker(t, connect(t, srv.URL()), name, 2, f)
	}
	r := newRunner(t, connect(t, srv.URL()), "rr", time.Second, nil)
	st := openStore(t)
	tour := roundRobin("rr", 4, 2, r, st, t.TempDir())
	res, err := tour.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Report.Finished || res.Table.Played() != 12 {
		t.Fatalf("finished %v after %d games, want 12", res.Report.Finished, res.Table.Played())
	}
	checkOnce(t, st, "rr", 12)
	for id, n := range f.playsOf() {
		if n != 1 {
			t.Errorf("game %s played %d times", id, n)
		}
	}
	// The records and the game's other files are in the coordinator's
	// folder, as local play leaves them.
	for id := range f.playsOf() {
		data, err := os.ReadFile(filepath.Join(r.cfg.Out, id+".txt"))
		if err != nil || string(data) != "moves of "+id {
			t.Errorf("game %s: its file on the coordinator: %q, %v", id, data, err)
		}
		rec, err := game.ReadRecord(filepath.Join(r.cfg.Out, id+".json"))
		if err != nil || rec.Worker == "" {
			t.Errorf("game %s: its record on the coordinator names no worker (%v)", id, err)
		}
	}
}

// TestRefusedResults: a result for another spec, another game, other
// players, or garbage is refused and logged, and the game is sent again
// and played by an honest worker.
func TestRefusedResults(t *testing.T) {
	spec := match.Spec{ID: "g1", Game: "gomoku", Players: players(2), Seats: []int{1, 0}}
	cases := []struct {
		name string
		bad  func(good Result) []byte
	}{
		{"garbage", func(Result) []byte { return []byte("not json {") }},
		{"unknown fields", func(Result) []byte { return []byte(`{"id":"g1","what":1}`) }},
		{"another spec", func(good Result) []byte {
			good.Digest = strings.Repeat("0", 64)
			return mustJSON(t, good)
		}},
		{"another game", func(good Result) []byte {
			good.ID = "g2"
			return mustJSON(t, good)
		}},
		{"other players", func(good Result) []byte {
			var rec game.Record
			json.Unmarshal(good.Record, &rec)
			rec.Players[0].Name = "intruder"
			good.Record = mustJSON(t, rec)
			return mustJSON(t, good)
		}},
		{"a winner out of range", func(good Result) []byte {
			var rec game.Record
			json.Unmarshal(good.Record, &rec)
			w := 7
			rec.Winner = &w
			good.Record = mustJSON(t, rec)
			return mustJSON(t, good)
		}},
		{"a path out of the folder", func(good Result) []byte {
			good.Path = "../../etc/passwd"
			return mustJSON(t, good)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := startServer(t, t.TempDir(), "")
			var log logBuffer
			r := newRunner(t, connect(t, srv.URL()), "refuse", time.Second, &log)
			type ran struct {
				rec *game.Record
				err error
			}
			done := make(chan ran, 1)
			go func() {
				rec, _, err := r.Run(context.Background(), spec, match.Local{})
				done <- ran{rec, err}
			}()
			// A rogue worker takes the job, answers with c.bad and acks.
			nc := connect(t, srv.URL())
			js, _ := jetstream.New(nc)
			cons, err := js.Consumer(context.Background(), JobsStream, WorkersConsumer)
			if err != nil {
				t.Fatal(err)
			}
			msg, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
			if err != nil {
				t.Fatal(err)
			}
			job, err := DecodeJob(msg.Data())
			if err != nil {
				t.Fatal(err)
			}
			good := Result{ID: job.Spec.ID, Digest: job.Digest, Worker: "rogue", Record: mustJSON(t, fakeRecord(job.Spec)), Path: "g1.json"}
			subject := resultsPrefix + strings.TrimPrefix(msg.Subject(), jobsPrefix)
			if _, err := js.Publish(context.Background(), subject, c.bad(good)); err != nil {
				t.Fatal(err)
			}
			msg.DoubleAck(context.Background())
			// The honest worker gets the game sent again.
			f := newFakeGames(0)
			startWorker(t, connect(t, srv.URL()), "honest", 1, f)
			got := <-done
			if got.err != nil {
				t.Fatal(got.err)
			}
			if got.rec.Worker != "honest" {
				t.Errorf("record from %q, want the honest worker's", got.rec.Worker)
			}
			if !strings.Contains(log.String(), "result refused") {
				t.Errorf("the refusal is not logged:\n%s", log.String())
			}
		})
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSpecErrorIsAResult: a spec a worker cannot play (an unknown game)
// comes back as an error of Run, once, not as a job retried for ever.
func TestSpecErrorIsAResult(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	f := newFakeGames(0)
	f.check = func(spec match.Spec) error { return errors.New(`unknown game "chess"`) }
	startWorker(t, connect(t, srv.URL()), "w", 1, f)
	r := newRunner(t, connect(t, srv.URL()), "err", time.Second, nil)
	_, _, err := r.Run(context.Background(), match.Spec{ID: "x", Game: "chess", Players: players(2), Seats: []int{0, 1}}, match.Local{})
	if err == nil || !strings.Contains(err.Error(), `unknown game "chess"`) || !strings.Contains(err.Error(), "on worker w") {
		t.Fatalf("Run: %v", err)
	}
}

// TestLongGameKeepsItsLease: a game five times longer than the lease is
// played once, by the worker that started it, thanks to progress acks.
func TestLongGameKeepsItsLease(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	f := newFakeGames(1500 * time.Millisecond)
	startWorker(t, connect(t, srv.URL()), "w1", 1, f)
	startWorker(t, connect(t, srv.URL()), "w2", 1, f)
	r := newRunner(t, connect(t, srv.URL()), "long", 300*time.Millisecond, nil)
	spec := match.Spec{ID: "long-1", Game: "gomoku", Players: players(2), Seats: []int{0, 1}}
	if _, _, err := r.Run(context.Background(), spec, match.Local{}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // a redelivery would start by now
	if n := f.playsOf()["long-1"]; n != 1 {
		t.Errorf("the long game was played %d times", n)
	}
}

// TestDeadWorkerGameGoesElsewhere: a worker that vanishes mid-game (its
// connection gone, as when it is killed) loses the job after the lease,
// and another worker plays it; the game is stored once.
func TestDeadWorkerGameGoesElsewhere(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	dying := newFakeGames(time.Hour)
	dying.started = make(chan string, 1)
	dyingConn := connect(t, srv.URL())
	startWorker(t, dyingConn, "dying", 1, dying)
	r := newRunner(t, connect(t, srv.URL()), "dead", 300*time.Millisecond, nil)
	st := openStore(t)
	tour := roundRobin("dead", 2, 1, r, st, t.TempDir())
	done := make(chan error, 1)
	go func() { _, err := tour.Run(context.Background()); done <- err }()
	<-dying.started
	dyingConn.Close() // no more progress acks: the lease runs out
	f := newFakeGames(0)
	startWorker(t, connect(t, srv.URL()), "alive", 1, f)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, "dead", 1)
	if n := len(f.playsOf()); n != 1 {
		t.Errorf("the live worker played %d games, want 1", n)
	}
}

// TestCoordinatorRestart stops the coordinator in the middle of a
// tournament and starts it again on the same event: no game is sent or
// played twice, and the tournament completes with every game once.
func TestCoordinatorRestart(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	f := newFakeGames(30 * time.Millisecond)
	startWorker(t, connect(t, srv.URL()), "w1", 2, f)
	startWorker(t, connect(t, srv.URL()), "w2", 2, f)
	st := openStore(t)
	out := t.TempDir()
	nc := connect(t, srv.URL())
	r1 := newRunner(t, nc, "restart", time.Second, nil)
	ctx, cancel := context.WithCancel(context.Background())
	tour := roundRobin("restart", 6, 2, r1, st, out)
	stored := 0
	tour.Stored = func(tournamentGame, *game.Record, string, *standingsTable) error {
		if stored++; stored == 6 {
			cancel()
		}
		return nil
	}
	if _, err := tour.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	r1.Close()
	r2 := newRunner(t, nc, "restart", time.Second, nil)
	tour = roundRobin("restart", 6, 2, r2, st, out)
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, "restart", 30)
	for id, n := range f.playsOf() {
		if n != 1 {
			t.Errorf("game %s played %d times", id, n)
		}
	}
	if n := len(f.playsOf()); n != 30 {
		t.Errorf("%d games played, want 30", n)
	}
}

// TestServerRestart restarts the embedded server (same port, same
// folder) in the middle of a tournament: the coordinator and the
// workers reconnect and the tournament completes, every game once.
func TestServerRestart(t *testing.T) {
	// The server picks its own port (one chosen free beforehand can be
	// taken by another test before the server binds it); the restart
	// takes the same one again.
	dir := t.TempDir()
	srv, err := StartServer(ServerConfig{StoreDir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	url := srv.URL()
	addr := strings.TrimPrefix(url, "nats://")
	f := newFakeGames(20 * time.Millisecond)
	startWorker(t, connect(t, url), "w1", 2, f)
	startWorker(t, connect(t, url), "w2", 2, f)
	r := newRunner(t, connect(t, url), "srv", time.Second, nil)
	st := openStore(t)
	tour := roundRobin("srv", 5, 2, r, st, t.TempDir())
	restarted := make(chan *Server, 1)
	stored := 0
	tour.Stored = func(tournamentGame, *game.Record, string, *standingsTable) error {
		if stored++; stored == 5 {
			go func() {
				srv.Shutdown()
				time.Sleep(300 * time.Millisecond)
				s, err := StartServer(ServerConfig{StoreDir: dir, Listen: addr})
				if err != nil {
					t.Error(err)
				}
				restarted <- s
			}()
		}
		return nil
	}
	if _, err := tour.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := <-restarted; s != nil {
		t.Cleanup(s.Shutdown)
	}
	checkOnce(t, st, "srv", 20)
}

// TestResultFoundWithoutConsumer: a results consumer that stops
// delivering (as one can for a while when a cluster node dies) does not
// leave a game waiting: Run looks for its result in the stream itself.
func TestResultFoundWithoutConsumer(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	startWorker(t, connect(t, srv.URL()), "w", 1, newFakeGames(0))
	r, err := NewRunner(context.Background(), connect(t, srv.URL()), Config{
		Event: "deaf", Out: t.TempDir(), Games: testGames, Local: localOnly{}, Lease: time.Second, LookEvery: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // no delivery from here on
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec, _, err := r.Run(ctx, match.Spec{ID: "deaf-1", Game: "gomoku", Players: players(2), Seats: []int{0, 1}}, match.Local{})
	if err != nil {
		t.Fatalf("Run without deliveries: %v", err)
	}
	if rec.ID != "deaf-1" || rec.Worker != "w" {
		t.Errorf("record %q from worker %q", rec.ID, rec.Worker)
	}
}
