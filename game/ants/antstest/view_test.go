package antstest

import (
	"arena/internal/browsertest"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/game"
	"arena/game/ants"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// liveGame plays a short game between two real (scripted, random) bots
// with a listener and returns what a web page gets of it: the header and
// the frames, and the replay file of the same game.
func liveGame(t *testing.T) (feed, replay []byte) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed for the test bots")
	}
	script, err := filepath.Abs(filepath.Join("..", "testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	mapText, err := os.ReadFile(filepath.Join("..", "testdata", "tutorial1.map"))
	if err != nil {
		t.Fatal(err)
	}
	var players []ants.Player
	for _, name := range []string{"r1", "r2"} {
		players = append(players, ants.Player{Name: name, Command: "testbot.py random", Args: []string{py, script, "random", "99"}})
	}
	opt := ants.DefaultOptions()
	// Seed 10 makes the random bots meet: ants die, so the crosses are drawn.
	// (Time enough that only a hung bot would time out, even on a loaded
	// machine.)
	opt.Turns, opt.TurnTime, opt.LoadTime = 200, 30000, 30000
	opt.EngineSeed, opt.PlayerSeed = 10, 10
	l := &feedListener{}
	mc := ants.MatchConfig{Options: opt, MapText: string(mapText), WorkDir: t.TempDir(), Listener: l}
	played, err := ants.PlayGame(context.Background(), mc, ants.Game{ID: "live", Players: players, Seats: []int{1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	feed, err = json.Marshal(map[string]any{"header": l.header, "moves": l.moves, "record": played.Record})
	if err != nil {
		t.Fatal(err)
	}
	return feed, played.Replay
}

type feedListener struct {
	header *game.Record
	moves  []game.MoveRecord
}

func (l *feedListener) Started(h *game.Record)         { l.header = h }
func (l *feedListener) Moved(_ int, m game.MoveRecord) { l.moves = append(l.moves, m) }

// viewPage drives web/static/games/ants.js: it builds the view of a live
// feed and of the replay of the same game and compares their models turn
// by turn, shows every turn in every perspective and checks on the
// canvas that each ant is painted in its player's colour and each piece
// of food in the food's, then times show() over the big replay.
const viewPage = `<!doctype html><meta charset="utf-8"><body style="width:900px">
<div id="live"></div><div id="replay"></div><div id="big"></div>
<script type="module">
import ants from "./games/ants.js";
const fail = [];
function rgb(s) { return s.match(/\d+/g).slice(0, 3).map(Number); }
function colours(root) {
  return [...root.querySelectorAll(".ants-player")].map((e) => rgb(e.firstChild.style.background));
}
// paint checks the canvas of view (shown at turn n from perspective p).
function paint(name, root, view, n, p) {
  const canvas = root.querySelector("canvas");
  const f = view._frame(n);
  const cols = canvas.dataset.cols | 0, cell = canvas.width / cols;
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const at = (sq) => {
    const r = (sq / cols) | 0, c = sq - r * cols;
    const x = Math.floor((c + 0.5) * cell), y = Math.floor((r + 0.5) * cell);
    const i = 4 * (y * canvas.width + x);
    return [data[i], data[i + 1], data[i + 2]];
  };
  // The crosses of the dead reach into the squares around them.
  const dead = new Set();
  const rows = canvas.dataset.rows | 0;
  for (const sq of f.dead) {
    const r = (sq / cols) | 0, c = sq - r * cols;
    for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) dead.add(((r + dr + rows) % rows) * cols + (c + dc + cols) % cols);
  }
  const cs = colours(root);
  for (let i = 0; i < f.ants.length; i++) {
    if (dead.has(f.ants[i]) || (p >= 0 && f.own[i] !== p)) continue;
    const got = at(f.ants[i]), want = cs[f.own[i]];
    if (String(got) !== String(want)) { fail.push(name + " turn " + n + " view " + p + ": ant of " + f.own[i] + " at " + f.ants[i] + " painted " + got + ", want " + want); return; }
  }
  if (p < 0) {
    for (const sq of f.food) {
      if (dead.has(sq)) continue;
      const got = at(sq);
      if (String(got) !== "245,240,220") { fail.push(name + " turn " + n + ": food at " + sq + " painted " + got); return; }
    }
  }
}
// key is a frame as text; turn 0's scores are left out: the replay has
// them before the turn, the live frame after it (a bot failing in turn 0
// loses a point there).
function key(f, n) {
  const a = [], d = [];
  for (let i = 0; i < f.ants.length; i++) a.push(f.own[i] * 1e6 + f.ants[i]);
  for (let i = 0; i < f.dead.length; i++) d.push(f.deadOwn[i] * 1e6 + f.dead[i]);
  return JSON.stringify([a.sort((x, y) => x - y), d.sort((x, y) => x - y), [...f.food].sort((x, y) => x - y),
    [...f.hills].sort((x, y) => x[0] - y[0]), n > 0 ? f.scores : null]);
}
window.done = (async () => {
  const feed = await (await fetch("live.json")).json();
  const rep = await (await fetch("live.replay")).text();
  const liveEl = document.getElementById("live"), repEl = document.getElementById("replay");
  const live = ants.create(liveEl, feed.header);
  for (const m of feed.moves) live.push(m);
  for (const m of feed.record.moves) live.push(m); // a record's moves carry no frames: ignored
  live.result(feed.record);
  const replay = ants.create(repEl, { game: "ants", replay: rep, players: feed.header.players, seats: feed.header.seats });
  const stats = { turns: live.length(), replayTurns: replay.length(), deaths: 0, over: liveEl.querySelector(".board").dataset.over };
  if (live.length() !== replay.length()) fail.push("live has " + live.length() + " turns, the replay " + replay.length());
  for (let n = 0; n <= Math.min(live.length(), replay.length()); n++) {
    if (key(live._frame(n), n) !== key(replay._frame(n), n)) { fail.push("turn " + n + ": live and replay differ"); break; }
    stats.deaths += live._frame(n).dead.length;
  }
  for (const [name, el, view] of [["live", liveEl, live], ["replay", repEl, replay]]) {
    for (const p of [-1, 0, 1]) {
      view.perspective(p);
      for (let n = 0; n <= view.length(); n++) {
        view.show(n);
        if (el.querySelector(".board").dataset.ply !== String(n)) fail.push(name + ": data-ply " + el.querySelector(".board").dataset.ply + " after show(" + n + ")");
        if (p < 0 || n % 5 === 0) paint(name, el, view, n, p);
      }
    }
  }
  // The big replay: time every turn of the full view and of one player's.
  const bigEl = document.getElementById("big");
  const t0 = performance.now();
  const big = ants.create(bigEl, { game: "ants", replay: await (await fetch("big.replay")).text() });
  stats.bigLoadMs = performance.now() - t0;
  stats.bigTurns = big.length();
  stats.bigAnts = big._frame(big.length()).ants.length;
  const times = [];
  for (const p of [-1, 0]) {
    big.perspective(p);
    for (let n = 0; n <= big.length(); n++) {
      const a = performance.now();
      big.show(n);
      bigEl.querySelector("canvas").getContext("2d").getImageData(0, 0, 1, 1); // the drawing done, not only queued
      times.push(performance.now() - a);
      if (n % 100 === 0) paint("big", bigEl, big, n, p);
    }
  }
  times.sort((x, y) => x - y);
  stats.showMs = { median: times[times.length >> 1], p95: times[Math.floor(times.length * 0.95)], max: times[times.length - 1] };
  return { fail, stats };
})().catch((e) => ({ fail: [String(e.stack || e)], stats: {} }));
</script>`

func TestViewInBrowser(t *testing.T) {
	path := browsertest.Path(t)
	feed, replay := liveGame(t)
	big, err := BigReplay(1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"/": []byte(viewPage), "/live.json": feed, "/live.replay": replay, "/big.replay": big}
	for _, name := range []string{"ants.js", "ants-graphs.js", "ants-zoom.js", "shared.js"} { // the view and what it imports
		js, err := os.ReadFile(filepath.Join("..", "..", "..", "web", "static", "games", name))
		if err != nil {
			t.Fatal(err)
		}
		files["/games/"+name] = js
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case strings.HasSuffix(r.URL.Path, ".js"):
			w.Header().Set("Content-Type", "text/javascript")
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
		}
		w.Write(data)
	}))
	defer srv.Close()

	opts := append(browsertest.Options(t, path, t.TempDir()), chromedp.WindowSize(1000, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	var mu sync.Mutex
	var console []string
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				console = append(console, fmt.Sprintf("console.%s %s", ev.Type, strings.Join(parts, " ")))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			console = append(console, "exception: "+text)
		}
	}))
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("load the page: %v", err)
	}
	type result struct {
		Fail  []string       `json:"fail"`
		Stats map[string]any `json:"stats"`
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[result]("window.done", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("run the page: %v", err)
	}
	if d := os.Getenv("ARENA_TEST_SHOTS"); d != "" {
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			os.WriteFile(filepath.Join(d, "ants-view.png"), png, 0o644)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, c := range console {
		t.Error(c)
	}
	for _, f := range res.Fail {
		t.Error(f)
	}
	t.Logf("%v", res.Stats)
	if res.Stats["turns"] == nil || res.Stats["turns"].(float64) < 10 || res.Stats["deaths"].(float64) == 0 || res.Stats["bigAnts"].(float64) < 1000 || res.Stats["bigTurns"].(float64) != 1000 {
		t.Errorf("the games are too small to test anything: %v", res.Stats)
	}
}
