package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"arena/game"
	"arena/game/points"
	"arena/store"
	"arena/web"
)

var (
	pointsHelperOnce sync.Once
	pointsHelper     string
	pointsHelperErr  error
)

// pointsTestPlayer builds arena/internal/cmd/pointstest once.
func pointsTestPlayer(t *testing.T) string {
	t.Helper()
	pointsHelperOnce.Do(func() {
		dir := testBrain(t) // the shared temporary folder, removed by TestMain
		pointsHelper = filepath.Join(dir, "pointstest")
		if out, err := exec.Command("go", "build", "-o", pointsHelper, "arena/internal/cmd/pointstest").CombinedOutput(); err != nil {
			pointsHelperErr = &buildError{string(out), err}
		}
	})
	if pointsHelperErr != nil {
		t.Fatal(pointsHelperErr)
	}
	return pointsHelper
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return "build pointstest: " + e.err.Error() + "\n" + e.out }

// TestPointsMatch plays arena's own player against the random test player
// through the whole CLI and checks the JSON lines and the files.
func TestPointsMatch(t *testing.T) {
	rnd := pointsTestPlayer(t)
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "points",
		"--bot", "builtin --playouts=200", "--bot", "rnd="+rnd+" --seed=5",
		"--games", "2", "--size", "9x8", "--opening", "random", "--seed", "11",
		"--increment", "300ms", "--match-time", "3s", "--out", out, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("want 2 JSON lines, got %d:\n%s", len(games), stdout)
	}
	for i, g := range games {
		if g["game"] != "points" || g["first"] != float64(i%2) {
			t.Errorf("game %d: %v", i, g)
		}
		if g["winner"] != float64(0) {
			t.Errorf("game %d: winner %v by %v, want the builtin player", i, g["winner"], g["reason"])
		}
		scores, _ := g["scores"].([]any)
		if len(scores) != 2 {
			t.Errorf("game %d: scores %v", i, g["scores"])
		}
		path, _ := g["record"].(string)
		rec, err := game.ReadRecord(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := points.Replay(rec, nil); err != nil {
			t.Errorf("game %d: replay: %v", i, err)
		}
		if rec.Seed == 0 || len(rec.Opening) != 16 {
			t.Errorf("game %d: seed %d opening %v", i, rec.Seed, rec.Opening)
		}
		sgf, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".sgf")
		if err != nil || !strings.Contains(string(sgf), "GM[40]") || !strings.Contains(string(sgf), "SZ[9:8]") {
			t.Errorf("game %d: sgf %q, %v", i, sgf, err)
		}
	}
	replay, stderr, err := arena(t, "points", "replay", games[0]["record"].(string), "--ply", "3")
	if err != nil || !strings.HasPrefix(replay, "after move 3: red ") || strings.Count(replay, "\n") != 10 {
		t.Errorf("replay: %v %s\n%s", err, stderr, replay)
	}
	if _, _, err := arena(t, "points", "replay", games[0]["record"].(string), "--ply", "9999"); err == nil {
		t.Errorf("replay --ply 9999: no error")
	}
	// Both games of the pair start from the same random crosses.
	a, _ := game.ReadRecord(games[0]["record"].(string))
	b, _ := game.ReadRecord(games[1]["record"].(string))
	if strings.Join(a.Opening, " ") != strings.Join(b.Opening, " ") {
		t.Errorf("the two games of a pair have different crosses")
	}
}

func TestPointsBadFlags(t *testing.T) {
	skipUnderRace(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--size", "2x2"}, "--size"},
		{[]string{"--size", "big"}, "--size"},
		{[]string{"--opening", "five"}, "--opening"},
		{[]string{"--size", "4x4", "--opening", "cross4"}, "--opening"},
		{[]string{"--surround", "never"}, "--surround"},
		{[]string{"--proto", "base=3"}, "--proto"},
		{[]string{"--proto", "", "--proto", "", "--proto", ""}, "--proto"},
		{[]string{"--increment", "-1s"}, "--increment"},
		{[]string{"--max-moves", "-3"}, "--max-moves"},
	}
	for _, tt := range tests {
		args := append([]string{"match", "points", "--out", t.TempDir()}, tt.args...)
		_, _, err := arena(t, args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line about %s", tt.args, err, tt.want)
		}
	}
}

// TestPointsBotCommand talks to "arena bot points" by hand: 1-based
// coordinates and times in seconds, on the default threads and on two
// (which the status line names); a seed with a playout budget gives the
// same move however many cores there are; a bad --threads is refused in
// one line.
func TestPointsBotCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []string{"", "1", "2"} {
		args := []string{"bot", "points", "--proto", "base=1,time_unit=s", "--name", "me"}
		if threads != "" {
			args = append(args, "--threads", threads)
		}
		cmd := exec.Command(exe, args...)
		cmd.Stdin = strings.NewReader("new 5 6\nincrement 1\nmove 3 3\nmove 3 4\nmove 4 4\nmove 4 3\ntime 1\notime 1\ngo\nquit\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if lines[0] != "me" {
			t.Errorf("%v: name line %q", args, lines[0])
		}
		// The status line goes out as the protocol's status text, before the
		// move (in the protocol's coordinates).
		if len(lines) != 3 || !strings.HasPrefix(lines[1], "status: dot 5 at ") || !strings.Contains(lines[1], lines[2][len("move "):]+": playouts ") {
			t.Fatalf("%v: output %q, want the name, a status line and the move", args, lines)
		}
		if threads == "2" && !strings.HasSuffix(lines[1], " threads 2") || threads == "1" && strings.Contains(lines[1], "threads") {
			t.Errorf("%v: status line %q does not say the threads", args, lines[1])
		}
		p, err := points.ParseMove(lines[len(lines)-1], 1)
		if err != nil {
			t.Fatalf("%v: last line %q: %v", args, lines[len(lines)-1], err)
		}
		f, _ := points.NewField(6, 5, points.Standard)
		for _, q := range []points.Point{{X: 2, Y: 2}, {X: 2, Y: 3}, {X: 3, Y: 3}, {X: 3, Y: 2}} {
			f.Play(q)
		}
		if err := f.Check(p); err != nil {
			t.Errorf("%v: answered %v: %v", args, p, err)
		}
	}
	// A seed and a playout budget give the same move on one core or two.
	var moves []string
	for _, procs := range []string{"1", "2"} {
		cmd := exec.Command(exe, "bot", "points", "--seed", "3", "--playouts", "400", "--quiet")
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
		cmd.Stdin = strings.NewReader("new 9 9\nmove 4 4\nmove 4 5\nmove 5 5\nmove 5 4\ngo\nquit\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOMAXPROCS=%s: %v: %s", procs, err, out)
		}
		moves = append(moves, strings.TrimSpace(string(out)))
	}
	if moves[0] != moves[1] {
		t.Errorf("--seed 3 --playouts 400: %q on one core, %q on two", moves[0], moves[1])
	}
	for _, bad := range []string{"0", "-2", "1000"} {
		out, err := exec.Command(exe, "bot", "points", "--threads", bad).CombinedOutput()
		if msg := strings.TrimSpace(string(out)); err == nil || !strings.Contains(msg, "--threads") || strings.Contains(msg, "\n") {
			t.Errorf("--threads %s: %v, %q: want a one-line error naming --threads", bad, err, msg)
		}
	}
}

// TestPointsBuiltinInTime: arena's player keeps to a tight clock (300 ms
// base, 50 ms a move) through a whole game.
func TestPointsBuiltinInTime(t *testing.T) {
	rnd := pointsTestPlayer(t)
	stdout, stderr, err := arena(t, "match", "points", "--bot", "builtin", "--bot", rnd+" --seed=9",
		"--games", "1", "--size", "12x12", "--increment", "50ms", "--match-time", "300ms",
		"--out", t.TempDir(), "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	g := decodeLines(t, stdout)
	if len(g) != 1 || g[0]["winner"] != float64(0) {
		t.Fatalf("want the builtin player to win: %v", g)
	}
}

var (
	v6EngineOnce sync.Once
	v6EnginePath string
	v6EngineErr  error
)

// v6TestEngine builds arena/internal/cmd/v6test (a scripted Points AI
// Protocol v6 engine) once.
func v6TestEngine(t *testing.T) string {
	t.Helper()
	v6EngineOnce.Do(func() {
		v6EnginePath = filepath.Join(testBrain(t), "v6test")
		if out, err := exec.Command("go", "build", "-o", v6EnginePath, "arena/internal/cmd/v6test").CombinedOutput(); err != nil {
			v6EngineErr = &buildError{string(out), err}
		}
	})
	if v6EngineErr != nil {
		t.Fatal(v6EngineErr)
	}
	return v6EnginePath
}

// TestPointsV6AgainstPointsBattle plays "arena bot points --proto v6"
// against "arena bot points" (Points Battle) through arena, both ways
// round, and checks the records and the v6 player's transcript.
func TestPointsV6AgainstPointsBattle(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "points",
		"--bot", "six=builtin --playouts=100", "--bot", "battle=builtin --playouts=100", "--proto", "v6,pb",
		"--games", "2", "--size", "8x7", "--increment", "200ms", "--match-time", "2s", "--out", out, "--json", "--debug")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	if len(games) != 2 {
		t.Fatalf("want 2 games:\n%s", stdout)
	}
	for i, g := range games {
		rec, err := game.ReadRecord(g["record"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason != points.ReasonScore && rec.Reason != game.ReasonDraw {
			t.Errorf("game %d ended by %s: %s", i, rec.Reason, rec.Detail)
		}
		if _, err := points.Replay(rec, nil); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
		var o points.Options
		if err := json.Unmarshal(rec.Options, &o); err != nil || strings.Join(o.Protocols, " ") != "v6,base=0,time_unit=ms pb,base=0,time_unit=ms" {
			t.Errorf("game %d: protocols %q, %v", i, o.Protocols, err)
		}
		if !strings.HasPrefix(rec.Players[0].About, "arena-points ") || rec.Players[1].About != "arena-points" {
			t.Errorf("game %d: about %q %q, want the v6 name and version, then the name line", i, rec.Players[0].About, rec.Players[1].About)
		}
		log, err := os.ReadFile(filepath.Join(out, rec.ID+"-six.log"))
		if err != nil {
			t.Fatal(err)
		}
		cross, _ := points.Cross.Points(8, 7, 0)
		first := strings.Join(points.V6Move(cross[0], points.Red), " ")
		for _, want := range []string{"> 1 list_commands", " init 8 7 ", " play " + first, "gen_move_with_time ", " quit"} {
			if !strings.Contains(string(log), want) {
				t.Errorf("game %d: the v6 transcript has no %q", i, want)
			}
		}
	}
}

// TestPointsV6Engine runs the scripted v6 engine as a user would: without
// --proto (arena asks it), and from a bots file saying "proto": "v6".
func TestPointsV6Engine(t *testing.T) {
	engine := v6TestEngine(t)
	dir := t.TempDir()
	bots := writeBotsFile(t, dir, `[{"name": "eng", "cmd": "`+engine+` --policy=greedy", "proto": "v6"}, {"name": "me", "cmd": "builtin --playouts=50"}]`)
	runs := [][]string{
		{"match", "points", "--bot", engine + " --policy=greedy", "--bot", "builtin --playouts=50", "--games", "1"},
		{"tournament", "points", "--bots", bots, "--games-per-pair", "1"},
	}
	for _, args := range runs {
		out := t.TempDir()
		args = append(args, "--size", "7x7", "--increment", "200ms", "--out", out, "--json")
		stdout, stderr, err := arena(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		// Whatever the command prints, each game leaves its record in out.
		paths, _ := filepath.Glob(filepath.Join(out, "*.json"))
		if len(paths) != 1 {
			t.Fatalf("%v: records %q:\n%s", args, paths, stdout)
		}
		for _, path := range paths {
			rec, err := game.ReadRecord(path)
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			if rec.Reason != points.ReasonScore && rec.Reason != game.ReasonDraw {
				t.Errorf("%v: ended by %s: %s", args, rec.Reason, rec.Detail)
			}
			if rec.Players[0].About != "v6test 1.0" {
				t.Errorf("%v: the engine says %q, want its v6 name and version", args, rec.Players[0].About)
			}
		}
	}
}

// TestPointsV6RegisteredBot: a v6 engine registered on the page ("arena
// serve --bot points:eng=...") is found to speak v6 and plays its games.
func TestPointsV6RegisteredBot(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bots, err := registerBots([]string{"points:eng=" + v6TestEngine(t) + " --policy=greedy"})
	if err != nil {
		t.Fatal(err)
	}
	l := newLauncher(st, bots, dir, t.TempDir(), 1, nil)
	if l.options, err = gameOptions([]string{"points:--size 7x6 --increment 200ms"}); err != nil {
		t.Fatal(err)
	}
	rec, err := l.Play(context.Background(), web.PlayRequest{ID: "web-v6", Game: "points",
		Players: []web.Entrant{{Bot: "eng"}, {Bot: "builtin"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != points.ReasonScore && rec.Reason != game.ReasonDraw {
		t.Errorf("ended by %s: %s", rec.Reason, rec.Detail)
	}
	if rec.Players[0].About != "v6test 1.0" {
		t.Errorf("the engine says %q, want its v6 name and version", rec.Players[0].About)
	}
}
