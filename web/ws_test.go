package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// startMatch starts one game of line and returns its ID.
func startMatch(t *testing.T, ts *testServer) string {
	t.Helper()
	code, body := ts.do(t, "POST", "/api/matches", `{"game":"line","bots":["alpha","beta"]}`, testToken)
	if code != http.StatusCreated {
		t.Fatalf("POST /api/matches: %d %s", code, body)
	}
	var resp struct{ IDs []string }
	json.Unmarshal(body, &resp)
	return resp.IDs[0]
}

// follow reads a watched game's feed to its end and checks that it is
// whole and in order: the snapshot, every later move once, then the end.
func follow(t *testing.T, c *wsClient, id string, moves int) {
	t.Helper()
	snap := c.next("the snapshot", ofType("game"))
	if snap.ID != id {
		t.Fatalf("snapshot of %q, want %q", snap.ID, id)
	}
	have := len(snap.Moves)
	if snap.Done { // it ended before the watch: nothing follows
		if have != moves || snap.Record == nil {
			t.Fatalf("snapshot of the finished game: %s", snap.raw)
		}
		return
	}
	for {
		m, err := c.recv()
		if err != nil {
			t.Fatalf("after %d moves: %v", have, err)
		}
		switch m.Type {
		case "game": // the header arrived after the snapshot
			if m.Header == nil || len(m.Moves) != have {
				t.Fatalf("second snapshot %s after %d moves", m.raw, have)
			}
		case "move":
			if m.ID != id || m.Ply != have+1 || m.Move.Move != strconv.Itoa(have+1) {
				t.Fatalf("move %s after %d moves", m.raw, have)
			}
			have++
		case "end":
			if have != moves || m.Record == nil || len(m.Record.Moves) != moves {
				t.Fatalf("end after %d moves (want %d): %s", have, moves, m.raw)
			}
			return
		case "lobby", "clocks":
		default:
			t.Fatalf("unexpected message %s", m.raw)
		}
	}
}

func TestWatch(t *testing.T) {
	gate := make(chan struct{})
	ts := newTestServer(t, &fakeLauncher{moves: 12, delay: 2 * time.Millisecond, gate: gate})
	id := startMatch(t, ts)

	early := ts.dial(t)
	early.send(map[string]string{"type": "watch", "id": id})
	// Subscribed before the game starts: an empty snapshot.
	snap := early.next("the snapshot", ofType("game"))
	if snap.Header != nil || len(snap.Moves) != 0 || snap.Done {
		t.Errorf("snapshot before the start: %s", snap.raw)
	}
	close(gate)
	// Joins once a few moves are made.
	waitFor(t, "a few moves", func() bool {
		var s snapshot
		ts.getJSON(t, "/api/live/"+id, &s)
		return len(s.Moves) >= 3
	})
	late := ts.dial(t)
	late.send(map[string]string{"type": "watch", "id": id})
	follow(t, late, id, 12)

	// The early watcher got the header, then every move.
	have := 0
	for {
		m := early.next("the feed", func(msg) bool { return true })
		if m.Type == "game" {
			if m.Header == nil || m.Header.ID != id || len(m.Header.Players) != 2 {
				t.Fatalf("header message %s", m.raw)
			}
			continue
		}
		if m.Type == "move" {
			if m.Ply != have+1 || len(m.Clocks.ToMove) != 1 || m.Clocks.ToMove[0] != (have+1)%2 {
				t.Fatalf("move %s after %d", m.raw, have)
			}
			have++
			continue
		}
		if m.Type != "end" || have != 12 {
			t.Fatalf("%s after %d moves", m.raw, have)
		}
		break
	}

	// A finished game: the snapshot says so and nothing follows.
	done := ts.dial(t)
	done.send(map[string]string{"type": "watch", "id": id})
	if m := done.next("the snapshot", ofType("game")); !m.Done || m.Record == nil || len(m.Moves) != 12 {
		t.Errorf("snapshot of a finished game: %s", m.raw)
	}
}

func TestLobby(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{moves: 3, delay: time.Millisecond})
	c := ts.dial(t)
	c.send(map[string]string{"type": "lobby"})
	if m := c.next("the lobby", ofType("lobby")); m.Games == nil || len(m.Games) != 0 {
		t.Fatalf("first lobby message: %s", m.raw)
	}
	id := startMatch(t, ts)
	c.next("the game, finished, in the lobby", func(m msg) bool {
		return m.Type == "lobby" && len(m.Games) == 1 && m.Games[0].ID == id && m.Games[0].Done && m.Games[0].Moves == 3
	})
}

// TestMalformed: bad messages get an error and the connection goes on;
// an oversized one closes that connection only; nothing disturbs other
// watchers or the server.
func TestMalformed(t *testing.T) {
	gate := make(chan struct{})
	ts := newTestServer(t, &fakeLauncher{moves: 20, delay: time.Millisecond, gate: gate})
	id := startMatch(t, ts)
	watcher := ts.dial(t)
	watcher.send(map[string]string{"type": "watch", "id": id})
	watcher.next("the snapshot", ofType("game"))

	bad := ts.dial(t)
	for _, c := range []struct {
		name string
		data string
		want string
	}{
		{"not JSON", `{"type":`, "not a JSON message"},
		{"not an object", `[1,2]`, "not a JSON message"},
		{"wrong field type", `{"type":"watch","id":7}`, "not a JSON message"},
		{"no type", `{"id":"x"}`, "without a type"},
		{"unknown type", `{"type":"shutdown"}`, "unknown message type"},
		{"watch without id", `{"type":"watch"}`, `without "id"`},
		{"unknown id", `{"type":"watch","id":"nope"}`, "unknown game id"},
		{"move without token", `{"type":"move","id":"` + id + `","move":"1"}`, `without "token"`},
		{"two values", `{"type":"lobby"}{"type":"lobby"}`, "more than one"},
		{"empty", ``, "not a JSON message"},
	} {
		bad.send([]byte(c.data))
		m := bad.next(c.name, func(m msg) bool { return m.Type != "lobby" })
		if m.Type != "error" || !strings.Contains(m.Error, c.want) {
			t.Errorf("%s: %s; want an error with %q", c.name, m.raw, c.want)
		}
	}
	// A binary frame.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := bad.conn.Write(ctx, websocket.MessageBinary, []byte(`{"type":"lobby"}`)); err != nil {
		t.Fatal(err)
	}
	if m := bad.next("the binary frame's error", ofType("error")); !strings.Contains(m.Error, "binary") {
		t.Errorf("binary frame: %s", m.raw)
	}
	// Still usable.
	bad.send(map[string]string{"type": "lobby"})
	bad.next("the lobby after errors", ofType("lobby"))
	// A move with a token of no seat is refused, the game goes on.
	bad.send(map[string]string{"type": "move", "id": id, "token": "00", "move": "1"})
	if m := bad.next("the refusal", ofType("refused")); m.ID != id {
		t.Errorf("refusal %s", m.raw)
	}

	// Up to 64 KiB is a message (the library's default limit is 32 KiB).
	bad.send([]byte(`{"type":"watch","id":"` + strings.Repeat("x", 60<<10) + `"}`))
	if m := bad.next("the error for a 60 KiB message", ofType("error")); !strings.Contains(m.Error, "unknown game id") {
		t.Errorf("a 60 KiB message: %s", m.raw)
	}

	// Over 64 KiB: closed with 1009.
	huge := ts.dial(t)
	huge.send([]byte(`{"type":"watch","id":"` + strings.Repeat("x", 70<<10) + `"}`))
	_, err := huge.recv()
	if status := websocket.CloseStatus(err); status != websocket.StatusMessageTooBig {
		t.Errorf("oversized message: %v (status %d), want close status 1009", err, status)
	}

	// The watcher still gets the whole game; the server still answers.
	close(gate)
	follow(t, watcher, id, 20)
	var info map[string]any
	ts.getJSON(t, "/api/info", &info)
}

func TestWSOrigin(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/ws"
	_, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": []string{"http://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign origin: %v, %v; want 403", err, resp)
	}
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": []string{ts.http.URL}}})
	if err != nil {
		t.Fatalf("the page's own origin: %v", err)
	}
	conn.CloseNow()
}

// TestCloseEndsEverything: Close cancels a running game and ends the
// websockets (the test server's cleanup checks no game still runs).
func TestCloseEndsEverything(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{moves: 1000, delay: 50 * time.Millisecond})
	id := startMatch(t, ts)
	c := ts.dial(t)
	c.send(map[string]string{"type": "watch", "id": id})
	c.next("the snapshot", ofType("game"))
	ts.srv.Close()
	for {
		m, err := c.recv()
		if err != nil {
			break
		}
		if m.Type == "end" && (m.Record != nil || m.Error == "") {
			t.Errorf("end of a cancelled game: %s", m.raw)
		}
	}
	if n := ts.fake.running.Load(); n != 0 {
		t.Errorf("%d games running after Close", n)
	}
	code, _ := ts.do(t, "POST", "/api/matches", `{"game":"line","bots":["alpha","beta"]}`, testToken)
	if code != http.StatusServiceUnavailable {
		t.Errorf("a match after Close: %d, want 503", code)
	}
	if _, err := c.recv(); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the websocket after Close: %v", err)
	}
}
