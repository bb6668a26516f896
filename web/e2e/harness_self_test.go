package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHarnessSeesPageFailures checks the watchdog the other tests rely
// on: a page that logs an error, throws, rejects a promise and fetches a
// missing file must produce one problem each, and a clean page none.
func TestHarnessSeesPageFailures(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><html><head><link rel="icon" href="data:,"></head><body><div id="app">ok</div></body></html>`))
	})
	mux.HandleFunc("/static/present.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{}`))
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close) // after the browser's clean-up: the page may still fetch
	srv := &server{URL: ts.URL, Dir: t.TempDir(), Page: ts.URL + "/#token=x"}
	b := newBrowser(t, srv)
	b.open("#/")
	eval[bool](b, `fetch('/static/present.json').then(r => r.ok)`)
	time.Sleep(200 * time.Millisecond)
	if p := b.takeProblems(); len(p) != 0 {
		t.Fatalf("a clean page gave problems: %q", p)
	}

	cases := []struct {
		name, script, want string
	}{
		{"console.error", `console.error("boom", 42)`, "console.error: boom 42"},
		{"exception", `setTimeout(() => { throw new Error("thrown here") })`, "thrown here"},
		{"rejection", `Promise.reject(new Error("rejected here"))`, "rejected here"},
		{"missing file", `fetch('/static/missing.js')`, "HTTP 404"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eval[bool](b, `(`+c.script+`, true)`)
			var got []string
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				got = append(got, b.takeProblems()...)
				if strings.Contains(strings.Join(got, "\n"), c.want) {
					return
				}
			}
			t.Errorf("after %s the harness saw %q, want a problem with %q", c.script, got, c.want)
		})
	}
	b.takeProblems() // the 404 also reaches the browser log
}
