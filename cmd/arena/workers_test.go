package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/dispatch"
	"arena/internal/syncbuf"
	"arena/internal/testbrain"
	"arena/store"
	"arena/tournament"
)

// arenaProcess starts the test binary as arena with args in dir.
func arenaProcess(t *testing.T, dir, pidFile string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1", "TESTBRAIN_PIDFILE="+pidFile)
	return cmd
}

// gameLines reads a coordinator's JSON game lines until n (0: all) and
// returns them; the standings line is left out.
func gameLines(t *testing.T, sc *bufio.Scanner, n int) []summaryLine {
	t.Helper()
	var out []summaryLine
	for (n == 0 || len(out) < n) && sc.Scan() {
		var g summaryLine
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if g.Type == "game" {
			out = append(out, g)
		}
	}
	return out
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestWorkersEndToEnd: an embedded server, three arena worker processes
// in folders of their own, a round robin of 60 quick games; one worker
// is killed with SIGKILL mid-way and the coordinator once, then started
// again with the same command. The store holds each game once, no game
// is reported twice, every game names its worker, and the results are
// a local run's on the same seeds.
func TestWorkersEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("60 games on real processes")
	}
	out := t.TempDir()
	db := filepath.Join(out, "arena.db")
	pids := filepath.Join(out, "pids")
	addr := freePort(t)
	bots := quickBots(t, 6, " --delay=2ms")
	args := append([]string{"tournament", "gomoku", "--size", "10", "--turn-time", "5s", "--games-per-pair", "4",
		"--json", "--name", "e2e", "--seed", "11"}, bots...)
	dispatchArgs := []string{"--out", out, "--listen-nats", addr, "--nats-lease", "1s"}
	want := expectedIDs(t, tournament.Config{Name: "e2e", Format: tournament.RoundRobin, Players: 6, GamesPerPair: 4, Openings: 1})
	if len(want) != 60 {
		t.Fatalf("the schedule has %d games, want 60", len(want))
	}

	// The coordinator first: its embedded server is what workers join.
	coord := arenaProcess(t, t.TempDir(), pids, append(slices.Clone(args), dispatchArgs...)...)
	var coordErr bytes.Buffer
	coord.Stderr = &coordErr
	stdout, _ := coord.StdoutPipe()
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { coord.Process.Kill(); coord.Wait() })
	workers := make([]*exec.Cmd, 3)
	var workerErr [3]bytes.Buffer
	var workerDirs [3]string
	for i := range workers {
		dir := t.TempDir() // no shared files with the coordinator
		workerDirs[i] = dir
		w := arenaProcess(t, dir, pids, "worker", "--nats", "nats://"+addr, "--slots", "2", "--name", fmt.Sprintf("w%d", i+1),
			"--work-dir", dir, "--cache", filepath.Join(dir, "cache"))
		w.Stderr = &workerErr[i]
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		workers[i] = w
		t.Cleanup(func() { w.Process.Signal(syscall.SIGTERM); w.Wait() })
	}
	defer killGroups(t, pids)

	reported := map[string]int{}
	workerOf := map[string]string{}
	note := func(gs []summaryLine) {
		for _, g := range gs {
			reported[g.ID]++
			workerOf[g.ID] = g.Worker
		}
	}
	sc := bufio.NewScanner(stdout)
	note(gameLines(t, sc, 10))
	// A worker dies in the middle of its games.
	workers[0].Process.Signal(syscall.SIGKILL)
	workers[0].Wait()
	note(gameLines(t, sc, 15))
	// So does the coordinator, with its embedded server.
	coord.Process.Signal(syscall.SIGKILL)
	coord.Wait()
	if len(reported) < 25 {
		t.Fatalf("the coordinator reported %d games before it was killed:\n%s", len(reported), coordErr.String())
	}

	// The same command again: the event continues where it stopped.
	again := arenaProcess(t, t.TempDir(), pids, append(slices.Clone(args), dispatchArgs...)...)
	var againErr bytes.Buffer
	again.Stderr = &againErr
	againOut, _ := again.StdoutPipe()
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	note(gameLines(t, bufio.NewScanner(againOut), 0))
	if err := again.Wait(); err != nil {
		t.Fatalf("the restarted coordinator: %v\n%s\nworkers:\n%s\n%s", err, againErr.String(), workerErr[1].String(), workerErr[2].String())
	}

	for id, n := range reported {
		if n > 1 {
			t.Errorf("game %s reported %d times", id, n)
		}
		if !want[id] {
			t.Errorf("unexpected game %s", id)
		}
		if w := workerOf[id]; w == "" || !strings.HasPrefix(w, "w") {
			t.Errorf("game %s names worker %q", id, w)
		}
	}
	stored := storedGames(t, db, "e2e")
	seen := map[string]bool{}
	for _, g := range stored {
		if seen[g.ID] {
			t.Errorf("game %s stored twice", g.ID)
		}
		seen[g.ID] = true
	}
	if len(stored) != len(want) {
		t.Errorf("%d games stored, want %d", len(stored), len(want))
	}

	// The same tournament played here, on the same seeds: the same
	// result for every game.
	local := t.TempDir()
	if _, stderr, err := arena(t, append(slices.Clone(args), "--out", local, "--concurrency", "2")...); err != nil {
		t.Fatalf("local run: %v\n%s", err, stderr)
	}
	here := map[string]string{}
	for _, g := range storedGames(t, filepath.Join(local, "arena.db"), "e2e") {
		here[g.ID] = fmt.Sprint(g.Players, g.Winner == nil, winnerOf(g.Winner), g.Reason, g.Moves)
	}
	for _, g := range stored {
		if got := fmt.Sprint(g.Players, g.Winner == nil, winnerOf(g.Winner), g.Reason, g.Moves); got != here[g.ID] {
			t.Errorf("game %s: on workers %s, here %s", g.ID, got, here[g.ID])
		}
	}
	// The killed worker's bots did not outlive it for long: no bot of
	// the test is left once the event is over.
	assertNoBots(t, pids)
	// What the killed worker left of its games is cleared by the next
	// worker of its name, which refuses to run beside a live one.
	w1 := filepath.Join(workerDirs[0], "arena-worker-w1")
	if _, err := os.Stat(w1); err != nil {
		t.Fatalf("the killed worker left no folder to clear: %v", err)
	}
	os.WriteFile(filepath.Join(w1, "half-played"), []byte("x"), 0o644)
	second := newRoot()
	second.SetArgs([]string{"worker", "--nats", "nats://" + addr, "--name", "w2", "--work-dir", workerDirs[1]})
	second.SetErr(io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := second.ExecuteContext(ctx); err == nil || !strings.Contains(err.Error(), "another worker of this name") {
		t.Errorf("a second worker w2 beside the live one: %v", err)
	}
	next := arenaProcess(t, workerDirs[0], pids, "worker", "--nats", "nats://"+addr, "--name", "w1", "--work-dir", workerDirs[0])
	var nextErr bytes.Buffer
	next.Stderr = &nextErr
	if err := next.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(w1, "half-played")); err != nil {
			break
		}
	}
	next.Process.Signal(syscall.SIGTERM)
	next.Wait()
	if _, err := os.Stat(filepath.Join(w1, "half-played")); err == nil {
		t.Errorf("the next worker w1 did not clear its predecessor's folder:\n%s", nextErr.String())
	}
	// A worker that stops cleanly leaves nothing: neither its folder
	// nor its lock file.
	for _, left := range []string{w1, w1 + ".lock"} {
		if _, err := os.Stat(left); err == nil {
			t.Errorf("the worker w1 stopped and left %s", left)
		}
	}
}

func winnerOf(w *int) int {
	if w == nil {
		return -1
	}
	return *w
}

// assertNoBots checks that no process the test's bots recorded in the
// pid file is still running (a killed worker's bots end with their
// pipes).
func assertNoBots(t *testing.T, pidFile string) {
	t.Helper()
	data, _ := os.ReadFile(pidFile)
	deadline := time.Now().Add(10 * time.Second)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		var pid int
		fmt.Sscan(f[0], &pid)
		for pid > 1 && syscall.Kill(pid, 0) == nil && !zombie(pid) {
			if time.Now().After(deadline) {
				t.Errorf("bot process %d outlived its game", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// zombie reports whether pid has ended but not been reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(data, ')')
	return i > 0 && i+2 < len(data) && data[i+2] == 'Z'
}

// TestWorkersListAndServerRestart: a coordinator on an external NATS
// server (--nats) and a worker process; arena workers lists the worker
// with its slots and heartbeat; the server restarts in the middle of
// the tournament and both sides reconnect and finish it, every game
// once; a worker that stops leaves the list.
func TestWorkersListAndServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes and a server restart")
	}
	dir, addr := t.TempDir(), freePort(t)
	srv, err := dispatch.StartServer(dispatch.ServerConfig{StoreDir: dir, Listen: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Shutdown() }()
	url := "nats://" + addr
	out := t.TempDir()
	pids := filepath.Join(out, "pids")
	defer killGroups(t, pids)
	wdir := t.TempDir()
	w := arenaProcess(t, wdir, pids, "worker", "--nats", url, "--slots", "3", "--name", "lister", "--work-dir", wdir, "--cache", filepath.Join(wdir, "cache"))
	var werr bytes.Buffer
	w.Stderr = &werr
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Kill(); w.Wait() }()
	coord := arenaProcess(t, t.TempDir(), pids, append([]string{"tournament", "gomoku", "--size", "10", "--turn-time", "5s",
		"--json", "--name", "ext", "--out", out, "--nats", url, "--nats-lease", "1s"}, quickBots(t, 4, " --delay=30ms")...)...)
	var cerr bytes.Buffer
	coord.Stderr = &cerr
	stdout, _ := coord.StdoutPipe()
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { coord.Process.Kill(); coord.Wait() }()
	sc := bufio.NewScanner(stdout)
	seen := map[string]int{}
	for _, g := range gameLines(t, sc, 3) {
		seen[g.ID]++
	}
	// The worker is listed while it plays.
	var stdoutW string
	for deadline := time.Now().Add(10 * time.Second); stdoutW == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if stdoutW, _, err = arena(t, "workers", "--nats", url, "--json"); err != nil {
			t.Fatal(err)
		}
	}
	var line workerLine
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdoutW)), &line); err != nil {
		t.Fatalf("arena workers --json: %q: %v", stdoutW, err)
	}
	if line.Type != "worker" || line.Name != "lister" || line.Slots != 3 || line.Age > 30 || line.Running > 3 {
		t.Errorf("arena workers --json: %+v", line)
	}
	human, _, _ := arena(t, "workers", "--nats", url)
	if !strings.Contains(human, "lister") || !strings.Contains(human, "last heartbeat") {
		t.Errorf("arena workers:\n%s", human)
	}
	// The server restarts: same folder, same address.
	srv.Shutdown()
	time.Sleep(300 * time.Millisecond)
	if srv, err = dispatch.StartServer(dispatch.ServerConfig{StoreDir: dir, Listen: addr}); err != nil {
		t.Fatal(err)
	}
	after := gameLines(t, sc, 0)
	for _, g := range after {
		seen[g.ID]++
	}
	if len(after) == 0 {
		t.Error("no game finished after the restart: the test restarted nothing in the middle")
	}
	if err := coord.Wait(); err != nil {
		t.Fatalf("coordinator: %v\n%s\nworker:\n%s", err, cerr.String(), werr.String())
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("game %s reported %d times", id, n)
		}
	}
	if len(seen) != 12 || len(storedGames(t, filepath.Join(out, "arena.db"), "ext")) != 12 {
		t.Errorf("%d games reported, want 12", len(seen))
	}
	// A worker that stops leaves the list.
	w.Process.Signal(syscall.SIGTERM)
	w.Wait()
	listed, _, err := arena(t, "workers", "--nats", url)
	if err != nil || strings.TrimSpace(listed) != "no workers" {
		t.Errorf("after the worker stopped: %q, %v", listed, err)
	}
}

// BenchmarkWorkerProcesses is the throughput of round robins of
// instant bots (60 games of Gomoku on 10x10 each) played here, and on 1,
// 2 and 4 worker processes (2 slots each) of one NATS server started
// once: games/s in the steady state.
func BenchmarkWorkerProcesses(b *testing.B) {
	dir := b.TempDir()
	if err := testbrain.Build(dir); err != nil {
		b.Fatal(err)
	}
	var bots []string
	for i := range 6 {
		bots = append(bots, "--bot", fmt.Sprintf("b%d=%s --policy=greedy --seed=%d", i, filepath.Join(dir, testbrain.PipeName), i+1))
	}
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{0, 1, 2, 4} {
		name := "local"
		if workers > 0 {
			name = fmt.Sprintf("workers=%d", workers)
		}
		b.Run(name, func(b *testing.B) {
			var extra []string
			if workers > 0 {
				srv, err := dispatch.StartServer(dispatch.ServerConfig{StoreDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				defer srv.Shutdown()
				extra = []string{"--nats", srv.URL()}
				for w := range workers {
					c := exec.Command(exe, "worker", "--nats", srv.URL(), "--slots", "2", "--name", fmt.Sprint("w", w), "--cache", filepath.Join(dir, "cache"))
					c.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1")
					if err := c.Start(); err != nil {
						b.Fatal(err)
					}
					defer func() { c.Process.Signal(syscall.SIGTERM); c.Wait() }()
				}
			}
			games := 0
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				args := append([]string{"tournament", "gomoku", "--size", "10", "--turn-time", "5s", "--games-per-pair", "4",
					"--json", "--name", fmt.Sprintf("bench-%d-%d", workers, i), "--out", b.TempDir()}, bots...)
				root := newRoot()
				var out, errb bytes.Buffer
				root.SetOut(&out)
				root.SetErr(&errb)
				root.SetArgs(append(args, extra...))
				start := time.Now()
				if err := root.Execute(); err != nil {
					b.Fatalf("%v\n%s", err, errb.String())
				}
				elapsed += time.Since(start)
				games += strings.Count(out.String(), `"type":"game"`)
			}
			b.ReportMetric(float64(games)/elapsed.Seconds(), "games/s")
		})
	}
}

// TestSPRTOnWorkers: an SPRT with --workers plays its pairs on local
// worker processes, each game line naming its worker, and takes its
// queued games back when it stops.
func TestSPRTOnWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("worker processes")
	}
	t.Setenv("ARENA_TEST_AS_ARENA", "1") // the workers are this binary
	out := t.TempDir()
	bots := quickBots(t, 2, "")
	stdout, stderr, err := arena(t, append([]string{"sprt", "--size", "10", "--turn-time", "5s", "--max-games", "8", "--json",
		"--out", out, "--workers", "2", "--nats-lease", "2s"}, bots...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := 0
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var g summaryLine
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if g.Type != "game" {
			continue
		}
		games++
		if g.Worker == "" {
			t.Errorf("game %s names no worker", g.ID)
		}
	}
	if games < 8 {
		t.Errorf("%d games, want at least the 8 of --max-games", games)
	}
}

// TestServeOnWorkers: arena serve --workers plays the page's tournaments
// on worker processes and lists them at /api/workers.
func TestServeOnWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("worker processes")
	}
	t.Setenv("ARENA_TEST_AS_ARENA", "1") // the workers are this binary
	dir := t.TempDir()
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	ctx, cancel := context.WithCancel(context.Background())
	root := newRoot()
	var stdout, stderr syncbuf.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	db := filepath.Join(dir, "arena.db")
	t.Setenv("ARENA_TOKEN", strings.Repeat("ab", 16)) // never on the command line
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--out", dir,
		"--workers", "1", "--nats-lease", "2s", "--options", "gomoku:--size 10",
		"--bot", "gomoku:a=" + brain + " --policy=greedy --seed=1", "--bot", "gomoku:b=" + brain + " --policy=random --seed=2"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	defer func() { cancel(); <-done }()
	var base string
	for deadline := time.Now().Add(20 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := regexp.MustCompile(`serving on (\S+/)#`).FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("nothing printed; stderr:\n%s", stderr.String())
		}
	}
	req, _ := http.NewRequest("POST", base+"api/tournaments", strings.NewReader(`{"name":"webw","game":"gomoku","bots":["a","b"],"games":2}`))
	req.Header.Set("Authorization", "Bearer "+strings.Repeat("ab", 16))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST /api/tournaments: %s", resp.Status)
	}
	var listed []workerLine
	for deadline := time.Now().Add(30 * time.Second); len(listed) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(base + "api/workers")
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&listed)
		resp.Body.Close()
	}
	if len(listed) != 1 || listed[0].Slots < 1 {
		t.Errorf("/api/workers: %+v", listed)
	}
	var games []store.Game
	for deadline := time.Now().Add(60 * time.Second); len(games) < 2 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		games = storedGames(t, db, "webw")
	}
	if len(games) != 2 {
		t.Fatalf("%d games of the page's tournament stored; stderr:\n%s", len(games), stderr.String())
	}
	for _, g := range games {
		var rec struct{ Worker string }
		if json.Unmarshal(g.Record, &rec); rec.Worker == "" {
			t.Errorf("game %s was not played by a worker", g.ID)
		}
	}
}

// TestOptionFileOnWorker: tournaments whose options name a file by a
// path relative to the coordinator's folder (Gomoku's --opening, Ants'
// --map) play on a worker process in a folder of its own, where that
// path names nothing: the file travels by content, the worker keeps one
// copy in its cache, and every stored game is a local run's on the same
// seeds, down to the path its record gives for the file.
func TestOptionFileOnWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	antsMap, err := os.ReadFile(filepath.Join("..", "..", "game", "ants", "testdata", "tutorial1.map"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file string // relative to the coordinator's folder
		text string
		args []string
		// same is what must be equal in a game's record here and on the
		// worker.
		same func(rec map[string]any) string
	}{
		{"gomoku-opening", "private/openings.txt", "0,0, 1,0\n0,1, -1,-1, 2,2\n",
			append([]string{"gomoku", "--size", "10", "--turn-time", "5s", "--seed", "5", "--opening"}, "private/openings.txt"),
			func(rec map[string]any) string {
				return fmt.Sprint(rec["opening"], rec["winner"], len(rec["moves"].([]any)))
			}},
		{"ants-map", "maps/tutorial1.map", string(antsMap),
			[]string{"ants", "--turns", "30", "--engine_seed", "3", "--player_seed", "4", "--map", "maps/tutorial1.map"},
			func(rec map[string]any) string {
				opts := rec["options"].(map[string]any)
				return fmt.Sprint(opts["map"], opts["rows"], rec["winner"], len(rec["moves"].([]any)))
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir() // the coordinator's folder
			path := filepath.Join(home, filepath.FromSlash(tc.file))
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			pids := filepath.Join(out, "pids")
			defer killGroups(t, pids)
			addr := freePort(t)
			bots := []string{"--bot", "a=builtin", "--bot", "b=builtin"}
			if strings.HasPrefix(tc.name, "gomoku") {
				bots = quickBots(t, 2, "")
			}
			args := append(append([]string{"tournament"}, tc.args...), append([]string{"--json", "--name", "op", "--games-per-pair", "2"}, bots...)...)
			coord := arenaProcess(t, home, pids, append(slices.Clone(args), "--out", out, "--listen-nats", addr, "--nats-lease", "2s")...)
			var cerr bytes.Buffer
			coord.Stderr = &cerr
			if err := coord.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { coord.Process.Kill(); coord.Wait() }()
			wdir := t.TempDir()
			w := arenaProcess(t, wdir, pids, "worker", "--nats", "nats://"+addr, "--slots", "2", "--name", "far",
				"--work-dir", wdir, "--cache", filepath.Join(wdir, "cache"))
			var werr bytes.Buffer
			w.Stderr = &werr
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { w.Process.Signal(syscall.SIGTERM); w.Wait() }()
			if err := coord.Wait(); err != nil {
				t.Fatalf("coordinator: %v\n%s\nworker:\n%s", err, cerr.String(), werr.String())
			}
			records := func(db string) map[string]map[string]any {
				recs := map[string]map[string]any{}
				for _, g := range storedGames(t, db, "op") {
					var rec map[string]any
					if err := json.Unmarshal(g.Record, &rec); err != nil {
						t.Fatal(err)
					}
					recs[g.ID] = rec
				}
				return recs
			}
			onWorker := records(filepath.Join(out, "arena.db"))
			for id, rec := range onWorker {
				if rec["worker"] != "far" {
					t.Errorf("game %s: worker %v", id, rec["worker"])
				}
			}
			// The worker's cache holds the file once, under its own name.
			copies, _ := filepath.Glob(filepath.Join(wdir, "cache", "f-*", filepath.Base(tc.file)))
			if len(copies) != 1 {
				t.Errorf("the worker's cache holds %d copies of %s (%v), want 1", len(copies), tc.file, copies)
			} else if data, _ := os.ReadFile(copies[0]); string(data) != tc.text {
				t.Errorf("the worker's copy %s: %q", copies[0], data)
			}

			t.Chdir(home)
			local := t.TempDir()
			if _, stderr, err := arena(t, append(slices.Clone(args), "--out", local)...); err != nil {
				t.Fatalf("local run: %v\n%s", err, stderr)
			}
			here := records(filepath.Join(local, "arena.db"))
			if len(here) != len(onWorker) || len(here) < 2 {
				t.Fatalf("%d games here, %d on the worker; want the same, at least 2", len(here), len(onWorker))
			}
			for id, rec := range here {
				w, ok := onWorker[id]
				if !ok {
					t.Errorf("game %s not played on the worker", id)
					continue
				}
				if got, want := tc.same(w), tc.same(rec); got != want {
					t.Errorf("game %s: on the worker %s, here %s", id, got, want)
				}
			}
		})
	}
}
