package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build compiles this program into a temporary folder.
func build(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "antssample")
	out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// Every strategy, run as a real process over pipes, answers the settings
// with "go", gives legal-looking orders for its own ants only, and exits
// cleanly after "end".
func TestStrategiesSpeakProtocol(t *testing.T) {
	exe := build(t)
	in := strings.Join([]string{
		"turn 0", "loadtime 3000", "turntime 1000", "rows 12", "cols 12", "turns 5",
		"viewradius2 77", "attackradius2 5", "spawnradius2 1", "player_seed 7", "ready",
		"turn 1", "w 0 0", "f 3 6", "h 3 3 0", "a 3 3 0", "a 4 4 0", "a 8 8 1", "go",
		"turn 2", "a 3 4 0", "a 5 4 0", "a 8 7 1", "go",
		"end", "players 2", "score 1 1", "status survived survived", "playerturns 2 2", "go", "",
	}, "\n")
	mine := map[int]map[string]bool{1: {"3 3": true, "4 4": true}, 2: {"3 4": true, "5 4": true}}
	for _, strategy := range []string{"random", "hold", "lefty", "greedy", "hunter"} {
		t.Run(strategy, func(t *testing.T) {
			cmd := exec.Command(exe, "--strategy", strategy)
			cmd.Stdin = strings.NewReader(in)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			turn := 0
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if line == "go" {
					turn++
					continue
				}
				f := strings.Fields(line)
				if len(f) != 4 || f[0] != "o" || !strings.Contains("nesw", f[3]) || !mine[turn][f[1]+" "+f[2]] {
					t.Fatalf("turn %d: bad order %q", turn, line)
				}
			}
			if turn != 3 {
				t.Fatalf("%d go lines, want 3 (turn 0, 1, 2):\n%s", turn, out)
			}
			if strategy == "hold" && strings.Contains(string(out), "o ") {
				t.Fatalf("hold moved:\n%s", out)
			}
		})
	}
}

func TestUnknownStrategy(t *testing.T) {
	exe := build(t)
	out, err := exec.Command(exe, "--strategy", "sleepy").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("err = %v, want exit status 2", err)
	}
	if !strings.Contains(string(out), `unknown sample strategy "sleepy"`) {
		t.Fatalf("output %q", out)
	}
}
