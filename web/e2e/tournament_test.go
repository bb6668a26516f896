package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// report is the part of GET /api/tournaments/{name} the test reads.
type report struct {
	Finished  bool `json:"finished"`
	Games     int  `json:"games"`
	Standings []struct {
		Player string         `json:"player"`
		Games  int            `json:"games"`
		Faults map[string]int `json:"faults"`
	} `json:"standings"`
}

// TestTournamentStandings runs a small round robin through the API, one
// of whose bots crashes at once, and follows it in the page: standings
// with failure counts, crosstable, rating plot, and a game's replay.
func TestTournamentStandings(t *testing.T) {
	// Mostly waiting for bots: runs beside the other games.
	t.Parallel()
	srv := startServer(t, "--bot", "gomoku:b2=builtin", "--bot", "gomoku:crasher=false")
	const name = "e2e-cup"
	players := []string{"builtin", "b2", "crasher"}
	req := map[string]any{"name": name, "game": "gomoku", "bots": players, "format": "round-robin", "games": 2, "turn_time": "100ms"}
	status, body := srv.api(t, "POST", "/api/tournaments", req, "")
	wantError(t, "POST /api/tournaments without a token", status, body, http.StatusUnauthorized)
	status, body = srv.api(t, "POST", "/api/tournaments", req, srv.Token)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/tournaments: status %d: %s", status, body)
	}

	b := newBrowser(t, srv)
	b.open("#/tournaments")
	item := fmt.Sprintf("#tournament-list [data-name=%q]", name)
	b.waitFor(item, 10*time.Second)
	b.click(item)
	b.wait("the tournament page", "location.hash.startsWith("+jsString("#/tournament/"+name)+")", "location.hash", 5*time.Second)

	var rep report
	deadline := time.Now().Add(90 * time.Second)
	for {
		srv.getJSON(t, "/api/tournaments/"+name, &rep)
		if rep.Finished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish in 90 s: %+v", rep)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// 3 pairings of 2 games.
	if rep.Games != 6 || len(rep.Standings) != 3 {
		t.Fatalf("finished tournament: %d games, %d standings rows; want 6 and 3: %+v", rep.Games, len(rep.Standings), rep)
	}
	crashes := 0
	for _, r := range rep.Standings {
		if r.Player == "crasher" {
			crashes = r.Faults["crash"]
		}
	}
	if crashes == 0 {
		t.Errorf("the bot that exits at once has no crash in the standings: %+v", rep.Standings)
	}

	// The page refreshes itself while the tournament runs: it must come
	// to show the finished standings without a reload.
	for _, p := range players {
		row := fmt.Sprintf("#standings tr[data-player=%q]", p)
		b.waitFor(row, 20*time.Second)
		b.waitFor(fmt.Sprintf("#crosstable [data-player=%q]", p), 5*time.Second)
	}
	crashCell := `#standings tr[data-player="crasher"] [data-fault="crash"]`
	b.wait("the crash count", "(document.querySelector("+jsString(crashCell)+")||{}).textContent === "+jsString(strconv.Itoa(crashes)),
		"(document.querySelector("+jsString(crashCell)+")||{}).textContent", 20*time.Second)
	if n := eval[int](b, `document.querySelectorAll('#standings tbody tr[data-player]').length`); n != 3 {
		t.Errorf("#standings has %d player rows, want 3", n)
	}
	if tag := eval[string](b, `(document.querySelector('#rating-plot')||{}).tagName||''`); !strings.EqualFold(tag, "svg") {
		t.Errorf("#rating-plot is %q, want an svg", tag)
	}
	b.wait("the rating plot's lines", `document.querySelectorAll('#rating-plot polyline, #rating-plot path').length > 0`, `document.querySelector('#rating-plot').outerHTML`, 10*time.Second)

	// Every game links to its replay once the page has caught up with
	// the finished tournament.
	b.wait("links to the 6 games' replays", `new Set([...document.querySelectorAll('a[href^="#/replay/"]')].map(a => a.getAttribute('href'))).size === 6`,
		`[...document.querySelectorAll('a[href^="#/replay/"]')].map(a => a.getAttribute('href'))`, 20*time.Second)
	b.screenshot(t.Name() + "-standings")

	// Each game links to its replay: open one the two builtins played.
	var games []struct {
		ID    string `json:"id"`
		Moves int    `json:"moves"`
	}
	srv.getJSON(t, "/api/records?tournament="+name, &games)
	if len(games) != 6 {
		t.Fatalf("/api/records?tournament=%s lists %d games, want 6", name, len(games))
	}
	slices.SortFunc(games, func(a, b struct {
		ID    string `json:"id"`
		Moves int    `json:"moves"`
	}) int {
		return b.Moves - a.Moves
	})
	link := fmt.Sprintf(`a[href=%q]`, "#/replay/"+games[0].ID)
	b.waitFor(link, 5*time.Second)
	b.click(link)
	b.waitFor(`.board[data-game="gomoku"]`, 10*time.Second)
	b.control("last")
	b.waitPly("last", games[0].Moves)
}
