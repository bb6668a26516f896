package ants

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceDir is the recorded official games in the repository's
// testdata (testdata/conformance/ants at the module root). They are part
// of the repository, so their absence is a failure, not a skip.
func conformanceDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata", "conformance", "ants"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("recorded games missing (testdata/conformance/ants in the repository): %v", err)
	}
	return d
}

func recordedGames(t testing.TB) []string {
	root := conformanceDir(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no recorded games")
	}
	return dirs
}

func TestConformance(t *testing.T) {
	for _, dir := range recordedGames(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			diff, err := Conform(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				t.Fatal(diff)
			}
		})
	}
}

// withBotArguments copies a recorded game into a temporary folder and
// rewrites its bot commands to carry arguments after the program. The
// sample bots ignore their arguments and the engine names a bot after
// the last word that is an existing path, so the recorded files stay the
// official engine's output for the rewritten commands.
func withBotArguments(t *testing.T, game string, extra string) string {
	t.Helper()
	src := filepath.Join(conformanceDir(t), game)
	dst := filepath.Join(t.TempDir(), game+"_args")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "game.json" {
			text := string(data)
			for _, bot := range []string{"HunterBot.py", "GreedyBot.py", "RandomBot.py", "LeftyBot.py", "HoldBot.py", "ErrorBot.py"} {
				text = strings.ReplaceAll(text, bot+`"`, bot+" "+extra+`"`)
				text = strings.ReplaceAll(text, bot+`'`, bot+" "+extra+`'`)
			}
			if text == string(data) {
				t.Fatalf("%s: no bot command to rewrite", game)
			}
			data = []byte(text)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// A recorded game whose bot commands have arguments after the program
// still names the bots after their scripts, as the replay does.
func TestConformanceBotCommandWithArguments(t *testing.T) {
	for _, game := range []string{"v1_tutorial1_hunter_greedy_strict", "v5_maze_p04_03_4p"} {
		t.Run(game, func(t *testing.T) {
			dir := withBotArguments(t, game, "--depth 3 fast")
			rec, err := LoadRecorded(dir)
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range rec.Names {
				if !strings.HasSuffix(name, "Bot.py") {
					t.Errorf("bot %d is named %q, want its script", i, name)
				}
			}
			diff, err := Conform(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				t.Fatal(diff)
			}
		})
	}
}

// The names are checked: a replay naming a bot otherwise fails.
func TestConformanceChecksPlayerNames(t *testing.T) {
	dir := withBotArguments(t, "v1_tutorial1_hunter_greedy_strict", "--depth 3")
	path := filepath.Join(dir, "replay.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), `"playernames": ["HunterBot.py", "GreedyBot.py"]`, `"playernames": ["3", "3"]`, 1)
	if changed == string(data) {
		t.Fatal("the recorded replay has no playernames to change")
	}
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	diff, err := Conform(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff == "" {
		t.Fatal("a replay with other player names passed")
	}
}
