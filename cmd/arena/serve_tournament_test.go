package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/game"
	"arena/game/gametest"
	"arena/standings"
	"arena/store"
	"arena/web"
)

// gameLog is a listener that keeps what it was told about one game,
// including that it was stored.
type gameLog struct {
	gametest.Recorder
	mu    sync.Mutex
	final *game.Record // told once the game is stored
}

func (l *gameLog) Finished(rec *game.Record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.final = rec
}

// listeners hands out one gameLog per game ID.
type listeners struct {
	mu   sync.Mutex
	logs map[string]*gameLog
}

func (ls *listeners) listen(id string) game.Listener {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.logs == nil {
		ls.logs = map[string]*gameLog{}
	}
	if ls.logs[id] != nil {
		panic("game " + id + " listened to twice")
	}
	ls.logs[id] = &gameLog{}
	return ls.logs[id]
}

// TestPlayTournament runs a tournament of two built-in Gomoku bots the way
// the web page starts one: every game is stored, followed live by its own
// listener, and read back by standings.Of as the CLI's standings command
// reads it.
func TestPlayTournament(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dsn := filepath.Join(dir, "arena.db")
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	registered, err := parsePlayers([]string{"alpha=builtin", "beta=builtin", "gamma=builtin"}, "gomoku")
	if err != nil {
		t.Fatal(err)
	}
	bots := map[string]player{}
	for _, p := range registered {
		bots[p.Name] = p
	}
	req := web.TournamentRequest{Name: "webcup", Game: "gomoku", Bots: []string{"beta", "alpha"},
		Games: 2, TurnTime: 50 * time.Millisecond}
	var ls listeners
	if err := playTournament(ctx, st, req, bots, nil, filepath.Join(dir, "out"), nil, sandboxFlags{mode: "off"}, ls.listen); err != nil {
		t.Fatal(err)
	}

	games, err := st.Games(ctx, "webcup")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games stored, want 2", len(games))
	}
	if len(ls.logs) != len(games) {
		t.Errorf("%d games listened to, %d stored", len(ls.logs), len(games))
	}
	for _, g := range games {
		l := ls.logs[g.ID]
		if l == nil {
			t.Errorf("game %s: no listener", g.ID)
			continue
		}
		if h := l.Header(); l.Starts() != 1 || h == nil || h.ID != g.ID {
			t.Errorf("game %s: started %d times with header %+v", g.ID, l.Starts(), h)
		}
		want := make([]int, g.Moves)
		for i := range want {
			want[i] = i + 1
		}
		if plies := l.Plies(); !slices.Equal(plies, want) {
			t.Errorf("game %s of %d moves: listener saw plies %v", g.ID, g.Moves, plies)
		}
		if l.final == nil || l.final.ID != g.ID {
			t.Errorf("game %s: the listener was not told it was stored", g.ID)
		}
		if !slices.Contains(g.Players, "alpha") || !slices.Contains(g.Players, "beta") {
			t.Errorf("game %s players %v", g.ID, g.Players)
		}
	}

	rep, err := standings.Of(ctx, st, "webcup")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Finished || rep.Games != 2 || len(rep.Results) != 2 || len(rep.History) == 0 || rep.Format != "round-robin" {
		t.Errorf("report %+v", rep)
	}
	// The entry order of the page is the standings' order of the bots.
	if names := standings.BotNames(mustTournament(t, st, "webcup").Args); !slices.Equal(names, req.Bots) {
		t.Errorf("stored bots %v, want %v", names, req.Bots)
	}

	// The stored command line is the CLI's: "arena standings" reads the
	// same report, and "arena tournament --resume" finds nothing to play.
	sout, serr, err := arena(t, "standings", "webcup", "--db", dsn, "--json")
	if err != nil {
		t.Fatalf("standings: %v\n%s", err, serr)
	}
	want, _ := json.Marshal(standingsLine{Type: "standings", Report: rep})
	if strings.TrimSpace(sout) != string(want) {
		t.Errorf("arena standings --json:\n%s\nstandings.Of:\n%s", sout, want)
	}
	if _, serr, err := arena(t, "tournament", "--resume", "webcup", "--db", dsn); err != nil ||
		!strings.Contains(serr, "2 of 2 games already played") {
		t.Errorf("resume from the CLI: %v\n%s", err, serr)
	}

	// Asked again, the page's tournament is the same event: nothing is
	// played, nobody is listened to.
	var again listeners
	if err := playTournament(ctx, st, req, bots, nil, filepath.Join(dir, "out"), nil, sandboxFlags{mode: "off"}, again.listen); err != nil {
		t.Fatal(err)
	}
	if len(again.logs) != 0 {
		t.Errorf("a finished tournament played %d games again", len(again.logs))
	}
}

func mustTournament(t *testing.T, st *store.Store, name string) store.Tournament {
	t.Helper()
	tr, err := st.Tournament(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPlayTournamentRefuses checks the requests a server must refuse
// before any game starts.
func TestPlayTournamentRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	registered, err := parsePlayers([]string{"a=builtin", "b=builtin"}, "gomoku")
	if err != nil {
		t.Fatal(err)
	}
	bots := map[string]player{"a": registered[0], "b": registered[1]}
	if err := st.CreateTournament(ctx, store.Tournament{Name: "taken", Game: "gomoku", Args: []string{"gomoku", "--bot=x=builtin"}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  web.TournamentRequest
		want string
	}{
		{"unknown game", web.TournamentRequest{Name: "t1", Game: "chess", Bots: []string{"a", "b"}}, "unknown game"},
		{"unknown bot", web.TournamentRequest{Name: "t2", Game: "gomoku", Bots: []string{"a", "rm -rf /"}}, "no bot"},
		{"one bot", web.TournamentRequest{Name: "t3", Game: "gomoku", Bots: []string{"a"}}, "at least 2"},
		{"same bot twice", web.TournamentRequest{Name: "t4", Game: "gomoku", Bots: []string{"a", "a"}}, "twice"},
		{"unknown format", web.TournamentRequest{Name: "t5", Game: "gomoku", Bots: []string{"a", "b"}, Format: "ladder"}, "--format"},
		{"negative games", web.TournamentRequest{Name: "t6", Game: "gomoku", Bots: []string{"a", "b"}, Games: -1}, "--games-per-pair"},
		{"name taken by another event", web.TournamentRequest{Name: "taken", Game: "gomoku", Bots: []string{"a", "b"}}, "other settings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ls listeners
			err := playTournament(ctx, st, tc.req, bots, nil, filepath.Join(dir, "out"), nil, sandboxFlags{mode: "off"}, ls.listen)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			if len(ls.logs) != 0 {
				t.Errorf("%d games started", len(ls.logs))
			}
		})
	}
}

// TestPlayTournamentOptions: serve's --options for a game apply to the
// tournaments the page starts, and are stored with them to resume.
func TestPlayTournamentOptions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	registered, err := parsePlayers([]string{"alpha=builtin", "beta=builtin"}, "gomoku")
	if err != nil {
		t.Fatal(err)
	}
	bots := map[string]player{"alpha": registered[0], "beta": registered[1]}
	options, err := gameOptions([]string{"gomoku:--size 9 --max-moves 4"})
	if err != nil {
		t.Fatal(err)
	}
	req := web.TournamentRequest{Name: "small", Game: "gomoku", Bots: []string{"alpha", "beta"}, Games: 2, TurnTime: time.Second}
	if err := playTournament(ctx, st, req, bots, options["gomoku"], filepath.Join(dir, "out"), nil, sandboxFlags{mode: "off"}, nil); err != nil {
		t.Fatal(err)
	}
	games, err := st.Games(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games stored, want 2", len(games))
	}
	for _, g := range games {
		var rec game.Record
		if err := json.Unmarshal(g.Record, &rec); err != nil {
			t.Fatal(err)
		}
		if g.Moves != 4 || g.Reason != "draw" || !strings.Contains(string(rec.Options), `"width":9,`) {
			t.Errorf("game %s: %d moves by %s, options %s: want the 9x9 board and 4 moves of --options", g.ID, g.Moves, g.Reason, rec.Options)
		}
	}
	if args := mustTournament(t, st, "small").Args; !slices.Contains(args, "--size=9") || !slices.Contains(args, "--max-moves=4") {
		t.Errorf("stored command line %v lacks the options", args)
	}
}
