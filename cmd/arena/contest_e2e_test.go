package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serveProcess starts "arena serve" as a real process and returns its
// address; it is stopped at the end of the test.
func serveProcess(t *testing.T, dir string, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exe, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 20 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
		logf.Close()
		if t.Failed() {
			data, _ := os.ReadFile(logf.Name())
			t.Logf("serve's stderr:\n%s", data)
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	go io.Copy(io.Discard, out)
	m := regexp.MustCompile(`serving on (http://[^/]+)/`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve printed %q", line)
	}
	return m[1]
}

// getJSON fetches a contest API call with a token.
func getJSON(t *testing.T, url, token string, v any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

// A contest end to end, every step a real process, the games on a
// worker process (--workers): create, participants,
// five submissions (Python, Go and C bots accepted; one that does not
// compile and one that crashes in its test game rejected), the ladder
// plays, the status and the participants' pages, finals.
func TestContestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bots and plays a ladder")
	}
	for _, tool := range []string{"gcc", "go", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	if _, stderr, code := runArena(t, dir, "contest", "create", "cup", "--game", "gomoku", "--proto", "pipe", "--db", db); code != 0 {
		t.Fatalf("create: %s", stderr)
	}
	tokens := map[string]string{}
	for _, u := range []string{"py", "go", "c", "bad", "crash"} {
		out, stderr, code := runArena(t, dir, "contest", "user", "add", u, "--contest", "cup", "--db", db)
		if code != 0 {
			t.Fatalf("user add: %s", stderr)
		}
		tokens[u] = strings.TrimSpace(out)
	}
	url := serveProcess(t, dir, "--db", db, "--out", filepath.Join(dir, "out"), "--ladder-slots", "2", "--workers", "1")
	testdata, _ := filepath.Abs(filepath.Join("testdata", "contest"))
	for _, c := range []struct {
		user, path string
		code       int
		says       string
	}{
		{"py", filepath.Join(testdata, "py"), 0, "accepted"},
		{"c", filepath.Join(testdata, "c", "bot.c"), 0, "accepted"},
		{"go", filepath.Join(testdata, "go"), 0, "accepted"},
		{"bad", filepath.Join(testdata, "bad"), 1, "compilation failed: gcc exited"},
		{"crash", filepath.Join(testdata, "crash"), 1, "crash"},
	} {
		out, stderr, code := runArena(t, dir, "submit", "--server", url, "--token", tokens[c.user], "--contest", "cup", c.path)
		if code != c.code || !strings.Contains(out+stderr, c.says) {
			t.Errorf("submit %s: exit %d, want %d saying %q\nstdout: %s\nstderr: %s", c.user, code, c.code, c.says, out, stderr)
		}
	}
	if _, stderr, code := runArena(t, dir, "submit", "--server", url, "--token", "wrong", "--contest", "cup", filepath.Join(testdata, "py")); code == 0 || !strings.Contains(stderr, "401") {
		t.Errorf("a wrong token: exit %d\n%s", code, stderr)
	}
	// The ladder plays the three accepted bots.
	var status struct {
		Games     int `json:"games"`
		Standings []struct {
			User                       string
			Games, Wins, Draws, Losses int
			Language                   string
		} `json:"standings"`
		Submissions []struct{ User, State string } `json:"submissions"`
	}
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(time.Second) {
		out, stderr, code := runArena(t, dir, "contest", "status", "cup", "--db", db, "--json")
		if code != 0 {
			t.Fatalf("status: %s", stderr)
		}
		if err := json.Unmarshal([]byte(out), &status); err != nil {
			t.Fatal(err)
		}
		if status.Games >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ladder played %d games in 3 minutes", status.Games)
		}
	}
	langs := map[string]string{}
	for i, r := range status.Standings {
		langs[r.User] = r.Language
		if r.Wins+r.Draws+r.Losses != r.Games {
			t.Errorf("%s: %d games but %d/%d/%d", r.User, r.Games, r.Wins, r.Draws, r.Losses)
		}
		if i < 3 && r.Language == "" {
			t.Errorf("rank %d is %s, which has no bot", i+1, r.User)
		}
	}
	if langs["py"] != "python" || langs["go"] != "go" || langs["c"] != "c" || langs["bad"] != "" {
		t.Errorf("languages %v", langs)
	}
	// The games went through the workers (--workers 1; the Chromium
	// test plays the ladder on local slots).
	if _, err := os.Stat(filepath.Join(dir, "out", "workers.log")); err != nil {
		t.Errorf("no worker ran: %v", err)
	}
	// A participant's page: its own stderr, never another's.
	var mine struct {
		Submissions []struct{ State, Log string }
		Games       []struct {
			ID, Stderr string
			Users      []string
		}
	}
	if code := getJSON(t, url+"/api/contests/cup/me", tokens["py"], &mine); code != http.StatusOK || len(mine.Games) == 0 {
		t.Fatalf("py's page: %d, %+v", code, mine)
	}
	for _, g := range mine.Games {
		if strings.Contains(g.Stderr, "stderr of go") || strings.Contains(g.Stderr, "stderr of c") {
			t.Errorf("py sees another's stderr in %s: %q", g.ID, g.Stderr)
		}
	}
	if !strings.Contains(mine.Games[0].Stderr+mine.Games[len(mine.Games)-1].Stderr, "stderr of py") {
		t.Errorf("py does not see its own stderr: %+v", mine.Games)
	}
	var rec map[string]any
	if code := getJSON(t, url+"/api/records/"+mine.Games[0].ID, "", &rec); code != http.StatusOK {
		t.Errorf("replay of %s: %d", mine.Games[0].ID, code)
	} else if data, _ := json.Marshal(rec); strings.Contains(string(data), "stderr of") {
		t.Error("a public record holds a bot's stderr")
	}
	if code := getJSON(t, url+"/api/contests/cup/me", "", nil); code != http.StatusUnauthorized {
		t.Errorf("a page without a token: %d", code)
	}
	var badPage struct {
		Submissions []struct{ State, Log string }
	}
	getJSON(t, url+"/api/contests/cup/me", tokens["bad"], &badPage)
	if len(badPage.Submissions) != 1 || !strings.Contains(badPage.Submissions[0].Log, "missing_variable") {
		t.Errorf("bad's compile log: %+v", badPage)
	}
	// The finals: the three accepted bots in a round robin.
	out, stderr, code := runArena(t, dir, "contest", "finals", "cup", "--format", "round-robin", "--games-per-pair", "2",
		"--db", db, "--out", filepath.Join(dir, "finals"), "--json")
	if code != 0 {
		t.Fatalf("finals: exit %d\n%s", code, stderr)
	}
	var report struct {
		Games     int  `json:"games"`
		Finished  bool `json:"finished"`
		Standings []struct {
			Player string `json:"player"`
		} `json:"standings"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || !report.Finished || report.Games != 6 || len(report.Standings) != 3 {
		t.Errorf("finals: %+v, %v\n%s", report, err, out)
	}
}
