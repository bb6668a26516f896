package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/game"
	"arena/game/khet"
)

// khetPlayer builds the Khet test player (random, greedy, misbehaving)
// into the test's temporary folder and returns its path.
func khetPlayer(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "khettest")
	if out, err := exec.Command("go", "build", "-o", path, "arena/internal/cmd/khettest").CombinedOutput(); err != nil {
		t.Fatalf("build khettest: %v\n%s", err, out)
	}
	return path
}

// TestKhetMatchJSON runs "arena match khet" between the built-in player
// and a random one, and checks the JSON lines, the records and their
// replay logs.
func TestKhetMatchJSON(t *testing.T) {
	p := khetPlayer(t)
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "khet", "--bot", "builtin", "--bot", "rnd="+p+" --policy=random --seed=3",
		"--games", "2", "--turn-time", "200ms", "--out", out, "--json", "--debug")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("want 2 JSON lines, got %d:\n%s", len(games), stdout)
	}
	for i, g := range games {
		if g["game"] != "khet" || g["first"] != float64(i%2) {
			t.Errorf("game %d: %v", i, g)
		}
		if g["winner"] != float64(0) || g["reason"] != string(khet.ReasonPharaoh) {
			t.Errorf("game %d: winner %v by %v (%v): want the built-in player by pharaoh", i, g["winner"], g["reason"], g["detail"])
		}
		path, _ := g["record"].(string)
		rec, err := game.ReadRecord(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := khet.Replay(rec); err != nil {
			t.Errorf("game %d: replay: %v", i, err)
		}
		if !strings.Contains(rec.Players[0].Stderr, "depth ") || !strings.Contains(rec.Players[0].Stderr, "nps ") {
			t.Errorf("game %d: the built-in player's stderr has no status: %q", i, rec.Players[0].Stderr)
		}
		if _, err := os.Stat(strings.TrimSuffix(path, ".json") + ".khet"); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(out, "*-builtin.log"))
	if len(logs) != 2 {
		t.Fatalf("want a --debug transcript per game, got %v", logs)
	}
	if data, _ := os.ReadFile(logs[0]); !strings.Contains(string(data), "< play khet arena-khet") {
		t.Errorf("transcript lacks the greeting:\n%s", data)
	}
}

// TestKhetMisbehavingBot: a bot that answers garbage loses by E, one
// that sleeps loses by T, with the detail saying where its threads were.
func TestKhetMisbehavingBot(t *testing.T) {
	p := khetPlayer(t)
	for _, tc := range []struct{ fault, reason, detail string }{{"garbage", "protocol", ""}, {"sleep", "timeout", "threads: "}, {"crash", "crash", ""}} {
		stdout, stderr, err := arena(t, "match", "khet", "--bot", p+" --policy=random", "--bot", "bad="+p+" --fault="+tc.fault,
			"--games", "1", "--turn-time", "300ms", "--tolerance", "100ms", "--out", t.TempDir(), "--json")
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		g := decodeLines(t, stdout)
		if len(g) != 1 || g[0]["winner"] != float64(0) || g[0]["reason"] != tc.reason {
			t.Fatalf("%s: %v", tc.fault, g)
		}
		if d, _ := g[0]["detail"].(string); !strings.Contains(d, tc.detail) {
			t.Errorf("%s: detail %q lacks %q", tc.fault, d, tc.detail)
		}
	}
}

// TestKhetBadFlags: wrong Khet options get a one-line error.
func TestKhetBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--setup", "chess"}, "--setup"},
		{[]string{"--swap-check", "never"}, "--swap-check"},
		{[]string{"--max-plies", "-1"}, "--max-plies"},
		{[]string{"--repetition", "1"}, "repetition"},
		{[]string{"--bot", "builtin"}, "exactly 2 bots"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, _, err := arena(t, append([]string{"match", "khet", "--out", t.TempDir()}, tc.args...)...)
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line mentioning %q", msg, tc.want)
			}
		})
	}
}

// TestKhetBotCommand runs "arena bot khet" as a process: greeting, one
// legal move, a status line on stderr, exit after E.
func TestKhetBotCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := khet.NewState(khet.DefaultConfig())
	cmd := exec.Command(exe, "bot", "khet", "--turn-time", "300ms")
	cmd.Stdin = strings.NewReader("B S " + s.String() + "\nR S " + s.String() + "\nE S SE " + s.String()[2:] + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != "play khet arena-khet" {
		t.Fatalf("output %q", out)
	}
	m, err := khet.ParseMove(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Play(m); err != nil {
		t.Fatalf("move %v: %v", m, err)
	}
	if !strings.Contains(stderr.String(), "depth ") || !strings.Contains(stderr.String(), "nps ") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestKhetBuiltinBeatsGreedy plays the built-in player against the
// one-ply greedy player over real pipes (the 40-game strength test is in
// bots/khetbot).
func TestKhetBuiltinBeatsGreedy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 4 games")
	}
	p := khetPlayer(t)
	stdout, stderr, err := arena(t, "match", "khet", "--bot", "builtin", "--bot", "greedy="+p+" --policy=greedy --seed=9",
		"--games", "4", "--turn-time", "100ms", "--out", t.TempDir(), "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	wins := 0
	for _, g := range decodeLines(t, stdout) {
		if g["winner"] == float64(0) {
			wins++
		}
	}
	if wins < 3 {
		t.Errorf("won %d of 4 against the greedy player:\n%s", wins, stdout)
	}
}

// TestKhetOpenings runs "arena match khet --opening": each opening of the
// file is played twice, colours swapped, from the state after it, and the
// records keep it.
func TestKhetOpenings(t *testing.T) {
	p := khetPlayer(t)
	out := t.TempDir()
	file := filepath.Join(out, "openings.txt")
	os.WriteFile(file, []byte("# two openings\nS23C R21C\nS54c\n"), 0o644)
	stdout, stderr, err := arena(t, "match", "khet", "--opening", file, "--games", "4",
		"--bot", "greedy="+p+" --policy=greedy --seed=1", "--bot", "rnd="+p+" --policy=random --seed=2",
		"--turn-time", "1s", "--out", out, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want := [][]string{{"S23C", "R21C"}, {"S23C", "R21C"}, {"S54c"}, {"S54c"}}
	games := decodeLines(t, stdout)
	if len(games) != 4 {
		t.Fatalf("%d games:\n%s", len(games), stdout)
	}
	for i, g := range games {
		rec, err := game.ReadRecord(g["record"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rec.Opening, want[i]) || rec.FirstPlayer() != i%2 {
			t.Errorf("game %d: opening %v, Silver player %d; want %v and %d", i+1, rec.Opening, rec.FirstPlayer(), want[i], i%2)
		}
		if len(rec.Moves) > 0 && rec.Moves[0].Side != len(want[i])%2 {
			t.Errorf("game %d: the bots' first move by side %d", i+1, rec.Moves[0].Side)
		}
		if _, err := khet.Replay(rec); err != nil {
			t.Errorf("game %d: %v", i+1, err)
		}
	}
	_, _, err = arena(t, "match", "khet", "--opening", filepath.Join(out, "missing.txt"), "--bot", p, "--bot", p)
	if err == nil || !strings.Contains(err.Error(), "--opening") || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: error %v, want one naming --opening and the file", err)
	}
}
