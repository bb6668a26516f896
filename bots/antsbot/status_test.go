package antsbot

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// turnText is the engine's message for one turn of a fully visible
// drawing (scene's symbols), ending in "go".
func turnText(turn int, rows ...string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "turn %d\n", turn)
	for r, row := range rows {
		for c, ch := range row {
			switch ch {
			case '%':
				fmt.Fprintf(&sb, "w %d %d\n", r, c)
			case '*':
				fmt.Fprintf(&sb, "f %d %d\n", r, c)
			case 'a', 'b', 'c':
				fmt.Fprintf(&sb, "a %d %d %d\n", r, c, ch-'a')
			case '0', '1':
				fmt.Fprintf(&sb, "h %d %d %d\n", r, c, ch-'0')
			}
		}
	}
	sb.WriteString("go\n")
	return sb.String()
}

// runPipes runs Run for player pl with its input, output and stderr on
// OS pipes and returns what it wrote on the output and on stderr.
func runPipes(t *testing.T, input string, pl Player, stderr func(*os.File)) (out, status string) {
	t.Helper()
	var files [3][2]*os.File
	for i := range files {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		files[i] = [2]*os.File{r, w}
	}
	read := func(f *os.File) <-chan string {
		c := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(f)
			f.Close()
			c <- string(b)
		}()
		return c
	}
	gotOut, gotErr := read(files[1][0]), read(files[2][0])
	go func() {
		io.WriteString(files[0][1], input)
		files[0][1].Close()
	}()
	stderr(files[2][1])
	err := Run(context.Background(), files[0][0], files[1][1], pl)
	files[0][0].Close()
	files[1][1].Close()
	files[2][1].Close()
	out, status = <-gotOut, <-gotErr
	if err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out)
	}
	return out, status
}

var antsStatusRE = regexp.MustCompile(`^turn (\d+): time \S+ of (\S+) ants (\d+) enemies (\d+) food (\d+) battles (\d+) pieces (\d+) fighting (\d+) v (\d+) evals (\d+) in \S+ eps (\d+) replies (\d+) cut (\d+) held (\d+) evaded (\d+)$`)

// TestStatusLine plays turns of arena's bot through Run over pipes, with
// and without status lines: with them, stderr gets one line per turn
// whose numbers fit the position; the orders are the same either way.
func TestStatusLine(t *testing.T) {
	const settings = "turn 0\nloadtime 3000\nturntime 4000\nrows 12\ncols 40\nturns 100\nviewradius2 77\nattackradius2 5\nspawnradius2 1\nplayer_seed 7\nready\n"
	tests := []struct {
		name             string
		rows             []string
		ants, enemies    int
		food             int
		battles          int
		fighting, versus int
	}{
		{"peace", []string{
			"........................................",
			"...a.a..........*.......................",
			"........................................",
			"..........0.............................",
			"........................................",
			"........................................",
			"........................................",
			"........................................",
			"........................................",
			"........................................",
			"........................................",
			"........................................",
		}, 2, 0, 1, 0, 0, 0},
		{"one battle", []string{
			"........................................",
			"........................................",
			"....a.a.a...............................",
			".....a.a................................",
			"........................................",
			".....b.b................................",
			"........................................",
			"........................................",
			"..........0.............................",
			"........................................",
			"........................................",
			"........................................",
		}, 5, 2, 0, 1, 5, 2},
		{"two battles", []string{
			"........................................",
			"....a.a........................a........",
			"........................................",
			".....b..........................c.......",
			"........................................",
			"........................................",
			"........................................",
			"........................................",
			"..........0.............................",
			"........................................",
			"........................................",
			"........................................",
		}, 3, 2, 0, 2, 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := settings + turnText(1, tt.rows...) + turnText(2, tt.rows...) + "end\ngo\n"
			quiet, none := runPipes(t, input, New(), func(*os.File) {})
			bot := New()
			out, status := runPipes(t, input, bot, func(f *os.File) { bot.Status = f })
			if none != "" {
				t.Errorf("stderr %q without Status", none)
			}
			if out != quiet {
				t.Errorf("orders with status lines:\n%s\nwithout:\n%s", out, quiet)
			}
			lines := strings.Split(strings.TrimSuffix(status, "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d status lines for 2 turns: %q", len(lines), status)
			}
			for i, line := range lines {
				m := antsStatusRE.FindStringSubmatch(line)
				if m == nil {
					t.Fatalf("status line %q does not read as one", line)
				}
				n := func(k int) int {
					v, err := strconv.Atoi(m[k])
					if err != nil {
						t.Fatalf("status line %q: %v", line, err)
					}
					return v
				}
				if budget, err := time.ParseDuration(m[2]); err != nil || budget != 2*time.Second {
					t.Errorf("status line %q: budget %s, want half of turntime 4000", line, m[2])
				}
				got := []int{n(1), n(3), n(4), n(5), n(6), n(8), n(9)}
				want := []int{i + 1, tt.ants, tt.enemies, tt.food, tt.battles, tt.fighting, tt.versus}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("status line %q: turn, ants, enemies, food, battles, fighting, versus %v, want %v", line, got, want)
				}
				evals, eps, pieces, cut, held := n(10), n(11), n(7), n(13), n(14)
				switch {
				case tt.battles == 0 && (evals != 0 || eps != 0 || pieces != 0):
					t.Errorf("status line %q: a search without battles", line)
				case tt.battles > 0 && (evals == 0 || eps == 0 || pieces < tt.battles):
					t.Errorf("status line %q: battles without a search", line)
				case cut+held > pieces:
					t.Errorf("status line %q: more pieces cut short than searched", line)
				}
			}
		})
	}
}

// BenchmarkTurnBusy is one turn of the bot in the thick of a game: a
// 2-player 80x80 map played by the bot against itself until the first
// turn where at least ten of its ants are in battles (the busiest turn
// of the first 300 if none is). It reports the combat search's
// evaluations per turn and per second of search (eps in the status
// line), the ants fighting and the ants in view.
func BenchmarkTurnBusy(b *testing.B) {
	text := genMap(b, 2, 5, 80, 80)
	s := newSim(b, text, DefaultParams(), 1)
	bot, foe := New(), New()
	bot.Start(s.p)
	foe.Start(s.p)
	var busiest *Observation
	most := 0
	for range 300 {
		obs := s.observe(0)
		orders := bot.Turn(obs, time.Time{})
		if bot.stats.fighters > most {
			most, busiest = bot.stats.fighters, obs
		}
		if most >= 10 {
			break
		}
		s.step([][]Order{orders, foe.Turn(s.observe(1), time.Time{})})
		if !s.alive(0) || !s.alive(1) {
			break
		}
	}
	if busiest == nil {
		b.Fatal("no battle in the game")
	}
	// The busy turn is played again and again, as in the other turn
	// benchmarks.
	busiest.Turn = s.turn + 1
	evals, fighting := 0, 0
	var search time.Duration
	for b.Loop() {
		busiest.Turn++
		bot.Turn(busiest, time.Time{})
		evals += bot.evals
		search += bot.stats.combat
		fighting = bot.stats.fighters
	}
	b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
	b.ReportMetric(float64(evals)/search.Seconds(), "evals/s")
	b.ReportMetric(float64(fighting), "fighting")
	b.ReportMetric(float64(len(busiest.Ants)), "visible-ants")
}
