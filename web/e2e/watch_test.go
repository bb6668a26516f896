package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/game"
)

// liveGame is GET /api/live/{id}.
type liveGame struct {
	Header game.Record       `json:"header"`
	Moves  []game.MoveRecord `json:"moves"`
	Done   bool              `json:"done"`
	Record *game.Record      `json:"record"`
	// RawClocks is the clocks object as sent (to_move, left_ms, ...).
	RawClocks json.RawMessage `json:"clocks"`
}

// startMatch starts one game between registered bots through the API
// and returns its ID.
func startMatch(t *testing.T, srv *server, body map[string]any) string {
	t.Helper()
	status, resp := srv.api(t, "POST", "/api/matches", body, srv.Token)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/matches %v: status %d: %s", body, status, resp)
	}
	var created struct {
		IDs []string `json:"ids"`
	}
	if err := json.Unmarshal(resp, &created); err != nil || len(created.IDs) != 1 || created.IDs[0] == "" {
		t.Fatalf("POST /api/matches: want {\"ids\":[ID]}, got %s (%v)", resp, err)
	}
	return created.IDs[0]
}

// storedRecord waits until a game is stored and returns its record.
func storedRecord(t *testing.T, srv *server, id string, limit time.Duration) *game.Record {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		status, body := srv.api(t, "GET", "/api/records/"+id, nil, "")
		if status == http.StatusOK {
			var rec game.Record
			if err := json.Unmarshal(body, &rec); err != nil {
				t.Fatalf("GET /api/records/%s: %v", id, err)
			}
			return &rec
		}
		if status != http.StatusNotFound {
			t.Fatalf("GET /api/records/%s: status %d: %s", id, status, body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %s not stored after %v", id, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wantError checks an API refusal: its status and a one-line JSON error.
func wantError(t *testing.T, what string, status int, body []byte, want int) {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if status != want {
		t.Errorf("%s: status %d, want %d: %s", what, status, want, body)
		return
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" || strings.Contains(e.Error, "\n") {
		t.Errorf("%s: want {\"error\": \"one line\"}, got %s", what, body)
	}
}

// TestWatchLiveGomoku starts a bot-against-bot Gomoku game through the
// API, finds it in the page's live list, follows it move by move to its
// end and checks the board against the stored record.
func TestWatchLiveGomoku(t *testing.T) {
	// Mostly waiting for bots: runs beside the other games.
	t.Parallel()
	srv := startServer(t)
	match := map[string]any{"game": "gomoku", "bots": []string{"builtin", "builtin"}, "games": 1, "turn_time": "600ms"}

	// Only a holder of the token starts games, and only registered bots.
	status, body := srv.api(t, "POST", "/api/matches", match, "")
	wantError(t, "POST /api/matches without a token", status, body, http.StatusUnauthorized)
	status, body = srv.api(t, "POST", "/api/matches", match, srv.Token+"x")
	wantError(t, "POST /api/matches with a wrong token", status, body, http.StatusUnauthorized)
	evil := map[string]any{"game": "gomoku", "bots": []string{"sh -c 'touch " + srv.Dir + "/pwned'", "builtin"}}
	status, body = srv.api(t, "POST", "/api/matches", evil, srv.Token)
	wantError(t, "POST /api/matches with a command for a bot", status, body, http.StatusBadRequest)
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(srv.Dir + "/pwned"); err == nil {
		t.Fatal("a command sent as a bot's name ran")
	}
	var live []map[string]any
	srv.getJSON(t, "/api/live", &live)
	if len(live) != 0 {
		t.Fatalf("refused requests started games: /api/live = %v", live)
	}

	b := newBrowser(t, srv)
	b.open("#/")
	b.waitFor("#live-list", 10*time.Second)

	id := startMatch(t, srv, match)
	item := fmt.Sprintf("#live-list [data-id=%q]", id)
	b.waitFor(item, 10*time.Second)
	// The list item may be the link itself or hold one.
	if eval[bool](b, "!!document.querySelector("+jsString(item+" a[href]")+")") {
		item += " a[href]"
	}
	b.click(item)
	b.wait("the watch page", "location.hash.startsWith("+jsString("#/watch/"+id)+")", "location.hash", 5*time.Second)
	b.waitFor(`.board[data-game="gomoku"]`, 10*time.Second)
	b.waitFor("#clock-0", 5*time.Second)
	b.waitFor("#clock-1", 5*time.Second)

	// Follow the game: the board must move on while the game is still
	// running, i.e. it is fed live, not only drawn from the record.
	livePlies := map[int]bool{}
	var runningStatus string
	browsed := false
	deadline := time.Now().Add(60 * time.Second)
	for b.attr(".board", "data-over") != "1" {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in 60 s; the board shows ply %d", b.boardPly())
		}
		ply := b.boardPly()
		livePlies[ply] = true
		// Once the board has followed a few moves, go back in history.
		if !browsed && len(livePlies) >= 3 {
			browsed = true
			browseWhileLive(t, b, srv, id)
			continue
		}
		if s := b.text("#status"); runningStatus == "" && s != "" {
			runningStatus = s
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(livePlies) < 3 {
		t.Errorf("the board showed plies %v while the game ran: want it to follow the moves live", livePlies)
	}

	if !browsed {
		t.Error("the game ended before the test could go back in its history")
	}
	rec := storedRecord(t, srv, id, 10*time.Second)
	if got := b.boardPly(); got != len(rec.Moves) {
		t.Errorf("the finished board shows ply %d; the record has %d moves", got, len(rec.Moves))
	}
	if b.attr(".board", "data-game") != "gomoku" {
		t.Errorf("the board's game is %q", b.attr(".board", "data-game"))
	}
	end := b.text("#status")
	if strings.TrimSpace(end) == "" || end == runningStatus {
		t.Errorf("#status at the end is %q (while running %q): want the result", end, runningStatus)
	}
	t.Logf("game %s: %d moves, %s; status %q (while running %q)", id, len(rec.Moves), rec.Reason, end, runningStatus)

	// The game is in the live list as finished.
	srv.getJSON(t, "/api/live", &live)
	found := false
	for _, g := range live {
		if g["id"] == id {
			found = true
			if g["done"] != true {
				t.Errorf("/api/live lists the finished game as %v", g)
			}
		}
	}
	if !found {
		t.Errorf("/api/live lost the finished game: %v", live)
	}
}

// browseWhileLive goes back to the start of a running game: the board
// must stay there while moves come in, and the live button (or last,
// once the game is over) must bring it back to the newest position.
func browseWhileLive(t *testing.T, b *browser, srv *server, id string) {
	t.Helper()
	b.control("first")
	b.waitPly("first, while the game runs", 0)
	time.Sleep(700 * time.Millisecond) // a move or more
	if got := b.boardPly(); got != 0 {
		t.Errorf("the board left the position the user chose (0) for %d as moves came in", got)
	}
	liveBtn := `#replay-controls button[data-action="live"]`
	if eval[bool](b, "!!document.querySelector("+jsString(liveBtn)+") && !document.querySelector("+jsString(liveBtn)+").hidden") {
		b.click(liveBtn)
	} else {
		b.control("last")
	}
	var lg liveGame
	srv.getJSON(t, "/api/live/"+id, &lg)
	b.wait("the board back at the live position", "+document.querySelector('.board').dataset.ply >= "+strconv.Itoa(len(lg.Moves)),
		"document.querySelector('.board').dataset.ply", 5*time.Second)
}
