package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/game"
)

// readRecord reads the JSON record a game line points to.
func readRecord(t *testing.T, line map[string]any) game.Record {
	t.Helper()
	path, _ := line["record"].(string)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec game.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rec
}

// TestScriptBrainThroughInterpreter runs a Python pbrain- script through
// python3, given by a path relative to the folder arena starts in: the
// brain is found from its own working folder and speaks the pipe
// protocol, so the games end on the board, not by a protocol fault.
func TestScriptBrainThroughInterpreter(t *testing.T) {
	skipUnderRace(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	stdout, stderr, err := arena(t, "match", "gomoku",
		"--bot", "python3 ../../testdata/brains/pbrain-pyrandom.py", "--bot", "builtin",
		"--games", "2", "--size", "15", "--turn-time", "2s", "--out", t.TempDir(), "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("want 2 JSON lines, got %d:\n%s\n%s", len(games), stdout, stderr)
	}
	for i, g := range games {
		if g["winner"] != float64(1) || g["reason"] != "five" {
			t.Errorf("game %d: winner %v by %v (%v), want the builtin brain by five", i, g["winner"], g["reason"], g["detail"])
		}
		rec := readRecord(t, g)
		if p := rec.Players[0]; p.Protocol != "pipe" || p.Name != "pbrain-pyrandom" {
			t.Errorf("game %d: the script plays as %q over %q, want pbrain-pyrandom over pipe", i, p.Name, p.Protocol)
		}
	}
}

// TestStartFailureShowsStderr starts brains that fail at once and checks
// that the cause they wrote to stderr, or the missing interpreter, is in
// the verdict's detail, in the JSON line and on the console, without
// --debug.
func TestStartFailureShowsStderr(t *testing.T) {
	skipUnderRace(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	badInterp := filepath.Join(dir, "pbrain-badinterp")
	if err := os.WriteFile(badInterp, []byte("#!/no/such/python9\nprint('hi')\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	raises := filepath.Join(dir, "pbrain-raise.py")
	if err := os.WriteFile(raises, []byte("import sys\nsys.exit('pbrain-raise: cannot load weights.bin')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, bot, want string
	}{
		{"pipe brain that exits", "python3 " + raises, "start-up: exit status 1; stderr: pbrain-raise: cannot load weights.bin"},
		{"missing script", "python3 pbrain-no-such-script.py", "No such file or directory"},
		{"exception at start", "python3 -c \"import no_such_module_at_all\"", "ModuleNotFoundError: No module named 'no_such_module_at_all'"},
		{"bad interpreter", badInterp, `bad interpreter "/no/such/python9"`},
		{"file brain that exits", "../../testdata/brains/filebrain-crash.sh", "filebrain-crash: giving up"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := arena(t, "match", "gomoku", "--bot", "failing="+tc.bot, "--bot", "builtin",
				"--games", "1", "--size", "15", "--out", t.TempDir(), "--json")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			games := decodeLines(t, stdout)
			if len(games) != 1 {
				t.Fatalf("want 1 JSON line, got %d:\n%s", len(games), stdout)
			}
			detail, _ := games[0]["detail"].(string)
			if games[0]["reason"] != "crash" || !strings.Contains(detail, tc.want) {
				t.Errorf("verdict %v %q, want a crash whose detail quotes %q", games[0]["reason"], detail, tc.want)
			}
			if rec := readRecord(t, games[0]); rec.Detail != detail {
				t.Errorf("record detail %q, JSON line %q", rec.Detail, detail)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("console does not show %q:\n%s", tc.want, stderr)
			}
		})
	}
}

// TestFileBrainSpeakingPipe runs, on the file protocol, brains that
// answer on stdout as pipe-protocol brains do and leave TAH.DAT as it
// was: the verdict says what they printed and names --proto pipe. A file
// brain that merely fails gets no such advice.
func TestFileBrainSpeakingPipe(t *testing.T) {
	dir := t.TempDir()
	write := func(name, script string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, bot, want string
		hint            bool
	}{
		{"OK and a move", write("talker", "echo OK\necho 7,7\n"), `printed "OK" on stdout`, true},
		{"a move only, and TAH.DAT removed", write("remover", "rm -f TAH.DAT\nprintf '3,4\\r\\n'\n"), `wrote no TAH.DAT; it printed "3,4"`, true},
		{"a failing file brain", "../../testdata/brains/filebrain-crash.sh", "giving up", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := arena(t, "match", "gomoku", "--bot", "b="+tc.bot, "--bot", "builtin",
				"--games", "1", "--size", "15", "--out", t.TempDir(), "--json")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			games := decodeLines(t, stdout)
			if len(games) != 1 {
				t.Fatalf("want 1 JSON line, got %d:\n%s", len(games), stdout)
			}
			detail, _ := games[0]["detail"].(string)
			if !strings.Contains(detail, tc.want) || strings.Contains(detail, "--proto pipe") != tc.hint {
				t.Errorf("detail %q: want %q, and --proto pipe named: %v", detail, tc.want, tc.hint)
			}
		})
	}
}

// TestOneMoveSummary ends a game after one move (White's brain crashes on
// its first): the console says "after 1 move".
func TestOneMoveSummary(t *testing.T) {
	dir := testBrain(t)
	_, stderr, err := arena(t, "match", "gomoku", "--bot", "builtin", "--bot", "crasher="+filepath.Join(dir, "pbrain-tb")+" --misbehave=crash",
		"--games", "1", "--size", "15", "--out", t.TempDir())
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "builtin won by crash after 1 move:") {
		t.Errorf("console does not say %q:\n%s", "after 1 move", stderr)
	}
}
