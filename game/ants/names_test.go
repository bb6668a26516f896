package ants

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The engine's rule: the last word that is an existing path, base name.
func TestCommandName(t *testing.T) {
	existing := map[string]bool{
		"dist/sample_bots/python/HunterBot.py": true,
		"/x/arena":                             true,
		"MyBot.py":                             true,
		"bots":                                 true,
		"/usr/bin/java":                        true,
		"bot.jar":                              true,
	}
	exists := func(w string) bool { return existing[w] }
	cases := []struct {
		command, want string
	}{
		{"python3 dist/sample_bots/python/HunterBot.py", "HunterBot.py"},
		{"python3 dist/sample_bots/python/HunterBot.py --depth 3", "HunterBot.py"},
		{"/x/arena bot ants", "arena"},
		{"/x/arena bot ants --sample greedy", "arena"},
		{"python3 MyBot.py bots", "bots"}, // an existing argument wins, as in the engine
		{"/usr/bin/java -jar bot.jar", "bot.jar"},
		{"python3 missing.py", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := CommandName(strings.Fields(c.command), exists); got != c.want {
			t.Errorf("%q: name %q, want %q", c.command, got, c.want)
		}
	}
}

// A recorded command's words, with the engine's folder not at hand.
func TestLooksLikeFile(t *testing.T) {
	cases := []struct {
		word string
		want bool
	}{
		{"dist/sample_bots/python/HunterBot.py", true},
		{"./MyBot", true},
		{"/usr/bin/python3", true},
		{"MyBot.py", true},
		{"MyBot.jar", true},
		{"python3", false},
		{"--depth", false},
		{"-v", false},
		{"3", false},
		{"0.5", false},
		{"", false},
	}
	for _, c := range cases {
		if got := looksLikeFile(c.word); got != c.want {
			t.Errorf("looksLikeFile(%q) = %t, want %t", c.word, got, c.want)
		}
	}
}

// ReplayName asks the file system from the current folder, as the
// engine does: a script given by path names the bot, the interpreter
// and the arguments after the script do not.
func TestReplayNameOnFiles(t *testing.T) {
	script := filepath.Join(t.TempDir(), "HunterBot.py")
	if err := os.WriteFile(script, []byte("print('go')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p    Player
		want string
	}{
		{Player{Name: "HunterBot", Args: []string{"python3", script, "--depth", "3"}}, "HunterBot.py"},
		{Player{Name: "HunterBot", Args: []string{"/usr/bin/env", "python3", script}}, "HunterBot.py"},
		{Player{Name: "gone", Args: []string{"no-such-program-here", "--fast"}}, "gone"},
	}
	for _, c := range cases {
		if got := ReplayName(c.p); got != c.want {
			t.Errorf("%v: replay name %q, want %q", c.p.Args, got, c.want)
		}
	}
}

// A game whose last bot fills the seats left over (--fill) names each bot
// once in the replay, as playgame.py names each command it was given.
func TestReplayNamesWithFill(t *testing.T) {
	m, err := os.ReadFile(filepath.Join("..", "..", "testdata", "conformance", "ants", "v5_maze_p04_03_4p", "map.map"))
	if err != nil {
		t.Fatal(err)
	}
	opt := quickOptions(2)
	g := Game{ID: "fill", Players: []Player{testPlayer(t, "a", "hold", 99), testPlayer(t, "b", "hold", 99)}, Seats: []int{0, 1, 1, 1}}
	played, err := PlayGame(context.Background(), MatchConfig{Options: opt, MapText: string(m), WorkDir: t.TempDir()}, g)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"playernames": ["testbot.py", "testbot.py"]}`; !strings.HasSuffix(string(played.Replay), want) {
		t.Errorf("replay ends %q, want %q", played.Replay[max(0, len(played.Replay)-80):], want)
	}
	if n := len(played.Result.Score); n != 4 {
		t.Errorf("%d scores, want one per seat", n)
	}
}
