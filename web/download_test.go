package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/game/ants"
	"arena/game/gomoku"
	"arena/game/khet"
	"arena/game/points"
	"arena/store"
)

// downloadServer is a test server that knows the games' real formats,
// with one stored game of each: a Gomoku tournament game (its ID holds
// slashes), a Points and a Khet game, and an Ants game with its replay
// file beside its record.
func downloadServer(t *testing.T) (*testServer, map[string]*game.Record) {
	t.Helper()
	ts := newTestServer(t, &fakeLauncher{})
	formats := map[string][]game.Format{}
	for _, info := range []game.Info{gomoku.Info(), points.Info(), khet.Info(), ants.Info()} {
		formats[info.Name] = info.Formats
	}
	// Before the first request: the handlers read the config.
	ts.srv.cfg.Formats = formats

	ctx := context.Background()
	dir := t.TempDir()
	if err := ts.store.CreateTournament(ctx, store.Tournament{Name: "cup", Game: "gomoku"}); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	one := 1
	players := []game.PlayerRecord{{Name: "alpha"}, {Name: "beta"}}
	moves := func(side0 int, ms ...string) []game.MoveRecord {
		var out []game.MoveRecord
		for i, m := range ms {
			out = append(out, game.MoveRecord{Side: (side0 + i) % 2, Move: m, TimeMs: float64(10 * (i + 1))})
		}
		return out
	}
	recs := map[string]*game.Record{
		"gomoku": {ID: "cup/r1/p1", Game: "gomoku", Options: json.RawMessage(`{"width":15,"height":15,"rule":0,"turn_ms":5000,"match_ms":0,"tolerance_ms":1000}`),
			Players: players, Seats: []int{1, 0}, Moves: moves(0, "7,7", "8,7", "7,8", "8,8", "7,9", "8,9", "7,10", "8,10", "7,11"),
			Winner: &one, Reason: "five", Start: start, End: start.Add(time.Minute)},
		"points": {ID: "web-points-1", Game: "points", Options: json.RawMessage(`{"width":10,"height":10,"surround":"standard","opening":"cross","turn_ms":0,"base_ms":0,"increment_ms":0,"tolerance_ms":0}`),
			Players: players, Seats: []int{0, 1}, Opening: []string{"4,4", "5,4", "5,5", "4,5"}, Moves: moves(0, "1,1", "2,2", "3,3"),
			Reason: "draw", Start: start, End: start.Add(time.Minute)},
		"wide": {ID: "web-points-2", Game: "points", Options: json.RawMessage(`{"width":60,"height":10,"surround":"standard","opening":"empty"}`),
			Players: players, Seats: []int{0, 1}, Moves: moves(0, "1,1"), Reason: "draw", Start: start, End: start},
		"ants": {ID: "web-ants-1", Game: "ants", Players: players, Seats: []int{0, 1}, Reason: "score", Start: start, End: start},
		"gone": {ID: "web-ants-2", Game: "ants", Players: players, Seats: []int{0, 1}, Reason: "score", Start: start, End: start},
	}
	recs["khet"] = khetRecord(t, players, start)
	for key, rec := range recs {
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		g := store.Game{ID: rec.ID, Players: []string{"alpha", "beta"}, Seats: rec.Seats, Winner: rec.Winner,
			Reason: string(rec.Reason), Moves: len(rec.Moves), Record: data, Start: rec.Start, End: rec.End}
		if key == "gomoku" {
			g.Tournament, g.Round = "cup", 1
		}
		if rec.Game == "ants" {
			g.RecordPath = filepath.Join(dir, rec.ID+".json")
		}
		if err := ts.store.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "web-ants-1.replay"), []byte(`{"challenge":"ants","replayformat":"json"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return ts, recs
}

// khetRecord plays a few legal Khet moves on the classic setup.
func khetRecord(t *testing.T, players []game.PlayerRecord, start time.Time) *game.Record {
	t.Helper()
	s, err := khet.NewState(khet.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	initial := s.String()
	rec := &game.Record{ID: "web-khet-1", Game: "khet", Players: players, Seats: []int{0, 1}, Reason: "draw", Start: start, End: start}
	for i, text := range []string{"S23C", "R43c", "S44C"} {
		m, err := khet.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Play(m); err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
		eff, _ := json.Marshal(map[string]string{"state": s.String()})
		rec.Moves = append(rec.Moves, game.MoveRecord{Side: i % 2, Move: text, Effect: eff})
	}
	opts, _ := json.Marshal(khet.Options{Setup: khet.Classic, Initial: initial, Final: s.String()})
	rec.Options = opts
	return rec
}

// get fetches a path and returns the response with its body read.
func get(t *testing.T, ts *testServer, path string) (*http.Response, []byte) {
	t.Helper()
	resp, err := ts.http.Client().Get(ts.http.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestDownloadFormats(t *testing.T) {
	ts, recs := downloadServer(t)
	write := func(key string, w func(*game.Record) ([]byte, error)) []byte {
		data, err := w(recs[key])
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	stored := func(key string) []byte {
		data, _ := json.Marshal(recs[key])
		return data
	}
	for _, c := range []struct {
		name, path  string
		ctype, file string
		want        []byte
	}{
		{"gomoku psq", "/api/games/cup%2Fr1%2Fp1/download?format=psq", "text/plain; charset=utf-8", "cup_r1_p1.psq", write("gomoku", gomoku.RecordPSQ)},
		{"gomoku sgf", "/api/games/cup/r1/p1/download?format=sgf", "application/x-go-sgf", "cup_r1_p1.sgf", write("gomoku", gomoku.RecordSGF)},
		{"gomoku json", "/api/games/cup/r1/p1/download?format=json", "application/json", "cup_r1_p1.json", stored("gomoku")},
		{"points sgf", "/api/games/web-points-1/download?format=sgf", "application/x-go-sgf", "web-points-1.sgf", write("points", points.Info().Formats[0].Write)},
		{"khet log", "/api/games/web-khet-1/download?format=khet", "text/plain; charset=utf-8", "web-khet-1.khet", write("khet", khet.RecordLog)},
		{"ants replay", "/api/games/web-ants-1/download?format=replay", "application/json", "web-ants-1.replay", []byte(`{"challenge":"ants","replayformat":"json"}`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, body := get(t, ts, c.path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if got := resp.Header.Get("Content-Type"); got != c.ctype {
				t.Errorf("Content-Type %q, want %q", got, c.ctype)
			}
			disp, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
			if err != nil || disp != "attachment" || params["filename"] != c.file {
				t.Errorf("Content-Disposition %q (%v): want an attachment named %s", resp.Header.Get("Content-Disposition"), err, c.file)
			}
			if !bytes.Equal(body, c.want) {
				t.Errorf("body:\n%s\nwant:\n%s", body, c.want)
			}
		})
	}

	// The files read back as what was played.
	_, psq := get(t, ts, "/api/games/cup/r1/p1/download?format=psq")
	g, err := gomoku.ReadPSQ(bytes.NewReader(psq))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 9 || g.Moves[0].P != (gomoku.Point{X: 7, Y: 7}) || g.Moves[8].P != (gomoku.Point{X: 7, Y: 11}) || g.First != 1 {
		t.Errorf("the psq reads back as %+v", g)
	}
	_, log := get(t, ts, "/api/games/web-khet-1/download?format=khet")
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "# khet web-khet-1 setup classic: silver alpha, red beta") ||
		!strings.Contains(lines[4], "S44C") {
		t.Errorf("the khet log:\n%s", log)
	}
}

func TestDownloadRefused(t *testing.T) {
	ts, _ := downloadServer(t)
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{"/api/games/cup/r1/p1/download?format=khet", http.StatusBadRequest, `\"khet\" is not one of json, psq, sgf`},
		{"/api/games/cup/r1/p1/download", http.StatusBadRequest, `\"\" is not one of json, psq, sgf`},
		{"/api/games/web-khet-1/download?format=psq", http.StatusBadRequest, `not one of json, khet`},
		{"/api/games/nope/download?format=json", http.StatusNotFound, `no stored game \"nope\"`},
		{"/api/games/nope", http.StatusNotFound, `no stored game`},
		{"/api/games/web-ants-2/download?format=replay", http.StatusNotFound, `the replay file of game \"web-ants-2\" is gone`},
		{"/api/games/web-points-2/download?format=sgf", http.StatusNotFound, `cannot express`},
		{"/api/results/nope", http.StatusNotFound, `no tournament \"nope\"`},
	} {
		resp, body := get(t, ts, c.path)
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.want) || !json.Valid(body) {
			t.Errorf("GET %s: %d %s; want %d with %s", c.path, resp.StatusCode, body, c.code, c.want)
		}
	}
}

func TestGameFiles(t *testing.T) {
	ts, _ := downloadServer(t)
	for _, c := range []struct {
		path       string
		tournament string
		formats    []string
	}{
		{"/api/games/cup/r1/p1", "cup", []string{"json", "psq", "sgf"}},
		{"/api/games/web-points-1", "", []string{"json", "sgf"}},
		{"/api/games/web-khet-1", "", []string{"json", "khet"}},
		{"/api/games/web-ants-1", "", []string{"json", "replay"}},
		{"/api/games/web-ants-2", "", []string{"json"}},   // its replay file is gone
		{"/api/games/web-points-2", "", []string{"json"}}, // too wide for SGF
	} {
		var got gameFiles
		ts.getJSON(t, c.path, &got)
		var formats []string
		for _, d := range got.Downloads {
			formats = append(formats, d.Format)
			// Every listed file downloads.
			if resp, body := get(t, ts, d.URL); resp.StatusCode != http.StatusOK {
				t.Errorf("%s lists %s: %d %s", c.path, d.URL, resp.StatusCode, body)
			}
		}
		if got.Tournament != c.tournament || strings.Join(formats, ",") != strings.Join(c.formats, ",") {
			t.Errorf("GET %s: tournament %q, formats %v; want %q, %v", c.path, got.Tournament, formats, c.tournament, c.formats)
		}
	}
}

func TestResultsFile(t *testing.T) {
	ts, _ := downloadServer(t)
	resp, body := get(t, ts, "/api/results/cup")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-chess-pgn" {
		t.Errorf("Content-Type %q", ct)
	}
	if _, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); params["filename"] != "cup.pgn" {
		t.Errorf("Content-Disposition %q", resp.Header.Get("Content-Disposition"))
	}
	// beta played first (White) and won.
	for _, want := range []string{`[Event "cup"]`, `[White "beta"]`, `[Black "alpha"]`, `[Result "1-0"]`, `[GameId "cup/r1/p1"]`, "\n1-0\n"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("results file lacks %s:\n%s", want, body)
		}
	}
}

// TestResultsFileName checks a name outside ASCII survives the
// Content-Disposition header.
func TestResultsFileName(t *testing.T) {
	ts, _ := downloadServer(t)
	ctx := context.Background()
	const name = "Кубок/осень"
	if err := ts.store.CreateTournament(ctx, store.Tournament{Name: name, Game: "gomoku"}); err != nil {
		t.Fatal(err)
	}
	if err := ts.store.SaveGame(ctx, store.Game{ID: name + "-g1", Tournament: name, Players: []string{"a", "b"}, Seats: []int{0, 1},
		Reason: "draw", Record: []byte(`{"game":"gomoku"}`)}); err != nil {
		t.Fatal(err)
	}
	resp, body := get(t, ts, "/api/results/"+url.PathEscape(name))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err != nil || params["filename"] != "Кубок_осень.pgn" {
		t.Errorf("Content-Disposition %q (%v)", resp.Header.Get("Content-Disposition"), err)
	}
	if !strings.Contains(string(body), `[Result "1/2-1/2"]`) {
		t.Errorf("results:\n%s", body)
	}
}

func TestSafeFileName(t *testing.T) {
	for in, want := range map[string]string{
		"cup/r1/p1": "cup_r1_p1", `a\b:c*?"<>|`: "a_b_c______", "": "game", "..": "game", "ok name.x": "ok name.x", "tab\there": "tab_here",
	} {
		if got := safeFileName(in); got != want {
			t.Errorf("safeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
