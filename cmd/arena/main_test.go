package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"arena/internal/testbrain"
)

// The test binary doubles as the arena binary: "builtin" bots run
// os.Executable() with "bot GAME", which lands here.
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_TEST_AS_ARENA") != "" {
		main()
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "bot" {
		root := newRoot()
		root.SetArgs(os.Args[1:])
		if err := root.Execute(); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if brainDir != "" {
		os.RemoveAll(brainDir)
	}
	os.Exit(code)
}

// arena runs the command line in-process and returns stdout and stderr.
func arena(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

var (
	brainOnce sync.Once
	brainDir  string
	brainErr  error
)

// testBrain builds the test brain as pbrain-tb (pipe) and tb (file).
func testBrain(t *testing.T) string {
	t.Helper()
	brainOnce.Do(func() {
		brainDir, brainErr = os.MkdirTemp("", "arena-cli-")
		if brainErr == nil {
			brainErr = testbrain.Build(brainDir)
		}
	})
	if brainErr != nil {
		t.Fatal(brainErr)
	}
	return brainDir
}

func decodeLines(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var games []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var g map[string]any
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("stdout line is not JSON: %q: %v", sc.Text(), err)
		}
		games = append(games, g)
	}
	return games
}

// TestMatchJSON runs the interface the acceptance checks use and checks
// every field of the JSON lines and the files each game leaves.
func TestMatchJSON(t *testing.T) {
	dir := testBrain(t)
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "gomoku",
		"--bot", "builtin", "--bot", "rnd="+filepath.Join(dir, "tb")+" --policy=random --seed=5",
		"--games", "2", "--turn-time", "300ms", "--match-time", "60s", "--rule", "0", "--size", "15",
		"--out", out, "--json", "--debug")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("want 2 JSON lines, got %d:\n%s", len(games), stdout)
	}
	for i, g := range games {
		for _, k := range []string{"id", "game", "players", "first", "winner", "reason", "moves", "record"} {
			if _, ok := g[k]; !ok {
				t.Errorf("game %d: no %q in %v", i, k, g)
			}
		}
		if g["type"] != "game" {
			t.Errorf("game %d: type %v, want game", i, g["type"])
		}
		if g["game"] != "gomoku" {
			t.Errorf("game %d: game %v", i, g["game"])
		}
		players, _ := g["players"].([]any)
		if len(players) != 2 || players[0] != "builtin" || players[1] != "rnd" {
			t.Errorf("game %d: players %v, want [builtin rnd]", i, g["players"])
		}
		if g["first"] != float64(i%2) {
			t.Errorf("game %d: first %v, want colours to alternate", i, g["first"])
		}
		if g["winner"] != float64(0) || g["reason"] != "five" {
			t.Errorf("game %d: winner %v by %v, want the builtin brain by five", i, g["winner"], g["reason"])
		}
		rec, _ := g["record"].(string)
		for _, ext := range []string{".json", ".psq", ".sgf"} {
			if _, err := os.Stat(strings.TrimSuffix(rec, ".json") + ext); err != nil {
				t.Errorf("game %d: %v", i, err)
			}
		}
	}
	logs, _ := filepath.Glob(filepath.Join(out, "*-builtin.log"))
	if len(logs) != 2 {
		t.Fatalf("want a --debug transcript of the builtin brain per game, got %v", logs)
	}
	if data, _ := os.ReadFile(logs[0]); !strings.Contains(string(data), "> START 15") || !strings.Contains(string(data), "< OK") {
		t.Errorf("transcript lacks the START exchange:\n%s", data)
	}
	if sums, _ := filepath.Glob(filepath.Join(out, "*-summary.txt")); len(sums) != 1 {
		t.Errorf("want one summary file, got %v", sums)
	}
	if !strings.Contains(stderr, "points") || !strings.Contains(stderr, "builtin") {
		t.Errorf("no summary table on stderr:\n%s", stderr)
	}
}

// TestBadFlags checks that wrong input gets a one-line error naming the
// problem.
func TestBadFlags(t *testing.T) {
	opening := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(opening, []byte("0,0, 1\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--rule", "5"}, "rule 5"},
		{[]string{"--size", "40"}, "40x40"},
		{[]string{"--games", "0"}, "--games"},
		{[]string{"--turn-time", "-1s"}, "--turn-time"},
		{[]string{"--turn-time", "fast"}, "turn-time"},
		{[]string{"--memory", "lots"}, "--memory"},
		{[]string{"--bot", "/no/such/brain", "--bot", "builtin"}, "/no/such/brain"},
		{[]string{"--bot", "builtin"}, "exactly 2 bots"},
		{[]string{"--bot", `"unterminated`, "--bot", "builtin"}, "unterminated"},
		{[]string{"--proto", "smoke"}, "--proto"},
		{[]string{"--opening", "/no/such/file"}, "--opening"},
		{[]string{"--opening", opening}, "line 1"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"match", "gomoku", "--out", t.TempDir()}, tc.args...)
			_, _, err := arena(t, args...)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line mentioning %q", msg, tc.want)
			}
		})
	}
}
