package e2e

import (
	"arena/internal/browsertest"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"arena/game/ants/antstest"
)

// antsReplayData is what the Ants view tests read of a rev-3 replay.
type antsReplayData struct {
	GameLength int `json:"game_length"`
	Data       struct {
		Players int         `json:"players"`
		Ants    [][]any     `json:"ants"`
		Hills   [][]int     `json:"hills"`
		Scores  [][]float64 `json:"scores"`
		Map     struct {
			Rows int `json:"rows"`
			Cols int `json:"cols"`
		} `json:"map"`
	} `json:"replaydata"`
}

func parseAntsReplay(t *testing.T, data []byte) *antsReplayData {
	t.Helper()
	var r antsReplayData
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("read the Ants replay: %v", err)
	}
	if r.Data.Map.Rows == 0 || r.GameLength == 0 {
		t.Fatalf("the Ants replay has no map or no turns: %d rows, %d turns", r.Data.Map.Rows, r.GameLength)
	}
	return &r
}

// ant reads one entry of replaydata.ants: [row, col, start, end, owner,
// orders], or with a conversion turn after start (7 fields), where the
// ant's life starts at the conversion.
func (r *antsReplayData) ant(a []any) (row, col, start, end, owner int) {
	num := func(i int) int {
		f, _ := a[i].(float64)
		return int(f)
	}
	if len(a) >= 7 {
		return num(0), num(1), num(3), num(4), num(5)
	}
	return num(0), num(1), num(2), num(3), num(4)
}

// want is the value a graph must show for a player at a turn, from the
// replay's own lists: the player's ants alive, its hills not yet razed,
// its score.
func (r *antsReplayData) want(metric string, seat, turn int) int {
	last := r.GameLength
	n := 0
	switch metric {
	case "ants":
		for _, a := range r.Data.Ants {
			_, _, start, end, owner := r.ant(a)
			if owner == seat && start <= turn && turn < end {
				n++
			}
		}
	case "hills":
		for _, h := range r.Data.Hills {
			if h[2] == seat && !(h[3] <= last && h[3] <= turn) {
				n++
			}
		}
	case "score":
		if seat < len(r.Data.Scores) && len(r.Data.Scores[seat]) > 0 {
			s := r.Data.Scores[seat]
			n = int(math.Round(s[min(turn, len(s)-1)]))
		}
	}
	return n
}

// antsGraph is one graph as the page draws it.
type antsGraph struct {
	Metric string      `json:"metric"`
	Min    float64     `json:"min"`
	Max    float64     `json:"max"`
	Lines  [][]float64 `json:"lines"` // per seat: x0, y0, x1, y1, ...
}

// graphs reads the Ants graphs off the page.
func (b *browser) graphs() []antsGraph {
	b.t.Helper()
	return eval[[]antsGraph](b, `[...document.querySelectorAll('svg.ants-graph')].map(s => ({
		metric: s.dataset.metric, min: +s.dataset.min, max: +s.dataset.max,
		lines: [...s.querySelectorAll('polyline')].sort((a, b) => a.dataset.seat - b.dataset.seat)
			.map(l => (l.getAttribute('points') || '').trim().split(/[\s,]+/).filter(Boolean).map(Number)),
	}))`)
}

// graphPad is PAD of games/ants-graphs.js: the lines keep this far (of a
// 100 high viewBox) from the top and the bottom.
const graphPad = 4

// checkGraphs compares the graphs with the replay's data: a point per
// turn in each player's line, and the values at the turns given.
func checkGraphs(t *testing.T, graphs []antsGraph, r *antsReplayData, turns []int) {
	t.Helper()
	if len(graphs) != 3 {
		t.Fatalf("%d Ants graphs, want 3 (ants, hills, score)", len(graphs))
	}
	last := r.GameLength
	for _, g := range graphs {
		if len(g.Lines) != r.Data.Players {
			t.Errorf("graph %s has %d lines for %d players", g.Metric, len(g.Lines), r.Data.Players)
			continue
		}
		for seat, pts := range g.Lines {
			if len(pts) != 2*(last+1) {
				t.Errorf("graph %s, player %d: %d points for turns 0..%d", g.Metric, seat, len(pts)/2, last)
				continue
			}
			for _, turn := range turns {
				x, y := pts[2*turn], pts[2*turn+1]
				if wantX := 1000 * float64(turn) / float64(last); math.Abs(x-wantX) > 0.01 {
					t.Errorf("graph %s, player %d, turn %d: x = %.2f, want %.2f", g.Metric, seat, turn, x, wantX)
				}
				got := int(math.Round(g.Max - (y-graphPad)*(g.Max-g.Min)/(100-2*graphPad)))
				if want := r.want(g.Metric, seat, turn); got != want {
					t.Errorf("graph %s, player %d, turn %d: shows %d, the replay says %d", g.Metric, seat, turn, got, want)
				}
			}
		}
	}
}

// clickGraphAt clicks the graph of metric where it shows turn of last and
// returns the turn the board moved to.
func (b *browser) clickGraphAt(metric string, turn, last int) int {
	b.t.Helper()
	before := b.boardPly()
	box := eval[[]float64](b, `(() => { const g = document.querySelector('svg.ants-graph[data-metric=`+metric+`]');
		g.scrollIntoView({block: 'center'});
		const r = g.getBoundingClientRect();
		return [r.left, r.top, r.width, r.height]; })()`)
	// Inside the graph: its right edge is the last turn, but not the graph's.
	x := min(max(box[0]+box[2]*float64(turn)/float64(last), box[0]+0.5), box[0]+box[2]-0.5)
	y := box[1] + box[3]/2
	b.do("click the "+metric+" graph at turn "+strconv.Itoa(turn), chromedp.MouseClickXY(x, y))
	if before != turn {
		b.wait("the board to leave ply "+strconv.Itoa(before), "document.querySelector('.board').dataset.ply !== "+jsString(strconv.Itoa(before)),
			"document.querySelector('.board').dataset.ply", 5*time.Second)
	}
	return b.boardPly()
}

// checkSeek clicks the graphs at a few turns: the board must go there,
// the turn mark follow, and the legend show the replay's values.
func checkSeek(t *testing.T, b *browser, r *antsReplayData) {
	t.Helper()
	last := r.GameLength
	for i, turn := range []int{last / 3, last, 1, 2 * last / 3} {
		metric := []string{"score", "ants", "hills"}[i%3]
		got := b.clickGraphAt(metric, turn, last)
		// A pixel of the graph is about a turn on long games.
		if got < turn-1 || got > turn+1 {
			t.Errorf("a click on the %s graph at turn %d moved the board to %d", metric, turn, got)
			continue
		}
		mark := eval[float64](b, `+document.querySelector('svg.ants-graph[data-metric=ants] .ants-graph-mark').getAttribute('x1')`)
		if want := 1000 * float64(got) / float64(last); math.Abs(mark-want) > 0.01 {
			t.Errorf("at turn %d the graphs' mark is at x = %.2f, want %.2f", got, mark, want)
		}
		if seek := eval[string](b, "document.querySelector('#replay-seek').value"); seek != strconv.Itoa(got) {
			t.Errorf("at turn %d the seek slider says %s", got, seek)
		}
		for seat := 0; seat < r.Data.Players; seat++ {
			want := fmt.Sprintf("%d pts, %d ants, %d hills", r.want("score", seat, got), r.want("ants", seat, got), r.want("hills", seat, got))
			if text := b.text(fmt.Sprintf(".ants-player[data-seat=%q]", strconv.Itoa(seat))); !strings.Contains(text, want) {
				t.Errorf("turn %d, player %d: the legend says %q, want %q", got, seat, text, want)
			}
		}
	}
}

// TestAntsGraphsOfficialReplay opens replays the official engine wrote:
// a graph per measure with a line per player and a point per turn,
// showing the replay's values (also around the turn a hill is razed),
// and a click goes to a turn.
func TestAntsGraphsOfficialReplay(t *testing.T) {
	for _, tc := range []struct{ name, game string }{
		{"four players", "v5_maze_p04_03_4p"},
		{"a hill razed", "v3_cell_maze_p02_08_greedy_hunter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := officialReplay(t, tc.game)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r := parseAntsReplay(t, data)
			last := r.GameLength
			turns := []int{0, 1, last / 4, last / 2, 3 * last / 4, last - 1, last}
			for _, h := range r.Data.Hills {
				if h[3] <= last {
					turns = append(turns, h[3]-1, h[3])
				}
			}

			srv := startServer(t)
			b := newBrowser(t, srv)
			b.open("#/file")
			b.waitFor("#replay-file", 10*time.Second)
			b.do("choose the replay file", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
			b.waitFor(`.board[data-game="ants"] svg.ants-graph`, 10*time.Second)
			checkGraphs(t, b.graphs(), r, turns)
			checkSeek(t, b, r)
		})
	}
}

// slowAntsBot writes a bot command that plays as arena's own Ants bot
// but takes 120 ms more over every turn, so that a game lasts long enough
// to be watched turn by turn: a Python script between the engine and
// "arena bot ants" that holds each "go" back a while.
func slowAntsBot(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "slow.py")
	const script = `import subprocess, sys, time
bot = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, text=True)
for line in sys.stdin:
    if line.split()[:1] in (["ready"], ["go"]):
        time.sleep(0.12)
    bot.stdin.write(line)
    bot.stdin.flush()
bot.stdin.close()
bot.wait()
`
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return "python3 " + path + " " + arenaBinary(t) + " bot ants"
}

// TestAntsGraphsLive watches an Ants game between arena's bots: the
// graphs grow turn by turn while it runs, and at its end (and in the
// stored game's replay) they hold every turn of the replay arena wrote.
func TestAntsGraphsLive(t *testing.T) {
	browsertest.Path(t) // before building anything
	srv := startServer(t, "--bot", "ants:slow="+slowAntsBot(t), "--options", "ants:--turns 60")
	b := newBrowser(t, srv)
	b.open("#/")
	b.waitFor("#live-list", 10*time.Second)
	id := startMatch(t, srv, map[string]any{"game": "ants", "bots": []string{"slow", "slow"}, "games": 1, "turn_time": "1s"})
	b.open("#/watch/" + id)
	b.waitFor(`.board[data-game="ants"] svg.ants-graph`, 20*time.Second)

	// While it runs: as many points as turns shown so far, more later.
	points := `(document.querySelector('svg.ants-graph[data-metric=ants] polyline').getAttribute('points') || '').trim().split(/\s+/).filter(Boolean).length`
	b.wait("a few turns", "document.querySelector('.board').dataset.over !== '1' && "+points+" >= 4",
		"[document.querySelector('.board').dataset.ply, "+points+"]", 30*time.Second)
	early := eval[int](b, points)
	b.wait("the graphs to grow", points+" > "+strconv.Itoa(early), points, 30*time.Second)
	if over := b.attr(".board", "data-over"); over == "1" {
		t.Logf("the game ended before the graphs were seen growing live (%d points first)", early)
	}

	rec := storedRecord(t, srv, id, 90*time.Second)
	status, replay := srv.api(t, "GET", "/api/records/"+id+"/replay", nil, "")
	if status != http.StatusOK {
		t.Fatalf("GET /api/records/%s/replay: status %d", id, status)
	}
	r := parseAntsReplay(t, replay)
	if rec.Length() != r.GameLength {
		t.Fatalf("the record has %d turns, its replay %d", rec.Length(), r.GameLength)
	}
	last := r.GameLength
	b.wait("the live graphs to reach the last turn", points+" === "+strconv.Itoa(last+1), points, 20*time.Second)
	// Turn 0's score comes before the turn in a replay, after it live.
	checkGraphs(t, b.graphs(), r, []int{1, last / 2, last})
	live := b.graphs()

	// The stored game's replay draws the same graphs.
	b.open("#/replay/" + id)
	b.wait("the replay's board", `document.querySelector('.board[data-game="ants"] svg.ants-graph') && location.hash.startsWith('#/replay/')`, "location.hash", 10*time.Second)
	b.waitPly("the stored replay", last)
	stored := b.graphs()
	checkGraphs(t, stored, r, []int{0, 1, last / 3, last / 2, last})
	for i := range stored {
		for seat := range stored[i].Lines {
			if len(live) > i && len(live[i].Lines) > seat && len(live[i].Lines[seat]) != len(stored[i].Lines[seat]) {
				t.Errorf("graph %s, player %d: %d points live, %d in the replay", stored[i].Metric, seat, len(live[i].Lines[seat])/2, len(stored[i].Lines[seat])/2)
			}
		}
	}
	checkSeek(t, b, r)
}

// canvasPixel reads the colour the Ants canvas shows at a point of the
// page, after the next animation frame (a zoom draws in it).
func (b *browser) canvasPixel(x, y float64) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
		const c = document.querySelector('.ants-canvas'), r = c.getBoundingClientRect();
		const d = c.getContext('2d').getImageData(Math.floor((%f - r.left) * c.width / r.width), Math.floor((%f - r.top) * c.height / r.height), 1, 1).data;
		done('rgb(' + d[0] + ', ' + d[1] + ', ' + d[2] + ')');
	})))`, x, y))
}

// nearColour reports whether the first "rgb(r, g, b)" in a and in b are
// the same colour give or take rounding: a canvas may paint a fill colour
// one step off in a channel (colour management), so 230,25,75 can read
// back as 230,24,75.
func nearColour(a, b string) bool {
	ca, cb := rgbOf(a), rgbOf(b)
	if ca == nil || cb == nil {
		return false
	}
	for i := range ca {
		if d := ca[i] - cb[i]; d < -3 || d > 3 {
			return false
		}
	}
	return true
}

// rgbOf reads the first "rgb(r, g, b)" in s; nil if there is none.
func rgbOf(s string) []int {
	m := regexp.MustCompile(`rgb\((\d+), *(\d+), *(\d+)\)`).FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	c := make([]int, 3)
	for i := range c {
		c[i], _ = strconv.Atoi(m[i+1])
	}
	return c
}

// wheelParams is Input.dispatchMouseEvent's parameters for a wheel:
// input.DispatchMouseEventParams leaves out a zero deltaX, which the
// protocol requires.
type wheelParams struct {
	Type   input.DispatchMouseEventType `json:"type"`
	X      float64                      `json:"x"`
	Y      float64                      `json:"y"`
	DeltaX float64                      `json:"deltaX"`
	DeltaY float64                      `json:"deltaY"`
}

// wheel turns the mouse wheel at a point of the page (deltaY < 0: up,
// away from the user).
func wheel(x, y, deltaY float64) chromedp.Action[chromedp.Void] {
	command := cdp.Command[wheelParams, cdp.Empty]{Method: input.CommandDispatchMouseEvent}
	return chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, command, wheelParams{Type: chromedp.MouseWheel, X: x, Y: y, DeltaY: deltaY})
		return err
	})
}

// antsViewport is the zoom and the top-left square the map shows.
type antsViewport struct{ Zoom, X, Y float64 }

func (b *browser) antsViewport() antsViewport {
	b.t.Helper()
	v := eval[[]float64](b, `(() => { const d = document.querySelector('.ants-canvas').dataset; return [+d.zoom, +d.viewX, +d.viewY]; })()`)
	return antsViewport{v[0], v[1], v[2]}
}

// timeShows steps through 100 turns and returns the spread of show()'s
// times as the page records them and with the drawing finished (a pixel
// read back), for the log: a timing assertion would fail on a busy
// machine.
func timeShows(b *browser) string {
	b.t.Helper()
	times := eval[[]float64](b, `(async () => {
		const frame = () => new Promise(r => requestAnimationFrame(() => r()));
		const next = document.querySelector('#replay-controls button[data-action="next"]');
		const ctx = document.querySelector('.ants-canvas').getContext('2d');
		window.arenaRenderTimes = [];
		const drawn = [];
		for (let i = 0; i < 100; i++) {
			const t0 = performance.now();
			next.click();
			ctx.getImageData(0, 0, 1, 1);
			drawn.push(performance.now() - t0);
			await frame();
		}
		return [...window.arenaRenderTimes, ...drawn];
	})()`)
	if len(times) != 200 {
		b.t.Fatalf("window.arenaRenderTimes got %d entries for 100 steps", len(times)-100)
	}
	return "show() " + spread(times[:100]) + "; drawn " + spread(times[100:])
}

// TestAntsZoomAndPan zooms the map of a 200x200 replay with the wheel
// (around the cursor: the ant under it stays there, drawn in its
// colour), the buttons and a pinch, pans it by dragging with the mouse
// and with a finger, and times show() zoomed in.
func TestAntsZoomAndPan(t *testing.T) {
	const turns = 1000
	data, err := antstest.BigReplay(turns, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := parseAntsReplay(t, data)
	rows, cols := r.Data.Map.Rows, r.Data.Map.Cols
	srv := startServer(t)
	path := filepath.Join(srv.Dir, "big.replay")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, srv)
	b.open("#/file")
	b.waitFor("#replay-file", 10*time.Second)
	b.do("choose the replay", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	b.waitFor(`.board[data-game="ants"] .ants-canvas`, 30*time.Second)
	b.control("first")
	b.waitPly("first", 0)
	if v := b.antsViewport(); v != (antsViewport{1, 0, 0}) {
		t.Fatalf("a new map shows %+v, want the whole map (zoom 1 at 0,0)", v)
	}

	// An ant of turn 0 (it stands where it starts), away from the edges.
	antRow, antCol, owner := -1, -1, -1
	for _, a := range r.Data.Ants {
		row, col, start, end, o := r.ant(a)
		if start == 0 && end > 0 && row > rows/4 && row < 3*rows/4 && col > cols/4 && col < 3*cols/4 {
			antRow, antCol, owner = row, col, o
			break
		}
	}
	if owner < 0 {
		t.Fatal("the big replay has no ant in the middle of the map at turn 0")
	}
	colour := b.attr(fmt.Sprintf(".ants-player[data-seat=%q] span", strconv.Itoa(owner)), "style")
	box := eval[[]float64](b, `(() => { const r = document.querySelector('.ants-canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	// The page point at the middle of the ant's square, in whole pixels as
	// the wheel's event reports it.
	x := math.Round(box[0] + box[2]*(float64(antCol)+0.5)/float64(cols))
	y := math.Round(box[1] + box[3]*(float64(antRow)+0.5)/float64(rows))
	before := b.canvasPixel(x, y)
	if !nearColour(colour, before) {
		t.Fatalf("the ant of player %d at %d,%d is painted %s; its swatch is %q", owner, antRow, antCol, before, colour)
	}

	// The wheel zooms in around the cursor: the ant stays under it.
	b.do("turn the wheel up over the ant", wheel(x, y, -300))
	b.wait("the wheel to zoom in", "+document.querySelector('.ants-canvas').dataset.zoom > 1", "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	v := b.antsViewport()
	fx, fy := (x-box[0])/box[2], (y-box[1])/box[3]
	if under, was := v.X+fx*float64(cols)/v.Zoom, fx*float64(cols); math.Abs(under-was) > 0.01 {
		t.Errorf("after the wheel (%+v) column %.3f is under the cursor, want %.3f as before", v, under, was)
	}
	if under, was := v.Y+fy*float64(rows)/v.Zoom, fy*float64(rows); math.Abs(under-was) > 0.01 {
		t.Errorf("after the wheel (%+v) row %.3f is under the cursor, want %.3f as before", v, under, was)
	}
	if got := b.canvasPixel(x, y); !nearColour(got, before) {
		t.Errorf("zoomed in %.2fx, the cursor is over %s, want the ant's %s", v.Zoom, got, before)
	}

	// The buttons: in and out by the same step around the middle, fit
	// back to the whole map.
	zoomed := v.Zoom
	b.click(`.ants-zoom button[data-zoom="in"]`)
	b.wait("the + button to zoom in", fmt.Sprintf("+document.querySelector('.ants-canvas').dataset.zoom > %g", zoomed), "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	in := b.antsViewport()
	if math.Abs(in.Zoom/zoomed-1.5) > 0.01 {
		t.Errorf("+ took the zoom from %.3f to %.3f, want 1.5 times", zoomed, in.Zoom)
	}
	b.click(`.ants-zoom button[data-zoom="out"]`)
	b.wait("the - button to zoom out", fmt.Sprintf("+document.querySelector('.ants-canvas').dataset.zoom < %g", in.Zoom), "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	if out := b.antsViewport(); math.Abs(out.Zoom-zoomed) > 0.01 {
		t.Errorf("- after + left the zoom at %.3f, want %.3f", out.Zoom, zoomed)
	}
	b.click(`.ants-zoom button[data-zoom="fit"]`)
	b.wait("fit to show the whole map", "document.querySelector('.ants-canvas').dataset.zoom === '1'", "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	if v := b.antsViewport(); v != (antsViewport{1, 0, 0}) {
		t.Errorf("after fit the map shows %+v, want zoom 1 at 0,0", v)
	}
	if got := b.canvasPixel(x, y); !nearColour(got, before) {
		t.Errorf("after fit the ant's square shows %s, want %s", got, before)
	}

	// A drag pans: 100 pixels left and 60 up move the view right and
	// down by as many squares as those pixels show.
	b.click(`.ants-zoom button[data-zoom="in"]`)
	b.click(`.ants-zoom button[data-zoom="in"]`)
	b.wait("two zoom steps", "+document.querySelector('.ants-canvas').dataset.zoom > 2.2", "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	start := b.antsViewport()
	cx, cy := box[0]+box[2]/2, box[1]+box[3]/2
	held := func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }
	b.do("drag the map",
		chromedp.MouseEvent(chromedp.MouseMoved, cx, cy),
		chromedp.MouseEvent(chromedp.MousePressed, cx, cy, chromedp.ButtonLeft, held, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, cx-50, cy-30, chromedp.ButtonLeft, held),
		chromedp.MouseEvent(chromedp.MouseMoved, cx-100, cy-60, chromedp.ButtonLeft, held),
		chromedp.MouseEvent(chromedp.MouseReleased, cx-100, cy-60, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
	dragged := b.antsViewport()
	wantX := start.X + 100/box[2]*float64(cols)/start.Zoom
	wantY := start.Y + 60/box[3]*float64(rows)/start.Zoom
	if dragged.Zoom != start.Zoom || math.Abs(dragged.X-wantX) > 0.01 || math.Abs(dragged.Y-wantY) > 0.01 {
		t.Errorf("a drag of -100,-60 pixels took the view from %+v to %+v, want x %.3f, y %.3f", start, dragged, wantX, wantY)
	}

	// Touch: two fingers spreading zoom in, one finger pans.
	touch := func(what string, typ input.DispatchTouchEventType, pts ...[2]float64) {
		tp := []*input.TouchPoint{}
		for i, p := range pts {
			id := float64(i + 1)
			tp = append(tp, &input.TouchPoint{X: p[0], Y: p[1], ID: &id})
		}
		b.do(what, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: tp})
			return err
		}))
	}
	touch("two fingers down", input.DispatchTouchEventTypeTouchStart, [2]float64{cx - 40, cy}, [2]float64{cx + 40, cy})
	touch("spread them", input.DispatchTouchEventTypeTouchMove, [2]float64{cx - 60, cy}, [2]float64{cx + 60, cy})
	touch("spread them more", input.DispatchTouchEventTypeTouchMove, [2]float64{cx - 80, cy}, [2]float64{cx + 80, cy})
	touch("lift them", input.DispatchTouchEventTypeTouchEnd)
	pinched := b.antsViewport()
	if pinched.Zoom < dragged.Zoom*1.9 && pinched.Zoom < 200.0/8 {
		t.Errorf("spreading two fingers from 80 to 160 pixels apart took the zoom from %.3f to %.3f, want twice", dragged.Zoom, pinched.Zoom)
	}
	touch("one finger down", input.DispatchTouchEventTypeTouchStart, [2]float64{cx, cy})
	touch("slide it right", input.DispatchTouchEventTypeTouchMove, [2]float64{cx + 40, cy})
	touch("lift it", input.DispatchTouchEventTypeTouchEnd)
	slid := b.antsViewport()
	if want := pinched.X - 40/box[2]*float64(cols)/pinched.Zoom; math.Abs(slid.X-want) > 0.01 || slid.Y != pinched.Y {
		t.Errorf("a finger sliding 40 pixels right took the view from %+v to %+v, want x %.3f", pinched, slid, want)
	}
	// The next turn keeps the zoom.
	ply := b.boardPly()
	b.control("next")
	b.waitPly("next", ply+1)
	if v := b.antsViewport(); v != slid {
		t.Errorf("the next turn moved the view from %+v to %+v", slid, v)
	}
	// A pinch works from the whole map too (where a vertical swipe is the
	// page's, to scroll).
	b.click(`.ants-zoom button[data-zoom="fit"]`)
	b.wait("fit", "document.querySelector('.ants-canvas').dataset.zoom === '1'", "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	touch("two fingers down on the whole map", input.DispatchTouchEventTypeTouchStart, [2]float64{cx - 40, cy}, [2]float64{cx + 40, cy})
	touch("spread them", input.DispatchTouchEventTypeTouchMove, [2]float64{cx - 70, cy}, [2]float64{cx + 70, cy})
	touch("lift them", input.DispatchTouchEventTypeTouchEnd)
	if v := b.antsViewport(); math.Abs(v.Zoom-1.75) > 0.01 {
		t.Errorf("spreading two fingers from 80 to 140 pixels apart on the whole map zoomed to %.3f, want 1.75", v.Zoom)
	}

	// show() from the middle of the game, where 1,000+ ants live: at the
	// pinch's zoom (most of the map skipped as out of view), the whole map
	// (food and ants are pixels of the land layer) and at 1.5x (every
	// square drawn apart, most of the map shown).
	b.seek(turns / 2)
	b.waitPly("the middle", turns/2)
	t.Logf("ants render time zoomed in %.2fx (%d turns, 200x200): %s", slid.Zoom, turns, timeShows(b))
	b.click(`.ants-zoom button[data-zoom="fit"]`)
	b.wait("fit", "document.querySelector('.ants-canvas').dataset.zoom === '1'", "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	b.seek(turns / 2)
	b.waitPly("the middle", turns/2)
	t.Logf("ants render time, the whole map (%d turns, 200x200): %s", turns, timeShows(b))
	b.click(`.ants-zoom button[data-zoom="in"]`)
	b.wait("zoom 1.5", "document.querySelector('.ants-canvas').dataset.zoom === '1.5'", "document.querySelector('.ants-canvas').dataset.zoom", 5*time.Second)
	b.seek(turns / 2)
	b.waitPly("the middle", turns/2)
	t.Logf("ants render time zoomed in 1.50x (%d turns, 200x200): %s", turns, timeShows(b))
}
