package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/game"
)

// antsConformanceRoot is the recorded official Ants games in the
// repository's testdata (testdata/conformance/ants at the module root).
func antsConformanceRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "conformance", "ants"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("recorded games missing (testdata/conformance/ants in the repository): %v", err)
	}
	return dir
}

func TestAntsConformanceCommand(t *testing.T) {
	root := antsConformanceRoot(t)
	stdout, _, err := arena(t, "ants", "conformance", root)
	if err != nil {
		t.Fatalf("conformance failed: %v\n%s", err, stdout)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 8 {
		t.Fatalf("want a line per recorded game, got %q", stdout)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "PASS ") {
			t.Errorf("line %q", l)
		}
	}
}

// copyRecordedGame copies a recorded official game into a temporary
// folder named name, passing each file through edit.
func copyRecordedGame(t *testing.T, game, name string, edit func(file string, data []byte) []byte) string {
	t.Helper()
	src := filepath.Join(antsConformanceRoot(t), game)
	dst := filepath.Join(t.TempDir(), name)
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
		if err := os.WriteFile(filepath.Join(dst, e.Name()), edit(e.Name(), data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// A recorded game with one changed byte fails with the first difference
// and a non-zero exit.
func TestAntsConformanceCommandReportsDifference(t *testing.T) {
	dst := copyRecordedGame(t, "v1_tutorial1_hunter_greedy_strict", "v1_changed", func(file string, data []byte) []byte {
		if file == "bot1.input" {
			return []byte(strings.Replace(string(data), "turn 7\n", "turn 7\nf 1 1\n", 1))
		}
		return data
	})
	stdout, _, err := arena(t, "ants", "conformance", dst)
	if err == nil {
		t.Fatal("want a failure")
	}
	if !strings.HasPrefix(stdout, "FAIL v1_changed: bot1.input: line ") {
		t.Fatalf("stdout %q", stdout)
	}
}

// A recorded official game whose bot commands carry arguments after the
// script passes: the engine names a bot after the last word of its
// command that is an existing path, so the arguments change no file (the
// sample bots ignore them).
func TestAntsConformanceCommandBotArguments(t *testing.T) {
	dst := copyRecordedGame(t, "v6_random_walk_p03_01_3p", "v6_args", func(file string, data []byte) []byte {
		if file != "game.json" {
			return data
		}
		text := string(data)
		for _, script := range []string{"HunterBot.py", "LeftyBot.py", "HoldBot.py"} {
			text = strings.ReplaceAll(text, script+`"`, script+` --turns 9 fast"`)
			text = strings.ReplaceAll(text, script+`'`, script+` --turns 9 fast'`)
		}
		if strings.Count(text, "--turns 9 fast") != 6 { // bot_commands and command
			t.Fatalf("rewrote %d commands, want 6", strings.Count(text, "--turns 9 fast"))
		}
		return []byte(text)
	})
	stdout, _, err := arena(t, "ants", "conformance", dst)
	if err != nil || stdout != "PASS v6_args\n" {
		t.Fatalf("err %v, stdout %q", err, stdout)
	}
}

func TestAntsConformanceCommandNoGame(t *testing.T) {
	if _, _, err := arena(t, "ants", "conformance", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no recorded game") {
		t.Fatalf("err = %v", err)
	}
}

func TestAntsMatchBadFlags(t *testing.T) {
	mapFile := filepath.Join("..", "..", "game", "ants", "testdata", "tutorial1.map")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--map", "nope.map"}, "--map"},
		{[]string{"--map", mapFile, "--food", "lots"}, "--food"},
		{[]string{"--map", mapFile, "--attack", "bite"}, "--attack"},
		{[]string{"--map", mapFile, "--food_rate", "9,3"}, "--food_rate"},
		{[]string{"--map", mapFile, "--bot", "builtin", "--bot", "builtin", "--bot", "builtin"}, "the map is for 2 players"},
		{[]string{"--map", mapFile, "--turntime", "0"}, "--turntime"},
	}
	for _, c := range cases {
		args := append([]string{"match", "ants", "--out", t.TempDir()}, c.args...)
		_, _, err := arena(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want it to mention %q", c.args, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error is not one line: %q", c.args, err)
		}
	}
}

// A short game between a scripted bot and the builtin bot writes the
// replay and the -S -I -O -E logs and a JSON summary line.
func TestAntsMatchWritesFiles(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "game", "ants", "testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	mapFile := filepath.Join("..", "..", "game", "ants", "testdata", "tutorial1.map")
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "ants", "--map", mapFile, "--bot", "python3 "+script+" random",
		"--bot", "python3 "+script+" hold", "--turns", "15", "--rounds", "1", "--turntime", "500",
		"--engine_seed", "3", "--player_seed", "3", "--out", out, "--json", "-S", "-I", "-O", "-E")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 1 || games[0]["game"] != "ants" {
		t.Fatalf("summary %v", games)
	}
	id := games[0]["id"].(string)
	for _, suffix := range []string{".replay", ".stream", ".bot0.input", ".bot1.output", ".bot0.error", ".json"} {
		if _, err := os.Stat(filepath.Join(out, id+suffix)); err != nil {
			t.Errorf("missing %s: %v", suffix, err)
		}
	}
	replay, err := os.ReadFile(filepath.Join(out, id+".replay"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(replay), `{"challenge": "ants", "game_id": 0, `) || !strings.Contains(string(replay), `"revision": 3`) {
		t.Fatalf("replay starts %q", string(replay[:min(len(replay), 100)]))
	}
	// The replay names the bots as playgame.py does: after the last word
	// of the command that is an existing path (the script, not the mode
	// argument after it).
	if want := `"playernames": ["testbot.py", "testbot.py"]}`; !strings.HasSuffix(string(replay), want) {
		t.Errorf("replay ends %q, want %q", string(replay[max(0, len(replay)-80):]), want)
	}
}

// Arena's own bot is named after arena's program, as the engine names a
// bot run as "/x/arena bot ants".
func TestAntsReplayNamesBuiltin(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "ants", "--bot", "builtin", "--bot", "builtin --sample hold",
		"--turns", "3", "--rounds", "1", "--engine_seed", "4", "--out", out, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 1 {
		t.Fatalf("summary %v", games)
	}
	replay, err := os.ReadFile(filepath.Join(out, games[0]["id"].(string)+".replay"))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(self)
	if want := fmt.Sprintf(`"playernames": [%q, %q]}`, name, name); !strings.HasSuffix(string(replay), want) {
		t.Errorf("replay ends %q, want %q", string(replay[max(0, len(replay)-80):]), want)
	}
}

// Games of more than two players say in their JSON line who sat where,
// and a match rotates the seats from game to game.
func TestAntsJSONSeats(t *testing.T) {
	stdout, stderr, err := arena(t, "match", "ants", "--bot", "builtin", "--bot", "builtin --sample hold",
		"--bot", "builtin --sample random", "--turns", "5", "--games", "2", "--engine_seed", "5", "--out", t.TempDir(), "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("%d JSON lines, want 2:\n%s", len(games), stdout)
	}
	for i, want := range []string{"[0 1 2]", "[1 2 0]"} {
		if got := fmt.Sprint(games[i]["seats"]); got != want {
			t.Errorf("game %d: seats %s, want %s", i+1, got, want)
		}
		if games[i]["first"] != games[i]["seats"].([]any)[0] {
			t.Errorf("game %d: first %v is not the player on seat 0 (%v)", i+1, games[i]["first"], games[i]["seats"])
		}
	}
}

// sharedTopMap is a four-player scenario on one open row: each seat's
// only ant stands just west of the next seat's hill, far from every other
// ant. A bot that moves east razes the next seat's hill on turn 1.
const sharedTopMap = `rows 5
cols 40
players 4
m ........................................
m ........................................
m ....d0........a1........b2........c3....
m ........................................
m ........................................
`

// A four-player game whose top score is shared is a draw between the
// players who share it and a loss for the others: winner null in the
// record and the JSON line, draws and losses in the standings, and
// ratings that put the tied players alike and above the rest. Two bots
// move east and two hold, alternating round the table, so in every seat
// rotation both movers raze a holder's hill: scores 3, 0, 3, 0.
func TestAntsSharedTopScoreIsADraw(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "game", "ants", "testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	mapFile := filepath.Join(out, "shared-top.map")
	if err := os.WriteFile(mapFile, []byte(sharedTopMap), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := arena(t, "tournament", "ants", "--out", out, "--name", "tie4", "--json",
		"--bot", "m1=python3 "+script+" east", "--bot", "h1=python3 "+script+" hold",
		"--bot", "m2=python3 "+script+" east", "--bot", "h2=python3 "+script+" hold",
		"--map", mapFile, "--scenario", "--food", "none", "--turns", "3",
		"--turntime", "5000", "--loadtime", "20000", "--engine_seed", "1", "--player_seed", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games, final := splitJSON(t, stdout)
	if len(games) != 4 {
		t.Fatalf("%d games, want 4 (one per seat rotation)", len(games))
	}
	wantScore := map[string]int{"m1": 3, "h1": 0, "m2": 3, "h2": 0}
	for _, g := range games {
		if g.Winner != nil {
			t.Errorf("game %s: winner %d, want null (a shared top score)", g.ID, *g.Winner)
		}
		if len(g.Scores) != len(g.Players) {
			t.Fatalf("game %s: scores %v for players %v", g.ID, g.Scores, g.Players)
		}
		for i, p := range g.Players {
			if g.Scores[i] != wantScore[p] {
				t.Errorf("game %s: %s scored %d, want %d", g.ID, p, g.Scores[i], wantScore[p])
			}
		}
		data, err := os.ReadFile(g.Record)
		if err != nil {
			t.Fatal(err)
		}
		var rec game.Record
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Winner != nil || !slices.Equal(rec.Scores, g.Scores) {
			t.Errorf("record %s: winner %v, scores %v; want null and %v", rec.ID, rec.Winner, rec.Scores, g.Scores)
		}
	}
	rows, _ := final["standings"].([]any)
	if len(rows) != 4 {
		t.Fatalf("standings %v", final)
	}
	ordinal := map[string]float64{}
	for _, r := range rows {
		row := r.(map[string]any)
		name := row["player"].(string)
		wdl := [3]float64{row["wins"].(float64), row["draws"].(float64), row["losses"].(float64)}
		want := [3]float64{0, 0, 4}
		if strings.HasPrefix(name, "m") {
			want = [3]float64{0, 4, 0}
		}
		if wdl != want {
			t.Errorf("%s: wins/draws/losses %v, want %v", name, wdl, want)
		}
		ordinal[name], _ = row["ordinal"].(float64)
	}
	if math.Abs(ordinal["m1"]-ordinal["m2"]) > 1e-6 || math.Abs(ordinal["h1"]-ordinal["h2"]) > 1e-6 || !(ordinal["m1"] > ordinal["h1"]) {
		t.Errorf("ratings %v: want m1 = m2 > h1 = h2", ordinal)
	}
}

// The official option forms of playgame.py work as the engine takes
// them, checked in the options each game's record keeps: --food_rate 5 11
// as two words (or MIN,MAX), --serial without a value (or --serial=N),
// --turntime in milliseconds or --turn-time as a duration.
func TestAntsOfficialFlagForms(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		foodRate [2]int
		foodTurn [2]int
		serial   int
		turnTime int
	}{
		{"playgame.py forms", []string{"--food_rate", "4", "9", "--food_turn", "20", "30", "--serial", "--turntime", "700"}, [2]int{4, 9}, [2]int{20, 30}, 1, 700},
		{"pairs in one word, serial with a value", []string{"--food_rate=4,9", "--serial=2", "--turn-time", "300ms"}, [2]int{4, 9}, [2]int{19, 37}, 2, 300},
		{"pairs among other flags", []string{"--food_turn", "21", "22", "--turns", "1", "--food_rate", "6", "7"}, [2]int{6, 7}, [2]int{21, 22}, 0, 1000},
		{"defaults", nil, [2]int{5, 11}, [2]int{19, 37}, 0, 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"match", "ants", "--bot", "builtin", "--bot", "builtin --sample hold", "--turns", "1",
				"--rounds", "1", "--engine_seed", "2", "--out", out, "--json"}, c.args...)
			stdout, stderr, err := arena(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			games := decodeLines(t, stdout)
			if len(games) != 1 {
				t.Fatalf("summary %v", games)
			}
			data, err := os.ReadFile(games[0]["record"].(string))
			if err != nil {
				t.Fatal(err)
			}
			var rec struct {
				Options struct {
					FoodRate [2]int `json:"food_rate"`
					FoodTurn [2]int `json:"food_turn"`
					Serial   int    `json:"serial"`
					TurnTime int    `json:"turntime"`
				} `json:"options"`
			}
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			o := rec.Options
			if o.FoodRate != c.foodRate || o.FoodTurn != c.foodTurn || o.Serial != c.serial || o.TurnTime != c.turnTime {
				t.Errorf("options %+v, want food_rate %v food_turn %v serial %d turntime %d", o, c.foodRate, c.foodTurn, c.serial, c.turnTime)
			}
		})
	}
}

// Wrong uses of the Ants options fail at once with a one-line error that
// names the option, and the shared options that do not apply to Ants are
// refused.
func TestAntsFlagErrors(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--turntime", "500", "--turn-time", "1s"}, []string{"--turntime", "--turn-time"}},
		{[]string{"--food_rate", "5"}, []string{"--food_rate 5: want two numbers"}},
		{[]string{"--food_rate", "5", "many"}, []string{"--food_rate 5 many: want two numbers"}},
		{[]string{"--food_rate", "5", "11", "12"}, []string{`unexpected argument "12"`}},
		{[]string{"--food_start", "x"}, []string{"--food_start", "want two numbers"}},
		{[]string{"--serial", "2"}, []string{`unexpected argument "2"`}},
		{[]string{"--ponder"}, []string{"--ponder does not apply to Ants"}},                   // not offered: the engine keeps its own time
		{[]string{"--match-time", "1m"}, []string{"--match-time does not apply to Ants"}},     // not offered: the engine keeps its own time
		{[]string{"--tolerance", "2s"}, []string{"--tolerance does not apply to Ants"}},       // not offered: the engine keeps its own time
		{[]string{"--startup-time", "5s"}, []string{"--startup-time does not apply to Ants"}}, // not offered: the engine keeps its own time
	}
	for _, c := range cases {
		for _, command := range []string{"match", "tournament"} {
			args := append([]string{command, "ants", "--bot", "builtin", "--bot", "builtin", "--turns", "1", "--out", t.TempDir()}, c.args...)
			_, _, err := arena(t, args...)
			if err == nil {
				t.Errorf("%s %v: no error", command, c.args)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s %v: error %q does not say %q", command, c.args, err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%s %v: error is not one line: %q", command, c.args, err)
			}
		}
	}
}

// The help of Ants lists the official forms and none of the shared
// options that do not apply to Ants.
func TestAntsHelpListsOnlyAntsFlags(t *testing.T) {
	for _, command := range []string{"match", "tournament"} {
		stdout, _, err := arena(t, command, "ants", "--help")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"--food_rate MIN MAX", "--serial int[=1]", "--turntime int", "--turn-time duration"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s ants --help does not list %q", command, want)
			}
		}
		for _, unwanted := range []string{"--ponder", "--match-time", "--tolerance", "--startup-time"} {
			if strings.Contains(stdout, unwanted+" ") {
				t.Errorf("%s ants --help lists %s, which does not apply to Ants", command, unwanted)
			}
		}
	}
}

// The summary of an "arena match ants" whose top score is shared counts a
// draw for the players who share it and a loss for the others.
func TestAntsMatchSummarySharedTopScore(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "game", "ants", "testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	mapFile := filepath.Join(out, "shared-top.map")
	if err := os.WriteFile(mapFile, []byte(sharedTopMap), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := arena(t, "match", "ants", "--out", out, "--name", "tie", "--rounds", "1",
		"--bot", "m1=python3 "+script+" east", "--bot", "h1=python3 "+script+" hold",
		"--bot", "m2=python3 "+script+" east", "--bot", "h2=python3 "+script+" hold",
		"--map", mapFile, "--scenario", "--food", "none", "--turns", "3", "--turntime", "5000", "--loadtime", "20000")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "tie-summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// player games wins draws losses points ...
	want := map[string]string{"m1": "1 0 1 0 0.5", "m2": "1 0 1 0 0.5", "h1": "1 0 0 1 0.0", "h2": "1 0 0 1 0.0"}
	for _, line := range strings.Split(string(summary), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || want[f[0]] == "" {
			continue
		}
		if got := strings.Join(f[1:6], " "); got != want[f[0]] {
			t.Errorf("%s: games wins draws losses points %q, want %q", f[0], got, want[f[0]])
		}
		delete(want, f[0])
	}
	if len(want) > 0 {
		t.Errorf("summary lacks %v:\n%s", want, summary)
	}
}

// "arena ants report" sums up the games of a match from their replays:
// each player's W/D/L agrees with the match's own JSON lines, under the
// names the match gave the players, and --by-map names the map file.
func TestAntsReportCommand(t *testing.T) {
	out := t.TempDir()
	mapFile := filepath.Join("..", "..", "game", "ants", "testdata", "tutorial1.map")
	stdout, stderr, err := arena(t, "match", "ants", "--map", mapFile, "--bot", "builtin", "--bot", "builtin --sample hold",
		"--turns", "60", "--games", "2", "--engine_seed", "6", "--out", out, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("%d JSON lines, want 2:\n%s", len(games), stdout)
	}
	names := games[0]["players"].([]any)
	wdl := map[string]*[3]int{}
	for _, n := range names {
		wdl[n.(string)] = &[3]int{}
	}
	for _, g := range games {
		for i, n := range g["players"].([]any) {
			switch w := g["winner"]; {
			case w == nil:
				wdl[n.(string)][1]++
			case int(w.(float64)) == i:
				wdl[n.(string)][0]++
			default:
				wdl[n.(string)][2]++
			}
		}
	}
	report, stderr, code := runArena(t, ".", "ants", "report", "--by-map", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(report, "2 games\n") || !strings.Contains(report, "\ntutorial1\n") {
		t.Errorf("report:\n%s", report)
	}
	for name, r := range wdl {
		want := fmt.Sprintf("%d/%d/%d", r[0], r[1], r[2])
		found := false
		for _, line := range strings.Split(report, "\n") {
			if f := strings.Fields(line); len(f) > 3 && strings.HasPrefix(strings.TrimSpace(line), name+" ") && slices.Contains(f, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("no line for %s with %s in:\n%s", name, want, report)
		}
	}

	stdout, stderr, code = runArena(t, ".", "ants", "report", t.TempDir())
	oneLineError(t, stdout, stderr, code, "report", "no replay")
}
