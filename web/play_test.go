package web

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/game"
)

type playResponse struct {
	ID     string      `json:"id"`
	Seats  []seatToken `json:"seats"`
	Invite string      `json:"invite"`
}

func (ts *testServer) play(t *testing.T, body, token string) playResponse {
	t.Helper()
	code, data := ts.do(t, "POST", "/api/play", body, token)
	if code != http.StatusCreated {
		t.Fatalf("POST /api/play %s: %d %s", body, code, data)
	}
	var resp playResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

// waitTurn waits until side's person is asked to move.
func (ts *testServer) waitTurn(t *testing.T, id string, side int) {
	t.Helper()
	waitFor(t, "the turn of side "+itoa(side), func() bool {
		var s snapshot
		ts.getJSON(t, "/api/live/"+id, &s)
		return len(s.Clocks.Seats) > side && s.Clocks.Seats[side] != nil && s.Clocks.Seats[side].Waiting
	})
}

// waitStarted waits until the launcher was asked to play n games (it is
// asked from a goroutine of its own).
func (ts *testServer) waitStarted(t *testing.T, n int) []PlayRequest {
	t.Helper()
	waitFor(t, itoa(n)+" games to start", func() bool { return len(ts.fake.started()) >= n })
	return ts.fake.started()
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

var hexToken = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestPlayLocal(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	resp := ts.play(t, `{"game":"line","opponent":"local","side":0}`, "")
	if len(resp.Seats) != 2 || resp.Seats[0].Side != 0 || resp.Seats[1].Side != 1 || resp.Invite != "" ||
		!hexToken.MatchString(resp.Seats[0].Token) || resp.Seats[0].Token == resp.Seats[1].Token {
		t.Fatalf("local game: %+v", resp)
	}
	id, tok0, tok1 := resp.ID, resp.Seats[0].Token, resp.Seats[1].Token
	if plays := ts.waitStarted(t, 1); plays[0].Players[0].Human == nil || plays[0].Players[1].Human == nil {
		t.Fatalf("played %+v", plays)
	}

	watcher := ts.dial(t)
	watcher.send(map[string]string{"type": "watch", "id": id})
	watcher.next("the snapshot", ofType("game"))

	c := ts.dial(t)
	c.send(map[string]string{"type": "watch", "id": id, "token": tok0})
	if m := c.next("the snapshot", ofType("game")); len(m.Seats) != 1 || m.Seats[0] != 0 {
		t.Errorf("a seat holder's snapshot: %s", m.raw)
	}
	ts.waitTurn(t, id, 0)
	move := func(token, text string) {
		c.send(map[string]string{"type": "move", "id": id, "token": token, "move": text})
	}
	refused := func(what, want string) {
		t.Helper()
		m := c.next(what, func(m msg) bool { return m.Type == "refused" || m.Type == "move" || m.Type == "end" })
		if m.Type != "refused" || m.ID != id || !strings.Contains(m.Error, want) {
			t.Errorf("%s: %s; want a refusal with %q", what, m.raw, want)
		}
	}
	move(tok1, "0")
	refused("a move out of turn", "not your turn")
	move(tok0, "x")
	refused("a move that is not one", "not a cell number")
	move(tok0, "9")
	refused("an illegal move", "not free")
	move("ffffffffffffffffffffffffffffffff", "1")
	refused("a move with a made-up token", "does not play this game")
	move(tok0, "4")
	if m := c.next("the move", ofType("move")); m.Ply != 1 || m.Move.Move != "4" || m.Move.Side != 0 {
		t.Errorf("first move: %s", m.raw)
	}
	ts.waitTurn(t, id, 1)
	move(tok1, "4")
	refused("a taken cell", "not free")
	move(tok1, "0")
	c.next("the second move", ofType("move"))
	ts.waitTurn(t, id, 0)
	c.send(map[string]string{"type": "resign", "id": id, "token": tok0})
	end := c.next("the end", ofType("end"))
	if end.Record == nil || end.Record.Winner == nil || *end.Record.Winner != 1 || end.Record.Reason != game.ReasonResign ||
		len(end.Record.Moves) != 2 {
		t.Errorf("end after resigning: %s", end.raw)
	}

	// The watcher saw the moves and the end, never another's refusals.
	for {
		m := watcher.next("the watcher's feed", func(msg) bool { return true })
		if m.Type == "refused" || m.Type == "error" {
			t.Errorf("the watcher got %s", m.raw)
		}
		if m.Type == "end" {
			break
		}
	}
}

func TestPlayRemote(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	resp := ts.play(t, `{"game":"line","opponent":"remote","side":-1,"name":"ann"}`, "")
	m := regexp.MustCompile(`^#/play/(.+)\?seat=([0-9a-f]{32})$`).FindStringSubmatch(resp.Invite)
	if len(resp.Seats) != 1 || m == nil || m[1] != resp.ID || m[2] == resp.Seats[0].Token {
		t.Fatalf("remote game: %+v", resp)
	}
	mine := resp.Seats[0]
	tokens := map[int]string{mine.Side: mine.Token, 1 - mine.Side: m[2]}
	plays := ts.waitStarted(t, 1)
	if names := []string{plays[0].Players[mine.Side].Name, plays[0].Players[1-mine.Side].Name}; names[0] != "ann" || names[1] != "guest" {
		t.Errorf("names %v", names)
	}

	// Two browsers: each holds one seat.
	browsers := map[int]*wsClient{0: ts.dial(t), 1: ts.dial(t)}
	for side, b := range browsers {
		b.send(map[string]string{"type": "watch", "id": resp.ID, "token": tokens[side]})
		b.next("the snapshot", ofType("game"))
	}
	for i, text := range []string{"0", "5", "1", "6", "2"} {
		side := i % 2
		ts.waitTurn(t, resp.ID, side)
		browsers[side].send(map[string]string{"type": "move", "id": resp.ID, "token": tokens[side], "move": text})
		// Played before the next turn is awaited: until then the seat
		// still looks to be waiting.
		browsers[side].next("move "+text, func(m msg) bool { return m.Type == "move" && m.Ply == i+1 })
	}
	for side, b := range browsers {
		end := b.next("the end", ofType("end"))
		if end.Record == nil || end.Record.Winner == nil || *end.Record.Winner != 0 || end.Record.Reason != "three" {
			t.Errorf("side %d saw the end %s", side, end.raw)
		}
	}
}

func TestPlayBot(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	for _, c := range []struct {
		name, body, token string
		code              int
	}{
		{"a bot without the token", `{"game":"line","opponent":"builtin"}`, "", 401},
		{"a named bot without the token", `{"game":"line","opponent":"alpha"}`, "", 401},
		{"a bot with a wrong token", `{"game":"line","opponent":"alpha"}`, "nope", 401},
		{"a command", `{"game":"line","opponent":"/bin/sh -c 'touch /tmp/x'"}`, testToken, 400},
		{"no opponent", `{"game":"line"}`, testToken, 400},
		{"unknown game", `{"game":"go","opponent":"local"}`, "", 400},
		{"a game people cannot play", `{"game":"ants","opponent":"local"}`, "", 400},
		{"side 2", `{"game":"line","opponent":"local","side":2}`, "", 400},
		{"bad clock", `{"game":"line","opponent":"local","turn_time":"soon"}`, "", 400},
		{"bad bot time", `{"game":"line","opponent":"alpha","bot_time":"-1s"}`, testToken, 400},
		{"a bot time between people", `{"game":"line","opponent":"local","bot_time":"1s"}`, "", 400},
		{"a bot time where bots are not told it", `{"game":"quiet","opponent":"builtin","bot_time":"1s"}`, testToken, 400},
		{"bad JSON", `{"game":"line",`, "", 400},
	} {
		if code, body := ts.do(t, "POST", "/api/play", c.body, c.token); code != c.code {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.code)
		}
	}
	if plays := ts.fake.started(); len(plays) != 0 {
		t.Fatalf("refused requests started %+v", plays)
	}

	resp := ts.play(t, `{"game":"line","opponent":"builtin","side":1}`, testToken)
	if len(resp.Seats) != 1 || resp.Seats[0].Side != 1 || resp.Invite != "" {
		t.Fatalf("game against a bot: %+v", resp)
	}
	if p := ts.waitStarted(t, 1)[0]; p.Players[0].Bot != "builtin" || p.Players[0].Human != nil || p.Players[1].Human == nil || p.Players[0].TurnTime != 0 {
		t.Errorf("seats %+v", p.Players)
	}
	c := ts.dial(t)
	c.send(map[string]string{"type": "watch", "id": resp.ID, "token": resp.Seats[0].Token})
	// The bot takes 0, 1, 2 and wins; the person answers 5 and 6.
	for _, text := range []string{"5", "6"} {
		ts.waitTurn(t, resp.ID, 1)
		c.send(map[string]string{"type": "move", "id": resp.ID, "token": resp.Seats[0].Token, "move": text})
		c.next("move "+text, func(m msg) bool { return m.Type == "move" && m.Move.Side == 1 && m.Move.Move == text })
	}
	end := c.next("the end", ofType("end"))
	if end.Record == nil || end.Record.Winner == nil || *end.Record.Winner != 0 || len(end.Record.Moves) != 5 {
		t.Errorf("end %s", end.raw)
	}

	// The person may choose how long the bot thinks.
	ts.play(t, `{"game":"line","opponent":"alpha","side":0,"bot_time":"250ms"}`, testToken)
	if p := ts.waitStarted(t, 2)[1]; p.Players[1].Bot != "alpha" || p.Players[1].TurnTime != 250*time.Millisecond || p.Players[0].TurnTime != 0 {
		t.Errorf("with bot_time 250ms the seats are %+v", p.Players)
	}
}

func TestPlayTimeout(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	resp := ts.play(t, `{"game":"line","opponent":"local","side":0,"turn_time":"50ms"}`, "")
	c := ts.dial(t)
	c.send(map[string]string{"type": "watch", "id": resp.ID})
	end := c.next("the end", ofType("end"))
	if end.Record == nil || end.Record.Winner == nil || *end.Record.Winner != 1 || end.Record.Reason != game.ReasonTimeout {
		t.Errorf("a person who does not move: %s", end.raw)
	}
}

func TestPlayCap(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	ts.srv.cfg.MaxPersonGames = 1
	ts.play(t, `{"game":"line","opponent":"local"}`, "")
	if code, body := ts.do(t, "POST", "/api/play", `{"game":"line","opponent":"remote"}`, ""); code != http.StatusServiceUnavailable {
		t.Errorf("a person's game over the cap: %d %s", code, body)
	}
	// Games against a bot are the token holder's: not capped.
	ts.play(t, `{"game":"line","opponent":"alpha"}`, testToken)
}

// TestPlayBotClock: against a person, the bot's clock shown is the
// game's own (what the bot plays on), not the person's longer one.
func TestPlayBotClock(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	resp := ts.play(t, `{"game":"quiet","opponent":"builtin","side":0,"turn_time":"30s"}`, testToken)
	ts.waitTurn(t, resp.ID, 0)
	var s snapshot
	ts.getJSON(t, "/api/live/"+resp.ID, &s)
	if len(s.Clocks.TurnMs) != 2 || s.Clocks.TurnMs[1] == nil || *s.Clocks.TurnMs[1] != 1000 {
		data, _ := json.Marshal(s.Clocks)
		t.Errorf("the bot's clock against a person with 30 s a move: %s; want its game's 1000 ms a move", data)
	}
}
