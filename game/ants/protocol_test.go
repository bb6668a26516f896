package ants

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/bot"
	"arena/internal/syncbuf"
)

func needPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed for the protocol tests")
	}
	return p
}

func testPlayer(t *testing.T, name, mode string, at int) Player {
	py := needPython(t)
	script, err := filepath.Abs(filepath.Join("testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{py, script, mode, strconv.Itoa(at)}
	return Player{Name: name, Command: strings.Join(args[1:], " "), Args: args}
}

func tutorialMap(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("testdata", "tutorial1.map"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// runProcesses plays a game with real processes and returns the result,
// the texts sent, and the process group ids (to check nothing survives).
func runProcesses(t *testing.T, opt Options, players []Player) (*Result, *ReplayLogs, []int) {
	t.Helper()
	m, err := ParseMap(tutorialMap(t))
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewState(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{t.TempDir(), t.TempDir()}
	// The transcripts are shown when the test fails.
	transcripts := make([]*bot.Transcript, len(players))
	bufs := make([]*syncbuf.Buffer, len(players))
	for b := range players {
		bufs[b] = &syncbuf.Buffer{}
		transcripts[b] = bot.NewTranscript(bufs[b])
	}
	t.Cleanup(func() {
		if t.Failed() {
			for b, buf := range bufs {
				t.Logf("bot %d transcript:\n%s", b, buf)
			}
		}
	})
	bots := StartProcesses(ProcessConfig{Players: players, Dirs: dirs, Transcripts: transcripts})
	var pgids []int
	for b := range players {
		if p := bots.Process(b); p != nil {
			pgids = append(pgids, p.Pid())
		}
	}
	logs := newReplayLogs(len(players))
	e := &Engine{State: st, Bots: bots, Logs: logs.logs()}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := e.Run(ctx)
	bots.Close()
	if err != nil {
		t.Fatal(err)
	}
	return res, logs, pgids
}

func quickOptions(turns int) Options {
	o := DefaultOptions()
	o.Turns = turns
	o.TurnTime = 5000
	o.LoadTime = 5000
	o.EngineSeed, o.PlayerSeed = 7, 7
	return o
}

func assertNoSurvivors(t *testing.T, pgids []int) {
	t.Helper()
	for _, g := range pgids {
		if left := bot.Survivors(g); len(left) > 0 {
			t.Errorf("processes of group %d still running: %v", g, left)
		}
	}
}

func TestProtocolMisbehavingBots(t *testing.T) {
	cases := []struct {
		name, mode string
		strict     bool
		want       string // status of bot 1
		turn       int    // its playerturns
	}{
		{"crash", "crash", false, "crashed", 3},
		{"timeout", "timeout", false, "timeout", 3},
		{"invalid order under strict", "invalid", true, "invalid", 3},
		{"invalid order without strict", "invalid", false, "survived", 6},
		{"long line", "longline", false, "crashed", 3},
		{"garbage is invalid under strict", "garbage", true, "invalid", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			opt := quickOptions(6)
			opt.Strict = c.strict
			players := []Player{testPlayer(t, "hold", "hold", 99), testPlayer(t, c.mode, c.mode, 3)}
			res, logs, pgids := runProcesses(t, opt, players)
			if res.Status[1] != c.want || res.PlayerTurns[1] != c.turn {
				t.Fatalf("bot 1: status %q at turn %d, want %q at %d (all: %v %v)", res.Status[1], res.PlayerTurns[1], c.want, c.turn, res.Status, res.PlayerTurns)
			}
			if res.Status[0] != "survived" {
				t.Fatalf("bot 0: %q, want survived", res.Status[0])
			}
			in := logs.Input[1].String()
			switch c.want {
			case "crashed", "timeout":
				if strings.Contains(in, "\nend\n") {
					t.Errorf("a %s bot was sent the end message", c.want)
				}
			case "invalid":
				if !strings.Contains(in, "end\nplayers 2\n") {
					t.Errorf("a bot eliminated for invalid orders gets the end message; input ends %q", in[max(0, len(in)-200):])
				}
			}
			assertNoSurvivors(t, pgids)
		})
	}
}

func TestProtocolFloodAndChildren(t *testing.T) {
	opt := quickOptions(5)
	players := []Player{testPlayer(t, "child", "child", 99), testPlayer(t, "flood", "flood", 2)}
	res, logs, pgids := runProcesses(t, opt, players)
	if res.Status[0] != "survived" {
		t.Fatalf("child bot: %v", res.Status)
	}
	// 200000 order lines: the engine keeps at most 40000 and judges them;
	// the bot answered "go" in time, so it plays on.
	if res.Status[1] != "survived" {
		t.Fatalf("flooding bot: %v %v", res.Status, res.PlayerTurns)
	}
	for _, turn := range strings.Split(logs.Output[1].String(), "# turn ")[1:] {
		if n := strings.Count(turn, "\n"); n > maxMoveLines+1 {
			t.Fatalf("flooding bot: %d lines judged in one turn, want at most %d", n, maxMoveLines)
		}
	}
	if !strings.Contains(logs.Output[1].String(), "o 0 0 n # not player ant") {
		t.Fatal("flooding bot: its orders were not judged")
	}
	assertNoSurvivors(t, pgids)
}

func TestProtocolRealGame(t *testing.T) {
	opt := quickOptions(30)
	players := []Player{testPlayer(t, "r1", "random", 99), testPlayer(t, "r2", "random", 99)}
	res, logs, pgids := runProcesses(t, opt, players)
	if res.GameLength == 0 {
		t.Fatal("game did not run")
	}
	for b := 0; b < 2; b++ {
		in := logs.Input[b].String()
		if !strings.HasPrefix(in, "turn 0\nloadtime 5000\nturntime 5000\nrows 43\ncols 39\nturns 30\n") {
			t.Fatalf("bot %d turn 0 block: %q", b, in[:min(len(in), 120)])
		}
		if !strings.Contains(in, "turn 1\n") || !strings.HasSuffix(in, "go\n") {
			t.Fatalf("bot %d input lacks turns or end", b)
		}
	}
	assertNoSurvivors(t, pgids)
}

// Bots are stopped (SIGSTOP) between their turns.
func TestProtocolPausedBetweenTurns(t *testing.T) {
	opt := quickOptions(2)
	players := []Player{testPlayer(t, "a", "hold", 99), testPlayer(t, "b", "hold", 99)}
	m, _ := ParseMap(tutorialMap(t))
	st, err := NewState(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	bots := StartProcesses(ProcessConfig{Players: players})
	defer bots.Close()
	e := &Engine{State: st, Bots: &pauseProbe{t: t, ProcessBots: bots}}
	if _, err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

type pauseProbe struct {
	t *testing.T
	*ProcessBots
}

func (p *pauseProbe) Moves(turn int, group []int, limit time.Duration) []Answer {
	out := p.ProcessBots.Moves(turn, group, limit)
	for i, b := range group {
		if out[i].Status != "" {
			continue
		}
		// SIGSTOP is delivered asynchronously: give it a moment.
		state := "?"
		for try := 0; try < 300; try++ {
			if state = procState(p.Process(b).Pid()); state == "T" || state == "t" {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if state != "T" && state != "t" {
			p.t.Errorf("turn %d: bot %d is %q after its answer, want stopped", turn, b, state)
		}
	}
	return out
}

func procState(pid int) string {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "?"
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return "?"
	}
	return s[i+2 : i+3]
}

// A turn's state larger than a pipe holds reaches a bot that is paused
// while the engine writes it.
func TestProtocolStateLargerThanPipe(t *testing.T) {
	// 200x200, half of it water in a checkerboard: the first turn reveals
	// all of it, about 190 KB of "w" lines.
	var text strings.Builder
	text.WriteString("rows 200\ncols 200\nplayers 4\n")
	for r := 0; r < 200; r++ {
		row := []byte(strings.Repeat(".", 200))
		for c := range row {
			if r >= 4 && (r+c)%2 == 0 {
				row[c] = '%'
			}
		}
		if r == 0 {
			row[0], row[50], row[100], row[150] = '0', '1', '2', '3'
		}
		text.WriteString("m " + string(row) + "\n")
	}
	m, err := ParseMap(text.String())
	if err != nil {
		t.Fatal(err)
	}
	opt := quickOptions(2)
	opt.Food, opt.ViewRadius2 = "none", 20000
	st, err := NewState(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	var players []Player
	for i := 0; i < 4; i++ {
		players = append(players, testPlayer(t, "hold", "hold", 99))
	}
	bots := StartProcesses(ProcessConfig{Players: players})
	logs := newReplayLogs(4)
	e := &Engine{State: st, Bots: bots, Logs: logs.logs()}
	res, err := e.Run(context.Background())
	bots.Close()
	if err != nil {
		t.Fatal(err)
	}
	for b, s := range res.Status {
		if s != "survived" {
			t.Fatalf("bot %d: %s (%v)", b, s, res.Status)
		}
	}
	if n := logs.Input[0].Len(); n < 128<<10 {
		t.Fatalf("bot 0 got %d bytes, want a state bigger than a pipe", n)
	}
}
