package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"arena/game"
)

// progress shows how far long work (a match, a tournament, an SPRT) has
// come on stderr. On a terminal it redraws one line in place: games done
// of the total, the games running with each one's move or turn, the time
// elapsed, an estimate of the time left and the running score. Elsewhere
// (a file, a pipe, a CI log) it prints one plain line per finished game.
// It is safe for concurrent use: games report their moves from their own
// goroutines.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	width    int // columns of the terminal
	total    int
	players  []player
	done     int // games finished, counting those of an earlier run
	resumed  int // games an earlier run finished: not part of this run's pace
	status   string
	start    time.Time
	running  []*runningGame // in the order they started
	lastDraw time.Time
	drawn    bool
}

// runningGame is a game in progress as the live line shows it.
type runningGame struct {
	id    string
	label string // short name on the line: "#3", "r01-p02-o01-s1"
	ply   int    // moves (or turns) made so far
	// status is a simultaneous game's account of the position ("a 12
	// ants 3 pts, ..."); it makes the line say "turn" rather than "move".
	status string
}

// redrawEvery is the shortest time between two redraws caused by moves:
// a fast game moves far more often than anyone can read.
const redrawEvery = 100 * time.Millisecond

func newProgress(w io.Writer, terminal bool, total int, players []player) *progress {
	return &progress{w: w, terminal: terminal, width: terminalWidth(w), total: total, players: players, start: time.Now()}
}

// resume counts the games an earlier run of the same event finished.
func (p *progress) resume(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.resumed = done, done
}

// grow raises the total to at least n (a knockout's tie-breaks add games).
func (p *progress) grow(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = max(p.total, n)
	return p.total
}

// follow shows the game id as running, named label, and returns what
// its job's OnMove should call after every move or turn.
func (p *progress) follow(id, label string) func(ply int, status string) {
	g := &runningGame{id: id, label: label}
	p.mu.Lock()
	p.running = append(p.running, g)
	p.mu.Unlock()
	return func(ply int, status string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		g.ply, g.status = ply, status
		if p.terminal && time.Since(p.lastDraw) >= redrawEvery {
			p.drawLocked()
		}
	}
}

// forget stops showing the game id as running (it ended without a
// record: an error or an interruption).
func (p *progress) forget(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgetLocked(id)
}

func (p *progress) forgetLocked(id string) {
	p.running = slices.DeleteFunc(p.running, func(g *runningGame) bool { return g.id == id })
}

// gameOver counts the game rec as the n-th finished one and shows the
// score that tallies give.
func (p *progress) gameOver(n int, rec *game.Record, tallies []tally) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgetLocked(rec.ID)
	p.done = n
	score := make([]string, len(tallies))
	for i, t := range tallies {
		score[i] = fmt.Sprintf("%s %.1f", p.players[i].Name, float64(t.Wins)+float64(t.Draws)/2)
	}
	p.status = strings.Join(score, " - ")
	if !p.terminal {
		fmt.Fprintln(p.w, renderGameLine(p.viewLocked(), rec.ID, describeResult(rec)))
		return
	}
	p.drawLocked()
}

// clear removes the live line, so that other output starts on a clean
// line; the next move or game draws it again.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *progress) drawLocked() {
	fmt.Fprintf(p.w, "\r%s\x1b[K", renderProgress(p.viewLocked()))
	p.drawn = true
	p.lastDraw = time.Now()
}

// viewLocked takes a snapshot of what the line shows.
func (p *progress) viewLocked() progressView {
	v := progressView{Done: p.done, Total: p.total, Score: p.status, Elapsed: time.Since(p.start), ETA: -1, Width: p.width}
	for _, g := range p.running {
		v.Running = append(v.Running, *g)
	}
	if ran := p.done - p.resumed; ran > 0 && p.total >= p.done {
		v.ETA = v.Elapsed / time.Duration(ran) * time.Duration(p.total-p.done)
	}
	return v
}

// progressView is a snapshot of the work for the live line.
type progressView struct {
	Done, Total int
	Running     []runningGame
	Score       string
	Elapsed     time.Duration
	ETA         time.Duration // < 0: not known yet (no game of this run finished)
	Width       int           // columns available; 0 = no limit
}

// renderProgress draws the live line: a bar, games done of the total,
// time elapsed and left, the games running and the score. What does not
// fit the width is cut, so the most useful parts come first.
func renderProgress(v progressView) string {
	const barWidth = 20
	filled := barWidth * min(v.Done, v.Total) / max(v.Total, 1)
	var b strings.Builder
	fmt.Fprintf(&b, "[%s%s] %d/%d games  %s", strings.Repeat("=", filled), strings.Repeat(" ", barWidth-filled),
		v.Done, v.Total, timing(v.Elapsed, v.ETA))
	if len(v.Running) > 0 {
		fmt.Fprintf(&b, "  %d running:", len(v.Running))
		for i, g := range v.Running {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %s", g.label, movesOf(g))
		}
		if len(v.Running) == 1 && v.Running[0].status != "" {
			b.WriteString(" (" + v.Running[0].status + ")")
		}
	}
	if v.Score != "" {
		b.WriteString("  | " + v.Score)
	}
	return cut(b.String(), v.Width)
}

// renderGameLine is the plain line printed when a game ends where no
// line can be redrawn.
func renderGameLine(v progressView, id, result string) string {
	line := fmt.Sprintf("game %d/%d %s: %s  [%s]  %s", v.Done, v.Total, id, result, v.Score, timing(v.Elapsed, v.ETA))
	if n := len(v.Running); n > 0 {
		line += fmt.Sprintf(", %d running", n)
	}
	return line
}

// movesOf says how far a running game is: a move number, or a turn for
// simultaneous games.
func movesOf(g runningGame) string {
	switch {
	case g.status != "":
		return fmt.Sprintf("turn %d", g.ply)
	case g.ply == 0:
		return "starting"
	}
	return fmt.Sprintf("move %d", g.ply)
}

// timing says the time elapsed and, once known, the time left.
func timing(elapsed, eta time.Duration) string {
	if eta < 0 {
		return clockTime(elapsed) + " elapsed"
	}
	return clockTime(elapsed) + " elapsed, ETA " + clockTime(eta)
}

// clockTime writes d as m:ss or h:mm:ss.
func clockTime(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// cut shortens s to width columns, ending in "…" when it had to cut; the
// last column stays free, since writing into it wraps some terminals.
func cut(s string, width int) string {
	if width <= 1 || utf8.RuneCountInString(s) < width {
		return s
	}
	r := []rune(s)
	return string(r[:width-2]) + "…"
}

// writesToTerminal reports whether w is a terminal, where a line can be
// redrawn in place; files, pipes and /dev/null get plain lines.
func writesToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// terminalWidth is the width of the terminal w, or 0 when w is none or
// does not say.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	return termColumns(f)
}

// matchConcurrency is how many games of a match play at once: the
// --concurrency flag, where 0 means as many as the cores allow (as in a
// tournament). More than that is allowed with a warning.
func matchConcurrency(stderr io.Writer, flag int, d driver, env runEnv) (int, error) {
	if flag < 0 {
		return 0, fmt.Errorf("--concurrency %d: must not be negative", flag)
	}
	cores := runtime.NumCPU()
	auto, thinkers := defaultConcurrency(cores, len(env.Players), d.info.Simultaneous, env.Ponder)
	if flag == 0 {
		return auto, nil
	}
	if flag > auto {
		fmt.Fprintf(stderr, "warning: --concurrency %d lets up to %d bots think at once on %d cores; expect time losses\n",
			flag, flag*thinkers, cores)
	}
	return flag, nil
}
