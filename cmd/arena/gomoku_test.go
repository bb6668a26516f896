package main

import (
	"encoding/json"
	"os"
	"os/exec"
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
