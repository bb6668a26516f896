package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/game/gomoku"
)

// TestBotFindsFileProtocol starts "arena bot gomoku" without --file in a
// folder holding PLOCHA.DAT: it plays one move of the file protocol.
func TestBotFindsFileProtocol(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	board := strings.Repeat("---------------\n", 7) + "-------x-------\n" + strings.Repeat("---------------\n", 7)
	files := map[string]string{
		"PLOCHA.DAT": board, "TAH.DAT": "o\n", "TIMEOUTS.DAT": "1\n60000\n", "MSG.DAT": "",
		"INFO.DAT": "timeout_turn 300\ntimeout_match 60000\ntime_left 60000\nrule 0\n",
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	cmd := exec.Command(exe, "bot", "gomoku")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("") // the pipe protocol would just see EOF
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "TAH.DAT"))
	p, err := gomoku.ParsePoint(strings.TrimSpace(string(data)))
	if err != nil || p == (gomoku.Point{X: 7, Y: 7}) || p.X < 0 || p.X >= 15 || p.Y < 0 || p.Y >= 15 {
		t.Fatalf("TAH.DAT holds %q: want a free square", data)
	}
}
