package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

func TestParseBotsFile(t *testing.T) {
	good := []struct {
		name, data string
		check      func(t *testing.T, e []botEntry)
	}{
		{"minimal", `[{"name": "a", "cmd": "builtin"}, {"name": "b", "cmd": "./pbrain-b --fast"}]`,
			func(t *testing.T, e []botEntry) {
				if len(e) != 2 || e[0].Name != "a" || e[1].Cmd != "./pbrain-b --fast" {
					t.Errorf("entries %+v", e)
				}
			}},
		{"every field", `[{"name": "x", "cmd": "x", "dir": "d", "proto": "pipe", "env": {"K": "v", "N": 3},
			"memory": "350MB", "turn_time": "300ms", "match_time": 60000, "options": {"hash": 64, "ponder": true, "s": "t u"}}]`,
			func(t *testing.T, e []botEntry) {
				x := e[0]
				if x.Env["N"] != "3" || x.Options["hash"] != "64" || x.Options["ponder"] != "true" || x.Options["s"] != "t u" ||
					x.MatchTime != "60000" || x.Memory != "350MB" {
					t.Errorf("entry %+v", x)
				}
			}},
		{"milliseconds as a string", `[{"name": "x", "cmd": "x", "turn_time": "1500"}]`,
			func(t *testing.T, e []botEntry) {
				if d, _ := parseBotDuration(e[0].TurnTime); d != 1500*time.Millisecond {
					t.Errorf("turn_time %q reads %v", e[0].TurnTime, d)
				}
			}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			e, err := parseBotsFile([]byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, e)
		})
	}
	bad := []struct{ name, data, want string }{
		{"not JSON", "[{\"name\": \"a\",\n \"cmd\": }]", "line 2"},
		{"not a list", `{"name": "a", "cmd": "b"}`, "want a JSON list of bots"},
		{"empty list", `[]`, "empty"},
		{"empty file", ``, "end of the file"},
		{"after the list", `[{"name": "a", "cmd": "b"}] [1]`, "more after"},
		{"unknown field", `[{"name": "a", "cmd": "b", "engine": "c"}]`, `bot 1: unknown field "engine"`},
		{"entry not an object", `[{"name": "a", "cmd": "b"}, 7]`, "bot 2: want an object"},
		{"no name", `[{"cmd": "b"}]`, "bot 1: no name"},
		{"no cmd", `[{"name": "a"}]`, `bot 1 ("a"): no cmd`},
		{"duplicate", `[{"name": "a", "cmd": "b"}, {"name": "a", "cmd": "c"}]`, `bot 2 ("a"): the name is also bot 1's`},
		{"slash in name", `[{"name": "a/b", "cmd": "b"}]`, "slash"},
		{"unterminated cmd", `[{"name": "a", "cmd": "'b"}]`, "unterminated"},
		{"bad duration", `[{"name": "a", "cmd": "b", "turn_time": "soon"}]`, "turn_time"},
		{"negative duration", `[{"name": "a", "cmd": "b", "match_time": "-1s"}]`, "negative"},
		{"bad memory", `[{"name": "a", "cmd": "b", "memory": "lots"}]`, "memory"},
		{"wrong type", `[{"name": "a", "cmd": ["b"]}]`, "cmd: want string"},
		{"env name", `[{"name": "a", "cmd": "b", "env": {"A=B": "c"}}]`, "env"},
		{"option object", `[{"name": "a", "cmd": "b", "options": {"k": {"x": 1}}}]`, "want a string, number"},
		{"option key with space", `[{"name": "a", "cmd": "b", "options": {"k k": 1}}]`, "options"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseBotsFile([]byte(tc.data))
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line mentioning %q", msg, tc.want)
			}
		})
	}
}

func FuzzParseBotsFile(f *testing.F) {
	for _, s := range []string{
		`[{"name": "a", "cmd": "builtin"}]`,
		`[{"name": "x", "cmd": "x y", "dir": "d", "proto": "pipe", "env": {"K": "v"}, "memory": 1e6, "turn_time": "1s", "match_time": "2m", "options": {"h": 1}}]`,
		`[{"name": "a", "cmd": "b"}, {"name": "a", "cmd": "c"}]`,
		`[1]`, `{}`, `[`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseBotsFile(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		names := map[string]bool{}
		for _, e := range entries {
			if e.Name == "" || strings.TrimSpace(e.Cmd) == "" || names[e.Name] {
				t.Fatalf("accepted entry %+v (names so far %v)", e, names)
			}
			names[e.Name] = true
			if _, err := parseBotDuration(e.TurnTime); err != nil {
				t.Fatalf("accepted turn_time %q: %v", e.TurnTime, err)
			}
		}
	})
}

// writeBotsFile writes a bots file into dir and returns its path.
func writeBotsFile(t *testing.T, dir, data string) string {
	t.Helper()
	path := filepath.Join(dir, "bots.json")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBotsFileRefuses checks the one-line errors of a bots file that does
// not fit the game or the other bots.
func TestBotsFileRefuses(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		file string
		want string
	}{
		{[]string{"match", "khet"}, `[{"name": "a", "cmd": "builtin", "options": {"k": 1}}, {"name": "b", "cmd": "builtin"}]`,
			`bot "a": options does not apply to khet`},
		{[]string{"match", "khet"}, `[{"name": "a", "cmd": "builtin", "proto": "pipe"}, {"name": "b", "cmd": "builtin"}]`,
			`bot "a": proto does not apply to khet`},
		{[]string{"match", "ants"}, `[{"name": "a", "cmd": "builtin", "turn_time": "1s"}, {"name": "b", "cmd": "builtin"}]`,
			`bot "a": turn_time does not apply to ants`},
		{[]string{"match", "gomoku"}, `[{"name": "a", "cmd": "builtin", "dir": "no-such-folder"}, {"name": "b", "cmd": "builtin"}]`,
			`bot "a": dir no-such-folder: not a folder`},
		{[]string{"match", "gomoku", "--bot", "a=builtin"}, `[{"name": "a", "cmd": "builtin"}]`,
			`bot "a": a --bot has that name too`},
		{[]string{"match", "gomoku", "--bot", "builtin"}, `[{"name": "a", "cmd": "builtin"}, {"name": "b", "cmd": "builtin"}]`,
			"--bot/--bots: gomoku needs exactly 2 bots, got 3"},
		{[]string{"match", "points"}, `[{"name": "a", "cmd": "builtin", "options": {"base": 2}}, {"name": "b", "cmd": "builtin"}]`,
			`bot "a": proto/options`},
		{[]string{"match", "gomoku"}, `[{"name": "a", "cmd": "builtin", "proto": "smoke"}, {"name": "b", "cmd": "builtin"}]`,
			`--proto "smoke"`},
		{[]string{"sprt", "ants"}, `[{"name": "a", "cmd": "builtin"}, {"name": "b", "cmd": "builtin"}, {"name": "c", "cmd": "builtin"}]`,
			"exactly 2 bots"},
		{[]string{"match", "gomoku"}, `[{"name": "a", "cmd": "builtin"}, {"name": "a", "cmd": "builtin"}]`,
			"bots.json: bot 2 (\"a\"): the name is also bot 1's"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			path := writeBotsFile(t, t.TempDir(), tc.file)
			args := append(tc.args, "--bots", path, "--out", dir)
			_, _, err := arena(t, args...)
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line mentioning %q", msg, tc.want)
			}
		})
	}
	if _, _, err := arena(t, "match", "gomoku", "--bots", filepath.Join(dir, "none.json"), "--out", dir); err == nil ||
		!strings.Contains(err.Error(), "--bots") || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing file: error %v", err)
	}
}

// TestBotsFileMatch plays a real match from a bots file: time odds end
// up in each player's clock and record, and a bot runs in a copy of its
// folder with its environment and its INFO options.
func TestBotsFileMatch(t *testing.T) {
	brains := testBrain(t)
	root := t.TempDir()
	folder := filepath.Join(root, "engines", "wrapped")
	if err := os.MkdirAll(filepath.Join(folder, "book"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The brain starts only where its book is beside it, unchanged, and
	// its variable is set, and then scribbles on the book: the original
	// must stay, and the next game must get a fresh copy.
	script := "#!/bin/sh\n" +
		"[ -f book/opening.txt ] || { echo 'no book in' \"$(pwd)\" >&2; exit 3; }\n" +
		"grep -q original book/opening.txt || { echo 'a used book' >&2; exit 5; }\n" +
		"[ \"$WRAPPED_SECRET\" = 42 ] || { echo 'no WRAPPED_SECRET' >&2; exit 4; }\n" +
		"echo scribbled > book/opening.txt\n" +
		"exec " + filepath.Join(brains, "pbrain-tb") + " --policy=random --seed=3\n"
	if err := os.WriteFile(filepath.Join(folder, "pbrain-wrapped.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "book", "opening.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := writeBotsFile(t, root, `[
		{"name": "slow", "cmd": "builtin", "turn_time": "400ms", "match_time": "30s"},
		{"name": "wrapped", "cmd": "pbrain-wrapped.sh", "dir": "engines/wrapped", "env": {"WRAPPED_SECRET": 42},
		 "turn_time": "250ms", "options": {"max_node": 1000}}
	]`)
	out := t.TempDir()
	// The wrapper executes a brain outside its folder, which the sandbox
	// hides: this test is about --bots, so it runs without the sandbox.
	stdout, stderr, err := arena(t, "match", "gomoku", "--bots", path, "--games", "2", "--size", "10",
		"--max-moves", "16", "--turn-time", "1s", "--match-time", "60s", "--out", out, "--json", "--debug", "--sandbox", "off")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("want 2 games, got %d:\n%s", len(games), stdout)
	}
	for i, g := range games {
		if g["reason"] == "crash" || g["reason"] == "protocol" {
			t.Fatalf("game %d: %v: %v\n%s", i, g["reason"], g["detail"], stderr)
		}
		rec, err := game.ReadRecord(g["record"].(string))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][2]int64{"slow": {400, 30000}, "wrapped": {250, 60000}}
		for _, p := range rec.Players {
			if got := [2]int64{p.TurnMs, p.MatchMs}; got != want[p.Name] {
				t.Errorf("game %d: %s's clock %v ms, want %v", i, p.Name, got, want[p.Name])
			}
		}
	}
	if data, _ := os.ReadFile(filepath.Join(folder, "book", "opening.txt")); string(data) != "original\n" {
		t.Errorf("the bot's own folder was changed: book reads %q", data)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "*-wrapped.log"))
	if len(logs) != 2 {
		t.Fatalf("want a transcript of the wrapped brain per game, got %v", logs)
	}
	if data, _ := os.ReadFile(logs[0]); !strings.Contains(string(data), "> INFO max_node 1000") ||
		!strings.Contains(string(data), "> INFO timeout_turn 250") {
		t.Errorf("transcript lacks the bot's own INFO lines:\n%s", data)
	}
}

// TestBotsFilePlayers checks how a bots file's entries become players:
// the order after --bot, the program found in dir, the clock built on the
// match's, and the environment in order.
func TestBotsFilePlayers(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "engine"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := writeBotsFile(t, dir, `[{"name": "e", "cmd": "engine --x", "dir": ".", "env": {"B": "2", "A": "1"},
		"memory": "1MiB", "match_time": "5s"}]`)
	f := matchFlags{bots: []string{"builtin"}, botsFile: path}
	clock := match.Clock{Turn: time.Second, Match: time.Minute, Tolerance: time.Second}
	players, err := f.players(mustDriver(t, "gomoku"), clock)
	if err != nil {
		t.Fatal(err)
	}
	if len(players) != 2 || players[0].Name != "builtin" || players[1].Name != "e" {
		t.Fatalf("players %+v", players)
	}
	e := players[1]
	wantClock := match.Clock{Turn: time.Second, Match: 5 * time.Second, Tolerance: time.Second}
	if e.Args[0] != filepath.Join(dir, "engine") || e.Args[1] != "--x" || e.Files != dir ||
		strings.Join(e.Env, " ") != "A=1 B=2" || e.MemoryLimit != 1<<20 || e.Clock != wantClock {
		t.Errorf("player %+v", e)
	}
	if players[0].Clock != (match.Clock{}) {
		t.Errorf("the --bot player got a clock of its own: %+v", players[0].Clock)
	}
}

// TestBotsFileTournamentAndSPRT runs a tournament and an SPRT whose bots
// come from --bot and a bots file together: every bot plays under its
// name, with its time odds, and the standings read back from the store
// name them all.
func TestBotsFileTournamentAndSPRT(t *testing.T) {
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	out := t.TempDir()
	path := writeBotsFile(t, out, `[
		{"name": "filed1", "cmd": "`+brain+` --policy=greedy --seed=2", "turn_time": "1500ms"},
		{"name": "filed2", "cmd": "`+brain+` --policy=random --seed=3", "match_time": "40s"}
	]`)
	_, stderr, err := arena(t, "tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "2s", "--name", "mixed",
		"--bot", "flagged="+brain+" --policy=random --seed=1", "--bots", path)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := storedGames(t, filepath.Join(out, "arena.db"), "mixed")
	if len(games) != 6 {
		t.Fatalf("a round robin of 3 bots with 2 games a pair stored %d games, want 6", len(games))
	}
	want := map[string][2]int64{"flagged": {0, 0}, "filed1": {1500, 180000}, "filed2": {2000, 40000}} // Gomoku: 3m a game by default
	for _, g := range games {
		rec, err := game.ReadRecord(g.RecordPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rec.Players {
			w, ok := want[p.Name]
			if !ok || [2]int64{p.TurnMs, p.MatchMs} != w {
				t.Errorf("game %s: player %s with clock %d/%d ms, want %v", g.ID, p.Name, p.TurnMs, p.MatchMs, w)
			}
		}
	}
	stdout, serr, err := arena(t, "standings", "mixed", "--db", filepath.Join(out, "arena.db"))
	if err != nil || !strings.Contains(stdout, "flagged") || !strings.Contains(stdout, "filed1") || !strings.Contains(stdout, "filed2") {
		t.Errorf("standings: %v\n%s%s", err, stdout, serr)
	}

	two := writeBotsFile(t, t.TempDir(), `[{"name": "x", "cmd": "`+brain+` --policy=greedy --seed=1"},
		{"name": "y", "cmd": "`+brain+` --policy=random --seed=2"}]`)
	stdout, stderr, err = arena(t, "sprt", "gomoku", "--out", t.TempDir(), "--size", "10", "--turn-time", "2s",
		"--bots", two, "--elo0", "0", "--elo1", "50", "--max-games", "4", "--json")
	if err != nil {
		t.Fatalf("sprt: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, `"players":["x","y"]`) {
		t.Errorf("sprt games are not between the file's bots:\n%s", stdout)
	}
}

// TestBotsFilePoints plays Points from a bots file: one bot's options
// make the protocol count time in seconds, and its time odds keep the
// game's increment.
func TestBotsFilePoints(t *testing.T) {
	path := writeBotsFile(t, t.TempDir(), `[
		{"name": "secs", "cmd": "builtin --playouts 50", "options": {"time_unit": "s"}, "turn_time": "4s"},
		{"name": "millis", "cmd": "builtin --playouts 50"}
	]`)
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "points", "--bots", path, "--games", "1", "--size", "10",
		"--max-moves", "12", "--increment", "5s", "--out", out, "--json", "--debug")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 1 || games[0]["reason"] == "protocol" || games[0]["reason"] == "timeout" {
		t.Fatalf("games %v\n%s", games, stderr)
	}
	bigTime := regexp.MustCompile(`> time \d{4,}`)
	for name, wantMillis := range map[string]bool{"secs": false, "millis": true} {
		logs, _ := filepath.Glob(filepath.Join(out, "*-"+name+".log"))
		if len(logs) != 1 {
			t.Fatalf("transcripts of %s: %v", name, logs)
		}
		data, _ := os.ReadFile(logs[0])
		if bigTime.Match(data) != wantMillis {
			t.Errorf("%s: times in milliseconds %v, want %v:\n%s", name, !wantMillis, wantMillis, data)
		}
	}
	rec, err := game.ReadRecord(games[0]["record"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if p := rec.Players[0]; p.Name != "secs" || p.TurnMs != 4000 {
		t.Errorf("player 0 %s with turn %d ms, want secs with 4000", p.Name, p.TurnMs)
	}
}

// mustDriver is the driver of a game the arena plays.
func mustDriver(t testing.TB, name string) driver {
	t.Helper()
	d, ok := driverByName(name)
	if !ok {
		t.Fatalf("no game %q", name)
	}
	return d
}
