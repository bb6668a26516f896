package gomokubot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/game/gomoku"
)

// manager drives RunPipe through io.Pipe as a Gomocup manager would.
type manager struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
	// board mirrors the stones, to check moves are legal.
	w, h  int
	stone map[gomoku.Point]bool
}

func startManager(t *testing.T, opts Options) *manager {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	m := &manager{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1), stone: map[gomoku.Point]bool{}}
	go func() {
		err := RunPipe(context.Background(), inR, outW, opts)
		outW.Close()
		m.done <- err
	}()
	t.Cleanup(func() { inW.Close() })
	return m
}

// send writes raw text (the test chooses the line ends).
func (m *manager) send(text string) {
	m.t.Helper()
	if _, err := io.WriteString(m.in, text); err != nil {
		m.t.Fatalf("write %q: %v", text, err)
	}
}

// line reads one reply line within timeout.
func (m *manager) line(timeout time.Duration) string {
	m.t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := m.out.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			m.t.Fatalf("read reply: %v (got %q)", r.err, r.s)
		}
		if !strings.HasSuffix(r.s, "\n") || strings.HasSuffix(r.s, "\r\n") {
			m.t.Errorf("reply %q does not end in a bare LF", r.s)
		}
		return strings.TrimSuffix(r.s, "\n")
	case <-time.After(timeout):
		m.t.Fatalf("no reply within %v", timeout)
	}
	return ""
}

var messageRE = regexp.MustCompile(`^MESSAGE depth \d+ nodes \d+ nps \d+ score -?\d+ time \d+ of \d+ ms \(\w+\)$`)

// move reads the MESSAGE line and the move that follow a move request,
// checks the move is a free square and records it.
func (m *manager) move(timeout time.Duration) gomoku.Point {
	m.t.Helper()
	if msg := m.line(timeout); !messageRE.MatchString(msg) {
		m.t.Fatalf("want a MESSAGE depth ... line, got %q", msg)
	}
	reply := m.line(timeout)
	p, err := gomoku.ParsePoint(reply)
	if err != nil || strings.Contains(reply, " ") {
		m.t.Fatalf("want a move x,y, got %q", reply)
	}
	if p.X < 0 || p.Y < 0 || p.X >= m.w || p.Y >= m.h || m.stone[p] {
		m.t.Fatalf("move %v is not a free square of the %dx%d board", p, m.w, m.h)
	}
	m.stone[p] = true
	return p
}

// expect reads one line and checks it against a regular expression.
func (m *manager) expect(re string) string {
	m.t.Helper()
	got := m.line(5 * time.Second)
	if !regexp.MustCompile(re).MatchString(got) {
		m.t.Fatalf("want a line matching %s, got %q", re, got)
	}
	return got
}

// end sends END and waits for RunPipe to return nil.
func (m *manager) end() {
	m.t.Helper()
	m.send("END\r\n")
	select {
	case err := <-m.done:
		if err != nil {
			m.t.Fatalf("RunPipe after END: %v", err)
		}
	case <-time.After(5 * time.Second):
		m.t.Fatal("RunPipe did not return after END")
	}
}

// TestPipeTranscript plays a scripted manager session.
func TestPipeTranscript(t *testing.T) {
	m := startManager(t, Options{})
	m.send("START 99\r\n")
	m.expect(`^ERROR `)
	m.send("START 4\r\n")
	m.expect(`^ERROR `)
	m.send("RECTSTART 20,15\r\n")
	m.expect(`^OK$`)
	m.send("start 15\r\n") // case-insensitive
	m.expect(`^OK$`)
	m.w, m.h = 15, 15
	m.send("INFO timeout_match 100000\r\nINFO timeout_turn 200\r\nINFO max_memory 83886080\r\nINFO rule 1\r\nINFO game_type 1\r\nINFO folder /tmp/x y\r\nINFO evaluate 3,4\r\nINFO nonsense\r\nINFO\r\n")
	m.send("ABOUT\r\n")
	m.expect(`^name="arena-gomoku", version="[^"]+", author="arena", country="[^"]+"$`)
	m.send("INFO time_left 99000\r\nBEGIN\r\n")
	first := m.move(2 * time.Second)
	if first != (gomoku.Point{X: 7, Y: 7}) {
		t.Errorf("first move %v, want the centre 7,7", first)
	}
	m.send("INFO time_left 98000\r\nTURN 8,8\r\n")
	m.stone[gomoku.Point{X: 8, Y: 8}] = true
	second := m.move(2 * time.Second)
	m.send("TAKEBACK " + second.String() + "\r\n")
	m.expect(`^OK$`)
	delete(m.stone, second)
	m.send("TAKEBACK 8,8\r\n")
	m.expect(`^OK$`)
	delete(m.stone, gomoku.Point{X: 8, Y: 8})
	m.send("TURN 8,7\r\n")
	m.stone[gomoku.Point{X: 8, Y: 7}] = true
	m.move(2 * time.Second)
	m.send("FROBNICATE 1 2 3\r\n")
	m.expect(`^UNKNOWN `)
	m.send("TURN 99,99\r\n")
	m.expect(`^ERROR `)
	m.send("TURN 7,7\r\n") // occupied
	m.expect(`^ERROR `)
	m.send("TURN nonsense\r\n")
	m.expect(`^ERROR `)

	// A new game given as BOARD, with LF and CR line ends mixed: we hold
	// a four (row 3) and must win at once.
	m.send("RESTART\r\n")
	m.expect(`^OK$`)
	m.stone = map[gomoku.Point]bool{}
	m.send("BOARD\n3,3,1\r4,3,1\r\n5,3,1\n6,3,2\r\n3,4,2\n4,4,2\n5,4,2\n2,3,2\nbad line\n1,1,7\nDONE\n")
	for _, p := range []gomoku.Point{{X: 3, Y: 3}, {X: 4, Y: 3}, {X: 5, Y: 3}, {X: 6, Y: 3}, {X: 3, Y: 4}, {X: 4, Y: 4}, {X: 5, Y: 4}, {X: 2, Y: 3}} {
		m.stone[p] = true
	}
	// Own row 3 is blocked both sides; the opponent threatens 2,4 / 6,4.
	got := m.move(2 * time.Second)
	if got != (gomoku.Point{X: 2, Y: 4}) && got != (gomoku.Point{X: 6, Y: 4}) && got != (gomoku.Point{X: 1, Y: 4}) && got != (gomoku.Point{X: 7, Y: 4}) {
		t.Errorf("against an open three played %v", got)
	}
	m.send("RESTART\r\n")
	m.expect(`^OK$`)
	m.stone = map[gomoku.Point]bool{}
	m.send("BOARD\r\n7,7,1\r\n8,7,1\r\n9,7,1\r\n10,7,1\r\n7,8,2\r\n8,8,2\r\n9,8,2\r\n10,8,2\r\nDONE\r\n")
	for x := 7; x <= 10; x++ {
		m.stone[gomoku.Point{X: x, Y: 7}] = true
		m.stone[gomoku.Point{X: x, Y: 8}] = true
	}
	if got := m.move(2 * time.Second); got.Y != 7 || (got.X != 6 && got.X != 11) {
		t.Errorf("with a four of its own played %v, want 6,7 or 11,7", got)
	}
	m.send("PLAY 0,0\r\n")
	m.expect(`^0,0$`)
	m.send("\r\n\r\n   \r\nabout\r\n")
	m.expect(`^name=`)
	m.end()
}

// TestPipeEOF: RunPipe returns nil at the end of its input, even without
// START, after answering every line.
func TestPipeEOF(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader("INFO timeout_turn 0\nTURN 10,10\nBLAH\nTAKEBACK 10,10")
	if err := RunPipe(context.Background(), in, &out, Options{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "MESSAGE ") || !strings.HasPrefix(lines[2], "UNKNOWN") || lines[3] != "OK" {
		t.Fatalf("unexpected transcript:\n%s", out.String())
	}
	if p, err := gomoku.ParsePoint(lines[1]); err != nil || p == (gomoku.Point{X: 10, Y: 10}) {
		t.Fatalf("bad move %q", lines[1])
	}
}

// TestPipeContext: cancelling the context ends RunPipe.
func TestPipeContext(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- RunPipe(ctx, inR, io.Discard, Options{}) }()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("want the context's error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunPipe ignored the cancelled context")
	}
}

// TestPipeTime: two pipe brains play each other with timeout_turn 300
// and 1000 ms; no answer may lose on time, that is come later than the
// limit and Gomocup's tolerance (a loaded machine may delay an answer
// the brain gave in time: the tolerance is there for that).
func TestPipeTime(t *testing.T) {
	const tolerance = time.Second // arena's and Gomocup's default
	for _, limit := range []int{300, 1000} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			moves := 6
			if testing.Short() {
				moves = 2
			}
			var seats [2]*manager
			for i := range seats {
				m := startManager(t, Options{})
				m.send("START 20\r\n")
				m.expect(`^OK$`)
				m.w, m.h = 20, 20
				m.send(fmt.Sprintf("INFO timeout_turn %d\r\nINFO timeout_match 180000\r\nINFO rule 1\r\n", limit))
				seats[i] = m
			}
			limitD := time.Duration(limit) * time.Millisecond
			var slowest time.Duration
			req := "BEGIN\r\n"
			for i := 0; i < 2*moves; i++ {
				m, other := seats[i%2], seats[1-i%2]
				m.send(fmt.Sprintf("INFO time_left %d\r\n", 180000-(i/2)*limit))
				start := time.Now()
				m.send(req)
				p := m.move(3 * limitD)
				took := time.Since(start)
				slowest = max(slowest, took)
				if took >= limitD+tolerance {
					t.Errorf("move %d (%v) took %v, limit %v", i, p, took, limitD)
				}
				other.stone[p] = true
				req = "TURN " + p.String() + "\r\n"
			}
			t.Logf("slowest answer %v of %v", slowest.Round(time.Millisecond), limitD)
			for _, m := range seats {
				m.end()
			}
		})
	}
}

// TestPipeTimeoutZero: timeout_turn 0 answers at once.
func TestPipeTimeoutZero(t *testing.T) {
	m := startManager(t, Options{})
	m.send("START 20\r\nINFO timeout_turn 0\r\n")
	m.expect(`^OK$`)
	m.w, m.h = 20, 20
	start := time.Now()
	m.send("TURN 5,5\r\n")
	m.stone[gomoku.Point{X: 5, Y: 5}] = true
	m.move(time.Second)
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Errorf("timeout_turn 0 took %v", took)
	}
	m.end()
}

// writeDat writes one protocol file.
func writeDat(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunFile plays single moves with the old file protocol.
func TestRunFile(t *testing.T) {
	row := func(s string, w int) string { return s + strings.Repeat("-", w-len(s)) }
	blank := func(w int) string { return strings.Repeat("-", w) }
	tests := []struct {
		name     string
		rows     []string
		eol      string
		tah      string
		timeouts string
		info     string
		lower    bool
		want     []gomoku.Point // nil: any empty square
	}{
		{
			name: "empty 20x20, x to move, INFO first",
			rows: func() []string {
				r := make([]string, 20)
				for i := range r {
					r[i] = blank(20)
				}
				return r
			}(),
			eol: "\r\n", tah: "x\r\n", timeouts: "5\r\n2147483647\r\n", info: "timeout_turn 300\r\nrule 1\r\n",
			want: []gomoku.Point{{X: 9, Y: 9}, {X: 10, Y: 10}, {X: 9, Y: 10}, {X: 10, Y: 9}},
		},
		{
			name: "o wins at once, TIMEOUTS only (seconds)",
			rows: []string{blank(15), row("--xxx", 15), row("-oooo", 15), row("--x", 15), blank(15), blank(15), blank(15)},
			eol:  "\n", tah: "o", timeouts: "1\n2147483647\n",
			want: []gomoku.Point{{X: 0, Y: 2}, {X: 5, Y: 2}},
		},
		{
			name: "x blocks, rectangular 12x7, no INFO, no TIMEOUTS",
			rows: []string{blank(12), row("--ooo-o", 12), row("---x", 12), row("---x", 12), blank(12), blank(12), blank(12)},
			eol:  "\n", tah: "x",
			want: []gomoku.Point{{X: 5, Y: 1}},
		},
		{
			name: "continuous with blocked squares, lower-case file names",
			rows: []string{row("#####", 10), row("xxxx", 10), row("oooo", 10), blank(10), blank(10), blank(10), blank(10), blank(10), blank(10), blank(10)},
			eol:  "\r\n", tah: "x", timeouts: "0\n1000\n", info: "rule 2\n", lower: true,
			want: []gomoku.Point{{X: 4, Y: 1}},
		},
		{
			name: "timeout_turn 0 plays at once",
			rows: []string{blank(8), row("---x", 8), row("--o", 8), blank(8), blank(8), blank(8), blank(8), blank(8)},
			eol:  "\n", tah: "o", info: "timeout_turn 0\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := func(s string) string {
				if tc.lower {
					return strings.ToLower(s)
				}
				return s
			}
			writeDat(t, dir, name("PLOCHA.DAT"), strings.Join(tc.rows, tc.eol)+tc.eol)
			writeDat(t, dir, name("TAH.DAT"), tc.tah)
			writeDat(t, dir, name("MSG.DAT"), "")
			if tc.timeouts != "" {
				writeDat(t, dir, name("TIMEOUTS.DAT"), tc.timeouts)
			}
			if tc.info != "" {
				writeDat(t, dir, name("INFO.DAT"), tc.info)
			}
			start := time.Now()
			if err := RunFile(context.Background(), dir, Options{}); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("took %v", took)
			}
			b, err := os.ReadFile(filepath.Join(dir, name("TAH.DAT")))
			if err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`^\d+,\d+$`).Match(b) {
				t.Fatalf("TAH.DAT = %q, want exactly x,y", b)
			}
			p, _ := gomoku.ParsePoint(string(b))
			if p.Y >= len(tc.rows) || p.X >= len(tc.rows[p.Y]) || tc.rows[p.Y][p.X] != '-' {
				t.Fatalf("move %v is not an empty square", p)
			}
			if tc.want != nil && !contains(tc.want, p) {
				t.Errorf("played %v, want one of %v", p, tc.want)
			}
			msg, err := os.ReadFile(filepath.Join(dir, name("MSG.DAT")))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(msg), "\n"); n != 1 || !strings.Contains(string(msg), "depth") {
				t.Errorf("MSG.DAT = %q, want one line", msg)
			}
		})
	}
}

// TestRunFileErrors: unreadable boards are reported, not guessed.
func TestRunFileErrors(t *testing.T) {
	dir := t.TempDir()
	if err := RunFile(context.Background(), dir, Options{}); err == nil {
		t.Error("no PLOCHA.DAT: want an error")
	}
	writeDat(t, dir, "PLOCHA.DAT", "---\n---\n---\n")
	if err := RunFile(context.Background(), dir, Options{}); err == nil {
		t.Error("3x3 board: want an error")
	}
}

// FuzzPipe feeds random text to RunPipe: it must neither panic nor hang.
func FuzzPipe(f *testing.F) {
	for _, s := range []string{
		"START 15\nBEGIN\nTURN 3,3\nEND\n",
		"START 20\r\nINFO rule 4\r\nBOARD\r\n10,10,1\r\n11,11,2\r\nDONE\r\nTAKEBACK 10,10\r\n",
		"RECTSTART 7,30\rBOARD\r1,1,3\r2,2,1\rDONE\rPLAY 4,4\rABOUT\r",
		"START 5\nINFO rule 9\nBOARD\n0,0,1\n1,1,1\n2,2,1\n3,3,1\nDONE\n",
		"TURN -1,-1\nTURN 1,\nINFO timeout_turn -5\nINFO max_memory 1\nRESTART\nBEGIN\n",
		"START 6\nINFO rule 2\nBOARD\n0,0,1\n0,1,1\n0,2,1\n0,3,1\n0,4,1\nDONE\nTURN 5,5\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		in := strings.NewReader("INFO timeout_turn 30\n" + script)
		done := make(chan error, 1)
		go func() { done <- RunPipe(ctx, in, io.Discard, Options{MaxDepth: 2}) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("RunPipe hung on %q", script)
		}
	})
}
