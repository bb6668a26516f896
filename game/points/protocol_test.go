package points

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
)

var (
	helperOnce sync.Once
	helperPath string
	helperErr  error
)

// helper builds the test player (arena/internal/cmd/pointstest) once.
func helper(t testing.TB) string {
	t.Helper()
	helperOnce.Do(func() {
		dir, err := os.MkdirTemp("", "points-test-")
		if err != nil {
			helperErr = err
			return
		}
		helperPath = filepath.Join(dir, "pointstest")
		out, err := exec.Command("go", "build", "-o", helperPath, "arena/internal/cmd/pointstest").CombinedOutput()
		if err != nil {
			helperErr = errors.New("build pointstest: " + err.Error() + "\n" + string(out))
		}
	})
	if helperErr != nil {
		t.Fatal(helperErr)
	}
	return helperPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if helperPath != "" {
		os.RemoveAll(filepath.Dir(helperPath))
	}
	os.Exit(code)
}

func testPlayer(t testing.TB, name string, args ...string) Player {
	return Player{Player: match.Player{Name: name, Command: "pointstest", Args: append([]string{helper(t)}, args...)}, Protocol: ProtocolOptions{TimeUnit: Millis}}
}

func readLog(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestProtocolGame plays a whole game between two real processes and
// checks every line they were sent: the field, the increment, the
// opening and the opponent's dots as moves (never their own), time and
// otime before every go, quit at the end.
func TestProtocolGame(t *testing.T) {
	dir := t.TempDir()
	logs := []string{filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")}
	mc := MatchConfig{
		Config: Config{Width: 12, Height: 9}, Opening: Cross,
		Clock:   match.Clock{Match: time.Minute, Increment: 2 * time.Second, Tolerance: time.Second},
		WorkDir: dir,
	}
	g := Game{ID: "g1", Red: 1, Players: []Player{
		testPlayer(t, "rnd", "--name=Random Dots", "--log="+logs[0], "--seed=3"),
		testPlayer(t, "grd", "--policy=greedy", "--name=Greedy", "--log="+logs[1], "--seed=4"),
	}}
	rec, err := PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != ReasonScore && rec.Reason != "draw" {
		t.Fatalf("game ended by %s: %s", rec.Reason, rec.Detail)
	}
	if rec.Players[0].About != "Random Dots" || rec.Players[1].About != "Greedy" {
		t.Errorf("names %q %q", rec.Players[0].About, rec.Players[1].About)
	}
	if len(rec.Opening) != 4 || rec.Seats[0] != 1 {
		t.Errorf("opening %v seats %v", rec.Opening, rec.Seats)
	}
	for i, m := range rec.Moves {
		if len(m.Output) != 1 || !strings.HasPrefix(m.Output[0], "status: move ") {
			t.Fatalf("move %d: status lines %q, want the bot's one line", i+1, m.Output)
		}
	}
	final, err := Replay(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !final.Over() || rec.Scores[1] != final.Score(Red) || rec.Scores[0] != final.Score(Blue) {
		t.Errorf("replay: over %v scores %d:%d, record %v", final.Over(), final.Score(Red), final.Score(Blue), rec.Scores)
	}
	all := final.Moves()
	for pi, path := range logs {
		lines := readLog(t, path)
		if lines[0] != "START" || lines[1] != "new 9 12" || lines[2] != "increment 2" || lines[len(lines)-2] != "quit" || lines[len(lines)-1] != "EXIT" {
			t.Errorf("player %d: log starts %q and ends %q", pi, lines[:3], lines[len(lines)-2:])
		}
		red := pi == 1
		// Rebuild the game from what the player was sent plus its own
		// answers: every dot arrives once, in order.
		var seen []Point
		own := 0
		for i, l := range lines {
			switch {
			case strings.HasPrefix(l, "move "):
				p, err := ParseMove(l, 0)
				if err != nil {
					t.Fatal(err)
				}
				seen = append(seen, p)
			case l == "go":
				if i < 2 || !strings.HasPrefix(lines[i-2], "time ") || !strings.HasPrefix(lines[i-1], "otime ") {
					t.Fatalf("player %d: go at line %d not after time and otime: %q", pi, i, lines[max(i-2, 0):i+1])
				}
				if (len(seen)%2 == 0) != red {
					t.Fatalf("player %d asked to move after %d dots: colour by parity broken", pi, len(seen))
				}
				seen = append(seen, all[len(seen)])
				own++
			}
		}
		if len(seen) > len(all) || !slicesEqual(seen, all[:len(seen)]) {
			t.Errorf("player %d saw %v, game %v", pi, seen, all)
		}
	}
}

func slicesEqual(a, b []Point) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMisbehavingBots: each failure loses by the protocol's own rule
// with the reason recorded, and no process of the bot is left.
func TestMisbehavingBots(t *testing.T) {
	tests := []struct {
		mode   string
		want   game.Reason
		detail string
	}{
		{"silent", game.ReasonTimeout, "no move"},
		{"hang", game.ReasonTimeout, "no move"},
		{"chatter", game.ReasonTimeout, "thinking 4"},
		{"noname", game.ReasonTimeout, "name"},
		{"crash", game.ReasonCrash, "exit status 3"},
		{"garbage", game.ReasonProtocol, "move here there"},
		{"flood", game.ReasonProtocol, "line too long"},
		{"occupied", game.ReasonIllegal, "holds a dot"},
		{"offboard", game.ReasonIllegal, "off the field"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pids")
			state, _ := NewState(Config{Width: 10, Height: 10})
			pts, _ := Cross.Points(10, 10, 0)
			state.PlayOpening(pts)
			mk := func(me Color, args ...string) *Seat {
				return NewSeat(state, me, SeatOptions{
					Args: append([]string{helper(t)}, args...), Dir: dir,
					Env: []string{"TESTBRAIN_PIDFILE=" + pidFile}, MaxLine: 1 << 16,
				})
			}
			seats := []match.Seat[Point]{mk(Red, "--misbehave="+tt.mode, "--at=2"), mk(Blue)}
			if tt.mode == "noname" {
				seats[0] = mk(Red, "--misbehave=noname")
			}
			out := match.Run[Point](context.Background(), Referee{State: state}, seats, match.Config{
				Clock: match.Clock{Turn: 700 * time.Millisecond, Tolerance: 300 * time.Millisecond, Startup: time.Second},
			})
			if out.Result.Winner != 1 || out.Result.Reason != tt.want || !strings.Contains(out.Result.Detail, tt.detail) {
				t.Errorf("winner %d by %s (%s), want blue by %s mentioning %q", out.Result.Winner, out.Result.Reason, out.Result.Detail, tt.want, tt.detail)
			}
			checkNoSurvivors(t, pidFile)
		})
	}
}

func checkNoSurvivors(t *testing.T, pidFile string) {
	t.Helper()
	f, err := os.Open(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		pgid, _ := strconv.Atoi(fs[1])
		n++
		deadline := time.Now().Add(3 * time.Second)
		for len(bot.Survivors(pgid)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if s := bot.Survivors(pgid); len(s) > 0 {
			t.Errorf("processes %v of group %d still running", s, pgid)
		}
	}
	if n != 2 {
		t.Errorf("%d processes started, want 2", n)
	}
}

func TestProtocolOptions(t *testing.T) {
	tests := []struct {
		in   string
		want ProtocolOptions
		err  bool
	}{
		{"", ProtocolOptions{TimeUnit: Millis}, false},
		{"base=1", ProtocolOptions{Base: 1, TimeUnit: Millis}, false},
		{"base=1,time_unit=s", ProtocolOptions{Base: 1, TimeUnit: Seconds}, false},
		{"time_unit=cs", ProtocolOptions{TimeUnit: Centis}, false},
		{"base=2", ProtocolOptions{}, true},
		{"unit=h", ProtocolOptions{}, true},
		{"colour=red", ProtocolOptions{}, true},
		{"base", ProtocolOptions{}, true},
	}
	for _, tt := range tests {
		got, err := ParseProtocolOptions(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("%q: %+v, %v", tt.in, got, err)
		}
	}
}

// TestOneBasedSeconds checks the per-bot options on the wire: 1-based
// coordinates and times in seconds.
func TestOneBasedSeconds(t *testing.T) {
	dir := t.TempDir()
	logf := filepath.Join(dir, "a.log")
	mc := MatchConfig{
		Config: Config{Width: 6, Height: 5, MaxMoves: 6}, Opening: Cross,
		Clock:   match.Clock{Match: 30 * time.Second, Increment: 10 * time.Second, Tolerance: time.Second},
		WorkDir: dir,
	}
	one := testPlayer(t, "one", "--base=1", "--log="+logf)
	one.Protocol = ProtocolOptions{Base: 1, TimeUnit: Seconds}
	rec, err := PlayGame(context.Background(), mc, Game{ID: "g", Players: []Player{one, testPlayer(t, "zero")}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != ReasonMaxMoves {
		t.Fatalf("ended by %s: %s", rec.Reason, rec.Detail)
	}
	lines := readLog(t, logf)
	// The cross on a 6x5 field is (2,1) (2,2) (3,2) (3,1), 0-based.
	// Start-up is charged to the clock: 30 s + 10 s increment leaves 39
	// whole seconds when it took a moment.
	want := []string{"START", "new 5 6", "increment 10", "move 3 2", "move 3 3", "move 4 3", "move 4 2", "time 39", "otime 30", "go"}
	if lines[7] == "time 40" {
		lines[7] = "time 39"
	}
	if strings.Join(lines[:len(want)], "|") != strings.Join(want, "|") {
		t.Errorf("log starts %q, want %q", lines[:len(want)], want)
	}
}
