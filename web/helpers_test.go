package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"arena/game"
	"arena/match"
	"arena/store"
)

const testToken = "s3cret-token"

// line is a tiny game for the tests: nine cells in a row, players take
// turns claiming a free one, and whoever holds three first wins.
type line struct {
	owner   [9]int // -1: free
	turn    int
	claimed [2]int
	res     *game.Result
}

type cell int

func (c cell) String() string { return strconv.Itoa(int(c)) }

func newLine() *line {
	l := &line{}
	for i := range l.owner {
		l.owner[i] = -1
	}
	return l
}

func (l *line) ToMove() []int {
	if l.res != nil {
		return nil
	}
	return []int{l.turn}
}

func (l *line) Play(side int, m cell) error {
	if m < 0 || int(m) >= len(l.owner) {
		return fmt.Errorf("no cell %d", m)
	}
	if l.owner[m] >= 0 {
		return fmt.Errorf("cell %d is taken", m)
	}
	l.owner[m] = side
	l.claimed[side]++
	if l.claimed[side] == 3 {
		l.res = &game.Result{Winner: side, Reason: "three"}
		return nil
	}
	l.turn = 1 - side
	return nil
}

func (l *line) Forfeit(side int, f game.Fault) {
	if l.res == nil {
		l.res = &game.Result{Winner: 1 - side, Reason: f.Reason, Detail: f.Detail}
	}
}

func (l *line) Result() (game.Result, bool) {
	if l.res == nil {
		return game.Result{}, false
	}
	return *l.res, true
}

// check judges a person's move text against the position.
func (l *line) check(text string) (cell, error) {
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, fmt.Errorf("%q is not a cell number", text)
	}
	if n < 0 || n >= len(l.owner) || l.owner[n] >= 0 {
		return 0, fmt.Errorf("cell %q is not free", text)
	}
	return cell(n), nil
}

// lineBot claims the lowest free cell.
type lineBot struct{ l *line }

func (b lineBot) Start(context.Context, match.Request) (match.Greeting, error) {
	return match.Greeting{About: "line bot"}, nil
}

func (b lineBot) Move(context.Context, match.Request) (match.Reply[cell], error) {
	for i, o := range b.l.owner {
		if o < 0 {
			return match.Reply[cell]{Move: cell(i)}, nil
		}
	}
	return match.Reply[cell]{}, errors.New("no free cell")
}

func (b lineBot) Finish(context.Context, game.Result, time.Duration) match.Farewell {
	return match.Farewell{}
}

// fakeLauncher plays "line" with match.Run when a person takes part,
// and otherwise makes up a scripted game of moves a delay apart.
type fakeLauncher struct {
	moves int           // moves of a scripted game
	delay time.Duration // between them
	// gate, if set, holds every scripted game before its first move,
	// and a tournament before it starts.
	gate chan struct{}
	// save, if set, stores a tournament's game instead of reporting its
	// end through Finisher, as a launcher that knows nothing of it would.
	save func(rec *game.Record) error

	mu          sync.Mutex
	plays       []PlayRequest
	tournaments []TournamentRequest
	running     atomic.Int32
}

func (f *fakeLauncher) Games() []GameInfo {
	return []GameInfo{
		{Name: "line", Title: "Line", Players: [2]int{2, 2}, Bots: []string{"builtin", "alpha", "beta"},
			Human: true, TurnTime: "1s", BotTime: true},
		// quiet's bots are not told their clock (as Khet's).
		{Name: "quiet", Title: "Quiet", Players: [2]int{2, 2}, Bots: []string{"builtin"}, Human: true, TurnTime: "1s"},
		{Name: "ants", Title: "Ants", Players: [2]int{2, 4}, Bots: []string{"hunter", "greedy", "random"}, Simultaneous: true, Replay: true},
	}
}

func (f *fakeLauncher) started() []PlayRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]PlayRequest(nil), f.plays...)
}

func header(req PlayRequest) *game.Record {
	rec := &game.Record{ID: req.ID, Game: req.Game, Seats: []int{}, Start: time.Now()}
	for i, p := range req.Players {
		rec.Players = append(rec.Players, game.PlayerRecord{Name: p.Name})
		rec.Seats = append(rec.Seats, i)
	}
	return rec
}

func (f *fakeLauncher) Play(ctx context.Context, req PlayRequest, l game.Listener) (*game.Record, error) {
	f.running.Add(1)
	defer f.running.Add(-1)
	f.mu.Lock()
	f.plays = append(f.plays, req)
	f.mu.Unlock()
	for _, p := range req.Players {
		if p.Human != nil {
			return f.playLine(ctx, req, l)
		}
	}
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	rec := header(req)
	l.Started(rec)
	for i := 1; i <= f.moves; i++ {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		m := game.MoveRecord{Side: (i - 1) % 2, Move: strconv.Itoa(i), TimeMs: 1,
			Effect: json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`)}
		rec.Moves = append(rec.Moves, m)
		l.Moved(i, m)
	}
	winner := 0
	rec.Winner, rec.Reason, rec.End = &winner, "five", time.Now()
	return rec, nil
}

func (f *fakeLauncher) playLine(ctx context.Context, req PlayRequest, l game.Listener) (*game.Record, error) {
	ref := newLine()
	seats := make([]match.Seat[cell], len(req.Players))
	for i, p := range req.Players {
		if p.Human != nil {
			seats[i] = match.HumanSeat(p.Human, ref.check)
		} else {
			seats[i] = lineBot{ref}
		}
	}
	rec := header(req)
	l.Started(rec)
	out := match.Run[cell](ctx, ref, seats, match.Config{
		Clock:  match.Clock{Turn: req.TurnTime},
		OnMove: func(ev match.MoveEvent) { l.Moved(ev.Ply, ev.Move) },
	})
	if out.Canceled {
		return nil, ctx.Err()
	}
	rec.Moves = out.Moves
	if !out.Result.Draw() {
		w := out.Result.Winner
		rec.Winner = &w
	}
	rec.Reason, rec.Detail, rec.End = out.Result.Reason, out.Result.Detail, out.End
	return rec, nil
}

func (f *fakeLauncher) Tournament(ctx context.Context, req TournamentRequest, listen func(string) game.Listener) error {
	f.mu.Lock()
	f.tournaments = append(f.tournaments, req)
	f.mu.Unlock()
	if f.gate != nil { // before anything is stored
		select {
		case <-f.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	id := req.Name + "/r1/p1"
	l := listen(id)
	if l == nil {
		return errors.New("no listener")
	}
	rec := header(PlayRequest{ID: id, Game: req.Game, Players: []Entrant{{Name: req.Bots[0]}, {Name: req.Bots[1]}}})
	l.Started(rec)
	m := game.MoveRecord{Side: 0, Move: "1"}
	rec.Moves = append(rec.Moves, m)
	l.Moved(1, m)
	rec.Reason = "draw"
	if f.save != nil {
		return f.save(rec)
	}
	if fin, ok := l.(Finisher); ok {
		fin.Finished(rec)
	}
	return nil
}

// testServer is a server over a fresh SQLite store and its HTTP front.
type testServer struct {
	srv   *Server
	http  *httptest.Server
	store *store.Store
	fake  *fakeLauncher
}

// newTestServer serves a Server, with the timeouts of its HTTPServer, on
// loopback; opts change its Config.
func newTestServer(t testing.TB, fake *fakeLauncher, opts ...func(*Config)) *testServer {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Launcher: fake, Store: st, Token: testToken}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = srv.HTTPServer()
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		st.Close()
	})
	t.Cleanup(func() {
		srv.Close()
		if n := fake.running.Load(); n != 0 {
			t.Errorf("%d games still running after Close", n)
		}
	})
	return &testServer{srv: srv, http: ts, store: st, fake: fake}
}

// do sends a request with an optional JSON body and token and returns
// the status and body.
func (ts *testServer) do(t testing.TB, method, path, body, token string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.http.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

func (ts *testServer) getJSON(t testing.TB, path string, v any) {
	t.Helper()
	code, body := ts.do(t, "GET", path, "", "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v in %s", path, err, body)
	}
}

// wsClient is a test's websocket connection.
type wsClient struct {
	t    testing.TB
	conn *websocket.Conn
}

func (ts *testServer) dial(t testing.TB) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(16 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	return &wsClient{t: t, conn: conn}
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	data, ok := v.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			c.t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

// msg is a server message, decoded loosely.
type msg struct {
	Type   string            `json:"type"`
	ID     string            `json:"id"`
	Error  string            `json:"error"`
	Ply    int               `json:"ply"`
	Move   game.MoveRecord   `json:"move"`
	Moves  []game.MoveRecord `json:"moves"`
	Header *game.Record      `json:"header"`
	Record *game.Record      `json:"record"`
	Done   bool              `json:"done"`
	Games  []liveEntry       `json:"games"`
	Clocks clocks            `json:"clocks"`
	Seats  []int             `json:"seats"`
	raw    []byte
}

func (c *wsClient) recv() (msg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	typ, data, err := c.conn.Read(ctx)
	if err != nil {
		return msg{}, err
	}
	var m msg
	if typ != websocket.MessageText {
		return m, fmt.Errorf("a %v message", typ)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%v in %s", err, data)
	}
	m.raw = data
	return m, nil
}

// next reads until a message satisfies ok.
func (c *wsClient) next(what string, ok func(m msg) bool) msg {
	c.t.Helper()
	for {
		m, err := c.recv()
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(m) {
			return m
		}
	}
}

func ofType(typ string) func(m msg) bool { return func(m msg) bool { return m.Type == typ } }

func compactJSON(t testing.TB, s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
