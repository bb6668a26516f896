package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/game/khet"
)

// gomokuLabel is how the page names a Gomoku point: the column's letter
// (A, B, ... Z, AA ...) and the row counted from the bottom, as players
// write moves; the protocol's y counts from the top.
func gomokuLabel(x, y, height int) string {
	col := string(rune('A' + x%26))
	if x >= 26 {
		col = string(rune('A'+x/26-1)) + col
	}
	return col + strconv.Itoa(height-y)
}

// gomokuSize reads a Gomoku header's board size.
func gomokuSize(t *testing.T, options json.RawMessage) (width, height int) {
	t.Helper()
	var o struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	}
	if err := json.Unmarshal(options, &o); err != nil || o.Width <= 0 {
		t.Fatalf("gomoku options %s: no board size (%v)", options, err)
	}
	if o.Height <= 0 {
		o.Height = o.Width
	}
	return o.Width, o.Height
}

// boardLabel is the label the Gomoku board draws for the point (x, y):
// its column's text and its row's.
func (b *browser) boardLabel(x, y int) string {
	b.t.Helper()
	return b.text(fmt.Sprintf(`.board .coord [data-col="%d"]`, x)) + b.text(fmt.Sprintf(`.board .coord [data-row="%d"]`, y))
}

// TestPlayGomokuMessageClockAndLabels plays a few moves of Gomoku against
// a bot on a quicker clock of its own. The bot's clock shows its time a
// move while the person thinks (not "–"); a click on a taken point says
// so by the board's own label, and the message goes as soon as the next
// move is played; the move list names the moves as the board labels them.
func TestPlayGomokuMessageClockAndLabels(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := newBrowser(t, srv)
	id := startPlay(t, b, "gomoku", "builtin", "0", "60s", "bot_time", "300ms")

	// Black (the person) is to move first: White, the bot, waits and
	// shows the 300 ms a move it plays on.
	b.wait("the bot's clock to show its time a move", `document.querySelector('#clock-1').textContent === '0.3s'`,
		`[document.querySelector('#clock-1').textContent, document.querySelector('#clock-0').textContent]`, 10*time.Second)
	if c := b.attr("#clock-1", "class"); !strings.Contains(c, "per-move") {
		t.Errorf("the bot's clock has classes %q, want per-move", c)
	}

	// Click once the server waits for the move (a click before is
	// refused: the bot may still be starting).
	awaitTurn(t, srv, id, time.Now().Add(30*time.Second), 0, func(g liveGame) bool { return seatWaiting(t, g, 0) })
	b.waitPly("the empty board", 0)
	b.click(`.board [data-move="7,7"]`)
	b.waitPlayed("the first move", id, 0)
	var lg liveGame
	awaitTurn(t, srv, id, time.Now().Add(30*time.Second), 1, func(g liveGame) bool {
		lg = g
		return len(g.Moves) >= 2 && seatWaiting(t, g, 0)
	})
	if lg.Done {
		t.Fatalf("the game ended after %d moves: %s", len(lg.Moves), describeLive(lg))
	}
	b.waitPly("the bot's answer", 2)
	_, height := gomokuSize(t, lg.Header.Options)

	// A taken point: refused here, named as the board labels it.
	want := gomokuLabel(7, 7, height)
	if got := b.boardLabel(7, 7); got != want {
		t.Errorf("the board labels the point 7,7 %q, want %q", got, want)
	}
	b.click(`.board [data-move="7,7"]`)
	b.expectRefused("the taken point 7,7")
	if msg := b.text("#message"); !strings.Contains(msg, want+" is taken") {
		t.Errorf("#message after a click on the taken point 7,7 is %q, want it to say %q", msg, want+" is taken")
	}

	// The next move played takes the message away with it: by the time
	// the board shows the move, the message is gone.
	taken := map[string]bool{}
	for _, m := range lg.Moves {
		taken[m.Move] = true
	}
	free := "0,0"
	for x := 0; taken[free]; x++ {
		free = fmt.Sprintf("%d,0", x)
	}
	b.click(fmt.Sprintf(`.board [data-move=%q]`, free))
	b.wait("our move on the board", "+document.querySelector('.board').dataset.ply >= 3", "document.querySelector('.board').dataset.ply", 10*time.Second)
	if msg := b.text("#message"); msg != "" {
		t.Errorf("#message still says %q once the next move is on the board", msg)
	}

	// The move list names each move by the board's labels; the protocol's
	// text stays in its title.
	for i, m := range lg.Moves[:2] {
		var x, y int
		if _, err := fmt.Sscanf(m.Move, "%d,%d", &x, &y); err != nil {
			t.Fatalf("move %d %q: %v", i+1, m.Move, err)
		}
		item := fmt.Sprintf(`.move-list li[data-ply="%d"]`, i+1)
		if got, want := b.text(item+" .mv"), gomokuLabel(x, y, height); got != want {
			t.Errorf("move %d (%s) is listed as %q, want %q", i+1, m.Move, got, want)
		}
		if got, want := b.text(item+" .mv"), b.boardLabel(x, y); got != want {
			t.Errorf("move %d (%s) is listed as %q; the board labels its point %q", i+1, m.Move, got, want)
		}
		if title := b.attr(item, "title"); !strings.Contains(title, m.Move) {
			t.Errorf("move %d's title %q does not give its protocol text %q", i+1, title, m.Move)
		}
	}

	// Resigning (asked twice) ends the game and its bot.
	b.click(`[data-action="resign"]`)
	b.click(`[data-action="resign"]`)
	storedRecord(t, srv, id, 10*time.Second)
}

// seatWaiting reports whether the live game waits for the person on side.
func seatWaiting(t *testing.T, lg liveGame, side int) bool {
	t.Helper()
	var c struct {
		Seats []*struct {
			Waiting bool `json:"waiting"`
		} `json:"seats"`
	}
	if err := json.Unmarshal(lg.RawClocks, &c); err != nil {
		t.Fatalf("live clocks %s: %v", lg.RawClocks, err)
	}
	return side < len(c.Seats) && c.Seats[side] != nil && c.Seats[side].Waiting
}

// TestReplayOfRunningGame opens the replay of a game still being played:
// the page says so, without an error, and links to the game live: the
// watch page for a visitor, the board for the person playing it.
func TestReplayOfRunningGame(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	// A person's game in which the person does not move: it runs until
	// its minute a move is up, longer than the test.
	player := newBrowser(t, srv)
	id := startPlay(t, player, "gomoku", "builtin", "0", "60s")
	visitor := newBrowser(t, srv)

	for _, tc := range []struct {
		who  string
		b    *browser
		link string
	}{
		{"a visitor", visitor, "#/watch/" + id},
		{"the person playing", player, "#/play/" + id},
	} {
		b := tc.b
		b.open("#/replay/" + id)
		b.waitFor("#watch-live", 10*time.Second)
		if b.text(".error-card") != "" || strings.Contains(b.text("#app"), "Something went wrong") {
			t.Errorf("%s: the replay of a running game shows an error: %q", tc.who, b.text("#app"))
		}
		if href := b.attr("#watch-live", "href"); href != tc.link {
			t.Errorf("%s: the link to the live game is %q, want %s", tc.who, href, tc.link)
		}
		b.click("#watch-live")
		b.wait("the live game", "location.hash === "+jsString(tc.link), "location.hash", 5*time.Second)
		b.waitFor(`.board[data-game="gomoku"]`, 10*time.Second)
	}
	visitor.waitFor(".page-head .badge.live", 10*time.Second)
	// The person is back at the board and may play (or resign) on.
	player.wait("the person's move", "document.querySelector('#status').textContent.startsWith('Your move')", "document.querySelector('#status').textContent", 10*time.Second)
	player.click(`[data-action="resign"]`)
	player.click(`[data-action="resign"]`)
	storedRecord(t, srv, id, 10*time.Second)
}

// TestFinishedGameLeavesLiveList follows a bot game on the home page: it
// is under "Live games" while it runs, and once it ends it leaves that
// list for "Recent games" without a reload.
func TestFinishedGameLeavesLiveList(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--options", "gomoku:--size 10")
	b := newBrowser(t, srv)
	b.open("#/")
	b.waitFor("#live-list", 10*time.Second)
	id := startMatch(t, srv, map[string]any{"game": "gomoku", "bots": []string{"builtin", "builtin"}, "games": 1, "turn_time": "100ms"})
	live := fmt.Sprintf("#live-list [data-id=%q]", id)
	recent := fmt.Sprintf("#records-list [data-id=%q]", id)
	b.waitFor(live, 10*time.Second)
	storedRecord(t, srv, id, 60*time.Second)
	b.wait("the finished game to move from Live to Recent games",
		"!document.querySelector("+jsString(live)+") && !!document.querySelector("+jsString(recent)+")",
		"[!!document.querySelector("+jsString(live)+"), !!document.querySelector("+jsString(recent)+")]", 10*time.Second)
	if href := b.attr(recent, "href"); href != "#/replay/"+id {
		t.Errorf("the finished game links to %q, want its replay #/replay/%s", href, id)
	}
}

// TestAntsLiveBadgeGoes watches an Ants game: its "live" badge goes when
// it ends, and a game that has ended shows none when watched again.
func TestAntsLiveBadgeGoes(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--options", "ants:--turns 30")
	b := newBrowser(t, srv)
	id := startMatch(t, srv, map[string]any{"game": "ants", "bots": []string{"builtin", "builtin"}, "games": 1, "turn_time": "100ms"})
	b.open("#/watch/" + id)
	b.waitFor(`.board[data-game="ants"]`, 20*time.Second)
	b.wait("the end on the board", "document.querySelector('.board').dataset.over === '1'", "document.querySelector('.board').dataset.ply", 60*time.Second)
	badge := "!!document.querySelector('.page-head .badge.live')"
	// The page head is filled in with the first update; give it that.
	b.waitFor(".page-head .game-title", 5*time.Second)
	if eval[bool](b, badge) {
		t.Error("the ended Ants game still has its live badge")
	}
	storedRecord(t, srv, id, 20*time.Second)

	// Watched again once over (it is still among the server's live games).
	b.open("#/")
	b.waitFor("#live-list", 5*time.Second)
	b.open("#/watch/" + id)
	b.waitFor(`.board[data-game="ants"][data-over="1"]`, 20*time.Second)
	b.waitFor(".page-head .game-title", 5*time.Second)
	if eval[bool](b, badge) {
		t.Error("an Ants game watched after its end has a live badge")
	}
}

// TestTournamentListsLayout runs a one-game tournament and checks its
// lists: only the winner's name is bold (never the "vs" beside it), and
// no date is cut off.
func TestTournamentListsLayout(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--bot", "gomoku:crasher=false")
	const name = "a-tournament-with-a-long-name"
	// The crasher named first: the winner, builtin, comes after the "vs".
	req := map[string]any{"name": name, "game": "gomoku", "bots": []string{"crasher", "builtin"}, "format": "round-robin", "games": 1, "turn_time": "100ms"}
	if status, body := srv.api(t, "POST", "/api/tournaments", req, srv.Token); status != http.StatusCreated {
		t.Fatalf("POST /api/tournaments: status %d: %s", status, body)
	}
	deadline := time.Now().Add(60 * time.Second)
	for rep := (report{}); !rep.Finished; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish in 60 s: %+v", rep)
		}
		srv.getJSON(t, "/api/tournaments/"+name, &rep)
	}

	b := newBrowser(t, srv)
	// cut lists the elements under sel whose text does not fit.
	cut := func(sel string) []string {
		return eval[[]string](b, `[...document.querySelectorAll(`+jsString(sel)+`)].filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)`)
	}
	b.open("#/tournaments")
	row := fmt.Sprintf("#tournament-list [data-name=%q]", name)
	b.waitFor(row, 10*time.Second)
	if d := b.text(row + " .when"); strings.TrimSpace(d) == "" {
		t.Errorf("the tournament's row shows no date")
	}
	if c := cut("#tournament-list .when, #tournament-list .when > *, #tournament-list .moves"); len(c) > 0 {
		t.Errorf("the tournaments list cuts off %q", c)
	}

	b.open("#/tournament/" + name)
	b.waitFor("#tournament-games .row", 10*time.Second)
	winners := eval[[]string](b, `[...document.querySelectorAll('#tournament-games .winner')].map(e => e.textContent)`)
	if len(winners) != 1 || winners[0] != "builtin" {
		t.Errorf("the games list makes %q bold, want only the winner's name \"builtin\"", winners)
	}
	if bold := eval[[]string](b, `[...document.querySelectorAll('#tournament-games .row *')].filter(e => e.textContent.includes('vs') && getComputedStyle(e).fontWeight >= 600).map(e => e.outerHTML)`); len(bold) > 0 {
		t.Errorf("\"vs\" is bold in %q", bold)
	}

	// The home page's recent games name the tournament and the date on
	// lines of their own, neither cut off.
	b.open("#/")
	b.waitFor("#records-list .row .when .date", 10*time.Second)
	if got := b.text("#records-list .row .when .tour"); got != name {
		t.Errorf("the tournament game names its tournament %q, want %q", got, name)
	}
	if c := cut("#records-list .when, #records-list .when .date"); len(c) > 0 {
		t.Errorf("the recent games list cuts off the dates %q", c)
	}
}

// TestKhetMoveWords: the Khet view says every form of move in words
// (a table run through the page's own module), and a replay lists each
// move as the protocol writes it and in words.
func TestKhetMoveWords(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--bot", "khet:quick=builtin --depth 2", "--options", "khet:--max-plies 12")
	b := newBrowser(t, srv)
	b.open("#/")
	b.waitFor("#live-list", 10*time.Second)

	// On the classic setup.
	tests := []struct {
		move, want string
	}{
		{"S23C", "Silver 2,3 rotates clockwise"},
		{"R53c", "Red 5,3 rotates counter-clockwise"},
		{"S97c", "Silver 9,7 rotates counter-clockwise"}, // the Sphinx
		{"S271", "Silver 2,7 moves to 2,6"},
		{"R433", "Red 4,3 moves to 3,3"},
		{"S548", "Silver 5,4 swaps with the red pyramid on 6,5"},
		{"S534", ""}, // its own square: no move
		{"S5", ""},
	}
	for _, tc := range tests {
		got := eval[string](b, `import('/static/games/khet.js').then(m => {
			const st = m.parseState(`+jsString(khetClassic)+`);
			return m.moveWords(st.board, `+jsString(tc.move)+`) || '';
		})`)
		if got != tc.want {
			t.Errorf("%s in words: %q, want %q", tc.move, got, tc.want)
		}
	}

	id := startMatch(t, srv, map[string]any{"game": "khet", "bots": []string{"quick", "quick"}, "games": 1})
	rec := storedRecord(t, srv, id, 60*time.Second)
	if len(rec.Moves) == 0 {
		t.Fatalf("the Khet game has no moves: %s %s", rec.Reason, rec.Detail)
	}
	b.open("#/replay/" + id)
	b.waitFor(`.board[data-game="khet"]`, 10*time.Second)
	var opts khet.Options
	if err := json.Unmarshal(rec.Options, &opts); err != nil {
		t.Fatalf("the record's options %s: %v", rec.Options, err)
	}
	st, err := khet.NewState(opts.Config())
	if err != nil {
		t.Fatalf("the record's options %s: %v", rec.Options, err)
	}
	for i, m := range rec.Moves {
		want := khetWords(t, st, m.Move)
		item := fmt.Sprintf(`.move-list li[data-ply="%d"]`, i+1)
		if got := b.text(item + " .mv"); got != m.Move {
			t.Errorf("move %d is listed as %q, want its protocol text %q", i+1, got, m.Move)
		}
		if got := b.text(item + " .words"); got != want {
			t.Errorf("move %d %s is listed in words as %q, want %q", i+1, m.Move, got, want)
		}
		mv, err := khet.ParseMove(m.Move)
		if err == nil {
			_, err = st.Play(mv)
		}
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, m.Move, err)
		}
	}
	t.Logf("game %s: %d moves, %s; move 1 %s", id, len(rec.Moves), rec.Reason, b.text(`.move-list li[data-ply="1"]`))
	// The caption under the board says the shown move in words too.
	b.control("first")
	b.control("next")
	b.waitPly("the first move", 1)
	first := rec.Moves[0].Move + ": " + b.text(`.move-list li[data-ply="1"] .words`)
	if got := b.text(".khet-caption"); !strings.Contains(got, first) {
		t.Errorf("the caption of move 1 is %q, want it to say %q", got, first)
	}
}

// khetClassic is the classic setup as a state string (game/khet's).
const khetClassic = "- - 0 26 R00X2 R40A2 R50P2 R60A2 R70Y1 R21Y2 S32Y3 R03Y0 S23Y2 R43C0 R53C1 R73Y1 S93Y3 R04Y1 S24Y3 S44C3 S54C2 R74Y0 S94Y2 R65Y1 S76Y0 S27Y3 S37A0 S47P0 S57A0 S97X0"

// khetWords is the test's own reading of a legal move in words, on the
// position st before it: who moves, and where or how.
func khetWords(t *testing.T, st *khet.State, text string) string {
	t.Helper()
	mv, err := khet.ParseMove(text)
	if err != nil {
		t.Fatalf("move %q: %v", text, err)
	}
	who := fmt.Sprintf("%s %d,%d", map[khet.Color]string{khet.Silver: "Silver", khet.Red: "Red"}[mv.Color], mv.X, mv.Y)
	switch mv.Act {
	case khet.RotateCW:
		return who + " rotates clockwise"
	case khet.RotateCCW:
		return who + " rotates counter-clockwise"
	}
	dx, dy, ok := mv.Act.Step()
	if !ok {
		t.Fatalf("move %q is neither a rotation nor a step", text)
	}
	x, y := int(mv.X)+dx, int(mv.Y)+dy
	if p := st.Board().At(x, y); p.IsPiece() {
		kind := map[khet.Kind]string{khet.Pharaoh: "pharaoh", khet.Scarab: "scarab", khet.Anubis: "anubis", khet.Pyramid: "pyramid", khet.Sphinx: "sphinx"}[p.Kind()]
		return fmt.Sprintf("%s swaps with the %s %s on %d,%d", who, p.Color(), kind, x, y)
	}
	return fmt.Sprintf("%s moves to %d,%d", who, x, y)
}
