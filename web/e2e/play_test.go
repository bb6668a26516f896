package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arena/game"
	"arena/game/khet"
	"arena/game/points"
)

// pointsServeArgs are the server options that make a game of Points short
// enough to play to its end by clicking: a small field.
var pointsServeArgs = []string{"--options", "points:--size 7x7"}

// setInput types a value into a form field as a person would.
func (b *browser) setInput(sel, value string) {
	b.t.Helper()
	ok := eval[bool](b, `(() => {
		const f = document.querySelector(`+jsString(sel)+`);
		if (!f) return false;
		f.value = `+jsString(value)+`;
		f.dispatchEvent(new Event('input', {bubbles: true}));
		f.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`)
	if !ok {
		b.t.Fatalf("no field %s", sel)
	}
}

// pointsPosition re-plays a live game of Points (header and moves) on the
// referee; it also checks that every live move's effect is the one the
// rules give.
func pointsPosition(t *testing.T, lg liveGame) *points.State {
	t.Helper()
	rec := lg.Header
	rec.Moves = lg.Moves
	if len(rec.Opening) == 0 {
		// The header may leave the opening to the options.
		var o points.Options
		if err := json.Unmarshal(rec.Options, &o); err != nil {
			t.Fatalf("live header options %s: %v", rec.Options, err)
		}
		pts, err := o.Opening.Points(o.Width, o.Height, rec.Seed)
		if err != nil {
			t.Fatalf("opening of %s: %v", rec.Options, err)
		}
		for _, p := range pts {
			rec.Opening = append(rec.Opening, p.String())
		}
	}
	st, err := points.Replay(&rec, nil)
	if err != nil {
		t.Fatalf("the live game does not replay: %v", err)
	}
	return st
}

// TestPlayPointsByClicking plays a whole game of Points against the
// built-in bot by clicking the board: the moves are chosen in Go from the
// live game's JSON and the referee, and one click on a taken point must be
// refused with a message.
func TestPlayPointsByClicking(t *testing.T) {
	// Mostly waiting for bots: runs beside the other games.
	t.Parallel()
	srv := startServer(t, pointsServeArgs...)
	b := newBrowser(t, srv)
	// The person's clock is ample for the clicks on a busy machine. The
	// bot gets 300 ms a move from the form's "bot's time": on the game's
	// own clock (10 s added a move) it would think about 7 s a move, and
	// the game would not end in time.
	id := startPlay(t, b, "points", "builtin", "0", "10s", "bot_time", "300ms")
	const me = 0

	rng := rand.New(rand.NewPCG(1, 2))
	refused := false
	clicks := 0
	deadline := time.Now().Add(90 * time.Second)
	for {
		var st *points.State
		lg, ok := awaitTurn(t, srv, id, deadline, clicks, func(lg liveGame) bool {
			st = pointsPosition(t, lg)
			// Its seat waiting: a click before the server asks is refused.
			return !st.Over() && st.ToMove().Side() == me && seatWaiting(t, lg, me)
		})
		if !ok {
			break
		}
		// Click only once the board shows the position the move is for.
		b.waitPly("our turn", len(lg.Moves))
		f := st.Field()
		if !refused {
			// A dot of the opening is taken: the click must be refused,
			// with a message, and the game must go on.
			taken := points.Point{}
			for y := 0; y < f.Height(); y++ {
				for x := 0; x < f.Width(); x++ {
					if p := (points.Point{X: x, Y: y}); f.DotAt(p) != points.None {
						taken = p
					}
				}
			}
			b.click(fmt.Sprintf(`.board [data-move="%d,%d"]`, taken.X, taken.Y))
			b.expectRefused(fmt.Sprintf("the taken point %v", taken))
			var again liveGame
			srv.getJSON(t, "/api/live/"+id, &again)
			if len(again.Moves) != len(lg.Moves) || again.Done {
				t.Fatalf("a click on the taken point %v changed the game: %d moves then %d (done %v)", taken, len(lg.Moves), len(again.Moves), again.Done)
			}
			refused = true
		}
		var free []points.Point
		for y := 0; y < f.Height(); y++ {
			for x := 0; x < f.Width(); x++ {
				if p := (points.Point{X: x, Y: y}); f.Check(p) == nil {
					free = append(free, p)
				}
			}
		}
		if len(free) == 0 {
			t.Fatalf("no legal point, yet the game is not over after %d moves", len(lg.Moves))
		}
		p := free[rng.IntN(len(free))]
		b.click(fmt.Sprintf(`.board [data-move="%d,%d"]`, p.X, p.Y))
		clicks++
		// The click is our move once the server has it.
		b.waitPlayed("the move", id, len(lg.Moves))
	}

	rec := storedRecord(t, srv, id, 10*time.Second)
	b.wait("the end on the board", "document.querySelector('.board').dataset.over === '1'", "document.querySelector('.board').dataset.over", 10*time.Second)
	if got := b.boardPly(); got != len(rec.Moves) {
		t.Errorf("the finished board shows ply %d; the record has %d moves", got, len(rec.Moves))
	}
	if bot := rec.Players[rec.Seats[1-me]]; bot.TurnMs != 300 {
		t.Errorf("the bot played on %d ms a move, want the 300 ms the form asked for", bot.TurnMs)
	}
	mine := 0
	for _, m := range rec.Moves {
		if m.Side == me {
			mine++
		}
	}
	if mine != clicks {
		t.Errorf("the record has %d moves of ours; we clicked %d legal points", mine, clicks)
	}
	if rec.Reason == game.ReasonTimeout || rec.Reason == game.ReasonResign {
		t.Errorf("the game ended by %s: %s", rec.Reason, rec.Detail)
	}
	status := b.text("#status")
	if strings.TrimSpace(status) == "" {
		t.Error("#status is empty at the end")
	}
	t.Logf("game %s: %d moves (%d clicks), %s %s, scores %v; status %q", id, len(rec.Moves), clicks, rec.Reason, rec.Detail, rec.Scores, status)
}

// startPlay fills in the page's new-game form against a registered bot
// (and the further inputs fields names, in name, value pairs) and returns
// the ID of the game it opens.
func startPlay(t *testing.T, b *browser, gameName, opponent, side, turnTime string, fields ...string) string {
	t.Helper()
	b.open("#/play")
	b.waitFor("#play-form", 10*time.Second)
	b.choose(`#play-form select[name="game"]`, gameName)
	b.choose(`#play-form select[name="opponent"]`, opponent)
	b.choose(`#play-form select[name="side"]`, side)
	b.setInput(`#play-form input[name="turn_time"]`, turnTime)
	for i := 0; i+1 < len(fields); i += 2 {
		b.setInput(fmt.Sprintf(`#play-form input[name=%q]`, fields[i]), fields[i+1])
	}
	b.click(`#play-form button[type="submit"]`)
	b.wait("the game page", "location.hash.startsWith('#/play/')", "[location.hash, (document.querySelector('#message')||{}).textContent]", 10*time.Second)
	b.waitFor(fmt.Sprintf(`.board[data-game=%q]`, gameName), 10*time.Second)
	return b.playID()
}

// playID returns the ID of the game the page plays (#/play/ID?...).
func (b *browser) playID() string {
	b.t.Helper()
	u, err := url.Parse("http://x/" + strings.TrimPrefix(eval[string](b, "location.hash"), "#/"))
	if err != nil || !strings.HasPrefix(u.Path, "/play/") {
		b.t.Fatalf("the page is not a game's: %q (%v)", eval[string](b, "location.hash"), err)
	}
	return strings.TrimPrefix(u.Path, "/play/")
}

// awaitTurn polls the live game id until mine says the person is to move
// and returns it, or returns false once the game is over. It fails the
// test if the game has not ended by deadline (clicks says how far the
// test got).
func awaitTurn(t *testing.T, srv *server, id string, deadline time.Time, clicks int, mine func(liveGame) bool) (liveGame, bool) {
	t.Helper()
	for {
		var lg liveGame
		srv.getJSON(t, "/api/live/"+id, &lg)
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in time (%d moves clicked); it stands at %s", clicks, describeLive(lg))
		}
		if lg.Done {
			return lg, false
		}
		if mine(lg) {
			return lg, true
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// expectRefused checks that the click just made on what was refused with
// a message in #message.
func (b *browser) expectRefused(what string) {
	b.t.Helper()
	if b.poll("(document.querySelector('#message')||{}).textContent.trim() !== ''", 3*time.Second) {
		b.t.Logf("click on %s refused: %q", what, b.text("#message"))
	} else {
		b.t.Errorf("a click on %s showed no message in #message", what)
	}
}

// waitPlayed waits until the server's game id has more than n moves (or
// is over): the click was a move.
func (b *browser) waitPlayed(what, id string, n int) {
	b.t.Helper()
	b.wait(what+" to be played", fmt.Sprintf(`fetch('/api/live/%s').then(r => r.json()).then(g => g.moves.length > %d || g.done)`, id, n),
		"(document.querySelector('#message')||{}).textContent", 10*time.Second)
}

// khetPosition re-plays a live game of Khet on the referee.
func khetPosition(t *testing.T, lg liveGame) *khet.State {
	t.Helper()
	var o khet.Options
	if err := json.Unmarshal(lg.Header.Options, &o); err != nil {
		t.Fatalf("live header options %s: %v", lg.Header.Options, err)
	}
	st, err := khet.NewState(o.Config())
	if err != nil {
		t.Fatalf("live header options %s: %v", lg.Header.Options, err)
	}
	for i, m := range lg.Moves {
		mv, err := khet.ParseMove(m.Move)
		if err == nil {
			_, err = st.Play(mv)
		}
		if err != nil {
			t.Fatalf("live move %d %q: %v", i+1, m.Move, err)
		}
	}
	return st
}

// TestPlayKhetByClicking plays Red against the built-in bot (at depth 3) by
// clicking a piece, then its target square or a rotate button, with moves
// chosen at random among the legal ones until a Pharaoh falls (or the
// game ends otherwise); a click on an empty square first must be refused
// with a message.
func TestPlayKhetByClicking(t *testing.T) {
	t.Parallel()
	// Against a person a bot keeps the game's own clock (10 s a move for
	// Khet): the built-in bot limited in depth answers at once.
	srv := startServer(t, "--bot", "khet:quick=builtin --depth 3")
	b := newBrowser(t, srv)
	// Playing Red, the person sees the board from Red's side (turned half
	// round); after the first move the flip button turns it back, so
	// clicks are checked in both orientations.
	id := startPlay(t, b, "khet", "quick", "1", "10s")
	const me = khet.Red
	b.wait("the board seen from Red's seat", "document.querySelector('.board').dataset.flipped === '1'", "document.querySelector('.board').dataset.flipped", 5*time.Second)

	rng := rand.New(rand.NewPCG(3, 4))
	refused := false
	clicks := 0
	deadline := time.Now().Add(90 * time.Second)
	for {
		var st *khet.State
		lg, ok := awaitTurn(t, srv, id, deadline, clicks, func(lg liveGame) bool {
			st = khetPosition(t, lg)
			return !st.Over() && st.ToMove() == me && seatWaiting(t, lg, int(me))
		})
		if !ok {
			break
		}
		b.waitPly("our turn", len(lg.Moves))
		board := st.Board()
		if !refused {
			empty := [2]int{-1, -1}
			for y := 0; y < 8 && empty[0] < 0; y++ {
				for x := 0; x < 10; x++ {
					if board.At(x, y) == 0 {
						empty = [2]int{x, y}
						break
					}
				}
			}
			b.click(fmt.Sprintf(`.board [data-square="%d,%d"]`, empty[0], empty[1]))
			b.expectRefused(fmt.Sprintf("the empty square %v", empty))
			refused = true
		}
		moves := board.Moves(nil)
		if len(moves) == 0 {
			t.Fatalf("no legal move, yet the game is not over after %d moves", len(lg.Moves))
		}
		// Turns and steps in turn, so that both ways of clicking a move
		// are used, never one that shoots our own Pharaoh.
		var pick []khet.Move
		for _, m := range moves {
			rotate := m.Act == khet.RotateCW || m.Act == khet.RotateCCW
			after := board.Clone()
			after.Make(m)
			if rotate == (clicks%2 == 0) && after.PharaohAlive(me) {
				pick = append(pick, m)
			}
		}
		if len(pick) == 0 {
			pick = moves
		}
		m := pick[rng.IntN(len(pick))]
		if clicks == 1 {
			b.click("#flip-board")
			if got := b.attr(".board", "data-flipped"); got != "0" {
				t.Fatalf("after the flip button the board's data-flipped is %q, want 0", got)
			}
		}
		b.click(fmt.Sprintf(`.board [data-square="%d,%d"]`, m.X, m.Y))
		switch m.Act {
		case khet.RotateCW:
			b.click(`[data-action="rotate-cw"]`)
		case khet.RotateCCW:
			b.click(`[data-action="rotate-ccw"]`)
		default:
			dx, dy, _ := m.Act.Step()
			b.click(fmt.Sprintf(`.board [data-square="%d,%d"]`, int(m.X)+dx, int(m.Y)+dy))
		}
		clicks++
		b.waitPlayed("the move "+m.String(), id, len(lg.Moves))
		var after liveGame
		srv.getJSON(t, "/api/live/"+id, &after)
		if len(after.Moves) > len(lg.Moves) && after.Moves[len(lg.Moves)].Move != m.String() {
			t.Fatalf("we clicked %s; the game got %s", m, after.Moves[len(lg.Moves)].Move)
		}
	}

	rec := storedRecord(t, srv, id, 10*time.Second)
	b.wait("the end on the board", "document.querySelector('.board').dataset.over === '1'", "document.querySelector('.board').dataset.over", 10*time.Second)
	if got := b.boardPly(); got != len(rec.Moves) {
		t.Errorf("the finished board shows ply %d; the record has %d moves", got, len(rec.Moves))
	}
	if rec.Reason == game.ReasonTimeout || rec.Reason == game.ReasonResign || rec.Reason == game.ReasonIllegal {
		t.Errorf("the game ended by %s: %s", rec.Reason, rec.Detail)
	}
	status := b.text("#status")
	if strings.TrimSpace(status) == "" {
		t.Error("#status is empty at the end")
	}
	t.Logf("game %s: %d plies (%d clicked), %s %s; status %q", id, len(rec.Moves), clicks, rec.Reason, rec.Detail, status)

	// A rematch: the same bot and clocks, colours swapped, so the person
	// now plays Silver and sees the board the usual way round.
	b.click(`[data-action="rematch"]`)
	b.wait("the rematch with the person as Silver", `(document.querySelector('.player[data-side="0"] .pname')||{}).textContent === 'person'`,
		`[location.hash, (document.querySelector('#message')||{}).textContent]`, 10*time.Second)
	again := b.playID()
	if again == id {
		t.Fatalf("the rematch page shows the old game %s", id)
	}
	if got := b.attr(".board", "data-flipped"); got != "0" {
		t.Errorf("playing Silver the board's data-flipped is %q, want 0", got)
	}
	b.click(`[data-action="resign"]`)
	b.click(`[data-action="resign"]`)
	if rec := storedRecord(t, srv, again, 10*time.Second); rec.Reason != game.ReasonResign || rec.Players[rec.FirstPlayer()].Name != "person" {
		t.Errorf("the rematch ended %s with %q moving first, want the person (Silver) resigning", rec.Reason, rec.Players[rec.FirstPlayer()].Name)
	}
}

// TestPlayRemoteTwoBrowsers plays Points between two people in two
// browsers: the first starts the game and shows an invite link, the
// second opens it. Each moves only its own seat: a click out of turn
// plays nothing. After a few moves the second resigns and both pages
// show the end.
func TestPlayRemoteTwoBrowsers(t *testing.T) {
	t.Parallel()
	srv := startServer(t, pointsServeArgs...)
	red := newBrowser(t, srv)
	red.open("#/play")
	red.waitFor("#play-form", 10*time.Second)
	red.choose(`#play-form select[name="game"]`, "points")
	red.choose(`#play-form select[name="opponent"]`, "remote")
	red.choose(`#play-form select[name="side"]`, "0")
	red.setInput(`#play-form input[name="turn_time"]`, "30s")
	red.click(`#play-form button[type="submit"]`)
	red.waitFor("input.invite", 10*time.Second)
	invite := eval[string](red, "document.querySelector('input.invite').value")
	u, err := url.Parse(invite)
	if err != nil || !strings.HasPrefix(u.Fragment, "/play/") {
		t.Fatalf("invite link %q: want %s/#/play/ID?seat=TOKEN (%v)", invite, srv.URL, err)
	}
	id, _, _ := strings.Cut(strings.TrimPrefix(u.Fragment, "/play/"), "?")
	blue := newBrowser(t, srv)
	blue.open("#" + u.Fragment)
	blue.waitFor(`.board[data-game="points"]`, 10*time.Second)
	red.waitFor(`.board[data-game="points"]`, 10*time.Second)

	players := map[points.Color]*browser{points.Red: red, points.Blue: blue}
	rng := rand.New(rand.NewPCG(5, 6))
	// An odd number: blue is to move when it resigns.
	const plies = 5
	for ply := 0; ply < plies; ply++ {
		var lg liveGame
		srv.getJSON(t, "/api/live/"+id, &lg)
		st := pointsPosition(t, lg)
		if lg.Done || st.Over() {
			t.Fatalf("the game ended after %d moves: %s (record %+v)", len(lg.Moves), describeLive(lg), lg.Record)
		}
		mover, other := players[st.ToMove()], players[st.ToMove().Opp()]
		mover.waitPly("the mover's board", len(lg.Moves))
		other.waitPly("the other board", len(lg.Moves))
		var free []points.Point
		f := st.Field()
		for y := 0; y < f.Height(); y++ {
			for x := 0; x < f.Width(); x++ {
				if p := (points.Point{X: x, Y: y}); f.Check(p) == nil {
					free = append(free, p)
				}
			}
		}
		p := free[rng.IntN(len(free))]
		if ply == 2 {
			// A reload keeps the seat (the page keeps it for the tab).
			red.do("reload", chromedp.Reload())
			red.waitFor(`.board[data-game="points"]`, 10*time.Second)
			red.waitPly("the board after a reload", len(lg.Moves))
		}
		if ply == 1 {
			// Out of turn: the other browser holds no seat that moves now.
			other.click(fmt.Sprintf(`.board [data-move="%d,%d"]`, p.X, p.Y))
			time.Sleep(300 * time.Millisecond)
			var again liveGame
			srv.getJSON(t, "/api/live/"+id, &again)
			if len(again.Moves) != len(lg.Moves) {
				t.Fatalf("a click out of turn played %s", again.Moves[len(again.Moves)-1].Move)
			}
		}
		mover.click(fmt.Sprintf(`.board [data-move="%d,%d"]`, p.X, p.Y))
		mover.waitPlayed("the move", id, len(lg.Moves))
	}
	red.waitPly("red sees every move", plies)
	blue.waitPly("blue sees every move", plies)

	// Resigning asks to confirm.
	blue.click(`[data-action="resign"]`)
	blue.click(`[data-action="resign"]`)
	rec := storedRecord(t, srv, id, 10*time.Second)
	if rec.Reason != game.ReasonResign || rec.Winner == nil || rec.Seats[0] != *rec.Winner {
		t.Errorf("after blue resigned the record says winner %v, %s (%s)", rec.Winner, rec.Reason, rec.Detail)
	}
	for name, b := range map[string]*browser{"red": red, "blue": blue} {
		b.wait(name+"'s board to show the end", "document.querySelector('.board').dataset.over === '1'", "document.querySelector('#status').textContent", 10*time.Second)
		if s := b.text("#status"); strings.TrimSpace(s) == "" {
			t.Errorf("%s's #status is empty at the end", name)
		} else {
			t.Logf("%s's status: %q", name, s)
		}
	}
}

// TestPlayLocalOneScreen plays Gomoku between two people at one screen:
// the one browser moves for whichever side is to move, Black makes five
// in a row, and the page shows the end.
func TestPlayLocalOneScreen(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	b := newBrowser(t, srv)
	id := startPlay(t, b, "gomoku", "local", "0", "30s")
	clicks := []string{"0,0", "0,1", "1,0", "1,1", "2,0", "2,1", "3,0", "3,1", "4,0"} // Black, White, ...
	for i, mv := range clicks {
		b.waitPly("the board before move "+strconv.Itoa(i+1), i)
		b.click(fmt.Sprintf(`.board [data-move=%q]`, mv))
		b.waitPlayed("move "+strconv.Itoa(i+1), id, i)
	}
	rec := storedRecord(t, srv, id, 10*time.Second)
	if rec.Reason != "five" || rec.Winner == nil || *rec.Winner != rec.Seats[0] || len(rec.Moves) != len(clicks) {
		t.Errorf("record: winner %v by %s after %d moves, want Black by five after %d", rec.Winner, rec.Reason, len(rec.Moves), len(clicks))
	}
	for i, m := range rec.Moves {
		if m.Move != clicks[i] || m.Side != i%2 {
			t.Errorf("move %d: side %d played %s, want side %d at %s", i+1, m.Side, m.Move, i%2, clicks[i])
		}
	}
	b.wait("the board to show the end", "document.querySelector('.board').dataset.over === '1'", "document.querySelector('#status').textContent", 10*time.Second)
	b.screenshot("local-end")
}

// describeLive tells where a live game stands, for a failure message.
func describeLive(lg liveGame) string {
	var moves []string
	for _, m := range lg.Moves {
		moves = append(moves, m.Move)
	}
	return fmt.Sprintf("opening %v, moves %v, clocks %s", lg.Header.Opening, moves, lg.RawClocks)
}
