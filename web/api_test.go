package web

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/game/ants"
	"arena/store"
)

func TestPage(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	resp, err := ts.http.Client().Get(ts.http.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	index, _ := staticFS.ReadFile("static/index.html")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("GET /: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if int(resp.ContentLength) != len(index) {
		t.Errorf("GET /: %d bytes, want the embedded index.html's %d", resp.ContentLength, len(index))
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no nosniff header")
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache (revalidate on reload)", cc)
	}

	// A reload revalidates and gets 304.
	req, _ := http.NewRequest("GET", ts.http.URL+"/", nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	resp2, err := ts.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d, want 304", resp2.StatusCode)
	}

	for _, c := range []struct{ path, ctype string }{
		{"/static/index.html", "text/html; charset=utf-8"},
		{"/static/nope.js", ""},
		{"/static/../server.go", ""},
		{"/nope", ""},
	} {
		resp, err := ts.http.Client().Get(ts.http.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if c.ctype == "" {
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", c.path, resp.StatusCode)
			}
			continue
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype {
			t.Errorf("GET %s: %d %q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	// Every embedded script is served as JavaScript (ES modules need it).
	for name := range ts.srv.static {
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		resp, err := ts.http.Client().Get(ts.http.URL + "/static/" + name)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
			t.Errorf("GET /static/%s: %d %q", name, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
}

func TestContentType(t *testing.T) {
	for name, want := range map[string]string{
		"app.js": "text/javascript; charset=utf-8", "games/khet.js": "text/javascript; charset=utf-8",
		"style.css": "text/css; charset=utf-8", "index.html": "text/html; charset=utf-8",
		"icon.svg": "image/svg+xml", "x.unknownext": "application/octet-stream",
	} {
		if got := contentType(name); got != want {
			t.Errorf("contentType(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestInfo(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	var info struct {
		Games   []GameInfo `json:"games"`
		Version string     `json:"version"`
	}
	ts.getJSON(t, "/api/info", &info)
	if !reflect.DeepEqual(info.Games, ts.fake.Games()) || info.Version == "" {
		t.Errorf("/api/info = %+v", info)
	}
	code, body := ts.do(t, "GET", "/api/nope", "", "")
	if code != http.StatusNotFound || !strings.Contains(string(body), `"error"`) {
		t.Errorf("GET /api/nope: %d %s", code, body)
	}
	code, _ = ts.do(t, "DELETE", "/api/matches", "", testToken)
	if code != http.StatusMethodNotAllowed && code != http.StatusNotFound {
		t.Errorf("DELETE /api/matches: %d", code)
	}
}

// TestMatchesRefused: nothing is started without the token, and bots are
// only ever names registered on the server.
func TestMatchesRefused(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{moves: 1})
	good := `{"game":"line","bots":["alpha","beta"]}`
	for _, c := range []struct {
		name, body, token string
		auth              string // a raw Authorization header instead of token
		code              int
		msg               string
	}{
		{"no token", good, "", "", 401, "missing or wrong token"},
		{"wrong token", good, "guess", "", 401, "missing or wrong token"},
		{"token prefix", good, testToken[:5], "", 401, "missing or wrong token"},
		{"token plus more", good, testToken + "x", "", 401, "missing or wrong token"},
		{"basic auth", good, "", "Basic " + testToken, 401, "missing or wrong token"},
		{"bare token", good, "", testToken, 401, "missing or wrong token"},
		{"unknown game", `{"game":"chess","bots":["alpha","beta"]}`, testToken, "", 400, "unknown game"},
		{"unknown bot", `{"game":"line","bots":["alpha","gamma"]}`, testToken, "", 400, "unknown bot"},
		{"a command", `{"game":"line","bots":["alpha","./evil.sh; touch /tmp/pwned"]}`, testToken, "", 400, "unknown bot"},
		{"a path", `{"game":"line","bots":["/bin/sh","alpha"]}`, testToken, "", 400, "unknown bot"},
		{"one bot", `{"game":"line","bots":["alpha"]}`, testToken, "", 400, "needs 2 bots"},
		{"three bots", `{"game":"line","bots":["alpha","beta","builtin"]}`, testToken, "", 400, "needs 2 bots"},
		{"too many ants", `{"game":"ants","bots":["hunter","greedy","random","hunter","greedy"]}`, testToken, "", 400, "needs 2 to 4"},
		{"bad JSON", `{"game":`, testToken, "", 400, "request body"},
		{"not an object", `["line"]`, testToken, "", 400, "request body"},
		{"empty", ``, testToken, "", 400, "empty request body"},
		{"two values", good + good, testToken, "", 400, "more than one"},
		{"negative games", `{"game":"line","bots":["alpha","beta"],"games":-1}`, testToken, "", 400, "games"},
		{"too many games", `{"game":"line","bots":["alpha","beta"],"games":1000}`, testToken, "", 400, "games"},
		{"bad turn time", `{"game":"line","bots":["alpha","beta"],"turn_time":"fast"}`, testToken, "", 400, "turn_time"},
		{"negative match time", `{"game":"line","bots":["alpha","beta"],"match_time":"-1s"}`, testToken, "", 400, "match_time"},
		{"huge body", `{"game":"line","bots":["alpha","beta"],"x":"` + strings.Repeat("a", 70<<10) + `"}`, testToken, "", 400, "request body"},
	} {
		req, _ := http.NewRequest("POST", ts.http.URL+"/api/matches", strings.NewReader(c.body))
		switch {
		case c.auth != "":
			req.Header.Set("Authorization", c.auth)
		case c.token != "":
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := ts.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Error string }
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(body.Error, c.msg) {
			t.Errorf("%s: %d %q; want %d with %q", c.name, resp.StatusCode, body.Error, c.code, c.msg)
		}
	}
	if plays := ts.fake.started(); len(plays) != 0 {
		t.Errorf("refused requests started %d games: %+v", len(plays), plays)
	}
	var live []liveEntry
	ts.getJSON(t, "/api/live", &live)
	if len(live) != 0 {
		t.Errorf("refused requests left live games: %+v", live)
	}
}

func TestMatches(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{moves: 3, delay: time.Millisecond})
	code, body := ts.do(t, "POST", "/api/matches",
		`{"game":"line","bots":["alpha","beta"],"games":3,"turn_time":"2s","match_time":"1m"}`, testToken)
	if code != http.StatusCreated {
		t.Fatalf("POST /api/matches: %d %s", code, body)
	}
	var resp struct{ IDs []string }
	if err := json.Unmarshal(body, &resp); err != nil || len(resp.IDs) != 3 {
		t.Fatalf("response %s: %v", body, err)
	}
	for _, id := range resp.IDs {
		if !strings.HasPrefix(id, "web-") {
			t.Errorf("id %q does not start with web-", id)
		}
	}
	waitFor(t, "three finished games", func() bool {
		var live []liveEntry
		ts.getJSON(t, "/api/live", &live)
		done := 0
		for _, e := range live {
			if e.Done {
				done++
			}
		}
		return done == 3
	})
	plays := ts.fake.started()
	for i, p := range plays {
		want := []string{"alpha", "beta"}
		if i%2 == 1 {
			want = []string{"beta", "alpha"}
		}
		got := []string{p.Players[0].Bot, p.Players[1].Bot}
		if p.ID != resp.IDs[i] || !reflect.DeepEqual(got, want) || p.TurnTime != 2*time.Second || p.MatchTime != time.Minute {
			t.Errorf("game %d played as %+v; want ID %s, seats %v", i, p, resp.IDs[i], want)
		}
	}

	var live []liveEntry
	ts.getJSON(t, "/api/live", &live)
	for _, e := range live {
		if e.Game != "line" || len(e.Players) != 2 || e.Moves != 3 || e.Winner == nil || *e.Winner != 0 ||
			e.Reason != "five" || e.Start == nil {
			t.Errorf("live entry %+v", e)
		}
	}
	// The raw JSON has exactly the contract's fields.
	_, raw := ts.do(t, "GET", "/api/live", "", "")
	var entries []map[string]any
	json.Unmarshal(raw, &entries)
	wantKeys := []string{"done", "game", "id", "moves", "players", "reason", "start", "winner"}
	if len(entries) == 0 || !reflect.DeepEqual(keys(entries[0]), wantKeys) {
		t.Errorf("live entry fields %v, want %v", keys(entries[0]), wantKeys)
	}

	var snap map[string]json.RawMessage
	ts.getJSON(t, "/api/live/"+resp.IDs[0], &snap)
	if !reflect.DeepEqual(keys(snap), []string{"clocks", "done", "header", "moves", "record"}) {
		t.Errorf("/api/live/ID fields: %v", keys(snap))
	}
	var s snapshot
	ts.getJSON(t, "/api/live/"+resp.IDs[0], &s)
	if !s.Done || len(s.Moves) != 3 || s.Record == nil || s.Header == nil || s.Header.Moves != nil ||
		string(s.Moves[2].Effect) != `{"n":3}` {
		t.Errorf("/api/live/ID = %+v", s)
	}
	if code, _ := ts.do(t, "GET", "/api/live/nope", "", ""); code != http.StatusNotFound {
		t.Errorf("unknown live game: %d", code)
	}
}

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// storeGames fills the store: a tournament of two gomoku games (IDs with
// slashes), a plain khet match and an ants game with its replay file.
func storeGames(t *testing.T, st *store.Store) (dir string) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	if err := st.CreateTournament(ctx, store.Tournament{Name: "spring cup", Game: "gomoku",
		Args: []string{"gomoku", "--bot", "alpha=./a", "--bot", "beta=./b"}}); err != nil {
		t.Fatal(err)
	}
	save := func(id, tournament, gameName string, winner *int, path string) {
		rec := game.Record{ID: id, Game: gameName, Players: []game.PlayerRecord{{Name: "alpha"}, {Name: "beta"}},
			Seats: []int{0, 1}, Moves: []game.MoveRecord{{Side: 0, Move: "7,7"}}, Winner: winner, Reason: "five"}
		data, _ := json.Marshal(rec)
		err := st.SaveGame(ctx, store.Game{ID: id, Tournament: tournament, Round: 1, Players: []string{"alpha", "beta"},
			Seats: []int{0, 1}, Winner: winner, Reason: "five", Moves: 1, Record: data, RecordPath: path,
			Start: time.Now(), End: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
	}
	zero, one := 0, 1
	save("spring cup/r1/p1", "spring cup", "gomoku", &zero, "")
	save("spring cup/r1/p2", "spring cup", "gomoku", &one, "")
	save("web-khet-1", "", "khet", nil, "")
	antsPath := filepath.Join(dir, "web-ants-1.json")
	save("web-ants-1", "", "ants", &zero, antsPath)
	if err := os.WriteFile(filepath.Join(dir, "web-ants-1.replay"), []byte(`{"challenge":"ants","replayformat":"json"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	save("web-ants-2", "", "ants", &zero, filepath.Join(dir, "web-ants-2.json")) // its replay is gone
	return dir
}

func TestRecords(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	// Ants writes its replay file beside the record: its format says so.
	ts.srv.cfg.Formats = map[string][]game.Format{"ants": ants.Info().Formats}
	storeGames(t, ts.store)

	var all []recordEntry
	ts.getJSON(t, "/api/records", &all)
	var ids []string
	for _, r := range all {
		ids = append(ids, r.ID)
	}
	want := []string{"web-ants-2", "web-ants-1", "web-khet-1", "spring cup/r1/p2", "spring cup/r1/p1"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("/api/records: %v, want %v", ids, want)
	}
	if r := all[3]; r.Game != "gomoku" || r.Tournament != "spring cup" || r.Winner == nil || *r.Winner != 1 ||
		r.Reason != "five" || r.Moves != 1 || !reflect.DeepEqual(r.Players, []string{"alpha", "beta"}) || r.End.IsZero() {
		t.Errorf("record entry %+v", r)
	}
	_, raw := ts.do(t, "GET", "/api/records?limit=1", "", "")
	var entries []map[string]any
	json.Unmarshal(raw, &entries)
	if len(entries) != 1 || !reflect.DeepEqual(keys(entries[0]),
		[]string{"end", "game", "id", "moves", "players", "reason", "tournament", "winner"}) {
		t.Errorf("/api/records?limit=1: %s", raw)
	}

	for _, c := range []struct {
		query string
		n     int
	}{
		{"?tournament=spring+cup", 2}, {"?game=khet", 1}, {"?game=ants&limit=1", 1},
		{"?limit=2&offset=4", 1}, {"?tournament=none", 0},
	} {
		var got []recordEntry
		ts.getJSON(t, "/api/records"+c.query, &got)
		if len(got) != c.n {
			t.Errorf("/api/records%s: %d games, want %d", c.query, len(got), c.n)
		}
	}
	for _, q := range []string{"?limit=x", "?limit=-1", "?limit=0", "?limit=100000", "?offset=-3"} {
		if code, body := ts.do(t, "GET", "/api/records"+q, "", ""); code != http.StatusBadRequest {
			t.Errorf("/api/records%s: %d %s, want 400", q, code, body)
		}
	}

	for _, c := range []struct {
		path string
		code int
		want string // a part of the body
	}{
		{"/api/records/spring%20cup/r1/p1", 200, `"id":"spring cup/r1/p1"`},
		{"/api/records/spring%20cup%2Fr1%2Fp2", 200, `"id":"spring cup/r1/p2"`},
		{"/api/records/web-khet-1", 200, `"game":"khet"`},
		{"/api/records/nope", 404, `"error"`},
		{"/api/records/web-ants-1/replay", 200, `"replayformat":"json"`},
		{"/api/records/web-ants-2/replay", 404, `"error"`},
		{"/api/records/web-khet-1/replay", 404, `Ants games only`},
		{"/api/records/nope/replay", 404, `"error"`},
	} {
		code, body := ts.do(t, "GET", c.path, "", "")
		if code != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d %.200s; want %d with %s", c.path, code, body, c.code, c.want)
		}
	}
}

func TestTournaments(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	storeGames(t, ts.store)
	var list []map[string]any
	ts.getJSON(t, "/api/tournaments", &list)
	if len(list) != 1 || list[0]["name"] != "spring cup" || list[0]["games"] != 2.0 || list[0]["game"] != "gomoku" ||
		list[0]["status"] != "running" || !reflect.DeepEqual(keys(list[0]), []string{"created", "game", "games", "name", "status", "updated"}) {
		t.Errorf("/api/tournaments: %v", list)
	}
	var rep struct {
		Tournament string           `json:"tournament"`
		Games      int              `json:"games"`
		Standings  []map[string]any `json:"standings"`
		Results    []map[string]any `json:"results"`
	}
	ts.getJSON(t, "/api/tournaments/spring%20cup", &rep)
	if rep.Tournament != "spring cup" || rep.Games != 2 || len(rep.Standings) != 2 || len(rep.Results) != 2 {
		t.Errorf("standings: %+v", rep)
	}
	if code, _ := ts.do(t, "GET", "/api/tournaments/nope", "", ""); code != http.StatusNotFound {
		t.Errorf("standings of an unknown tournament: %d", code)
	}
}

func TestNewTournament(t *testing.T) {
	ts := newTestServer(t, &fakeLauncher{})
	storeGames(t, ts.store)
	good := `{"name":"autumn","game":"line","bots":["alpha","beta"],"format":"round-robin","games":2,"turn_time":"1s"}`
	for _, c := range []struct {
		name, body, token string
		code              int
	}{
		{"no token", good, "", 401},
		{"wrong token", good, "nope", 401},
		{"no name", `{"game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"control characters", `{"name":"a\nb","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		// The name becomes file names in --out.
		{"climbs out", `{"name":"../x","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"a path", `{"name":"a/../../b","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"hidden", `{"name":".x","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"NUL", `{"name":"a\u0000b","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"backslash", `{"name":"a\\b","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"over-long", `{"name":"` + strings.Repeat("n", 101) + `","game":"line","bots":["alpha","beta"]}`, testToken, 400},
		{"unknown game", `{"name":"x","game":"chess","bots":["alpha","beta"]}`, testToken, 400},
		{"one bot", `{"name":"x","game":"line","bots":["alpha"]}`, testToken, 400},
		{"a command", `{"name":"x","game":"line","bots":["alpha","rm -rf /"]}`, testToken, 400},
		{"twice the same bot", `{"name":"x","game":"line","bots":["alpha","alpha"]}`, testToken, 400},
		{"unknown format", `{"name":"x","game":"line","bots":["alpha","beta"],"format":"melee"}`, testToken, 400},
		{"bad clock", `{"name":"x","game":"line","bots":["alpha","beta"],"turn_time":"1 second"}`, testToken, 400},
		{"stored name", `{"name":"spring cup","game":"line","bots":["alpha","beta"]}`, testToken, 409},
	} {
		code, body := ts.do(t, "POST", "/api/tournaments", c.body, c.token)
		if code != c.code {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.code)
		}
	}
	ts.fake.mu.Lock()
	n := len(ts.fake.tournaments)
	ts.fake.mu.Unlock()
	if n != 0 {
		t.Fatalf("refused requests started %d tournaments", n)
	}

	code, body := ts.do(t, "POST", "/api/tournaments", good, testToken)
	if code != http.StatusCreated || compactJSON(t, string(body)) != `{"name":"autumn"}` {
		t.Fatalf("POST /api/tournaments: %d %s", code, body)
	}
	waitFor(t, "the tournament's game to end", func() bool {
		var s snapshot
		code, body := ts.do(t, "GET", "/api/live/autumn/r1/p1", "", "")
		return code == 200 && json.Unmarshal(body, &s) == nil && s.Done
	})
	ts.fake.mu.Lock()
	got := ts.fake.tournaments[0]
	ts.fake.mu.Unlock()
	want := TournamentRequest{Name: "autumn", Game: "line", Bots: []string{"alpha", "beta"}, Format: "round-robin",
		Games: 2, TurnTime: time.Second}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tournament request %+v, want %+v", got, want)
	}
}

// TestTournamentStarting: a tournament the page has just started has a
// page of its own before its first game is stored.
func TestTournamentStarting(t *testing.T) {
	gate := make(chan struct{})
	ts := newTestServer(t, &fakeLauncher{gate: gate})
	defer close(gate)
	if code, body := ts.do(t, "GET", "/api/tournaments/winter", "", ""); code != http.StatusNotFound {
		t.Fatalf("before: %d %s, want 404", code, body)
	}
	code, body := ts.do(t, "POST", "/api/tournaments", `{"name":"winter","game":"line","bots":["alpha","beta"]}`, testToken)
	if code != http.StatusCreated {
		t.Fatalf("POST /api/tournaments: %d %s", code, body)
	}
	code, body = ts.do(t, "GET", "/api/tournaments/winter", "", "")
	if code != http.StatusOK {
		t.Fatalf("starting: %d %s, want 200", code, body)
	}
	var rep struct {
		Tournament string `json:"tournament"`
		Game       string `json:"game"`
		Standings  []any  `json:"standings"`
		Finished   bool   `json:"finished"`
	}
	if err := json.Unmarshal(body, &rep); err != nil || rep.Tournament != "winter" || rep.Game != "line" || rep.Standings == nil || rep.Finished {
		t.Fatalf("starting report %s (%v)", body, err)
	}
}

// TestTournamentEndFromStore: a launcher that does not report a game's
// end leaves the server to find its record in the store.
func TestTournamentEndFromStore(t *testing.T) {
	fake := &fakeLauncher{}
	ts := newTestServer(t, fake)
	fake.save = func(rec *game.Record) error {
		ctx := context.Background()
		if err := ts.store.CreateTournament(ctx, store.Tournament{Name: "winter", Game: rec.Game}); err != nil {
			return err
		}
		data, _ := json.Marshal(rec)
		return ts.store.SaveGame(ctx, store.Game{ID: rec.ID, Tournament: "winter", Players: []string{"alpha", "beta"},
			Seats: []int{0, 1}, Reason: string(rec.Reason), Moves: len(rec.Moves), Record: data})
	}
	code, body := ts.do(t, "POST", "/api/tournaments", `{"name":"winter","game":"line","bots":["alpha","beta"]}`, testToken)
	if code != http.StatusCreated {
		t.Fatalf("POST /api/tournaments: %d %s", code, body)
	}
	var s snapshot
	waitFor(t, "the game to end", func() bool {
		code, body := ts.do(t, "GET", "/api/live/winter/r1/p1", "", "")
		return code == 200 && json.Unmarshal(body, &s) == nil && s.Done
	})
	if s.Record == nil || s.Record.Reason != "draw" || len(s.Record.Moves) != 1 || s.Error != "" {
		t.Errorf("the game's end: %+v", s)
	}
}
