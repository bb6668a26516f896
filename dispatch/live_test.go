package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/game"
	"arena/match"
)

// recorder is a listener that keeps what it was told, as lines; with a
// delay it is slow to take each one, as a web page's listener can be.
type recorder struct {
	delay  time.Duration
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(s string) {
	time.Sleep(r.delay)
	r.mu.Lock()
	r.events = append(r.events, s)
	r.mu.Unlock()
}

func (r *recorder) Started(h *game.Record) { r.add("started " + h.ID) }
func (r *recorder) Moved(ply int, m game.MoveRecord) {
	r.add(fmt.Sprintf("moved %d %d %s", ply, m.Side, m.Move))
}
func (r *recorder) Asked(side int, left time.Duration, _ time.Time) {
	r.add(fmt.Sprintf("asked %d %v", side, left))
}

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// TestLiveFollowing plays a game on a worker while the coordinator's
// listener (the web page's live view) is set: it is told of the start
// and of every move, in order, through the NATS server, before Run
// returns the record, even when it is slower to take them than the
// result is to come; and nothing after.
func TestLiveFollowing(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	f := newFakeGames(0)
	startWorker(t, connect(t, srv.URL()), "w", 1, f)
	r := newRunner(t, connect(t, srv.URL()), "live", 5*time.Second, nil)
	rec := recorder{delay: 20 * time.Millisecond}
	spec := match.Spec{ID: "live-1", Game: "gomoku", Players: players(2), Seats: []int{0, 1}}
	got, _, err := r.Run(context.Background(), spec, match.Local{Listener: &rec})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"started live-1"}
	for i := range got.Moves {
		want = append(want, fmt.Sprintf("moved %d %d m%d", i+1, i%2, i+1))
	}
	if lines := rec.lines(); !slices.Equal(lines, want) {
		t.Fatalf("the listener was told\n%q\nwant\n%q", lines, want)
	}

	// A game nobody follows sends nothing live.
	watch := connect(t, srv.URL())
	var n int
	var mu sync.Mutex
	sub, err := watch.Subscribe(livePrefix+">", func(*nats.Msg) { mu.Lock(); n++; mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	watch.Flush()
	if _, _, err := r.Run(context.Background(), match.Spec{ID: "live-2", Game: "gomoku", Players: players(2), Seats: []int{1, 0}}, match.Local{}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if n != 0 {
		t.Errorf("a game nobody follows sent %d live events", n)
	}
}

// TestLiveFollowerKeepsTheNewestPlaying feeds a follower the events of
// two playings of one game (a job redelivered after its worker was
// lost): once the second has started, the first's late moves are not
// shown; garbage is ignored; after stop nothing reaches the listener.
func TestLiveFollowerKeepsTheNewestPlaying(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	nc := connect(t, srv.URL())
	var rec recorder
	subject := liveSubject("ev", "g1")
	stop, err := followLive(nc, subject, &rec)
	if err != nil {
		t.Fatal(err)
	}
	first := &livePublisher{nc: nc, subject: subject, attempt: "w1/1"}
	second := &livePublisher{nc: nc, subject: subject, attempt: "w2/1"}
	first.Started(&game.Record{ID: "g1"})
	first.Moved(1, game.MoveRecord{Side: 0, Move: "a"})
	second.Started(&game.Record{ID: "g1"})
	first.Moved(2, game.MoveRecord{Side: 1, Move: "late"})
	nc.Publish(subject, []byte("{not json"))
	second.Asked(0, 3*time.Second, time.Time{})
	second.Moved(1, game.MoveRecord{Side: 0, Move: "b"})
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	want := []string{"started g1", "moved 1 0 a", "started g1", "asked 0 3s", "moved 1 0 b"}
	deadline := time.Now().Add(5 * time.Second)
	for len(rec.lines()) < len(want) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	second.Moved(2, game.MoveRecord{Side: 1, Move: "after stop"})
	nc.Flush()
	time.Sleep(100 * time.Millisecond)
	if lines := rec.lines(); !slices.Equal(lines, want) {
		t.Fatalf("the listener was told\n%q\nwant\n%q", lines, want)
	}
}

// TestLiveSubjects: a worker finds a game's live subject from its job's
// subject, and live events are outside every stream.
func TestLiveSubjects(t *testing.T) {
	live, ok := liveSubjectOfJob(jobSubject("an event", "a.game *id"))
	if !ok || live != liveSubject("an event", "a.game *id") {
		t.Errorf("live subject of the job %q, %v; want %q", live, ok, liveSubject("an event", "a.game *id"))
	}
	if _, ok := liveSubjectOfJob(resultSubject("e", "g")); ok {
		t.Error("a result's subject was taken for a job's")
	}
	srv := startServer(t, t.TempDir(), "")
	nc := connect(t, srv.URL())
	newRunner(t, nc, "s", time.Second, nil) // sets the streams up
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{JobsStream, ResultsStream} {
		s, err := js.Stream(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		for _, subj := range s.CachedInfo().Config.Subjects {
			if subjectsOverlap(subj, liveSubject("e", "g")) {
				t.Errorf("stream %s (%s) would keep live events", name, subj)
			}
		}
	}
}

// subjectsOverlap reports whether the stream filter pattern matches subj
// (tokens, "*" for one, ">" for the rest).
func subjectsOverlap(pattern, subj string) bool {
	p, s := strings.Split(pattern, "."), strings.Split(subj, ".")
	for i, tok := range p {
		if tok == ">" {
			return len(s) > i
		}
		if i >= len(s) || (tok != "*" && tok != s[i]) {
			return false
		}
	}
	return len(p) == len(s)
}

// The events are plain JSON: an old coordinator ignores what it does not
// know, and a live event never parses as a job or a result.
func TestLiveEventIsNotAJob(t *testing.T) {
	data, _ := json.Marshal(liveEvent{Attempt: "w/1", Kind: "moved", Ply: 1, Move: &game.MoveRecord{Move: "h8"}})
	if _, err := DecodeJob(data); err == nil {
		t.Errorf("a live event decoded as a job: %s", data)
	}
}
