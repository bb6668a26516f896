package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"arena/game/ants/antstest"
)

// control clicks one of the replay buttons (first, prev, play, next, last).
func (b *browser) control(action string) {
	b.t.Helper()
	b.click(fmt.Sprintf("#replay-controls button[data-action=%q]", action))
}

// waitPly waits until the board shows position n.
func (b *browser) waitPly(what string, n int) {
	b.t.Helper()
	b.wait(what+": board at ply "+strconv.Itoa(n),
		"document.querySelector('.board') && document.querySelector('.board').dataset.ply === "+jsString(strconv.Itoa(n)),
		"[document.querySelector('.board') && document.querySelector('.board').dataset.ply, location.hash]", 5*time.Second)
}

// seek moves the replay's range input to n as a drag of the slider would.
func (b *browser) seek(n int) {
	b.t.Helper()
	eval[bool](b, `(() => {
		const s = document.querySelector('#replay-seek');
		s.value = `+strconv.Itoa(n)+`;
		s.dispatchEvent(new Event('input', {bubbles: true}));
		s.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`)
}

// choose picks an option of a select element as a person would.
func (b *browser) choose(sel, value string) {
	b.t.Helper()
	ok := eval[bool](b, `(() => {
		const s = document.querySelector(`+jsString(sel)+`);
		if (!s || ![...s.options].some(o => o.value === `+jsString(value)+`)) return false;
		s.value = `+jsString(value)+`;
		s.dispatchEvent(new Event('input', {bubbles: true}));
		s.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`)
	if !ok {
		b.t.Fatalf("%s has no option %q: %s", sel, value,
			eval[string](b, `JSON.stringify([...(document.querySelector(`+jsString(sel)+`)||{options:[]}).options].map(o => o.value))`))
	}
}

// canvasImage returns what the board's canvas shows, as a data URL.
func (b *browser) canvasImage() string {
	b.t.Helper()
	return eval[string](b, `(document.querySelector('.board canvas') || {toDataURL: () => ''}).toDataURL()`)
}

// TestReplayAnts plays a short Ants game through the API, then replays it
// in the page: first, next, prev, last, the seek slider, play and pause,
// and the per-player views of fog of war.
func TestReplayAnts(t *testing.T) {
	// Mostly waiting for bots: runs beside the other games.
	t.Parallel()
	srv := startServer(t)
	id := startMatch(t, srv, map[string]any{"game": "ants", "bots": []string{"builtin", "builtin"}, "games": 1, "turn_time": "200ms"})
	rec := storedRecord(t, srv, id, 60*time.Second)
	turns := rec.Length()
	if turns < 10 {
		t.Fatalf("the Ants game lasted %d turns: too short to replay", turns)
	}
	status, replay := srv.api(t, "GET", "/api/records/"+id+"/replay", nil, "")
	if status != http.StatusOK || !json.Valid(replay) {
		t.Fatalf("GET /api/records/%s/replay: status %d, %d bytes", id, status, len(replay))
	}

	b := newBrowser(t, srv)
	b.open("#/replay/" + id)
	b.waitFor(`.board[data-game="ants"]`, 10*time.Second)
	b.waitFor(`#replay-controls`, 5*time.Second)

	b.control("first")
	b.waitPly("first", 0)
	b.control("next")
	b.waitPly("next", 1)
	b.control("next")
	b.control("next")
	b.waitPly("next twice", 3)
	b.control("prev")
	b.waitPly("prev", 2)
	b.control("last")
	b.waitPly("last", turns)
	if b.attr(".board", "data-over") != "1" {
		t.Errorf("the last position of a finished game has data-over=%q", b.attr(".board", "data-over"))
	}

	mid := turns / 2
	b.seek(mid)
	b.waitPly("seek", mid)
	b.do("press the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	b.waitPly("right arrow", mid+1)
	b.do("press the left arrow", chromedp.KeyEvent(kb.ArrowLeft))
	b.waitPly("left arrow", mid)
	// The address names the position, so that it can be linked.
	if h := eval[string](b, "location.hash"); !strings.HasSuffix(h, "ply="+strconv.Itoa(mid)) {
		t.Errorf("at ply %d the address is #%s", mid, h)
	}

	// Fog of war: a player sees less than the whole map, and going back
	// to the full view draws the same picture as before.
	b.waitFor("#perspective", 5*time.Second)
	full := b.canvasImage()
	if full == "" {
		t.Fatal("the Ants board has no canvas")
	}
	b.choose("#perspective", "0")
	fogged := b.canvasImage()
	if fogged == full {
		t.Error("player 0's view looks the same as the full view")
	}
	b.choose("#perspective", "1")
	if other := b.canvasImage(); other == fogged || other == full {
		t.Error("player 1's view looks the same as player 0's or the full one")
	}
	b.choose("#perspective", "-1")
	if again := b.canvasImage(); again != full {
		t.Error("the full view drawn again differs from the first time")
	}
	if got := b.boardPly(); got != mid {
		t.Errorf("changing the view moved the replay from ply %d to %d", mid, got)
	}

	// Play runs the replay forward; pause stops it.
	b.control("play")
	b.wait("the replay to play on", "+document.querySelector('.board').dataset.ply > "+strconv.Itoa(mid+1), "document.querySelector('.board').dataset.ply", 10*time.Second)
	b.control("play")
	paused := b.boardPly()
	time.Sleep(500 * time.Millisecond)
	if got := b.boardPly(); got != paused && got != paused+1 {
		t.Errorf("after pause the replay went on from ply %d to %d", paused, got)
	}

	// A linked position opens there.
	b.open("#/")
	b.waitFor("#live-list", 10*time.Second)
	b.open(fmt.Sprintf("#/replay/%s?ply=7", id))
	b.waitFor(`.board[data-game="ants"]`, 10*time.Second)
	b.waitPly("a link to ply 7", 7)
}

// officialReplay finds a replay written by the official AI Challenge
// engine among the recorded games in the repository's testdata
// (testdata/conformance/ants, as game/ants's conformance test reads).
func officialReplay(t *testing.T, game string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "testdata", "conformance", "ants", game, "replay.json")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("recorded official replay missing (testdata/conformance/ants in the repository): %v", err)
	}
	return path
}

// TestOpenOfficialReplayFile opens a replay the official Ants engine
// wrote (four players) from disk through the page's file input.
func TestOpenOfficialReplayFile(t *testing.T) {
	path := officialReplay(t, "v5_maze_p04_03_4p")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var replay struct {
		GameLength int `json:"game_length"`
		Data       struct {
			Players int `json:"players"`
		} `json:"replaydata"`
	}
	if err := json.Unmarshal(data, &replay); err != nil {
		t.Fatal(err)
	}

	srv := startServer(t)
	b := newBrowser(t, srv)
	b.open("#/file")
	b.waitFor("#replay-file", 10*time.Second)
	b.do("choose the replay file", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	b.waitFor(`.board[data-game="ants"]`, 10*time.Second)
	b.control("last")
	b.waitPly("last", replay.GameLength)
	b.control("first")
	b.waitPly("first", 0)
	b.seek(replay.GameLength / 2)
	b.waitPly("seek", replay.GameLength/2)
	// One view per player and the full one.
	opts := eval[[]string](b, `[...document.querySelectorAll('#perspective option')].map(o => o.value)`)
	if len(opts) != replay.Data.Players+1 {
		t.Errorf("#perspective offers %q for a game of %d players", opts, replay.Data.Players)
	}
	full := b.canvasImage()
	b.choose("#perspective", "3")
	if b.canvasImage() == full {
		t.Error("player 3's view looks the same as the full view")
	}
}

// TestAntsRenderTime opens a replay of 1,000 turns with more than 1,000
// ants and steps through it in the page as a viewer would (turn after
// turn, then jumps), reading the time of every view.show() the page
// records in window.arenaRenderTimes. The figures are logged, not judged:
// a timing assertion would fail on a busy CI machine.
func TestAntsRenderTime(t *testing.T) {
	const turns = 1000
	data, err := antstest.BigReplay(turns, 1)
	if err != nil {
		t.Fatal(err)
	}
	var replay struct {
		GameLength int `json:"game_length"`
		Data       struct {
			Ants [][]any `json:"ants"`
		} `json:"replaydata"`
	}
	if err := json.Unmarshal(data, &replay); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t)
	path := filepath.Join(srv.Dir, "big.replay")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, srv)
	b.open("#/file")
	b.waitFor("#replay-file", 10*time.Second)
	loadStart := time.Now()
	b.do("choose the big replay", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	b.waitFor(`.board[data-game="ants"]`, 30*time.Second)
	b.control("last")
	b.waitPly("last", replay.GameLength)
	load := time.Since(loadStart)
	// Ants alive at the middle of the game, from the file's ant list:
	// [row, col, start, end, owner, orders].
	mid := replay.GameLength / 2
	antsAt := 0
	for _, a := range replay.Data.Ants {
		if len(a) >= 4 {
			start, _ := a[2].(float64)
			end, _ := a[3].(float64)
			if int(start) <= mid && mid < int(end) {
				antsAt++
			}
		}
	}
	if antsAt < 1000 {
		t.Fatalf("the big replay has %d ants at turn %d, want 1000+", antsAt, mid)
	}

	// Turn after turn from the middle (playing), then jumps across the
	// game (the seek slider), each shown in its own animation frame as a
	// person would see it.
	steps := eval[[]float64](b, `(async () => {
		const frame = () => new Promise(r => requestAnimationFrame(() => r()));
		const seek = document.querySelector('#replay-seek');
		const next = document.querySelector('#replay-controls button[data-action="next"]');
		const go = n => {
			seek.value = n;
			seek.dispatchEvent(new Event('input', {bubbles: true}));
			seek.dispatchEvent(new Event('change', {bubbles: true}));
		};
		go(`+strconv.Itoa(mid)+`);
		await frame();
		window.arenaRenderTimes = [];
		for (let i = 0; i < 100; i++) { next.click(); await frame(); }
		const sequential = window.arenaRenderTimes.length;
		for (let i = 0; i < 100; i++) { go((i * 379) % `+strconv.Itoa(replay.GameLength+1)+`); await frame(); }
		return [sequential, ...window.arenaRenderTimes];
	})()`)
	if len(steps) < 1 {
		t.Fatal("no render times")
	}
	seq := int(steps[0])
	times := steps[1:]
	if seq < 100 || len(times) < 200 {
		t.Fatalf("window.arenaRenderTimes got %d entries for 100 steps and %d for 100 jumps: want one per view.show()", seq, len(times)-seq)
	}
	t.Logf("ants render time, %d turns, %d ants at turn %d: loading the file and showing the last turn %v", replay.GameLength, antsAt, mid, load.Round(time.Millisecond))
	t.Logf("  turn after turn (%d shows): %s", seq, spread(times[:seq]))
	t.Logf("  jumps (%d shows): %s", len(times)-seq, spread(times[seq:]))
	t.Logf("  all (%d shows): %s", len(times), spread(times))
}

// spread describes render times in milliseconds: median, 95th
// percentile and maximum.
func spread(ms []float64) string {
	s := slices.Clone(ms)
	slices.Sort(s)
	at := func(q float64) float64 { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return fmt.Sprintf("median %.2f ms, p95 %.2f ms, max %.2f ms", at(0.5), at(0.95), s[len(s)-1])
}
