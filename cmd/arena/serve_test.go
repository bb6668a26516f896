package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/game"
	"arena/internal/syncbuf"
	"arena/internal/version"
	"arena/match"
	"arena/store"
	"arena/web"
)

// testLauncher is serve's launcher over a fresh store, with the test
// brain registered for Gomoku as "rnd".
func testLauncher(t *testing.T) (*launcher, *store.Store) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	bots, err := registerBots([]string{"gomoku:rnd=" + filepath.Join(testBrain(t), "pbrain-tb") + " --policy=random --seed=5"})
	if err != nil {
		t.Fatal(err)
	}
	l := newLauncher(st, bots, dir, t.TempDir(), 2, nil)
	l.options, err = gameOptions([]string{"points:--size 8x8 --max-moves 6", "points:--increment 0"})
	if err != nil {
		t.Fatal(err)
	}
	return l, st
}

// TestServeLauncherPlay plays games the way the web page asks for them
// and checks that each is stored as its record says, and that the
// listener followed it.
func TestServeLauncherPlay(t *testing.T) {
	l, st := testLauncher(t)
	resigner := func() *match.Human {
		h := match.NewHuman()
		h.OnTurn(func(waiting bool, _ time.Time) {
			if waiting {
				h.Resign()
			}
		})
		return h
	}
	resign := resigner()
	tests := []struct {
		name    string
		req     web.PlayRequest
		reason  game.Reason
		winner  int
		players []string
	}{
		{
			name: "two bots",
			req: web.PlayRequest{ID: "web-bots", Game: "gomoku", TurnTime: 300 * time.Millisecond,
				Players: []web.Entrant{{Bot: "builtin"}, {Bot: "rnd"}}},
			reason: "five", winner: 0, players: []string{"builtin", "rnd"},
		},
		{
			name: "options",
			req: web.PlayRequest{ID: "web-points", Game: "points", TurnTime: 300 * time.Millisecond,
				Players: []web.Entrant{{Bot: "builtin"}, {Bot: "builtin"}}},
			reason: "max-moves", winner: -1, players: []string{"builtin", "builtin#2"},
		},
		{
			name: "a person",
			req: web.PlayRequest{ID: "web-person", Game: "khet", TurnTime: 2 * time.Second,
				Players: []web.Entrant{{Human: resign, Name: "ann"}, {Bot: "builtin"}}},
			reason: game.ReasonResign, winner: 1, players: []string{"ann", "builtin"},
		},
		{
			// The bot moves first on a clock the person chose for it, and
			// the record notes that clock as the bot's own.
			name: "a quick bot",
			req: web.PlayRequest{ID: "web-quick", Game: "points", TurnTime: 2 * time.Second,
				Players: []web.Entrant{{Bot: "builtin", TurnTime: 400 * time.Millisecond}, {Human: resigner(), Name: "ann"}}},
			reason: game.ReasonResign, winner: 0, players: []string{"builtin", "ann"},
		},
		{
			name: "two people",
			req: web.PlayRequest{ID: "web-people", Game: "gomoku",
				Players: []web.Entrant{{Human: resigner(), Name: "ann"}, {Human: match.NewHuman(), Name: "bob"}}},
			reason: game.ReasonResign, winner: 1, players: []string{"ann", "bob"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := &gameLog{}
			rec, err := l.Play(context.Background(), tt.req, live)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Reason != tt.reason || (tt.winner >= 0 && (rec.Winner == nil || *rec.Winner != tt.winner)) {
				t.Errorf("winner %v by %s (%s), want %d by %s", rec.Winner, rec.Reason, rec.Detail, tt.winner, tt.reason)
			}
			g, err := st.Game(context.Background(), tt.req.ID)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(g.Players, ",") != strings.Join(tt.players, ",") || g.Tournament != "" || g.Moves != len(rec.Moves) {
				t.Errorf("stored players %v, tournament %q, %d moves; record %d moves", g.Players, g.Tournament, g.Moves, len(rec.Moves))
			}
			var back game.Record
			if err := json.Unmarshal(g.Record, &back); err != nil || back.ID != rec.ID || len(back.Moves) != len(rec.Moves) {
				t.Errorf("stored record %s: %v", g.Record, err)
			}
			if g.RecordPath == "" {
				t.Error("no record file")
			}
			if tt.name == "options" && (!strings.Contains(string(rec.Options), `"width":8,`) || !strings.Contains(string(rec.Options), `"increment_ms":0,`) || len(rec.Moves) != 6) {
				t.Errorf("--options not applied: %s, %d moves", rec.Options, len(rec.Moves))
			}
			if tt.name == "a person" {
				// The person plays on the page's clock, the bot on the game's.
				var opts struct {
					TurnMs int64 `json:"turn_ms"`
				}
				json.Unmarshal(rec.Options, &opts)
				if p := rec.Players[0]; p.TurnMs != 2000 || opts.TurnMs != mustDriver(t, "khet").info.TurnTime.Milliseconds() || rec.Players[1].TurnMs != 0 {
					t.Errorf("person's clock %d ms, game's %d ms, bot's own %d ms", p.TurnMs, opts.TurnMs, rec.Players[1].TurnMs)
				}
			}
			if tt.name == "a quick bot" && (rec.Players[0].TurnMs != 400 || rec.Players[1].TurnMs != 2000 || len(rec.Moves) != 1) {
				t.Errorf("bot's clock %d ms, person's %d ms, %d moves; want 400, 2000 and the bot's one move", rec.Players[0].TurnMs, rec.Players[1].TurnMs, len(rec.Moves))
			}
			if tt.name == "two people" && !strings.Contains(string(rec.Options), `"turn_ms":30000,`) {
				t.Errorf("people without a clock play on %s, want 30 s a move", rec.Options)
			}
			if live.Starts() != 1 || live.Header().ID != rec.ID || len(live.Played()) != len(rec.Moves) {
				t.Errorf("listener: started %d, %d moves; record %d moves", live.Starts(), len(live.Played()), len(rec.Moves))
			}
		})
	}
}

// TestServeLauncherRefuses checks the requests the launcher must turn
// down before starting anything.
func TestServeLauncherRefuses(t *testing.T) {
	l, _ := testLauncher(t)
	person := web.Entrant{Human: match.NewHuman(), Name: "ann"}
	tests := []struct {
		name string
		req  web.PlayRequest
		want string
	}{
		{"unknown game", web.PlayRequest{ID: "x1", Game: "chess", Players: []web.Entrant{{Bot: "builtin"}, {Bot: "builtin"}}}, "unknown game"},
		{"unknown bot", web.PlayRequest{ID: "x2", Game: "khet", Players: []web.Entrant{{Bot: "builtin"}, {Bot: "rnd"}}}, `no bot "rnd"`},
		{"one player", web.PlayRequest{ID: "x3", Game: "gomoku", Players: []web.Entrant{{Bot: "builtin"}}}, "needs 2 to 2 players"},
		{"person in ants", web.PlayRequest{ID: "x4", Game: "ants", Players: []web.Entrant{person, {Bot: "builtin"}}}, "cannot seat a person"},
		{"empty seat", web.PlayRequest{ID: "x5", Game: "points", Players: []web.Entrant{{}, {Bot: "builtin"}}}, "neither"},
		{"bot time in khet", web.PlayRequest{ID: "x6", Game: "khet", Players: []web.Entrant{person, {Bot: "builtin", TurnTime: time.Second}}}, "not told their clock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := l.Play(context.Background(), tt.req, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestGameOptions(t *testing.T) {
	tests := []struct {
		specs []string
		want  string // error, or the points flags joined
	}{
		{nil, ""},
		{[]string{"points:--size 15x15", "points:--max-moves=60"}, "--size 15x15 --max-moves=60"},
		{[]string{"chess:--size 5"}, "want GAME:FLAGS"},
		{[]string{"--size 5"}, "want GAME:FLAGS"},
		{[]string{"points:--bot x"}, "unknown flag: --bot"},
		// What the help says it takes: the game's own flags, and the
		// error lists them.
		{[]string{"points:--turn-time 1s"}, "unknown flag: --turn-time (points's own options: "},
		{[]string{"points:--memory 1GB"}, "--increment"},
		{[]string{"points:--opening empty --surround always"}, "--opening empty --surround always"},
		{[]string{"points:--openings empty"}, "unknown flag: --openings"},
		{[]string{"points:--size 15x15 extra"}, `unexpected "extra"`},
		{[]string{"points:"}, "empty"},
	}
	for _, tt := range tests {
		opts, err := gameOptions(tt.specs)
		got := strings.Join(opts["points"], " ")
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) || (tt.want == "" && got != "") {
			t.Errorf("%v: got %q, want %q", tt.specs, got, tt.want)
		}
	}
}

func TestRegisterBots(t *testing.T) {
	tests := []struct {
		specs []string
		want  string // error, or the gomoku bots joined
	}{
		{nil, "builtin"},
		{[]string{"gomoku:a=builtin", "gomoku:b=builtin --file"}, "builtin,a,b"},
		{[]string{"chess:a=builtin"}, "want GAME:NAME=CMD"},
		{[]string{"builtin"}, "want GAME:NAME=CMD"},
		{[]string{"gomoku:builtin=builtin"}, "already has a bot"},
		{[]string{"gomoku:a=builtin", "gomoku:a=builtin"}, "already has a bot"},
	}
	for _, tt := range tests {
		bots, err := registerBots(tt.specs)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			var names []string
			for _, p := range bots["gomoku"] {
				names = append(names, p.Name)
			}
			got = strings.Join(names, ",")
			if len(bots["khet"]) != 1 || bots["khet"][0].Name != "builtin" {
				t.Errorf("%v: khet bots %v", tt.specs, bots["khet"])
			}
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%v: got %q, want %q", tt.specs, got, tt.want)
		}
	}
}

// TestServeCommand starts "arena serve" on a free port, reads the one
// line it prints, asks the API for the games and stops it as a signal
// would.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRoot()
	var stdout, stderr syncbuf.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "arena.db"), "--out", dir,
		"--bot", "khet:second=builtin"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	line := regexp.MustCompile(`^arena: serving on (http://127\.0\.0\.1:[1-9][0-9]*/)#token=([0-9a-f]{32})\n$`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil; time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		default:
		}
		if strings.Contains(stdout.String(), "\n") {
			if m = line.FindStringSubmatch(stdout.String()); m == nil {
				t.Fatalf("stdout %q", stdout.String())
			}
		} else if time.Now().After(deadline) {
			t.Fatalf("nothing printed; stderr:\n%s", stderr.String())
		}
	}
	resp, err := http.Get(m[1] + "api/info")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Games   []web.GameInfo
		Version string
	}
	err = json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	bots := map[string]string{}
	for _, g := range info.Games {
		bots[g.Name] = strings.Join(g.Bots, ",")
	}
	// The page and "arena --version" say the same.
	if want := version.String(); info.Version != want {
		t.Errorf("/api/info version %q, arena --version %q", info.Version, want)
	}
	if bots["khet"] != "builtin,second" || bots["gomoku"] != "builtin" || len(info.Games) != len(drivers()) {
		t.Errorf("games %+v", info.Games)
	}
	req, _ := http.NewRequest("POST", m[1]+"api/matches", strings.NewReader(`{"game":"khet","bots":["builtin","second"]}`))
	req.Header.Set("Authorization", "Bearer wrong")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Error(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token: %s, want 401", resp.Status)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serve: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("stdout %q, want one line", stdout.String())
	}
}

// FuzzServeSpecs feeds arbitrary --bot and --options values to serve's
// parsers: they must refuse or accept without panicking, and what they
// accept must name a known game.
func FuzzServeSpecs(f *testing.F) {
	for _, s := range []string{"gomoku:a=builtin", "points:--size 15x15", "khet:", ":x", "ants:b=builtin --x 'y", "gomoku:a=b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if bots, err := registerBots([]string{spec}); err == nil {
			for g := range bots {
				if _, ok := driverByName(g); !ok {
					t.Fatalf("%q: bots for unknown game %q", spec, g)
				}
			}
		}
		if opts, err := gameOptions([]string{spec}); err == nil {
			for g := range opts {
				if _, ok := driverByName(g); !ok {
					t.Fatalf("%q: options for unknown game %q", spec, g)
				}
			}
		}
	})
}

// TestServeLauncherKeepsEarlierGames: a game of the page whose ID is
// already stored, or names a record in the folder (another server on the
// same folder), is refused before it starts, and the earlier game's
// record stays as it was.
func TestServeLauncherKeepsEarlierGames(t *testing.T) {
	l, st := testLauncher(t)
	people := func() web.PlayRequest {
		resign := match.NewHuman()
		resign.OnTurn(func(waiting bool, _ time.Time) {
			if waiting {
				resign.Resign()
			}
		})
		return web.PlayRequest{ID: "web-once", Game: "gomoku",
			Players: []web.Entrant{{Human: resign, Name: "ann"}, {Human: match.NewHuman(), Name: "bob"}}}
	}
	rec, err := l.Play(context.Background(), people(), nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Game(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(g.RecordPath)
	if err != nil {
		t.Fatal(err)
	}

	// A second server on the same folder, with a store of its own.
	other, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	second := newLauncher(other, l.bots, l.out, t.TempDir(), 1, nil)
	for _, tc := range []struct {
		name string
		l    *launcher
		want string
	}{
		{"same store", l, "already stored"},
		{"same folder", second, "already exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.l.Play(context.Background(), people(), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			if after, _ := os.ReadFile(g.RecordPath); !bytes.Equal(after, before) {
				t.Error("the earlier game's record changed")
			}
		})
	}
	// A claim is given back when the game wrote no record, and kept
	// when it did.
	for _, wrote := range []bool{false, true} {
		id := fmt.Sprintf("web-claim-%v", wrote)
		release, err := engine.ClaimGameID(context.Background(), st, l.out, id)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(l.out, id+".json")
		if wrote {
			os.WriteFile(path, []byte("{}\n"), 0o644)
		}
		release()
		if _, err := os.Stat(path); (err == nil) != wrote {
			t.Errorf("record written %v: after release %v", wrote, err)
		}
	}
}
