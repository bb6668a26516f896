package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"arena/game"
	"arena/internal/syncbuf"
)

func TestRenderProgress(t *testing.T) {
	tests := []struct {
		name string
		v    progressView
		want string
	}{
		{"start", progressView{Total: 10, Elapsed: 3 * time.Second, ETA: -1},
			"[                    ] 0/10 games  0:03 elapsed"},
		{"running games", progressView{Done: 5, Total: 10, Elapsed: 90 * time.Second, ETA: 90 * time.Second,
			Running: []runningGame{{label: "#6", ply: 24}, {label: "#7"}}, Score: "a 3.0 - b 2.0"},
			"[==========          ] 5/10 games  1:30 elapsed, ETA 1:30  2 running: #6 move 24, #7 starting  | a 3.0 - b 2.0"},
		{"one simultaneous game", progressView{Done: 1, Total: 4, Elapsed: time.Hour + 2*time.Second, ETA: 3 * time.Hour,
			Running: []runningGame{{label: "r01-p01-o01-s2", ply: 120, status: "a 12 ants 3 pts, b 9 ants 1 pts"}}},
			"[=====               ] 1/4 games  1:00:02 elapsed, ETA 3:00:00  1 running: r01-p01-o01-s2 turn 120 (a 12 ants 3 pts, b 9 ants 1 pts)"},
		{"cut to the width", progressView{Done: 2, Total: 8, Elapsed: time.Minute, ETA: 3 * time.Minute,
			Running: []runningGame{{label: "#3", ply: 7}, {label: "#4", ply: 9}}, Width: 75},
			"[=====               ] 2/8 games  1:00 elapsed, ETA 3:00  2 running: #3 m…"},
		{"more done than planned", progressView{Done: 12, Total: 10, ETA: -1},
			"[====================] 12/10 games  0:00 elapsed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := renderProgress(tc.v)
			if got != tc.want {
				t.Errorf("renderProgress:\n got %q\nwant %q", got, tc.want)
			}
			if tc.v.Width > 0 && len([]rune(got)) >= tc.v.Width {
				t.Errorf("%d columns do not fit %d", len([]rune(got)), tc.v.Width)
			}
		})
	}
}

func TestRenderGameLine(t *testing.T) {
	tests := []struct {
		v    progressView
		want string
	}{
		{progressView{Done: 1, Total: 2, Score: "a 1.0 - b 0.0", Elapsed: 4 * time.Second, ETA: 4 * time.Second},
			"game 1/2 m-001: a won by five after 9 moves  [a 1.0 - b 0.0]  0:04 elapsed, ETA 0:04"},
		{progressView{Done: 3, Total: 9, Score: "a 2.0 - b 1.0", Elapsed: 61 * time.Second, ETA: -1,
			Running: []runningGame{{label: "#4"}, {label: "#5"}}},
			"game 3/9 m-001: a won by five after 9 moves  [a 2.0 - b 1.0]  1:01 elapsed, 2 running"},
	}
	for _, tc := range tests {
		if got := renderGameLine(tc.v, "m-001", "a won by five after 9 moves"); got != tc.want {
			t.Errorf("renderGameLine:\n got %q\nwant %q", got, tc.want)
		}
	}
}

// openPty opens a pseudo-terminal pair: a real terminal for the test.
func openPty(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	unlock := int32(0)
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Fatalf("unlock pty: %v", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("pty number: %v", errno)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}

// testRecord is a finished game that the first player won.
func testRecord(id string) *game.Record {
	winner := 0
	return &game.Record{ID: id, Players: []game.PlayerRecord{{Name: "a"}, {Name: "b"}}, Seats: []int{0, 1},
		Winner: &winner, Reason: "five"}
}

// TestWritesToTerminal checks the choice between a redrawn line and
// plain lines on real terminals, pipes, files and /dev/null.
func TestWritesToTerminal(t *testing.T) {
	_, tty := openPty(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	for _, tc := range []struct {
		name string
		w    any
		want bool
	}{
		{"terminal", tty, true}, {"pipe", w, false}, {"file", file, false}, {"/dev/null", devNull, false},
		{"buffer", &bytes.Buffer{}, false},
	} {
		w, _ := tc.w.(interface{ Write([]byte) (int, error) })
		if got := writesToTerminal(w); got != tc.want {
			t.Errorf("%s: writesToTerminal = %v, want %v", tc.name, got, tc.want)
		}
	}
	var size = struct{ rows, cols, x, y uint16 }{rows: 24, cols: 72}
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&size))); errno != 0 {
		t.Fatalf("set window size: %v", errno)
	}
	if got := terminalWidth(tty); got != 72 {
		t.Errorf("terminalWidth = %d, want 72", got)
	}
}

// TestProgressOutput follows two games through the progress display,
// once on a terminal (a line redrawn with \r) and once elsewhere (a plain
// line per game).
func TestProgressOutput(t *testing.T) {
	players := []player{{}, {}}
	players[0].Name, players[1].Name = "a", "b"
	for _, terminal := range []bool{true, false} {
		var out syncbuf.Buffer
		p := newProgress(&out, terminal, 2, players)
		moved := p.follow("m-001", "#1")
		p.follow("m-002", "#2")
		moved(1, "")
		rec := testRecord("m-001")
		p.gameOver(1, rec, []tally{{Wins: 1}, {Losses: 1}})
		p.forget("m-002")
		p.clear()
		got := out.String()
		if terminal {
			if !strings.Contains(got, "\r[") || !strings.Contains(got, "2 running: #1 move 1, #2 starting") ||
				!strings.Contains(got, "1 running: #2 starting  | a 1.0 - b 0.0") || !strings.HasSuffix(got, "\r\x1b[K") {
				t.Errorf("terminal output %q", got)
			}
			continue
		}
		if strings.Contains(got, "\r") || !strings.HasPrefix(got, "game 1/2 m-001: ") || strings.Count(got, "\n") != 1 {
			t.Errorf("plain output %q", got)
		}
	}
}

// TestMatchConcurrency plays a match two games at a time: every game is
// played once, each ID once, and a game ends while another is running.
func TestMatchConcurrency(t *testing.T) {
	dir := testBrain(t)
	out := t.TempDir()
	stdout, stderr, err := arena(t, "match", "gomoku", "--bot", "builtin", "--bot", "rnd="+filepath.Join(dir, "pbrain-tb")+" --policy=random",
		"--games", "4", "--concurrency", "2", "--turn-time", "300ms", "--size", "10", "--out", out, "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	games := decodeLines(t, stdout)
	ids := map[string]bool{}
	for _, g := range games {
		ids[g["id"].(string)] = true
	}
	if len(games) != 4 || len(ids) != 4 {
		t.Fatalf("want 4 games with distinct IDs, got %d (%d IDs):\n%s", len(games), len(ids), stdout)
	}
	lines := strings.Split(stderr, "\n")
	// When the first game ends the other one is still running (or has
	// ended but is not yet counted), and a third may have started.
	if !strings.HasPrefix(lines[0], "game 1/4 ") || !regexp.MustCompile(`, [12] running$`).MatchString(lines[0]) {
		t.Errorf("the first game's line does not show the other game running:\n%s", stderr)
	}
	if !strings.Contains(stderr, "game 4/4 ") || !strings.Contains(stderr, "ETA") {
		t.Errorf("no line for the last game, or no ETA:\n%s", stderr)
	}
	for _, bad := range []string{"-1", "-2"} {
		if _, _, err := arena(t, "match", "gomoku", "--concurrency", bad, "--out", out); err == nil || !strings.Contains(err.Error(), "--concurrency") {
			t.Errorf("--concurrency %s: error %v", bad, err)
		}
	}
}
