package nim

import (
	"arena/internal/browsertest"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arena/engine"
	"arena/game"
	"arena/match"
	"arena/standings"
	"arena/store"
	"arena/tournament"
	"arena/web"
)

// The test binary doubles as Nim's bots: with NIM_BOT set it plays on
// stdin/stdout ("perfect", or "one": always one stone) and exits.
func TestMain(m *testing.M) {
	if how := os.Getenv("NIM_BOT"); how != "" {
		if err := Bot(os.Stdin, os.Stdout, how == "perfect"); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// player is a bot of the test binary, a real process over pipes.
func player(t testing.TB, name, how string) match.Player {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return match.Player{Name: name, Command: "nim-" + how, Args: []string{exe}, Env: []string{"NIM_BOT=" + how}}
}

// games is a registry holding Nim alone: nothing outside this package
// lists it.
func games(t testing.TB) *game.Registry[match.Game] {
	t.Helper()
	r, err := game.NewRegistry[match.Game](Def{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func clock() match.Clock { return match.Clock{Turn: 10 * time.Second, Tolerance: time.Second} }

// A spec of Nim written as JSON, read back and played through the one
// function that plays every game's spec: the perfect player, moving
// first on 15 stones (3 at most a move), wins by taking the last.
func TestMatchFromSpec(t *testing.T) {
	opts, _ := json.Marshal(Settings{Stones: 15, MaxTake: 3})
	spec := match.Spec{ID: "nim-1", Game: "nim", Options: opts,
		Players: []match.Player{player(t, "one", "one"), player(t, "perfect", "perfect")}, Seats: []int{1, 0}, Clock: clock()}
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	read, err := match.ReadSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rec, path, err := match.Play(context.Background(), games(t), read, match.Local{Out: out, Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Winner == nil || rec.Players[*rec.Winner].Name != "perfect" || rec.Reason != "last" {
		t.Fatalf("winner %v by %s, want perfect by taking the last stone: %+v", rec.Winner, rec.Reason, rec)
	}
	taken := 0
	for i, m := range rec.Moves {
		n, err := ParseTake(m.Move)
		if err != nil || m.Side != i%2 {
			t.Fatalf("move %d: %+v", i+1, m)
		}
		taken += int(n)
	}
	if taken != 15 {
		t.Fatalf("%d stones taken of 15", taken)
	}
	if back, err := game.ReadRecord(path); err != nil || len(back.Moves) != len(rec.Moves) {
		t.Fatalf("the record file %s: %v", path, err)
	}
	// Options that break the rules are refused before any bot starts.
	bad := read
	bad.Options = json.RawMessage(`{"stones": 3, "max_take": 9}`)
	if _, _, err := match.Play(context.Background(), games(t), bad, match.Local{Out: out, Work: t.TempDir()}); err == nil {
		t.Fatal("played with max_take above stones")
	}
}

// newTournament is a round robin of three Nim bots stored in st.
func newTournament(t *testing.T, st *store.Store, out string) *engine.Tournament {
	spec := match.Spec{Game: "nim", Players: []match.Player{player(t, "p1", "perfect"), player(t, "o1", "one"), player(t, "o2", "one")},
		Clock: clock()}
	return &engine.Tournament{
		Name: "nimcup", Args: []string{"nim", "--name=nimcup"},
		Schedule: tournament.Config{Format: tournament.RoundRobin, Players: 3, Seats: 2, GamesPerPair: 2},
		Match:    spec, Runner: engine.NewLocal(games(t), match.Local{Out: out, Work: t.TempDir()}), Store: st, Out: out, Concurrency: 2,
	}
}

// A round robin of Nim is played, stored game by game, stopped after
// its first stored game, and resumed from the store: the second run
// plays only the games missing, and the standings count them all.
func TestTournamentResume(t *testing.T) {
	out := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(out, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := newTournament(t, st, out)
	first.Concurrency = 1
	first.Stored = func(tournament.Game, *game.Record, string, *standings.Table) error {
		cancel() // stop after the first game stored
		return nil
	}
	if _, err := first.Run(ctx); err == nil {
		t.Fatal("a cancelled tournament ran to its end")
	}
	stored, err := st.Games(context.Background(), "nimcup")
	if err != nil || len(stored) == 0 {
		t.Fatalf("%d games stored before the stop (%v)", len(stored), err)
	}

	again := newTournament(t, st, out)
	played := 0
	again.Stored = func(tournament.Game, *game.Record, string, *standings.Table) error {
		played++
		return nil
	}
	res, err := again.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	total := res.Schedule.Total()
	if total != 6 || played != total-len(stored) || res.Table.Played() != total || !res.Report.Finished {
		t.Fatalf("resume: %d stored first, %d played then, %d of %d counted", len(stored), played, res.Table.Played(), total)
	}
	// The perfect player wins every game it plays first; as second it
	// wins too, since always taking one stone never leaves a multiple
	// of four.
	if top := res.Report.Standings[0]; top.Player != "p1" || top.Wins != 4 {
		t.Fatalf("standings %+v", res.Report.Standings)
	}
}

// A stored game of Nim replays in the web page, through the generic
// launcher and the game's view web/static/games/nim.js.
func TestPageReplay(t *testing.T) {
	path := browsertest.Path(t)
	out := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(out, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := engine.NewLauncher(engine.LauncherConfig{Games: []match.Game{Def{}}, Store: st, Out: out, Work: t.TempDir(), Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	spec := match.Spec{ID: "nim-page", Game: "nim", Players: []match.Player{player(t, "perfect", "perfect"), player(t, "one", "one")},
		Seats: []int{0, 1}, Clock: clock()}
	rec, recPath, err := match.Play(context.Background(), games(t), spec, match.Local{Out: out, Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Save(context.Background(), st, rec, recPath); err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{Launcher: l, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	opts := browsertest.Options(t, path, t.TempDir())
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	last := `document.querySelector('#replay-controls button[data-action="last"]')`
	steps := []struct {
		what string
		do   chromedp.Action[bool]
	}{
		{"the replay's board and controls", chromedp.Poll[bool](`!!document.querySelector('.board[data-game="nim"]') && !!`+last, chromedp.WithPollingTimeout(20*time.Second))},
		{"a click on the last move", chromedp.Evaluate[bool](last + `.click(), true`)},
		{"the board at the last move", chromedp.Poll[bool](`document.querySelector('.board').dataset.ply === "`+itoa(len(rec.Moves))+`"`, chromedp.WithPollingTimeout(10*time.Second))},
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(hs.URL+"/#/replay/nim-page")); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if _, err := chromedp.Run(ctx, s.do); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
	}
	shown, err := chromedp.Run(ctx, chromedp.Text(`.nim-left`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != "0 left" {
		t.Fatalf("after the last move the page shows %q, want 0 left", shown)
	}
}

func itoa(n int) string { return Take(n).String() }
