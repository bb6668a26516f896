package points

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
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

var updateGolden = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

var (
	v6Once sync.Once
	v6Path string
	v6Err  error
)

// v6Engine builds the scripted v6 engine (arena/internal/cmd/v6test)
// once, next to pointstest.
func v6Engine(t testing.TB) string {
	t.Helper()
	dir := filepath.Dir(helper(t))
	v6Once.Do(func() {
		v6Path = filepath.Join(dir, "v6test")
		if out, err := exec.Command("go", "build", "-o", v6Path, "arena/internal/cmd/v6test").CombinedOutput(); err != nil {
			v6Err = errors.New("build v6test: " + err.Error() + "\n" + string(out))
		}
	})
	if v6Err != nil {
		t.Fatal(v6Err)
	}
	return v6Path
}

func v6Player(t testing.TB, name string, args ...string) Player {
	return Player{Player: match.Player{Name: name, Command: "v6test", Args: append([]string{v6Engine(t)}, args...)}, Protocol: ProtocolOptions{Kind: AIProtocol6}}
}

// wireTranscripts collects what passes between arena and each player,
// without the times and the arena's notes: the lines sent ('>') and read
// ('<') only.
type wireTranscripts struct {
	mu  sync.Mutex
	buf map[int]*bytes.Buffer
}

func (w *wireTranscripts) get(_ string, player int) *bot.Transcript {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf == nil {
		w.buf = map[int]*bytes.Buffer{}
	}
	b := &bytes.Buffer{}
	w.buf[player] = b
	return bot.NewTranscript(b)
}

func (w *wireTranscripts) lines(player int) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, l := range strings.Split(w.buf[player].String(), "\n") {
		f := strings.SplitN(strings.TrimSpace(l), " ", 3)
		if len(f) == 3 && (f[1] == ">" || f[1] == "<") {
			out = append(out, f[1]+" "+f[2])
		}
	}
	return out
}

// checkGolden compares lines with testdata/name (rewritten with -update).
func checkGolden(t *testing.T, name string, lines []string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	got := strings.Join(lines, "\n") + "\n"
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		gl, wl := lines, strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s: line %d is %q, want %q", path, i+1, g, w)
			}
		}
	}
}

// TestV6GoldenGame plays a whole game between two scripted v6 engines
// (real processes) without a clock and compares every line sent and read
// with the golden transcripts: list_commands, name, version, init, the
// opening cross as plays, then per move the plays of the dots the engine
// has not played and gen_move, and quit at the end. The game has
// captures and ends with a full field.
func TestV6GoldenGame(t *testing.T) {
	dir := t.TempDir()
	var wire wireTranscripts
	mc := MatchConfig{Config: Config{Width: 7, Height: 6}, Opening: Cross, WorkDir: dir, Transcripts: wire.get}
	g := Game{ID: "v6-golden", Red: 0, Players: []Player{
		v6Player(t, "red", "--policy=greedy", "--seed=3", "--name=Red"),
		v6Player(t, "blue", "--policy=greedy", "--seed=4", "--name=Blue"),
	}}
	rec, err := PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != ReasonScore && rec.Reason != game.ReasonDraw {
		t.Fatalf("ended by %s: %s", rec.Reason, rec.Detail)
	}
	if rec.Players[0].About != "Red 1.0" || rec.Players[1].About != "Blue 1.0" {
		t.Errorf("about %q %q", rec.Players[0].About, rec.Players[1].About)
	}
	final, err := Replay(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	captures := 0
	for _, m := range rec.Moves {
		if strings.Contains(string(m.Effect), "captures") {
			captures++
		}
	}
	if captures == 0 || !final.Over() {
		t.Errorf("%d moves captured, over %v: the golden game should show captures and the end", captures, final.Over())
	}
	checkGolden(t, "v6-game-red.golden", wire.lines(0))
	checkGolden(t, "v6-game-blue.golden", wire.lines(1))
}

// engineLog reads a v6test --log file.
func engineLog(t *testing.T, path string) []string {
	t.Helper()
	return readLog(t, path)
}

// playedInLog returns the dots a v6 engine was told to play, in order,
// checking that their colours alternate from red.
func playedInLog(t *testing.T, lines []string) []Point {
	t.Helper()
	var seen []Point
	for _, l := range lines {
		r, err := ParseV6Request(l)
		if err != nil || r.Command != "play" {
			continue
		}
		p, err := Point{}, error(nil)
		if len(r.Args) != 3 {
			t.Fatalf("play %q", l)
		}
		p.X, err = strconv.Atoi(r.Args[0])
		if err == nil {
			p.Y, err = strconv.Atoi(r.Args[1])
		}
		if err != nil || r.Args[2] != strconv.Itoa(len(seen)%2) {
			t.Fatalf("play %q as dot %d: colour by order broken", l, len(seen)+1)
		}
		seen = append(seen, p)
	}
	return seen
}

// TestV6AgainstPointsBattle plays a scripted v6 engine against the
// Points Battle test player with a clock: the engine is told every dot
// (both sides') in order and gets gen_move_with_time with the time
// MoveTime allows on its clock; the Points Battle player is unaffected.
func TestV6AgainstPointsBattle(t *testing.T) {
	dir := t.TempDir()
	logs := []string{filepath.Join(dir, "v6.log"), filepath.Join(dir, "pb.log")}
	clock := match.Clock{Match: 4 * time.Second, Increment: time.Second, Tolerance: time.Second}
	mc := MatchConfig{Config: Config{Width: 9, Height: 8}, Opening: TwoCrosses, Clock: clock, WorkDir: dir}
	for red := 0; red < 2; red++ {
		os.Remove(logs[0])
		os.Remove(logs[1])
		g := Game{ID: "mixed" + strconv.Itoa(red), Red: red, Players: []Player{
			v6Player(t, "v6", "--policy=greedy", "--log="+logs[0]),
			testPlayer(t, "pb", "--policy=greedy", "--log="+logs[1]),
		}}
		rec, err := PlayGame(context.Background(), mc, g)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason != ReasonScore && rec.Reason != game.ReasonDraw {
			t.Fatalf("red %d: ended by %s: %s", red, rec.Reason, rec.Detail)
		}
		final, err := Replay(rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		all := final.Moves()
		lines := engineLog(t, logs[0])
		seen := playedInLog(t, lines)
		// The engine is never sent its own last move (the game ended) and,
		// when the opponent moved last, not that one either.
		if len(seen) < len(all)-2 || !slicesEqual(seen, all[:len(seen)]) {
			t.Errorf("red %d: engine played %v, game %v", red, seen, all)
		}
		if lines[len(lines)-1] != "EXIT" {
			t.Errorf("red %d: engine log ends %q, want a clean quit", red, lines[len(lines)-1])
		}
		gens := 0
		for _, l := range lines {
			r, err := ParseV6Request(l)
			if err != nil || !strings.HasPrefix(r.Command, "gen_move") {
				continue
			}
			gens++
			if r.Command != "gen_move_with_time" || len(r.Args) != 2 || r.Args[0] != strconv.Itoa(red) {
				t.Fatalf("red %d: %q, want gen_move_with_time %d MS", red, l, red)
			}
			ms, err := strconv.Atoi(r.Args[1])
			// Before its k-th move the clock shows at most the base and k
			// increments.
			if most := MoveTime(clock.Match+time.Duration(gens)*clock.Increment, clock.Increment); err != nil || ms < 1 || time.Duration(ms)*time.Millisecond > most {
				t.Errorf("red %d: %q: want 1..%d ms", red, l, most.Milliseconds())
			}
		}
		if gens != len(all)/2-len(rec.Opening)/2 && gens != (len(all)+1)/2-len(rec.Opening)/2 {
			t.Errorf("red %d: %d gen_moves in a game of %d moves", red, gens, len(all)-len(rec.Opening))
		}
	}
}

// TestV6Misbehaving: each failure over v6 gets the verdict the same
// failure gets over Points Battle, and no process is left.
func TestV6Misbehaving(t *testing.T) {
	tests := []struct {
		mode   string
		want   game.Reason
		detail string
	}{
		{"silent", game.ReasonTimeout, "no answer to"},
		{"mute", game.ReasonTimeout, "list_commands"},
		{"crash", game.ReasonCrash, "exit status 3"},
		{"garbage", game.ReasonProtocol, "hello there"},
		{"wrongid", game.ReasonProtocol, "wrong ID"},
		{"wrongcolour", game.ReasonProtocol, "colour"},
		{"refuse", game.ReasonProtocol, "refused to move"},
		{"refuseplay", game.ReasonProtocol, "a legal dot"},
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
					Args: append([]string{v6Engine(t)}, args...), Dir: dir,
					Env: []string{"TESTBRAIN_PIDFILE=" + pidFile}, MaxLine: 1 << 16,
					Protocol: ProtocolOptions{Kind: AIProtocol6},
				})
			}
			seats := []match.Seat[Point]{mk(Red, "--misbehave="+tt.mode, "--at=2"), mk(Blue)}
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

// TestProbe: without a protocol given, a bot answering "1 list_commands"
// is spoken to over v6 and a bot printing a name line first over Points
// Battle; a bot saying nothing fails its start on time.
func TestProbe(t *testing.T) {
	tests := []struct {
		name  string
		p     Player
		about string
		v6    bool
	}{
		{"v6", v6Player(t, "v6", "--name=Engine"), "Engine 1.0", true},
		{"pb", testPlayer(t, "pb", "--name=Battle Bot"), "Battle Bot", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			logf := filepath.Join(dir, "log")
			p := tt.p
			p.Args = append(append([]string(nil), p.Args...), "--log="+logf)
			p.Protocol = ProtocolOptions{Kind: Probe}
			mc := MatchConfig{Config: Config{Width: 6, Height: 5, MaxMoves: 6}, Opening: Cross, WorkDir: dir,
				Clock: match.Clock{Match: 5 * time.Second, Increment: time.Second, Tolerance: time.Second}}
			rec, err := PlayGame(context.Background(), mc, Game{ID: "probe", Players: []Player{p, testPlayer(t, "other")}})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Reason != ReasonMaxMoves || rec.Players[0].About != tt.about {
				t.Fatalf("ended by %s (%s), about %q; want max-moves, %q", rec.Reason, rec.Detail, rec.Players[0].About, tt.about)
			}
			var o Options
			if err := json.Unmarshal(rec.Options, &o); err != nil || !strings.HasPrefix(o.Protocols[0], tt.name+",") || o.Protocols[1] != "base=0,time_unit=ms" {
				t.Errorf("record's protocols %q (%v): want the one found, %s", o.Protocols, err, tt.name)
			}
			if want := map[bool]string{true: "v6", false: "pointsbattle"}[tt.v6]; rec.Players[0].Protocol != want || rec.Players[1].Protocol != "pointsbattle" {
				t.Errorf("players' protocols %q, %q; want %q, pointsbattle", rec.Players[0].Protocol, rec.Players[1].Protocol, want)
			}
			lines := readLog(t, logf)
			if lines[1] != "1 list_commands" {
				t.Errorf("first line sent %q, want the probe", lines[1])
			}
			if tt.v6 != (lines[2] == "2 name") || !tt.v6 && lines[2] != "new 5 6" {
				t.Errorf("after the probe: %q", lines[2])
			}
		})
	}
	t.Run("silent", func(t *testing.T) {
		dir := t.TempDir()
		p := v6Player(t, "mute", "--misbehave=mute")
		p.Protocol = ProtocolOptions{Kind: Probe}
		mc := MatchConfig{Config: Config{Width: 6, Height: 5}, Opening: Cross, WorkDir: dir,
			Clock: match.Clock{Turn: time.Second, Tolerance: 200 * time.Millisecond, Startup: 500 * time.Millisecond}}
		rec, err := PlayGame(context.Background(), mc, Game{ID: "probe", Players: []Player{p, testPlayer(t, "other")}})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason != game.ReasonTimeout || !strings.Contains(rec.Detail, "no name line nor answer") {
			t.Errorf("ended by %s: %s", rec.Reason, rec.Detail)
		}
	})
}

func TestV6ProtocolOptions(t *testing.T) {
	tests := []struct {
		in   string
		want ProtocolOptions
		err  bool
	}{
		{"v6", ProtocolOptions{Kind: AIProtocol6, TimeUnit: Millis}, false},
		{"PB,base=1", ProtocolOptions{Kind: PointsBattle, Base: 1, TimeUnit: Millis}, false},
		{"proto=auto", ProtocolOptions{Kind: Probe, TimeUnit: Millis}, false},
		{"v6,proto=v6", ProtocolOptions{Kind: AIProtocol6, TimeUnit: Millis}, false},
		{"v6,pb", ProtocolOptions{}, true},
		{"v7", ProtocolOptions{}, true},
		{"proto=gtp", ProtocolOptions{}, true},
	}
	for _, tt := range tests {
		got, err := ParseProtocolOptions(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("%q: %+v, %v", tt.in, got, err)
		}
	}
}

func TestMoveTime(t *testing.T) {
	tests := []struct {
		left, inc, want time.Duration
	}{
		// Points Battle's 10 s increment from zero: a third of the clock
		// less the reserve.
		{10 * time.Second, 10 * time.Second, 10*time.Second/3 - 30*time.Millisecond - 10*time.Second/3/10},
		// Saved time: 70% of the increment and a twentieth of the rest.
		{21 * time.Second, time.Second, 1700*time.Millisecond - 30*time.Millisecond - 170*time.Millisecond},
		// An empty clock still gets a millisecond.
		{0, 0, time.Millisecond},
	}
	for _, tt := range tests {
		if got := MoveTime(tt.left, tt.inc); got != tt.want {
			t.Errorf("MoveTime(%v, %v) = %v, want %v", tt.left, tt.inc, got, tt.want)
		}
	}
}

func TestParseV6Reply(t *testing.T) {
	tests := []struct {
		in   string
		want string // String() of the answer, "" for an error
	}{
		{"= 1 list_commands init play", "= 1 list_commands init play"},
		{"?  12\tplay ", "? 12 play"},
		{"= 5 gen_move_with_time 1 2 1", "= 5 gen_move_with_time 1 2 1"},
		{"= 5", ""},
		{"! 5 play", ""},
		{"=5 play", ""},
		{"= -1 play", ""},
		{"= x play", ""},
		{"= 99999999999 play", ""},
		{"", ""},
	}
	for _, tt := range tests {
		r, err := ParseV6Reply(tt.in)
		if got := r.String(); (err != nil) != (tt.want == "") || (err == nil && got != tt.want) {
			t.Errorf("%q: %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if p, c, err := (V6Reply{OK: true, ID: 1, Command: "gen_move", Args: []string{"3", "4", "1"}}).Move(); err != nil || p != (Point{3, 4}) || c != 1 {
		t.Errorf("Move: %v %d %v", p, c, err)
	}
	for _, args := range [][]string{{"3", "4"}, {"a", "4", "1"}, {"3", "4", "1", "0"}} {
		if _, _, err := (V6Reply{OK: true, Command: "gen_move", Args: args}).Move(); err == nil {
			t.Errorf("Move %q: no error", args)
		}
	}
}

func TestSplitProtocols(t *testing.T) {
	tests := []struct {
		in   []string
		want string
		err  bool
	}{
		{[]string{"v6,pb"}, "v6|pb", false},
		{[]string{"V6 , pb,base=1,time_unit=s"}, "V6|pb,base=1,time_unit=s", false},
		{[]string{"base=1,time_unit=s"}, "base=1,time_unit=s", false},
		{[]string{"v6"}, "v6", false},
		{[]string{"pb,base=1"}, "pb,base=1", false},
		{[]string{"v6", "pb"}, "v6|pb", false},
		{[]string{"base=1,v6,pb"}, "", true},
	}
	for _, tt := range tests {
		got, err := splitProtocols(tt.in)
		if (err != nil) != tt.err || (!tt.err && strings.Join(got, "|") != tt.want) {
			t.Errorf("%q: %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
