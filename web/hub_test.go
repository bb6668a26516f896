package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"arena/game"
)

func startedGame(h *hub, id string) *liveGame {
	g := h.add(id, GameInfo{Name: "gomoku"}, []string{"a", "b"}, gameClock{turn: time.Second, match: time.Minute})
	g.Started(&game.Record{ID: id, Game: "gomoku", Players: []game.PlayerRecord{{Name: "a"}, {Name: "b"}}, Seats: []int{0, 1}})
	return g
}

// TestSlowClient: a client that reads nothing is dropped once its queue
// is full; the game never waits for it and the others get every move.
func TestSlowClient(t *testing.T) {
	h := newHub()
	defer h.close()
	g := startedGame(h, "g")
	slow, fast := newClient(), newClient()
	g.watch(slow, nil)
	g.watch(fast, nil)
	got := 0
	for ply := 1; ply <= 3*clientBuffer; ply++ {
		g.Moved(ply, game.MoveRecord{Side: (ply - 1) % 2, Move: "7,7"})
		for len(fast.send) > 0 {
			<-fast.send
			got++
		}
	}
	select {
	case <-slow.gone:
	default:
		t.Fatal("a client that reads nothing was not dropped")
	}
	if got != 3*clientBuffer+1 { // the snapshot and every move
		t.Errorf("the reading client got %d messages, want %d", got, 3*clientBuffer+1)
	}
	g.mu.Lock()
	_, kept := g.subs[slow]
	g.mu.Unlock()
	if kept {
		t.Error("a dropped client is still subscribed")
	}
}

func TestFinishedKept(t *testing.T) {
	h := newHub()
	defer h.close()
	for i := range finishedKept + 10 {
		g := startedGame(h, fmt.Sprintf("g%03d", i))
		g.finish(&game.Record{ID: g.id, Reason: "draw"}, nil)
	}
	running := startedGame(h, "running")
	list := h.list()
	if len(list) != finishedKept+1 || list[0].ID != running.id || list[0].Done {
		t.Fatalf("%d games listed, first %+v", len(list), list[0])
	}
	if list[1].ID != fmt.Sprintf("g%03d", finishedKept+9) || h.get("g000") != nil || h.get("g010") == nil {
		t.Errorf("kept the wrong games: first finished %s", list[1].ID)
	}
}

func TestFinishedBytes(t *testing.T) {
	h := newHub()
	defer h.close()
	h.maxBytes = 10_000
	frame := json.RawMessage(`"` + strings.Repeat("x", 1000) + `"`)
	for i := range 5 {
		g := startedGame(h, fmt.Sprint(i))
		for ply := 1; ply <= 4; ply++ {
			g.Moved(ply, game.MoveRecord{Side: -1, Move: "turn", Effect: frame})
		}
		g.finish(&game.Record{ID: g.id}, nil)
	}
	// About 4 KB each: the last two fit.
	if list := h.list(); len(list) != 2 || list[0].ID != "4" || list[1].ID != "3" {
		t.Errorf("kept %+v", list)
	}
	big := startedGame(h, "big")
	big.Moved(1, game.MoveRecord{Effect: json.RawMessage(`"` + strings.Repeat("x", 20_000) + `"`)})
	big.finish(nil, nil)
	if list := h.list(); len(list) != 1 || list[0].ID != "big" {
		t.Errorf("a game over the bound alone: kept %+v", list)
	}
}

func TestClocks(t *testing.T) {
	h := newHub()
	defer h.close()
	g := startedGame(h, "g")
	g.Moved(1, game.MoveRecord{Side: 0, Move: "7,7", TimeMs: 10_000})
	g.mu.Lock()
	c := g.clocksLocked()
	g.mu.Unlock()
	if len(c.ToMove) != 1 || c.ToMove[0] != 1 || len(c.LeftMs) != 2 || c.LeftMs[0] == nil ||
		*c.LeftMs[0] != 50_000 || c.DeadlineMs == nil || *c.DeadlineMs > 1000 || c.Seats != nil {
		data, _ := json.Marshal(c)
		t.Errorf("clocks after a 10 s move: %s", data)
	}
	g.finish(nil, fmt.Errorf("stopped\nearly"))
	g.mu.Lock()
	c = g.clocksLocked()
	g.mu.Unlock()
	if len(c.ToMove) != 0 || c.DeadlineMs != nil {
		t.Errorf("clocks of a finished game: %+v", c)
	}
	if e := g.entry(); !e.Done || e.Reason != "not played: stopped early" {
		t.Errorf("entry of a failed game: %+v", e)
	}
}

// TestExactClocks: once the match reports the clock it asks each side
// to move on, the watchers' clocks are those, not worked out from the
// game's time control (a bot may play on another clock than a person).
func TestExactClocks(t *testing.T) {
	h := newHub()
	defer h.close()
	g := startedGame(h, "g") // a 1 s turn and a minute per side
	clocksOf := func() clocks {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.clocksLocked()
	}
	g.Asked(0, -1, time.Now().Add(time.Hour)) // no match clock, an hour a move
	c := clocksOf()
	if len(c.ToMove) != 1 || c.ToMove[0] != 0 || c.LeftMs[0] != nil || c.LeftMs[1] == nil || *c.LeftMs[1] != 60_000 ||
		c.DeadlineMs == nil || *c.DeadlineMs < 60_000 {
		data, _ := json.Marshal(c)
		t.Errorf("clocks of side 0 asked with an hour: %s", data)
	}
	g.Moved(1, game.MoveRecord{Side: 0, Move: "7,7", TimeMs: 10})
	g.Asked(1, 30*time.Second, time.Time{}) // 30 s of match time, no move limit
	c = clocksOf()
	if len(c.ToMove) != 1 || c.ToMove[0] != 1 || c.LeftMs[0] != nil || c.LeftMs[1] == nil || *c.LeftMs[1] > 30_000 ||
		c.DeadlineMs != nil {
		data, _ := json.Marshal(c)
		t.Errorf("clocks of side 1 asked with 30 s: %s", data)
	}
	g.Moved(2, game.MoveRecord{Side: 1, Move: "8,8", TimeMs: 5_000})
	if c = clocksOf(); c.LeftMs[1] == nil || *c.LeftMs[1] > 25_000 {
		data, _ := json.Marshal(c)
		t.Errorf("clocks after side 1 spent 5 s: %s", data)
	}
}

// TestSideClocks: each side shows the clock it plays on. A person plays
// on their own (the header's player clock), the bot opposite on the
// game's or on the quicker one the person chose for it; a side with no
// match clock shows its time a move, never nothing.
func TestSideClocks(t *testing.T) {
	const none = -1 // null in the JSON
	ms := func(p *int64) int64 {
		if p == nil {
			return none
		}
		return *p
	}
	tests := []struct {
		name     string
		players  []game.PlayerRecord
		seats    []int
		wantTurn [2]int64 // per side
		wantLeft [2]int64 // per side; side 0 is to move, so its clock may have run
	}{
		{"bots on the game's clock", []game.PlayerRecord{{Name: "a"}, {Name: "b"}}, []int{0, 1},
			[2]int64{1000, 1000}, [2]int64{60_000, 60_000}},
		{"a person against a quicker bot", []game.PlayerRecord{{Name: "me", TurnMs: 30_000, MatchMs: 180_000}, {Name: "bot", TurnMs: 300}}, []int{0, 1},
			[2]int64{30_000, 300}, [2]int64{180_000, none}},
		{"seats swap the players", []game.PlayerRecord{{Name: "me", TurnMs: 30_000}, {Name: "bot"}}, []int{1, 0},
			[2]int64{1000, 30_000}, [2]int64{60_000, none}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHub()
			defer h.close()
			g := h.add("g", GameInfo{Name: "gomoku"}, nil, gameClock{turn: time.Second, match: time.Minute})
			g.Started(&game.Record{ID: "g", Game: "gomoku", Players: tc.players, Seats: tc.seats})
			g.mu.Lock()
			c := g.clocksLocked()
			g.mu.Unlock()
			data, _ := json.Marshal(c)
			for s := range 2 {
				if got := ms(c.TurnMs[s]); got != tc.wantTurn[s] {
					t.Errorf("side %d: turn_ms %d, want %d: %s", s, got, tc.wantTurn[s], data)
				}
			}
			if got := ms(c.LeftMs[1]); got != tc.wantLeft[1] {
				t.Errorf("side 1 (waiting): left_ms %d, want %d: %s", got, tc.wantLeft[1], data)
			}
			if got := ms(c.LeftMs[0]); got == none || got > tc.wantLeft[0] {
				t.Errorf("side 0 (to move): left_ms %d, want at most %d: %s", got, tc.wantLeft[0], data)
			}
			if got := ms(c.DeadlineMs); got == none || got > tc.wantTurn[0] {
				t.Errorf("side 0 (to move): deadline_ms %d, want at most its %d ms a move: %s", got, tc.wantTurn[0], data)
			}
		})
	}
}

func FuzzDecodeClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"lobby"}`, `{"type":"watch","id":"web-1"}`, `{"type":"unwatch","id":"x"}`,
		`{"type":"move","id":"g","token":"t","move":"7,7"}`, `{"type":"resign","id":"g","token":"t"}`,
		`{"type":"move","id":"g","token":"t"}`, `{"type":7}`, `[]`, `{"type":"lobby"} x`, ``, `{"type":"watch","id":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeClientMessage(data)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\r\n") {
				// Errors go back to the page as one line.
				t.Errorf("multi-line error %q", msg)
			}
			return
		}
		switch m.Type {
		case "lobby":
		case "watch", "unwatch":
			if m.ID == "" {
				t.Errorf("accepted %q without an id", data)
			}
		case "move":
			if m.ID == "" || m.Token == "" || m.Move == "" || len(m.Move) > maxMoveText {
				t.Errorf("accepted move %q: %+v", data, m)
			}
		case "resign":
			if m.ID == "" || m.Token == "" {
				t.Errorf("accepted resign %q: %+v", data, m)
			}
		default:
			t.Errorf("accepted type %q from %q", m.Type, data)
		}
		// What was accepted survives a round trip.
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if m2, err := decodeClientMessage(again); err != nil || m2 != m {
			t.Errorf("round trip of %+v: %+v, %v", m, m2, err)
		}
	})
}

// BenchmarkHubFanout: one move to 100 watchers.
func BenchmarkHubFanout(b *testing.B) {
	h := newHub()
	defer h.close()
	g := startedGame(h, "g")
	clients := make([]*client, 100)
	for i := range clients {
		clients[i] = newClient()
		g.watch(clients[i], nil)
		<-clients[i].send // the snapshot
	}
	m := game.MoveRecord{Side: 0, Move: "7,7", TimeMs: 12.5, Effect: json.RawMessage(`{"captured":[[1,2],[3,4]]}`)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		m.Side = i % 2
		g.Moved(i+1, m)
		// What each connection's writer does with it.
		for _, c := range clients {
			<-c.send
		}
		if i%1000 == 999 { // keep the game's memory flat
			g.mu.Lock()
			g.moves = g.moves[:0]
			g.mu.Unlock()
		}
	}
	b.StopTimer()
	for _, c := range clients {
		select {
		case <-c.gone:
			b.Fatal("a reading watcher was dropped")
		default:
		}
	}
}
