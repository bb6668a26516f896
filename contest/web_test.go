package contest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"arena/engine"
	"arena/internal/nim"
	"arena/match"
	"arena/store"
	"arena/web"
)

// TestWebAPI checks the contests' API through the real server: which
// calls need which token, registration, upload limits and rates.
func TestWebAPI(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.svc.cfg.Uploads = 2 // per minute
	e.svc.cfg.Limits.Archive = 1000
	if err := e.st.CreateContest(ctx, store.Contest{Name: "open", Game: "nim", Open: true}); err != nil {
		t.Fatal(err)
	}
	tok, err := AddParticipant(ctx, e.st, "cup", "ann")
	if err != nil {
		t.Fatal(err)
	}
	lad := NewLadder(e.svc, 1)
	l, err := engine.NewLauncher(engine.LauncherConfig{Games: []match.Game{nim.Def{}}, Store: e.st,
		Out: filepath.Join(e.dir, "out"), Work: filepath.Join(e.dir, "work")})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{Launcher: l, Store: e.st, Token: "organiser", Contests: NewWeb(e.svc, lad)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	do := func(method, path, bearer string, body []byte) (int, string) {
		req, _ := http.NewRequest(method, hs.URL+path, bytes.NewReader(body))
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		req.Header.Set("X-Filename", "bot.py")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	admin := func(action string) []byte { data, _ := json.Marshal(web.OrganiserAction{Action: action}); return data }
	for _, c := range []struct {
		name, method, path, bearer string
		body                       []byte
		status                     int
		says                       string
	}{
		{"board is public", "GET", "/api/contests/cup", "", nil, 200, `"languages"`},
		{"no such contest", "GET", "/api/contests/nope", "", nil, 404, "not found"},
		{"upload without a token", "POST", "/api/contests/cup/submissions", "", []byte("print(1)"), 401, "token"},
		{"upload with a wrong token", "POST", "/api/contests/cup/submissions", "guess", []byte("print(1)"), 401, "token"},
		{"upload with the organiser's token", "POST", "/api/contests/cup/submissions", "organiser", []byte("print(1)"), 401, "token"},
		{"own page without a token", "GET", "/api/contests/cup/me", "", nil, 401, "token"},
		{"own page", "GET", "/api/contests/cup/me", tok, nil, 200, `"user":"ann"`},
		{"another contest's page", "GET", "/api/contests/open/me", tok, nil, 401, "token"},
		{"upload over the limit", "POST", "/api/contests/cup/submissions", tok, bytes.Repeat([]byte("#"), 2000), 413, "limit"},
		{"upload", "POST", "/api/contests/cup/submissions", tok, []byte("print(1)"), 202, "compiling"},
		{"upload", "POST", "/api/contests/cup/submissions", tok, []byte("print(1)"), 202, "compiling"},
		{"an upload too many", "POST", "/api/contests/cup/submissions", tok, []byte("print(1)"), 429, "too many"},
		{"pause without a token", "POST", "/api/contests/cup/admin", "", admin("pause"), 401, "token"},
		{"pause with a participant's token", "POST", "/api/contests/cup/admin", tok, admin("pause"), 401, "token"},
		{"pause", "POST", "/api/contests/cup/admin", "organiser", admin("pause"), 200, "pause"},
		{"disqualify", "POST", "/api/contests/cup/admin", "organiser", []byte(`{"action":"disqualify","user":"ann"}`), 200, "disqualify"},
		{"upload when disqualified", "POST", "/api/contests/cup/submissions", tok, []byte("print(1)"), 403, "disqualified"},
		{"unknown action", "POST", "/api/contests/cup/admin", "organiser", admin("explode"), 400, "unknown action"},
		{"export without a token", "GET", "/api/contests/cup/export", "", nil, 401, "token"},
		{"export", "GET", "/api/contests/cup/export", "organiser", nil, 200, "status.json"},
		{"registration closed", "POST", "/api/contests/cup/register", "", []byte(`{"name":"zed"}`), 403, "closed"},
		{"registration open", "POST", "/api/contests/open/register", "", []byte(`{"name":"zed"}`), 200, `"token"`},
		{"a name taken", "POST", "/api/contests/open/register", "", []byte(`{"name":"zed"}`), 409, "already"},
		{"a bad name", "POST", "/api/contests/open/register", "", []byte(`{"name":"../x"}`), 400, "name"},
	} {
		status, body := do(c.method, c.path, c.bearer, c.body)
		if status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, status, body, c.status, c.says)
		}
	}
	if c, _ := e.st.Contest(ctx, "cup"); !c.Paused {
		t.Error("pause did not pause")
	}
	e.svc.Wait()
}
