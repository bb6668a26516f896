package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"arena/game"
)

// shownGame is what the replay screen shows of a whole game: the move
// list, the last position's ply, whether it is over, and the score line
// of a game that keeps one.
type shownGame struct {
	Moves []string `json:"moves"`
	Ply   string   `json:"ply"`
	Over  string   `json:"over"`
	Score string   `json:"score"`
	// Areas is how many captured areas the last Points position shows.
	Areas int `json:"areas"`
}

// shown steps the open screen to its last position and reads it.
func (b *browser) shown(game string) shownGame {
	b.t.Helper()
	b.waitFor(`.board[data-game="`+game+`"]`, 15*time.Second)
	b.control("last")
	b.wait("the last position", `(() => { const li = document.querySelectorAll('.move-list li'); const b = document.querySelector('.board');
		return b && li.length > 0 && b.dataset.ply === li[li.length - 1].dataset.ply; })()`, "document.querySelector('.board').dataset.ply", 10*time.Second)
	return eval[shownGame](b, `({
		moves: [...document.querySelectorAll('.move-list li .mv')].map(e => e.textContent),
		ply: document.querySelector('.board').dataset.ply,
		over: document.querySelector('.board').dataset.over,
		score: [...document.querySelectorAll('.board .points-score .score')].map(e => e.textContent).join(':'),
		areas: document.querySelectorAll('.board .capture[display="inline"]').length,
	})`)
}

// download fetches one of a stored game's files through the API.
func (s *server) download(t *testing.T, id, format string) []byte {
	t.Helper()
	status, body := s.api(t, "GET", "/api/games/"+id+"/download?format="+format, nil, "")
	if status != http.StatusOK {
		t.Fatalf("download %s of %s: status %d: %s", format, id, status, body)
	}
	return body
}

// openFile opens a file of the test's folder through the page's file input.
func (b *browser) openFile(path string) {
	b.t.Helper()
	b.open("#/")
	b.waitFor("#live-list", 10*time.Second)
	b.open("#/file")
	b.waitFor("#replay-file", 10*time.Second)
	b.do("choose "+filepath.Base(path), chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
}

// TestOpenFiles plays a game of Gomoku (in a tournament), Points and Khet
// with arena's own bots, downloads each game in every format its game
// has, opens each file in the page and checks that it shows the game as
// the stored game's replay does: the same moves, the same last position
// and result, the same Points score. A tournament game's replay links to
// its tournament, whose page links its results file.
func TestOpenFiles(t *testing.T) {
	srv := startServer(t, "--bot", "gomoku:b2=builtin", "--options", "points:--size 12x12", "--options", "khet:--max-plies 30")
	const cup = "files cup"
	req := map[string]any{"name": cup, "game": "gomoku", "bots": []string{"builtin", "b2"}, "format": "round-robin", "games": 2, "turn_time": "100ms"}
	if status, body := srv.api(t, "POST", "/api/tournaments", req, srv.Token); status != http.StatusCreated {
		t.Fatalf("POST /api/tournaments: status %d: %s", status, body)
	}
	pointsID := startMatch(t, srv, map[string]any{"game": "points", "bots": []string{"builtin", "builtin"}, "turn_time": "100ms"})
	khetID := startMatch(t, srv, map[string]any{"game": "khet", "bots": []string{"builtin", "builtin"}, "turn_time": "100ms"})
	antsID := startMatch(t, srv, map[string]any{"game": "ants", "bots": []string{"builtin", "builtin"}, "turn_time": "200ms"})
	gomokuID := firstGame(t, srv, cup)

	b := newBrowser(t, srv)
	for _, c := range []struct {
		game, id string
		formats  []string
	}{
		{"gomoku", gomokuID, []string{"json", "psq", "sgf"}},
		{"points", pointsID, []string{"json", "sgf"}},
		{"khet", khetID, []string{"json", "khet"}},
	} {
		rec := storedRecord(t, srv, escapeID(c.id), 120*time.Second)
		b.open("#/replay/" + escapeID(c.id))
		want := b.shown(c.game)
		if len(want.Moves) != len(rec.Moves) {
			t.Fatalf("%s: the replay lists %d moves, the record has %d", c.id, len(want.Moves), len(rec.Moves))
		}
		t.Logf("%s: %d moves, score %q, %d captured areas shown", c.id, len(rec.Moves), want.Score, want.Areas)
		for _, format := range c.formats {
			t.Run(c.game+"-"+format, func(t *testing.T) {
				path := filepath.Join(srv.Dir, strings.ReplaceAll(c.id, "/", "_")+"."+format)
				if err := os.WriteFile(path, srv.download(t, escapeID(c.id), format), 0o644); err != nil {
					t.Fatal(err)
				}
				b.openFile(path)
				got := b.shown(c.game)
				checkShown(t, format, rec, got, want)
			})
		}
	}

	// Ants: arena's replay file (the official visualizer's format) opens
	// at every turn of the game; its record, which holds the orders but
	// not the map of each turn, sends the reader to the replay file.
	rec := storedRecord(t, srv, antsID, 120*time.Second)
	for _, format := range []string{"replay", "json"} {
		t.Run("ants-"+format, func(t *testing.T) {
			path := filepath.Join(srv.Dir, antsID+"."+format)
			if err := os.WriteFile(path, srv.download(t, antsID, format), 0o644); err != nil {
				t.Fatal(err)
			}
			b.openFile(path)
			if format == "json" {
				b.waitFor(".file-error", 10*time.Second)
				if msg := b.text(".file-error"); !strings.Contains(msg, "open the game's replay file") {
					t.Errorf("opening an Ants record says %q", msg)
				}
				return
			}
			b.waitFor(`.board[data-game="ants"]`, 15*time.Second)
			b.control("last")
			b.waitPly("the last turn", rec.Length())
		})
	}

	// The tournament game's replay links to its tournament, whose page
	// links the results file.
	b.open("#/replay/" + escapeID(gomokuID))
	b.waitFor(`a[data-action="tournament"]`, 10*time.Second)
	if href := b.attr(`a[data-action="tournament"]`, "href"); href != "#/tournament/"+escapeID(cup) {
		t.Errorf("the tournament link goes to %q", href)
	}
	b.click(`a[data-action="tournament"]`)
	b.waitFor(`a[data-action="results"]`, 10*time.Second)
	status, pgn := srv.api(t, "GET", b.attr(`a[data-action="results"]`, "href"), nil, "")
	if status != http.StatusOK || !strings.Contains(string(pgn), `[Event "files cup"]`) || !strings.Contains(string(pgn), "[GameId \""+gomokuID+"\"]") {
		t.Errorf("the results link gives %d:\n%s", status, pgn)
	}
}

// checkShown compares a file's screen with the stored game's. Piskvork
// and SGF files hold the opening stones as moves: the file's list is the
// opening, then the record's moves.
func checkShown(t *testing.T, format string, rec *game.Record, got, want shownGame) {
	t.Helper()
	extra := 0
	if format == "psq" || format == "sgf" {
		extra = len(rec.Opening)
	}
	if len(got.Moves) != extra+len(want.Moves) || !slices.Equal(got.Moves[extra:], want.Moves) {
		t.Errorf("the file lists moves\n%q\nthe replay\n%q (opening %q)", got.Moves, want.Moves, rec.Opening)
	}
	if got.Ply != strconv.Itoa(extra+len(rec.Moves)) || got.Over != want.Over || got.Score != want.Score || got.Areas != want.Areas {
		t.Errorf("the file's last position: ply %s, over %s, score %q, %d areas; the replay's: ply %s, over %s, score %q, %d areas",
			got.Ply, got.Over, got.Score, got.Areas, want.Ply, want.Over, want.Score, want.Areas)
	}
}

// firstGame waits for a tournament's first stored game and returns its ID.
func firstGame(t *testing.T, srv *server, name string) string {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		var games []struct {
			ID string `json:"id"`
		}
		srv.getJSON(t, "/api/records?tournament="+escapeID(name), &games)
		if len(games) > 0 {
			return games[len(games)-1].ID
		}
		if time.Now().After(deadline) {
			t.Fatalf("tournament %s stored no game in 90 s", name)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// escapeID escapes an ID for a URL path the way the page does
// (encodeURIComponent): "files cup/r1/p1" is one segment.
func escapeID(id string) string {
	return strings.NewReplacer("%", "%25", " ", "%20", "/", "%2F", "#", "%23", "?", "%3F").Replace(id)
}

// TestDownloadLink clicks a replay's download links as a person would and
// checks the files the browser saves.
func TestDownloadLink(t *testing.T) {
	srv := startServer(t)
	id := startMatch(t, srv, map[string]any{"game": "gomoku", "bots": []string{"builtin", "builtin"}, "turn_time": "100ms"})
	storedRecord(t, srv, id, 60*time.Second)
	b := newBrowser(t, srv)
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatalf("allow downloads: %v", err)
	}
	b.open("#/replay/" + id)
	for _, format := range []string{"psq", "sgf", "json"} {
		link := fmt.Sprintf(`a[data-format=%q]`, format)
		b.waitFor(link, 10*time.Second)
		name := b.attr(link, "download")
		if name != id+"."+format {
			t.Errorf("the %s link saves as %q", format, name)
		}
		b.click(link)
		path := filepath.Join(dir, name)
		var data []byte
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			var err error
			if data, err = os.ReadFile(path); err == nil && len(data) > 0 {
				break
			}
			if time.Now().After(deadline) {
				entries, _ := os.ReadDir(dir)
				t.Fatalf("clicking the %s link saved no %s in 15 s (the folder holds %v)", format, name, entries)
			}
		}
		if want := srv.download(t, id, format); string(data) != string(want) {
			t.Errorf("the saved %s differs from the API's:\n%s\nwant:\n%s", name, data, want)
		}
	}
}

// TestOpenBrokenFiles opens broken files of each format: the page says
// which file, which line and what is wrong, and shows no board.
func TestOpenBrokenFiles(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, srv)
	for _, c := range []struct{ name, text, want string }{
		{"header.psq", "Piskvorky 20x20, 1:1\n10,10,5\n", `header.psq, line 1: header "Piskvorky 20x20, 1:1" is not`},
		{"twice.psq", "Piskvorky 20x20, 1:1, 0\n10,10,5\n\n10,10,7\n0\n", `twice.psq, line 4: move "10,10,7" is on an occupied square`},
		{"off.psq", "Piskvorky 15x15, 1:1, 0\n16,1,5\n", `off.psq, line 2: move "16,1,5" is off the 15x15 board`},
		{"go.sgf", "(;FF[4]GM[1]SZ[19];B[pd];W[dp])", `go.sgf: an SGF game of Go: only Gomoku (GM[4]) and Points (GM[40]) open here`},
		{"open.sgf", "(;FF[4]GM[4]SZ[15]\n;B[hh];W[h", `open.sgf, line 2: the value of W opened here never closes`},
		{"taken.sgf", "(;FF[4]GM[40]SZ[10]RU[standard];B[ee];W[ee])", `taken.sgf: move 2: 4,4 already holds a dot`},
		{"bad.khet", "# khet x setup classic: silver a, red b\n- - 0 26 R00X2\n", `bad.khet, line 2: "- - 0 26 R00X2" is not a Khet state string`},
		{"cut.json", `{"game": "gomoku", "moves": [`, `cut.json: not JSON`},
		{"notes.txt", "shopping: eggs", `notes.txt: not a game file this page reads`},
	} {
		path := filepath.Join(srv.Dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		b.openFile(path)
		b.waitFor(".file-error", 10*time.Second)
		if got := b.text(".file-error"); !strings.Contains(got, c.want) {
			t.Errorf("%s: the page says %q, want %q", c.name, got, c.want)
		}
		if eval[bool](b, "!!document.querySelector('.board')") {
			t.Errorf("%s: a board is shown", c.name)
		}
	}
}

// TestFileParsersFuzz feeds the page's file readers thousands of broken
// versions of real files (bytes flipped, cut, repeated, lines swapped):
// each must give a record or a FileError, never another exception.
func TestFileParsersFuzz(t *testing.T) {
	srv := startServer(t, "--options", "points:--size 8x8", "--options", "khet:--max-plies 12")
	var seeds []struct{ name, text string }
	for _, m := range []struct{ game, format string }{{"gomoku", "psq"}, {"gomoku", "sgf"}, {"points", "sgf"}, {"khet", "khet"}, {"khet", "json"}} {
		id := startMatch(t, srv, map[string]any{"game": m.game, "bots": []string{"builtin", "builtin"}, "turn_time": "50ms"})
		storedRecord(t, srv, id, 60*time.Second)
		seeds = append(seeds, struct{ name, text string }{id + "." + m.format, string(srv.download(t, id, m.format))})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][2]string
	for _, s := range seeds {
		for range 400 {
			inputs = append(inputs, [2]string{s.name, mutate(rng, s.text)})
		}
	}
	b := newBrowser(t, srv)
	b.open("#/file")
	b.waitFor("#replay-file", 10*time.Second)
	failures := eval[[]string](b, `(async (inputs) => {
		const { readGameFile } = await import("/static/openfile.js");
		const bad = [];
		for (const [name, text] of inputs) {
			try {
				const { rec } = await readGameFile(name, text);
				if (!rec || typeof rec.game !== "string" || !Array.isArray(rec.moves)) bad.push(name + ": no record: " + JSON.stringify(text.slice(0, 80)));
			} catch (e) {
				if (e.name !== "FileError") bad.push(name + ": " + e.name + ": " + e.message + " for " + JSON.stringify(text.slice(0, 200)));
			}
		}
		return bad.slice(0, 10);
	})(`+jsonOf(t, inputs)+`)`)
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("%d mutated files of %d seeds read", len(inputs), len(seeds))
}

// jsonOf writes v as JSON for a script.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// mutate breaks a text in one to three random ways.
func mutate(rng *rand.Rand, s string) string {
	b := []byte(s)
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			return string(b)
		}
		i := rng.IntN(len(b))
		switch rng.IntN(6) {
		case 0: // flip a byte to a character the formats use
			b[i] = "0123456789,;:[]()#-\n xXSRBWabz"[rng.IntN(30)]
		case 1: // cut
			b = b[:i]
		case 2: // drop a stretch
			j := min(len(b), i+1+rng.IntN(20))
			b = append(b[:i:i], b[j:]...)
		case 3: // repeat a stretch
			j := min(len(b), i+1+rng.IntN(40))
			b = append(b[:j:j], b[i:]...)
		case 4: // swap two lines
			lines := strings.Split(string(b), "\n")
			x, y := rng.IntN(len(lines)), rng.IntN(len(lines))
			lines[x], lines[y] = lines[y], lines[x]
			b = []byte(strings.Join(lines, "\n"))
		case 5: // a random byte
			b[i] = byte(rng.IntN(256))
		}
	}
	return string(b)
}
