package pointsbot

import (
	"context"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"arena/game/points"
)

// pipes runs run with its input, output and status writer on OS pipes
// and returns what it wrote on each.
func pipes(t *testing.T, input string, run func(in io.Reader, out, status io.Writer) error) (out, status string) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	drain := func(r *os.File) <-chan string {
		c := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(r)
			r.Close()
			c <- string(b)
		}()
		return c
	}
	gotOut, gotErr := drain(outR), drain(errR)
	go func() {
		io.WriteString(inW, input)
		inW.Close()
	}()
	runErr := run(inR, outW, errW)
	inR.Close()
	outW.Close()
	errW.Close()
	out, status = <-gotOut, <-gotErr
	if runErr != nil {
		t.Fatalf("run: %v\noutput:\n%s", runErr, out)
	}
	return out, status
}

// statusRE reads a status line (StatusLine's format).
var statusRE = regexp.MustCompile(`^status: dot (\d+) at (-?\d+) (-?\d+): playouts (\d+) pps (\d+) tree (\d+) depth (\d+) visits (\d+) win ([\d.]+)% time \S+( of \S+)?( max \S+)?( cap (\d+))?( threads (\d+))?$`)

// checkStatus checks that line is a status line with sane numbers for a
// search of at most cap playouts on the given threads that chose move as
// dot number dot.
func checkStatus(t *testing.T, line string, dot int, move string, cap, threads int) {
	t.Helper()
	m := statusRE.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("status line %q does not read as one", line)
	}
	n := func(i int) float64 {
		v, err := strconv.ParseFloat(m[i], 64)
		if err != nil {
			t.Fatalf("status line %q: field %d: %v", line, i, err)
		}
		return v
	}
	if int(n(1)) != dot {
		t.Errorf("status line %q: dot %s, want %d", line, m[1], dot)
	}
	if got := m[2] + " " + m[3]; got != move {
		t.Errorf("status line %q names %s, the move played is %s", line, got, move)
	}
	playouts, pps, tree, depth, visits, win := n(4), n(5), n(6), n(7), n(8), n(9)
	switch {
	case playouts < 1 || playouts > float64(cap):
		t.Errorf("status line %q: %v playouts, want 1..%d", line, playouts, cap)
	case pps <= 0:
		t.Errorf("status line %q: no playout rate", line)
	case tree < 2 || depth < 1:
		t.Errorf("status line %q: tree %v depth %v, want a root with children", line, tree, depth)
	case visits < 1 || win < 0 || win > 100:
		t.Errorf("status line %q: visits %v win %v%%", line, visits, win)
	}
	if m[13] != strconv.Itoa(cap) {
		t.Errorf("status line %q: cap %q, want %d", line, m[13], cap)
	}
	if want := strconv.Itoa(threads); threads > 1 && m[15] != want || threads <= 1 && m[14] != "" {
		t.Errorf("status line %q: threads %q, want %d", line, m[15], threads)
	}
}

// TestStatusLines plays moves over both protocols with and without
// status lines: with them, every move is described with sane numbers
// where the protocol has room for it (Points Battle: stdout, before the
// move; v6: the Status writer), and the moves are the same either way.
func TestStatusLines(t *testing.T) {
	const cap = 300
	pb := "new 7 8\nincrement 0.1\nmove 2 2\nmove 2 3\nmove 3 3\nmove 3 2\ngo\nmove 6 6\ngo\nquit\n"
	v6 := "1 init 8 7 3\n2 play 2 2 0\n3 play 2 3 1\n4 play 3 3 0\n5 play 3 2 1\n6 gen_move 0\n7 play 6 6 0\n8 play 0 6 1\n9 gen_move_with_complexity 0 1\n10 quit\n"
	tests := []struct {
		name    string
		proto   points.ProtocolKind
		input   string
		status  bool
		threads int
	}{
		{"pb quiet", points.PointsBattle, pb, false, 0},
		{"pb status", points.PointsBattle, pb, true, 0},
		{"v6 quiet", points.AIProtocol6, v6, false, 0},
		{"v6 status", points.AIProtocol6, v6, true, 0},
		{"pb quiet threads", points.PointsBattle, pb, false, 2},
		{"pb status threads", points.PointsBattle, pb, true, 2},
		{"v6 quiet threads", points.AIProtocol6, v6, false, 2},
		{"v6 status threads", points.AIProtocol6, v6, true, 2},
	}
	type setting struct {
		proto   points.ProtocolKind
		threads int
	}
	moves := map[setting][]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, status := pipes(t, tt.input, func(in io.Reader, out, errw io.Writer) error {
				opts := Options{Name: "t", Seed: 7, Playouts: cap, Threads: tt.threads, Protocol: points.ProtocolOptions{Kind: tt.proto}}
				if tt.status {
					opts.Status = errw
				}
				return RunPipe(context.Background(), in, out, opts)
			})
			var played, lines []string
			switch tt.proto {
			case points.PointsBattle:
				// The status line, when on, comes just before its move;
				// nothing goes to the Status writer itself.
				all := strings.Split(strings.TrimSpace(out), "\n")
				for i, l := range all[1:] {
					if p, err := points.ParseMove(l, 0); err == nil {
						played = append(played, strconv.Itoa(p.X)+" "+strconv.Itoa(p.Y))
						continue
					}
					lines = append(lines, l)
					if i+2 >= len(all) || !strings.HasPrefix(all[i+2], "move ") {
						t.Errorf("status line %q is not followed by the move", l)
					}
				}
				if status != "" {
					t.Errorf("the Status writer got %q under Points Battle", status)
				}
			case points.AIProtocol6:
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					r, err := points.ParseV6Reply(l)
					if err != nil {
						t.Fatalf("answer %q: %v", l, err)
					}
					if strings.HasPrefix(r.Command, "gen_move") {
						played = append(played, strings.Join(r.Args[:2], " "))
					}
				}
				if status != "" {
					lines = strings.Split(strings.TrimSpace(status), "\n")
				}
			}
			if len(played) != 2 {
				t.Fatalf("%d moves, want 2:\n%s", len(played), out)
			}
			if !tt.status {
				if len(lines) != 0 {
					t.Fatalf("status lines %q while off", lines)
				}
			} else {
				if len(lines) != len(played) {
					t.Fatalf("%d status lines for %d moves: %q", len(lines), len(played), lines)
				}
				for i, l := range lines {
					checkStatus(t, l, 5+2*i, played[i], cap, tt.threads)
				}
			}
			key := setting{tt.proto, tt.threads}
			if prev, ok := moves[key]; ok && strings.Join(prev, ",") != strings.Join(played, ",") {
				t.Errorf("moves %v with status lines %v, %v without: the status must not change the play", played, tt.status, prev)
			}
			moves[key] = played
		})
	}
}
