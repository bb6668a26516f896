// Package e2e holds the end-to-end tests of the web page: a real
// "arena serve" process, a real headless Chromium driven through the
// DevTools protocol (chromedp), and the page's own test hooks (the data-*
// attributes and ids the contract names). The package has tests only.
//
// The browser is Debian's chromium, found through $ARENA_TEST_CHROMIUM
// (scripts/chromium.sh installs it and prints its path). Without that
// variable the tests fail rather than skip, so that CI cannot pass
// without ever opening the page; ARENA_TEST_CHROMIUM=skip skips them.
// ARENA_E2E_SHOTS=DIR keeps every test's screenshot in DIR.
package e2e

import (
	"arena/internal/browsertest"
	"arena/internal/syncbuf"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const (
	shotsEnv = "ARENA_E2E_SHOTS"
	// servingPrefix starts the one line "arena serve" prints on stdout.
	servingPrefix = "arena: serving on "
)

// buildDir holds the arena binary built once for the whole run.
var buildDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "arena-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	buildDir = dir
	code := m.Run()
	// Every bot a server starts is this binary ("arena bot GAME"), so a
	// process still running it after every server has stopped leaked.
	if leaked := processesOf(binaryPath()); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "e2e: processes left running after the tests: %s\n", strings.Join(leaked, "; "))
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func binaryPath() string { return filepath.Join(buildDir, "arena") }

var (
	buildOnce sync.Once
	buildErr  error
)

// arenaBinary builds cmd/arena once per test run and returns its path.
func arenaBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			buildErr = err
			return
		}
		cmd := exec.Command("go", "build", "-o", binaryPath(), "./cmd/arena")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/arena: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binaryPath()
}

// moduleRoot finds the folder of go.mod above the test's folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("find the module root: no go.mod above the test folder")
		}
		dir = parent
	}
}

// processesOf lists the running processes whose program is exe, or whose
// command line mentions it when exe is not a program (a folder).
func processesOf(exe string) []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		self, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		args := strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " ")
		if self == exe || strings.Contains(args, exe) {
			found = append(found, fmt.Sprintf("%d %s", pid, args))
		}
	}
	return found
}

// server is one "arena serve" process of a test.
type server struct {
	URL   string // http://127.0.0.1:PORT, no trailing slash
	Token string
	Dir   string // the test's folder: arena.db, out/, screenshots
	Page  string // the URL the server printed (with #token=)

	cmd    *exec.Cmd
	output syncbuf.Buffer // stderr and stdout after the first line
	exited chan struct{}
	err    error // Wait's result, once exited is closed
}

// startServer starts "arena serve" on a free port with a fresh store and
// stops it (and checks that it stopped) when the test ends.
func startServer(t *testing.T, extra ...string) *server {
	t.Helper()
	browsertest.Path(t) // every test here needs the browser: fail (or skip) before building anything
	bin := arenaBinary(t)
	dir := t.TempDir()
	token := "e2e" + strconv.FormatInt(time.Now().UnixNano(), 16)
	args := append([]string{"serve", "--addr", "127.0.0.1:0",
		"--db", filepath.Join(dir, "arena.db"), "--out", filepath.Join(dir, "out")}, extra...)
	s := &server{Dir: dir, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, args...)
	// Wait returns once arena has exited even if something it started
	// still holds its output open: the leftover-process check then names
	// it, where the test would otherwise hang on the pipe.
	s.cmd.WaitDelay = 5 * time.Second
	s.cmd.Dir = dir
	s.cmd.Env = append(os.Environ(), "ARENA_TOKEN="+token) // never on argv
	s.cmd.Stderr = &s.output
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start arena serve: %v", err)
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })

	first := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		first <- line
		io.Copy(&s.output, r)
	}()
	var line string
	select {
	case line = <-first:
	case <-time.After(20 * time.Second):
		t.Fatalf("arena serve printed no line in 20 s; its output:\n%s", s.output.String())
	}
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, servingPrefix) {
		t.Fatalf("arena serve's first line is %q, want %q...; its output:\n%s", line, servingPrefix, s.output.String())
	}
	s.Page = strings.TrimPrefix(line, servingPrefix)
	u, err := url.Parse(s.Page)
	if err != nil || u.Host == "" {
		t.Fatalf("arena serve printed a bad URL %q: %v", s.Page, err)
	}
	if u.Fragment != "token="+token {
		t.Fatalf("arena serve printed %q: want the fragment #token=%s", s.Page, token)
	}
	if port := u.Port(); port == "" || port == "0" {
		t.Fatalf("arena serve printed %q: want the real port", s.Page)
	}
	s.URL = u.Scheme + "://" + u.Host
	s.Token = token
	return s
}

// stop ends the server as a user's Ctrl-C would and checks it exits.
func (s *server) stop(t *testing.T) {
	select {
	case <-s.exited:
		t.Errorf("arena serve exited during the test (%v); its output:\n%s", s.err, s.output.String())
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("arena serve did not exit within 15 s of SIGTERM; its output:\n%s", s.output.String())
	}
	if t.Failed() {
		t.Logf("arena serve's output:\n%s", s.output.String())
	}
}

// api makes one request to the server's JSON API and returns the status
// and body. token "" sends no Authorization header.
func (s *server) api(t *testing.T, method, path string, body any, token string) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read the body: %v", method, path, err)
	}
	return resp.StatusCode, data
}

// getJSON fetches path and decodes its JSON into v, failing on any status
// but 200.
func (s *server) getJSON(t *testing.T, path string, v any) {
	t.Helper()
	status, body := s.api(t, "GET", path, nil, "")
	if status != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, body)
	}
}

// browser is one headless Chromium with one tab, watching the page for
// anything that went wrong.
type browser struct {
	t   *testing.T
	ctx context.Context // the tab
	srv *server

	mu       sync.Mutex
	problems []string
	requests map[network.RequestID]string // URL of each request to our server
	loaded   bool                         // the page is loaded
}

var (
	browsersMu sync.Mutex
	browsers   = map[string]int{} // per test, to name the screenshots of each
)

// newBrowser starts Chromium for the test and closes it when the test
// ends, after saving a screenshot and failing the test on every console
// error, uncaught exception or failed request to srv it saw.
func newBrowser(t *testing.T, srv *server) *browser {
	t.Helper()
	path := browsertest.Path(t)
	profile := t.TempDir()
	opts := append(browsertest.Options(t, path, profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 960),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &browser{t: t, srv: srv, requests: map[network.RequestID]string{}}
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(b.listen))
	b.ctx = ctx
	shot := t.Name()
	browsersMu.Lock()
	browsers[t.Name()]++
	if n := browsers[t.Name()]; n > 1 {
		shot += "-" + strconv.Itoa(n)
	}
	browsersMu.Unlock()
	t.Cleanup(func() {
		b.screenshot(shot)
		cancelTab()
		cancelAlloc()
		// The allocator waits for Chromium's main process to exit; its
		// helpers (zygote, renderers) notice that on their own, which
		// on a loaded machine takes a moment. Anything of this profile
		// still running after that leaked.
		left := processesOf(profile)
		for deadline := time.Now().Add(10 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = processesOf(profile) {
			time.Sleep(50 * time.Millisecond)
		}
		if len(left) > 0 {
			t.Errorf("Chromium processes left running: %s", strings.Join(left, "; "))
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, p := range b.problems {
			t.Errorf("page: %s", p)
		}
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium %s: %v", path, err)
	}
	return b
}

// listen runs on the tab's event loop: it must only record.
func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				var str string
				if a.Type == runtime.RemoteObjectTypeString && json.Unmarshal(a.Value, &str) == nil {
					parts = append(parts, str)
				} else if len(a.Value) > 0 {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			b.problems = append(b.problems, "console."+string(ev.Type)+": "+strings.Join(parts, " ")+stackOf(ev.StackTrace))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		b.problems = append(b.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
	case *log.EventEntryAdded:
		// The browser's own log: a resource that failed to load, a
		// websocket that could not connect, a CSP violation.
		if ev.Entry.Level == log.EntryLevelError {
			b.problems = append(b.problems, fmt.Sprintf("browser log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		if b.srv != nil && strings.HasPrefix(ev.Request.URL, b.srv.URL+"/") {
			b.requests[ev.RequestID] = ev.Request.URL
		}
	case *network.EventResponseReceived:
		u, ours := b.requests[ev.RequestID]
		if ours && ev.Response.Status >= 400 {
			b.problems = append(b.problems, fmt.Sprintf("HTTP %d for %s", ev.Response.Status, u))
		}
	case *network.EventLoadingFailed:
		// A request the page itself gave up (a navigation away) is not
		// the server's failure.
		if u, ours := b.requests[ev.RequestID]; ours && !ev.Canceled {
			b.problems = append(b.problems, fmt.Sprintf("request failed: %s: %s", u, ev.ErrorText))
		}
	case *network.EventWebSocketFrameError:
		b.problems = append(b.problems, "websocket frame error: "+ev.ErrorMessage)
	}
}

func stackOf(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 {
		return ""
	}
	f := st.CallFrames[0]
	return fmt.Sprintf(" (at %s:%d)", f.URL, f.LineNumber+1)
}

// screenshot saves the page as NAME.png in the test's folder and in
// $ARENA_E2E_SHOTS when set.
func (b *browser) screenshot(name string) {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("screenshot: %v", err)
		return
	}
	file := strings.NewReplacer("/", "-", " ", "_").Replace(name) + ".png"
	dirs := []string{b.srv.Dir}
	if d := os.Getenv(shotsEnv); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.t.Errorf("screenshot: %v", err)
		}
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, file), png, 0o644); err != nil {
			b.t.Errorf("screenshot: %v", err)
		}
	}
}

// do runs actions with a time limit, failing the test on an error.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// open shows a hash route ("#/replay/ID"). The first call loads the URL
// the server printed, so the page takes the token from it as a user's
// browser would, and then moves to the route.
func (b *browser) open(route string) {
	b.t.Helper()
	if !b.loaded {
		b.do("load "+b.srv.Page, chromedp.Navigate(b.srv.Page))
		// Module scripts run before the load event, so by then the page
		// has taken the token from the address.
		b.wait("the page to load", "document.readyState === 'complete'", "document.readyState", 10*time.Second)
		b.loaded = true
	}
	b.do("go to "+route, chromedp.Evaluate[chromedp.Void]("location.hash = "+jsString(route)))
}

// eval evaluates a JavaScript expression, awaits it if it is a promise,
// and decodes its value into T.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript expression (or promise) until it is truthy; on time-out the
// test fails with what describe (another expression) says then.
func (b *browser) wait(what, expr, describe string, limit time.Duration) {
	b.t.Helper()
	if b.poll(expr, limit) {
		return
	}
	state := ""
	if describe != "" {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](describe))
		cancel()
		state = fmt.Sprintf("; %s = %s (%v)", describe, raw, err)
	}
	b.t.Fatalf("waited %v for %s (%s)%s", limit, what, expr, state)
}

// poll reports whether a JavaScript expression (or promise) becomes
// truthy within limit.
func (b *browser) poll(expr string, limit time.Duration) bool {
	b.t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("(async () => !!(await ("+expr+")))()", chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// waitFor waits until a CSS selector matches an element.
func (b *browser) waitFor(sel string, limit time.Duration) {
	b.t.Helper()
	b.wait(sel, "document.querySelector("+jsString(sel)+")", "location.hash", limit)
}

// click clicks an element with the mouse, as a person would.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// text returns an element's textContent ("" if there is none).
func (b *browser) text(sel string) string {
	b.t.Helper()
	return eval[string](b, "(document.querySelector("+jsString(sel)+")||{}).textContent||''")
}

// attr returns an attribute of the first element sel matches.
func (b *browser) attr(sel, name string) string {
	b.t.Helper()
	return eval[string](b, "((document.querySelector("+jsString(sel)+")||{getAttribute(){return ''}}).getAttribute("+jsString(name)+"))||''")
}

func jsString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// boardPly reads the position the board shows.
func (b *browser) boardPly() int {
	b.t.Helper()
	n, err := strconv.Atoi(b.attr(".board", "data-ply"))
	if err != nil {
		b.t.Fatalf("board data-ply: %v", err)
	}
	return n
}

// takeProblems returns what went wrong in the page so far and forgets it.
func (b *browser) takeProblems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.problems
	b.problems = nil
	return p
}
