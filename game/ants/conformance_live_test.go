package ants

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// botStderr is the part of a recorded error log the bot wrote itself:
// every line that is not one of the engine's (engineErrorLines).
func botStderr(log string) string {
	var out strings.Builder
	judged := false
	for _, line := range strings.SplitAfter(log, "\n") {
		bare := strings.TrimSuffix(line, "\n")
		switch {
		case engineHeader.MatchString(bare):
			judged = strings.HasSuffix(bare, "actions:")
		case judged && strings.Contains(bare, " # "):
		default:
			judged = false
			out.WriteString(line)
		}
	}
	return out.String()
}

// TestConformanceLiveProcesses plays every recorded official game again
// with real bot processes, each replaying its recorded answers through
// pipes (testdata/replaybot.py), and compares every file byte for byte:
// what each bot was sent, its judged orders, the stream, the replay, and
// the whole error log. The crashing bot writes its recorded traceback
// before it exits, so its log must be the engine's line and the traceback
// and nothing of arena's own (no exit status); every bot writes a line to
// stderr after the end message, which the engine never reads.
func TestConformanceLiveProcesses(t *testing.T) {
	py := needPython(t)
	script, err := filepath.Abs(filepath.Join("testdata", "replaybot.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range recordedGames(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			rec, err := LoadRecorded(dir)
			if err != nil {
				t.Fatal(err)
			}
			n := len(rec.Answers)
			g := Game{ID: "live"}
			for b := range n {
				recorded, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.error", b)))
				if err != nil {
					t.Fatal(err)
				}
				lastWords := filepath.Join(t.TempDir(), "stderr")
				if err := os.WriteFile(lastWords, []byte(botStderr(string(recorded))), 0o644); err != nil {
					t.Fatal(err)
				}
				moves := filepath.Join(dir, fmt.Sprintf("bot%d.moves", b))
				g.Players = append(g.Players, Player{Name: fmt.Sprintf("bot%d", b), Args: []string{py, script, moves, lastWords}})
				g.Seats = append(g.Seats, b)
			}
			mc := MatchConfig{Options: rec.Options, MapText: rec.MapText, WorkDir: t.TempDir(),
				Stream: true, Input: true, Output: true, Error: true}
			played, err := PlayGame(context.Background(), mc, g)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{"stream.txt": played.Stream}
			for b := range n {
				files[fmt.Sprintf("bot%d.input", b)] = played.Input[b]
				files[fmt.Sprintf("bot%d.output", b)] = played.Output[b]
				files[fmt.Sprintf("bot%d.error", b)] = played.Error[b]
			}
			for name, got := range files {
				want, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if d := firstLineDiff(got, want); d != "" {
					t.Errorf("%s: %s", name, d)
				}
			}
			want, err := os.ReadFile(filepath.Join(dir, "replay.json"))
			if err != nil {
				t.Fatal(err)
			}
			if d := FirstJSONDifference(ReplayJSON(played.Result, rec.Names), want); d != "" {
				t.Errorf("replay.json: %s", d)
			}
		})
	}
}
