package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/bot"
	"arena/internal/testbrain"
	"arena/store"
	"arena/tournament"
)

// quickBots returns n --bot flags for test brains that answer at once:
// greedy and random players with their own seeds.
func quickBots(t *testing.T, n int, extra string) []string {
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	var args []string
	for i := 0; i < n; i++ {
		policy := "random"
		if i%2 == 0 {
			policy = "greedy"
		}
		args = append(args, "--bot", fmt.Sprintf("b%d=%s --policy=%s --seed=%d%s", i, brain, policy, i+1, extra))
	}
	return args
}

func storedGames(t *testing.T, db, name string) []store.Game {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games, err := st.Games(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// expectedIDs lists the game IDs of a tournament's schedule.
func expectedIDs(t *testing.T, cfg tournament.Config) map[string]bool {
	t.Helper()
	s, err := tournament.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	games, _ := s.Pending(map[string]tournament.Outcome{})
	ids := map[string]bool{}
	for _, g := range games {
		ids[g.ID] = true
	}
	return ids
}

// splitJSON separates the per-game JSON lines ("type": "game") from the
// final standings object ("type": "standings"), which must be the last.
func splitJSON(t *testing.T, stdout string) (games []summaryLine, final map[string]any) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		if final != nil {
			t.Fatalf("line %q after the standings", line)
		}
		var typed struct{ Type string }
		if err := json.Unmarshal([]byte(line), &typed); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		switch typed.Type {
		case "standings":
			if err := json.Unmarshal([]byte(line), &final); err != nil {
				t.Fatalf("final line %q: %v", line, err)
			}
		case "game":
			var g summaryLine
			if err := json.Unmarshal([]byte(line), &g); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			games = append(games, g)
		default:
			t.Fatalf("line %q: type %q, want game or standings", line, typed.Type)
		}
	}
	return games, final
}

// TestTournamentEightBots runs a round robin of 8 quick bots two games at
// a time and checks that no result is lost: every game is printed, stored
// once and counted in the standings.
func TestTournamentEightBots(t *testing.T) {
	out := t.TempDir()
	args := append([]string{"tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "2s",
		"--concurrency", "2", "--json", "--name", "eight"}, quickBots(t, 8, "")...)
	stdout, stderr, err := arena(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games, final := splitJSON(t, stdout)
	want := expectedIDs(t, tournament.Config{Name: "eight", Format: tournament.RoundRobin, Players: 8, GamesPerPair: 2, Openings: 1})
	if len(games) != len(want) || len(want) != 56 {
		t.Fatalf("%d JSON lines, want %d", len(games), len(want))
	}
	seen := map[string]bool{}
	for _, g := range games {
		if !want[g.ID] || seen[g.ID] {
			t.Errorf("unexpected or repeated game %s", g.ID)
		}
		seen[g.ID] = true
		if g.Game != "gomoku" || len(g.Players) != 2 || g.Record == "" || g.Moves == 0 {
			t.Errorf("game line %+v", g)
		}
	}
	stored := storedGames(t, filepath.Join(out, "arena.db"), "eight")
	if len(stored) != len(want) {
		t.Errorf("%d games stored, want %d", len(stored), len(want))
	}
	for _, g := range stored {
		if !seen[g.ID] || len(g.Record) == 0 || g.RecordPath == "" {
			t.Errorf("stored game %s: not printed, or without its record", g.ID)
		}
	}
	if final == nil || final["games"] != float64(56) || final["finished"] != true {
		t.Fatalf("final standings %v", final)
	}
	rows, _ := final["standings"].([]any)
	points := 0.0
	for _, r := range rows {
		row := r.(map[string]any)
		points += row["points"].(float64)
		if row["games"] != float64(14) {
			t.Errorf("%v played %v games, want 14", row["player"], row["games"])
		}
		if _, ok := row["elo"]; !ok {
			t.Errorf("no rating for %v", row["player"])
		}
	}
	if len(rows) != 8 || points != 56 {
		t.Errorf("%d rows with %v points, want 8 rows sharing 56", len(rows), points)
	}
	for _, s := range []string{"Likelihood of superiority", "Crosstable", "first-move advantage"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "eight-standings.txt")); err != nil {
		t.Error(err)
	}
}

// killGroups kills whatever is left of the brains a killed arena
// started (their process groups, as the pid file lists them).
func killGroups(t *testing.T, pidFile string) {
	data, _ := os.ReadFile(pidFile)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		pgid, err := strconv.Atoi(f[1])
		if err != nil || pgid <= 1 {
			continue
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		syscall.Kill(-pgid, syscall.SIGCONT)
		deadline := time.Now().Add(5 * time.Second)
		for len(bot.Survivors(pgid)) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// runAndKill starts arena as a child process, waits for `after` finished
// games on stdout and kills it with SIGKILL, as a crash or power cut
// would. It returns the IDs of the games the child reported.
func runAndKill(t *testing.T, args []string, pidFile string, after int) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1", "TESTBRAIN_PIDFILE="+pidFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer killGroups(t, pidFile)
	var ids []string
	lines := bufio.NewScanner(stdout)
	for len(ids) < after && lines.Scan() {
		var g summaryLine
		if err := json.Unmarshal(lines.Bytes(), &g); err != nil {
			t.Fatalf("line %q: %v", lines.Text(), err)
		}
		ids = append(ids, g.ID)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(ids) < after {
		t.Fatalf("child ended after %d games:\n%s", len(ids), stderr.String())
	}
	return ids
}

// TestTournamentResumeAfterKill kills a tournament twice with SIGKILL in
// the middle, continues it once by rerunning the same command and once
// with --resume, and checks that the store ends with exactly the
// expected games, each once, and that no finished game was played again.
func TestTournamentResumeAfterKill(t *testing.T) {
	out := t.TempDir()
	db := filepath.Join(out, "arena.db")
	pids := filepath.Join(out, "pids")
	args := append([]string{"tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "5s",
		"--concurrency", "2", "--json", "--name", "rk"}, quickBots(t, 4, " --delay=3ms")...)
	want := expectedIDs(t, tournament.Config{Name: "rk", Format: tournament.RoundRobin, Players: 4, GamesPerPair: 2, Openings: 1})

	reported := map[string]int{}
	for _, id := range runAndKill(t, args, pids, 3) {
		reported[id]++
	}
	n := len(storedGames(t, db, "rk"))
	if n < 3 {
		t.Fatalf("%d games stored after the first kill, want at least the 3 reported", n)
	}
	// Rerunning the same command continues the event.
	for _, id := range runAndKill(t, args, pids, 3) {
		reported[id]++
	}
	t.Logf("stored after the first kill: %d, after the second: %d of %d", n, len(storedGames(t, db, "rk")), len(want))
	stdout, stderr, err := arena(t, "tournament", "--resume", "rk", "--db", db, "--json")
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "already played, continuing") {
		t.Errorf("resume does not say it continues:\n%s", stderr)
	}
	games, final := splitJSON(t, stdout)
	for _, g := range games {
		reported[g.ID]++
	}
	for id, n := range reported {
		if n > 1 {
			t.Errorf("game %s finished %d times: a resume replayed it", id, n)
		}
		if !want[id] {
			t.Errorf("unexpected game %s", id)
		}
	}
	stored := storedGames(t, db, "rk")
	seen := map[string]bool{}
	for _, g := range stored {
		if seen[g.ID] {
			t.Errorf("game %s stored twice", g.ID)
		}
		seen[g.ID] = true
	}
	if len(stored) != len(want) || len(seen) != len(want) {
		t.Errorf("%d games stored, want exactly %d", len(stored), len(want))
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("game %s missing", id)
		}
	}
	if final == nil || final["finished"] != true || final["games"] != float64(len(want)) {
		t.Errorf("final standings %v", final)
	}
	// A finished tournament rerun plays nothing and shows the standings.
	stdout, stderr, err = arena(t, append(args[:len(args):len(args)], "--db", db)...)
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, stderr)
	}
	if games, _ := splitJSON(t, stdout); len(games) != 0 {
		t.Errorf("rerun of a finished tournament played %d games", len(games))
	}
}

// TestTournamentFormats runs Swiss and knockout events end to end and the
// standings and export commands on their stores.
func TestTournamentFormats(t *testing.T) {
	tests := []struct {
		format string
		bots   int
		extra  []string
		games  int
		expect string
	}{
		{"swiss", 5, []string{"--rounds", "2", "--games-per-pair", "1"}, 4, "bye for"},
		{"knockout", 3, []string{"--games-per-pair", "2"}, 4, "winner: "},
		{"gauntlet", 3, []string{"--games-per-pair", "1"}, 2, "Crosstable"},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "2s",
				"--json", "--name", "f", "--format", tc.format, "--concurrency", "64", "--rating-interval", "1"}, tc.extra...)
			args = append(args, quickBots(t, tc.bots, "")...)
			stdout, stderr, err := arena(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			games, final := splitJSON(t, stdout)
			if tc.format != "knockout" && len(games) != tc.games {
				t.Errorf("%d games, want %d", len(games), tc.games)
			}
			if tc.format == "knockout" && len(games) < tc.games {
				t.Errorf("%d games, want at least %d", len(games), tc.games)
			}
			if final["format"] != tc.format {
				t.Errorf("final format %v", final["format"])
			}
			if !strings.Contains(stderr, tc.expect) || !strings.Contains(stderr, "warning: --concurrency 64") {
				t.Errorf("stderr lacks %q or the concurrency warning:\n%s", tc.expect, stderr)
			}
			// --rating-interval 1: a table after every game, and the last.
			if n := strings.Count(stderr, "Tournament f ("); n != len(games)+1 {
				t.Errorf("%d standings tables for %d games with --rating-interval 1", n, len(games))
			}

			db := filepath.Join(out, "arena.db")
			sout, serr, err := arena(t, "standings", "f", "--db", db, "--json")
			if err != nil {
				t.Fatalf("standings: %v\n%s", err, serr)
			}
			var st map[string]any
			if err := json.Unmarshal([]byte(sout), &st); err != nil {
				t.Fatalf("standings JSON %q: %v", sout, err)
			}
			if st["type"] != "standings" || st["games"] != float64(len(games)) || len(st["standings"].([]any)) != tc.bots {
				t.Errorf("standings %v", st)
			}
			if sout, _, err := arena(t, "standings", "f", "--db", db); err != nil || !strings.Contains(sout, "rank") {
				t.Errorf("standings table: %v\n%s", err, sout)
			}
			if sout, _, err := arena(t, "standings", "--db", db); err != nil || !strings.Contains(strings.Join(strings.Fields(sout), " "), "f gomoku finished") {
				t.Errorf("list of tournaments: %v\n%s", err, sout)
			}

			exp := filepath.Join(out, "export")
			if _, serr, err := arena(t, "export", "f", "--db", db, "--out", exp); err != nil {
				t.Fatalf("export: %v\n%s", err, serr)
			}
			pgn, err := os.ReadFile(filepath.Join(exp, "f.pgn"))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(pgn), "[Result "); n != len(games) {
				t.Errorf("%d results in the PGN file, want %d", n, len(games))
			}
			for _, g := range games {
				for _, ext := range []string{".json", ".psq", ".sgf"} {
					if _, err := os.Stat(filepath.Join(exp, "records", g.ID+ext)); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
}

// TestSPRT plays a strong bot against a weak one until the SPRT accepts
// H1, and checks the LLR lines and the final JSON.
func TestSPRT(t *testing.T) {
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	// No game name: the issue's own command line, which plays Gomoku.
	stdout, stderr, err := arena(t, "sprt", "--out", t.TempDir(), "--size", "10", "--turn-time", "2s",
		"--bot", "strong="+brain+" --policy=greedy --seed=1", "--bot", "weak="+brain+" --policy=random --seed=2",
		"--elo0", "0", "--elo1", "50", "--max-games", "200", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var res sprtResult
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if res.Type != "sprt" || res.Verdict != "H1" || res.LLR < res.Upper || res.Games < 2 || res.Games != len(lines)-1 {
		t.Errorf("result %+v after %d game lines", res, len(lines)-1)
	}
	if res.Pentanomial[4] == 0 || res.Pentanomial[0]+res.Pentanomial[1]+res.Pentanomial[2]+res.Pentanomial[3]+res.Pentanomial[4] != res.Pairs {
		t.Errorf("pentanomial %v for %d pairs", res.Pentanomial, res.Pairs)
	}
	if !strings.Contains(stderr, "LLR") || !strings.Contains(stderr, "H1 accepted") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestTournamentBadFlags checks that wrong input gets a one-line error
// naming the problem.
func TestTournamentBadFlags(t *testing.T) {
	brain := "b=" + filepath.Join(testBrain(t), "pbrain-tb")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "--db", "DB"}, "--resume"},
		{[]string{"tournament", "--resume", "nothing", "--db", "DB"}, "nothing"},
		{[]string{"tournament", "gomoku", "--format", "pyramid"}, "pyramid"},
		{[]string{"tournament", "gomoku", "--games-per-pair", "0"}, "--games-per-pair"},
		{[]string{"tournament", "gomoku", "--concurrency", "-1"}, "--concurrency"},
		{[]string{"tournament", "gomoku", "--opening", "/no/such/file"}, "/no/such/file"},
		{[]string{"tournament", "gomoku", "--openings", "x"}, "unknown flag: --openings"},
		{[]string{"sprt", "gomoku", "--openings", "x"}, "unknown flag: --openings"},
		{[]string{"sprt", "gomoku", "--games", "4"}, "unknown flag: --games"},
		{[]string{"tournament", "gomoku", "--bot", brain}, "needs at least 2 bots"},
		{[]string{"tournament", "gomoku", "--format", "swiss", "--rounds", "-2"}, "rounds"},
		{[]string{"tournament", "gomoku", "--games", "4"}, "--games-per-pair"},
		{[]string{"standings", "nothing", "--db", "DB"}, "nothing"},
		{[]string{"export", "nothing", "--out", "OUT", "--db", "DB"}, "nothing"},
		{[]string{"sprt", "gomoku", "--bot", brain, "--bot", brain, "--bot", brain}, "exactly 2"},
		{[]string{"sprt", "gomoku", "--alpha", "2"}, "--alpha"},
		{[]string{"sprt", "gomoku", "--elo0", "5", "--elo1", "0"}, "--elo1"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out := t.TempDir()
			var args []string
			for _, a := range tc.args {
				a = strings.ReplaceAll(a, "DB", filepath.Join(out, "arena.db"))
				args = append(args, strings.ReplaceAll(a, "OUT", out))
			}
			if len(args) > 1 && args[1] == "gomoku" {
				args = append(args, "--out", out)
			}
			_, _, err := arena(t, args...)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line mentioning %q", msg, tc.want)
			}
		})
	}
}

// BenchmarkTournamentInstant measures whole tournaments of instant-move
// bots on a small board: games per second end to end (processes, pipes,
// referee, records, store).
func BenchmarkTournamentInstant(b *testing.B) {
	dir, err := os.MkdirTemp("", "arena-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := testbrain.Build(dir); err != nil {
		b.Fatal(err)
	}
	brain := filepath.Join(dir, "pbrain-tb")
	games := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(dir, fmt.Sprint("run", i))
		args := []string{"tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "5s", "--name", "bench"}
		for k := 0; k < 4; k++ {
			args = append(args, "--bot", fmt.Sprintf("b%d=%s --policy=random --seed=%d", k, brain, k+1))
		}
		root := newRoot()
		root.SetArgs(args)
		root.SetOut(new(bytes.Buffer))
		root.SetErr(new(bytes.Buffer))
		if err := root.ExecuteContext(context.Background()); err != nil {
			b.Fatal(err)
		}
		games += 12
	}
	b.ReportMetric(float64(games)/time.Since(start).Seconds(), "games/s")
}

// TestTournamentNPlayer runs an Ants tournament of three bots on a
// generated map: every bot sits in every seat once, the standings rate
// the bots by Plackett–Luce, and the bot that crashes has its crashes
// counted although an Ants game's reason names no culprit.
func TestTournamentNPlayer(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "game", "ants", "testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Skip("no Ants test bot:", err)
	}
	out := t.TempDir()
	stdout, stderr, err := arena(t, "tournament", "ants", "--out", out, "--name", "ants3", "--json",
		"--bot", "r1=python3 "+script+" random", "--bot", "c=python3 "+script+" crash 2", "--bot", "r2=python3 "+script+" random",
		"--turns", "8", "--turntime", "5000", "--loadtime", "20000", "--engine_seed", "1", "--player_seed", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games, final := splitJSON(t, stdout)
	if len(games) != 3 {
		t.Fatalf("%d games, want 3 (one per seat rotation)", len(games))
	}
	stored := storedGames(t, filepath.Join(out, "arena.db"), "ants3")
	sat := map[string]map[int]bool{}
	for _, g := range stored {
		for seat, pi := range g.Seats {
			name := g.Players[pi]
			if sat[name] == nil {
				sat[name] = map[int]bool{}
			}
			if sat[name][seat] {
				t.Errorf("%s sat in seat %d twice", name, seat)
			}
			sat[name][seat] = true
		}
	}
	for _, name := range []string{"r1", "c", "r2"} {
		if len(sat[name]) != 3 {
			t.Errorf("%s sat in seats %v, want all three", name, sat[name])
		}
	}
	rows, _ := final["standings"].([]any)
	if len(rows) != 3 {
		t.Fatalf("standings %v", final)
	}
	if _, ok := rows[0].(map[string]any)["ordinal"]; !ok {
		t.Errorf("no Plackett–Luce rating in %v", rows[0])
	}
	for _, r := range rows {
		row := r.(map[string]any)
		faults, _ := row["faults"].(map[string]any)
		want := 0.0
		if row["player"] == "c" {
			want = 3
		}
		if got, _ := faults["crash"].(float64); got != want {
			t.Errorf("%v: %v crashes, want %v", row["player"], got, want)
		}
	}
	if !strings.Contains(stderr, "ordinal") {
		t.Errorf("standings table without ratings:\n%s", stderr)
	}
}

// TestTournamentOpeningsAndFaults plays a round robin on two openings
// (Gomoku's own --opening) with one bot that crashes: every
// pair plays each opening twice with colours swapped, the crashes are
// counted against the crashing bot, and no brain process survives.
func TestTournamentOpeningsAndFaults(t *testing.T) {
	out := t.TempDir()
	file := filepath.Join(out, "openings.txt")
	os.WriteFile(file, []byte("0,0, 1,0, 1,3\n-1,-1, 0,0\n"), 0o644)
	pids := filepath.Join(out, "pids")
	t.Setenv("TESTBRAIN_PIDFILE", pids)
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	stdout, stderr, err := arena(t, "tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "2s",
		"--opening", file, "--json", "--name", "op",
		"--bot", "g="+brain+" --policy=greedy --seed=1", "--bot", "r="+brain+" --seed=2",
		"--bot", "crash="+brain+" --misbehave=crash --at=2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games, final := splitJSON(t, stdout)
	if len(games) != 3*2*2 {
		t.Fatalf("%d games, want 12", len(games))
	}
	stored := storedGames(t, filepath.Join(out, "arena.db"), "op")
	type key struct {
		pair, opening string
	}
	firsts := map[key][]string{}
	for _, g := range stored {
		var rec struct {
			Opening []string `json:"opening"`
		}
		if err := json.Unmarshal(g.Record, &rec); err != nil || len(rec.Opening) == 0 {
			t.Fatalf("game %s: no opening in its record (%v)", g.ID, err)
		}
		k := key{strings.Join(g.Players, "-"), strings.Join(rec.Opening, " ")}
		firsts[k] = append(firsts[k], g.Players[g.Seats[0]])
		crasher := slices.Index(g.Players, "crash")
		if crasher >= 0 && (g.Winner == nil || *g.Winner == crasher || g.Reason != "crash") {
			t.Errorf("game %s: winner %v by %s, want the crashing bot to lose by crash", g.ID, g.Winner, g.Reason)
		}
	}
	if len(firsts) != 3*2 {
		t.Errorf("%d (pair, opening) combinations, want 6: %v", len(firsts), firsts)
	}
	for k, f := range firsts {
		if len(f) != 2 || f[0] == f[1] {
			t.Errorf("%v: first movers %v, want each side once", k, f)
		}
	}
	for _, r := range final["standings"].([]any) {
		row := r.(map[string]any)
		if row["player"] != "crash" {
			continue
		}
		faults, _ := row["faults"].(map[string]any)
		if faults["crash"] != float64(8) || row["losses"] != float64(8) {
			t.Errorf("crashing bot's row %v, want 8 losses by crash", row)
		}
	}
	data, _ := os.ReadFile(pids)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			pgid, _ := strconv.Atoi(f[1])
			if s := bot.Survivors(pgid); len(s) > 0 {
				t.Errorf("brain processes %v survive the tournament", s)
			}
		}
	}
}

// TestTournamentPostgres runs a small tournament on the PostgreSQL store
// and reads its standings back, when a test server is given as the store
// tests take it ($ARENA_TEST_POSTGRES, from scripts/postgres.sh).
func TestTournamentPostgres(t *testing.T) {
	dsn := os.Getenv("ARENA_TEST_POSTGRES")
	if dsn == "" || dsn == "skip" {
		t.Skip("ARENA_TEST_POSTGRES is not set: run scripts/postgres.sh and export its DSN")
	}
	// Tournaments of earlier runs stay on the server: a fresh name each run.
	name := fmt.Sprintf("pg-%d", time.Now().UnixNano())
	args := append([]string{"tournament", "gomoku", "--out", t.TempDir(), "--size", "10", "--turn-time", "2s",
		"--db", dsn, "--name", name, "--json"}, quickBots(t, 3, "")...)
	stdout, stderr, err := arena(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games, _ := splitJSON(t, stdout)
	sout, serr, err := arena(t, "standings", name, "--db", dsn, "--json")
	if err != nil {
		t.Fatalf("standings: %v\n%s", err, serr)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(sout), &st); err != nil {
		t.Fatal(err)
	}
	if len(games) != 6 || st["games"] != float64(6) || st["finished"] != true {
		t.Errorf("%d games played, standings %v", len(games), st)
	}
	// Rerunning continues (here: finds it finished) on PostgreSQL too.
	stdout, stderr, err = arena(t, args...)
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, stderr)
	}
	if again, _ := splitJSON(t, stdout); len(again) != 0 {
		t.Errorf("rerun of a finished tournament played %d games", len(again))
	}
}
