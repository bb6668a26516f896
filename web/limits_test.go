package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"arena/game"
	"arena/store"
)

// withLimits sets a test server's limits.
func withLimits(l Limits) func(*Config) { return func(c *Config) { c.Limits = l } }

// hostPort is the test server's address, "127.0.0.1:PORT".
func (ts *testServer) hostPort() string { return strings.TrimPrefix(ts.http.URL, "http://") }

// from is an HTTP client whose connections come from the loopback
// address ip (any of 127.0.0.0/8 on Linux): another client address.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// rawConn opens a TCP connection to the server and writes what.
func (ts *testServer) rawConn(t *testing.T, what string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", ts.hostPort(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, what); err != nil {
		t.Fatal(err)
	}
	return conn
}

// closedByServer reads conn until the server closes it, and fails if
// that takes longer than bound (the server never closing it).
func closedByServer(t *testing.T, conn net.Conn, bound time.Duration) string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(bound))
	data, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v; it sent %d bytes: %q", bound, len(data), truncate(string(data), 200))
	}
	return string(data)
}

// TestServerTimeouts: a client that sends a header or a body slowly, or
// keeps an idle connection, is cut off by the server: on the
// unauthenticated /api/play too.
func TestServerTimeouts(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{
		ReadHeader: 200 * time.Millisecond, Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond}))
	for _, tc := range []struct{ name, send string }{
		{"slow header", "POST /api/play HTTP/1.1\r\nHost: " + ts.hostPort() + "\r\nContent-Le"},
		{"slow body", "POST /api/play HTTP/1.1\r\nHost: " + ts.hostPort() +
			"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"game\":"},
		{"idle keep-alive", "GET /api/info HTTP/1.1\r\nHost: " + ts.hostPort() + "\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := ts.rawConn(t, tc.send)
			got := closedByServer(t, conn, 20*time.Second)
			if tc.name == "idle keep-alive" && !strings.HasPrefix(got, "HTTP/1.1 200") {
				t.Errorf("the request before the idle time: %q", got)
			}
		})
	}
	// And the server still answers.
	if code, body := ts.do(t, "GET", "/api/info", "", ""); code != http.StatusOK {
		t.Errorf("after the slow clients: %d %s", code, body)
	}
}

// TestWriteTimeout: a client that asks for a large answer and does not
// read it holds the connection only as long as the write timeout: the
// server gives up, and the client gets a cut answer.
func TestWriteTimeout(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{Write: 200 * time.Millisecond}))
	// Larger than what the socket buffers of loopback hold (a few MB).
	big := `{"game":"gomoku","pad":"` + strings.Repeat("x", 32<<20) + `"}`
	err := ts.store.SaveGame(context.Background(), store.Game{ID: "big", Players: []string{"a", "b"}, Seats: []int{0, 1},
		Reason: "five", Record: json.RawMessage(big), Start: time.Now(), End: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	conn := ts.rawConn(t, "GET /api/records/big HTTP/1.1\r\nHost: "+ts.hostPort()+"\r\n\r\n")
	time.Sleep(time.Second) // a client that does not read, for longer than the timeout
	got := closedByServer(t, conn, 20*time.Second)
	// (On a slow machine the deadline may pass before the first byte.)
	if len(got) >= len(big) {
		t.Errorf("a reader slower than the write timeout got %d bytes of a %d-byte answer", len(got), len(big))
	}
}

// TestBodyCap: a request body beyond the API's cap is refused, not read.
func TestBodyCap(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	big := `{"game":"line","opponent":"local","name":"` + strings.Repeat("x", 2*maxBody) + `"}`
	for _, path := range []string{"/api/play", "/api/tournaments", "/api/matches"} {
		code, body := ts.do(t, "POST", path, big, testToken)
		if code != http.StatusBadRequest || !strings.Contains(string(body), "too large") {
			t.Errorf("POST %s with %d bytes: %d %s", path, len(big), code, body)
		}
	}
	if n := len(ts.fake.started()); n != 0 {
		t.Errorf("%d games started by over-long requests", n)
	}
}

// TestHostHeader: a request whose Host is a name this server was not
// given (a DNS-rebinding page) is refused, on every route; loopback
// names, IP addresses and --allowed-host names are served.
func TestHostHeader(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, func(c *Config) { c.AllowedHosts = []string{"Arena.Example.org:8443"} })
	_, port, _ := net.SplitHostPort(ts.hostPort())
	for _, tc := range []struct {
		host string
		ok   bool
	}{
		{ts.hostPort(), true},
		{"localhost:" + port, true},
		{"LOCALHOST", true},
		{"app.localhost:" + port, true},
		{"[::1]:" + port, true},
		{"192.0.2.7", true},
		{"arena.example.org", true},
		{"Arena.Example.Org.:443", true},
		{"evil.example.com:" + port, false},
		{"evil.example.com", false},
		{"localhost.evil.example.com", false},
		{"example.org", false},
	} {
		for _, path := range []string{"/", "/api/info", "/api/records", "/ws"} {
			req, _ := http.NewRequest("GET", ts.http.URL+path, nil)
			req.Host = tc.host
			resp, err := ts.http.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			refused := resp.StatusCode == http.StatusMisdirectedRequest
			if refused == tc.ok {
				t.Errorf("Host %q, %s: %s %s", tc.host, path, resp.Status, body)
			}
			if refused && !strings.Contains(string(body), "--allowed-host") {
				t.Errorf("Host %q: the refusal %s does not say what to do", tc.host, body)
			}
		}
	}
	// The websocket too.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws://"+ts.hostPort()+"/ws", &websocket.DialOptions{Host: "evil.example.com:" + port})
	if err == nil || resp == nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a websocket with a foreign Host: %v %v", resp, err)
	}
}

// TestAllowedHostNames: an allowed host is a name (a port or a final
// dot is dropped); a URL or a path is refused with a line saying what
// to give.
func TestAllowedHostNames(t *testing.T) {
	got, err := hostNames([]string{"A.example.org.", "b.example.org:443", "*", "[2001:db8::1]"})
	if err != nil || strings.Join(got, " ") != "a.example.org b.example.org * 2001:db8::1" {
		t.Errorf("hostNames: %q, %v", got, err)
	}
	for _, bad := range []string{"http://a.example.org", "a.example.org/x", "", "user@host"} {
		if _, err := hostNames([]string{bad}); err == nil || !strings.Contains(err.Error(), "--allowed-host") {
			t.Errorf("hostNames(%q): %v", bad, err)
		}
	}
}

// dialFrom opens a websocket from the loopback address ip; it returns the
// HTTP status of a refusal (and a nil connection) instead of failing.
func (ts *testServer) dialFrom(t *testing.T, ip string) (*websocket.Conn, int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws://"+ts.hostPort()+"/ws", &websocket.DialOptions{HTTPClient: from(ip)})
	if err != nil {
		if resp == nil {
			t.Fatalf("dial from %s: %v", ip, err)
		}
		var e struct{ Error string }
		json.NewDecoder(resp.Body).Decode(&e)
		return nil, resp.StatusCode, e.Error
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn, http.StatusSwitchingProtocols, ""
}

// TestWebsocketCaps: the server takes at most Sockets websockets, and at
// most SocketsPerClient from one address; a refusal says which cap; a
// closed one frees its place.
func TestWebsocketCaps(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{Sockets: 4, SocketsPerClient: 2}))
	var open []*websocket.Conn
	for _, ip := range []string{"127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"} {
		conn, code, msg := ts.dialFrom(t, ip)
		if conn == nil {
			t.Fatalf("websocket %d from %s refused: %d %s", len(open)+1, ip, code, msg)
		}
		open = append(open, conn)
	}
	for _, tc := range []struct {
		ip, want string
		code     int
	}{
		{"127.0.0.1", "2 from 127.0.0.1", http.StatusTooManyRequests},
		{"127.0.0.3", "the server's 4", http.StatusServiceUnavailable},
	} {
		conn, code, msg := ts.dialFrom(t, tc.ip)
		if conn != nil || code != tc.code || !strings.Contains(msg, tc.want) || !strings.Contains(msg, "too many") {
			t.Errorf("a websocket over the cap from %s: %d %q, want %d with %q", tc.ip, code, msg, tc.code, tc.want)
		}
	}
	// A closed connection frees its place, once the server has seen it
	// close.
	open[0].Close(websocket.StatusNormalClosure, "")
	waitFor(t, "a place for 127.0.0.3", func() bool {
		conn, _, _ := ts.dialFrom(t, "127.0.0.3")
		return conn != nil
	})
}

// TestWebsocketOutlivesRequestTimeouts: the read and write timeouts are
// for requests; an open websocket goes on past them.
func TestWebsocketOutlivesRequestTimeouts(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{ReadHeader: 50 * time.Millisecond,
		Read: 100 * time.Millisecond, Write: 100 * time.Millisecond, Idle: 100 * time.Millisecond}))
	c := ts.dial(t)
	c.send(map[string]string{"type": "lobby"})
	c.next("the lobby", ofType("lobby"))
	time.Sleep(300 * time.Millisecond) // past every timeout
	c.send(map[string]string{"type": "watch", "id": "nope"})
	if m := c.next("the answer", ofType("error")); !strings.Contains(m.Error, "unknown game") {
		t.Errorf("after the timeouts: %s", m.raw)
	}
}

// TestWebsocketPing: a client that stops answering (here: never reads,
// so never answers a ping) is closed, and its place freed.
func TestWebsocketPing(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{SocketsPerClient: 1, Ping: 50 * time.Millisecond}))
	if conn, code, msg := ts.dialFrom(t, "127.0.0.1"); conn == nil {
		t.Fatalf("the first websocket: %d %s", code, msg)
	}
	waitFor(t, "the silent client's place", func() bool {
		conn, _, _ := ts.dialFrom(t, "127.0.0.1")
		if conn != nil {
			conn.CloseNow()
		}
		return conn != nil
	})
}

// TestPersonGameCaps: games between people are capped per client
// address as well as overall.
func TestPersonGameCaps(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{PersonGamesPerClient: 2}))
	post := func(ip string) (int, string) {
		resp, err := from(ip).Post(ts.http.URL+"/api/play", "application/json", strings.NewReader(`{"game":"line","opponent":"local"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, ip := range []string{"127.0.0.1", "127.0.0.1", "127.0.0.2"} {
		if code, body := post(ip); code != http.StatusCreated {
			t.Fatalf("a game from %s: %d %s", ip, code, body)
		}
	}
	if code, body := post("127.0.0.1"); code != http.StatusTooManyRequests || !strings.Contains(body, "2 from 127.0.0.1") {
		t.Errorf("a third game from one address: %d %s", code, body)
	}
}

// TestAbandonedPersonGame: a game none of whose seats a browser holds
// for PersonIdle is resigned, freeing its place; one whose person is
// connected goes on until the person leaves.
func TestAbandonedPersonGame(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{PersonIdle: 150 * time.Millisecond}))
	held := ts.play(t, `{"game":"line","opponent":"local","side":0}`, "")
	c := ts.dial(t)
	c.send(map[string]string{"type": "watch", "id": held.ID, "token": held.Seats[0].Token})
	if m := c.next("the held game", ofType("game")); len(m.Seats) != 1 {
		t.Fatalf("the seat token opens %v", m.Seats)
	}
	left := ts.play(t, `{"game":"line","opponent":"local","side":0}`, "")
	end := ts.waitEnd(t, left.ID)
	if end.Record == nil || end.Record.Reason != game.ReasonResign {
		t.Errorf("the game nobody held: %+v %q", end.Record, end.Error)
	}
	var s snapshot
	ts.getJSON(t, "/api/live/"+held.ID, &s)
	if s.Done {
		t.Fatalf("the game whose person is connected ended: %+v", s.Record)
	}
	c.conn.Close(websocket.StatusNormalClosure, "") // the person leaves
	if end := ts.waitEnd(t, held.ID); end.Record == nil || end.Record.Reason != game.ReasonResign {
		t.Errorf("the game its person left: %+v %q", end.Record, end.Error)
	}
	// A watcher without a seat holds nothing.
	watched := ts.play(t, `{"game":"line","opponent":"remote","side":0}`, "")
	w := ts.dial(t)
	w.send(map[string]string{"type": "watch", "id": watched.ID})
	if end := w.next("the end", ofType("end")); end.Record == nil || end.Record.Reason != game.ReasonResign {
		t.Errorf("a watched game without its people: %s", end.raw)
	}
}

// TestLongestPersonGame: a game with people ends after PersonGame even
// while its person is connected (the clocks allow a day a move).
func TestLongestPersonGame(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{}, withLimits(Limits{PersonGame: 200 * time.Millisecond}))
	resp := ts.play(t, `{"game":"line","opponent":"local","side":0,"turn_time":"24h"}`, "")
	c := ts.dial(t)
	c.send(map[string]string{"type": "watch", "id": resp.ID, "token": resp.Seats[0].Token})
	if end := c.next("the end", ofType("end")); end.Record == nil || end.Record.Reason != game.ReasonResign {
		t.Errorf("a game longer than allowed: %s", end.raw)
	}
}

// TestClientAddr: the per-client caps count an IPv4 client by its
// address and an IPv6 one by its /64.
func TestClientAddr(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:5000", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:5000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:6000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:5000", "2001:db8:1:3::/64"},
		{"[::1]:80", "::/64"},
		{"[::ffff:192.0.2.7]:80", "::ffff:192.0.2.7"},
		{"pipe", "pipe"},
	} {
		if got := clientAddr(&http.Request{RemoteAddr: tc.remote}); got != tc.want {
			t.Errorf("clientAddr(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}

// waitEnd polls /api/live/ID until the game is over.
func (ts *testServer) waitEnd(t *testing.T, id string) snapshot {
	t.Helper()
	var s snapshot
	waitFor(t, "game "+id+" to end", func() bool {
		code, body := ts.do(t, "GET", "/api/live/"+id, "", "")
		return code == http.StatusOK && json.Unmarshal(body, &s) == nil && s.Done
	})
	return s
}

// BenchmarkGuard is the cost every request pays for the Host check and
// the body cap.
func BenchmarkGuard(b *testing.B) {
	s := &Server{cfg: Config{AllowedHosts: []string{"arena.example.org"}}}
	h := s.guard(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	req, _ := http.NewRequest("GET", "http://127.0.0.1:8080/api/info", nil)
	req.Host = "arena.example.org:8080"
	w := discardWriter{}
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}

type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (discardWriter) WriteHeader(int)             {}

// FuzzHostAllowed: whatever a Host header holds, the check never panics,
// and a name it takes is an IP address, a loopback name or an allowed
// name, never another.
func FuzzHostAllowed(f *testing.F) {
	for _, h := range []string{"127.0.0.1:8080", "localhost", "[::1]:80", "evil.com", "arena.example.org.", "a.localhost:1",
		"localhost.evil.com", "[", ":", "", "ARENA.EXAMPLE.ORG:443", "127.0.0.1.evil.com"} {
		f.Add(h)
	}
	s := &Server{cfg: Config{AllowedHosts: []string{"arena.example.org"}}}
	f.Fuzz(func(t *testing.T, hostport string) {
		if !s.hostAllowed(hostport) || hostport == "" {
			return
		}
		host := hostport
		if h, _, err := net.SplitHostPort(hostport); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
		if net.ParseIP(host) == nil && host != "localhost" && !strings.HasSuffix(host, ".localhost") && host != "arena.example.org" {
			t.Fatalf("Host %q taken", hostport)
		}
	})
}
