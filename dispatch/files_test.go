package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/game/ants"
	"arena/game/gomoku"
	"arena/match"
)

// TestOptionFilesTravelByContent: the files a game's options name
// (Gomoku's --opening, Ants' --map) reach the worker by content: the
// options the worker plays name copies in its cache, with the
// coordinator's contents, never the coordinator's paths; after the
// coordinator's files are gone, a worker with an empty cache still gets
// them, from the object store.
func TestOptionFilesTravelByContent(t *testing.T) {
	home := t.TempDir() // the coordinator's machine
	write := func(name, text string) string {
		path := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	opening := write("openings.txt", "0,0, 1,1\n-1,0, 2,2\n")
	mapA := write("maps/a.map", "rows 2\ncols 2\nplayers 2\nm a.\nm .b\n")
	mapB := write("maps/b.map", "rows 2\ncols 2\nplayers 2\nm ab\nm ..\n")

	srv := startServer(t, t.TempDir(), "")
	var mu sync.Mutex
	seen := map[string]match.Spec{}
	f := newFakeGames(0)
	f.check = func(spec match.Spec) error {
		mu.Lock()
		defer mu.Unlock()
		seen[spec.ID] = spec
		return nil
	}
	stop := startWorker(t, connect(t, srv.URL()), "first", 1, f)
	r := newRunner(t, connect(t, srv.URL()), "files", time.Second, nil)
	// run plays a game and returns the spec the worker played; the
	// record the coordinator keeps must name the coordinator's files.
	run := func(id, gameName string, options any) match.Spec {
		t.Helper()
		raw, _ := json.Marshal(options)
		spec := match.Spec{ID: id, Game: gameName, Options: raw, Players: players(2), Seats: []int{0, 1}}
		rec, _, err := r.Run(context.Background(), spec, match.Local{})
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		if !sameJSON(t, rec.Options, raw) {
			t.Errorf("game %s: the record's options %s, want the spec's %s", id, rec.Options, raw)
		}
		mu.Lock()
		defer mu.Unlock()
		return seen[id]
	}
	// checkCopy checks an option the worker got names a copy of the
	// coordinator's file want, by its own name, not the file itself.
	checkCopy := func(what, got, want, text string) {
		t.Helper()
		if got == want || strings.HasPrefix(got, home) {
			t.Errorf("%s: the worker was given the coordinator's path %s", what, got)
		}
		if filepath.Base(got) != filepath.Base(want) {
			t.Errorf("%s: the worker's copy %s lost the file's name %s", what, got, filepath.Base(want))
		}
		if data, err := os.ReadFile(got); err != nil || string(data) != text {
			t.Errorf("%s: the worker's copy %s: %q, %v", what, got, data, err)
		}
	}

	g := run("g1", "gomoku", map[string]any{"size": 15, "opening": opening})
	var gs gomoku.Settings
	if err := json.Unmarshal(g.Options, &gs); err != nil {
		t.Fatal(err)
	}
	checkCopy("--opening", gs.Opening, opening, "0,0, 1,1\n-1,0, 2,2\n")
	if gs.Size != 15 {
		t.Errorf("the other options changed on the way: size %d", gs.Size)
	}

	a := run("a1", "ants", map[string]any{"maps": []string{mapA, mapB, mapA}, "fill": true})
	var as ants.Settings
	if err := json.Unmarshal(a.Options, &as); err != nil {
		t.Fatal(err)
	}
	if len(as.Maps) != 3 || !as.Fill {
		t.Fatalf("ants options on the worker: %s", a.Options)
	}
	checkCopy("--map a", as.Maps[0], mapA, "rows 2\ncols 2\nplayers 2\nm a.\nm .b\n")
	checkCopy("--map b", as.Maps[1], mapB, "rows 2\ncols 2\nplayers 2\nm ab\nm ..\n")
	if as.Maps[2] != as.Maps[0] {
		t.Errorf("one map given twice is two copies: %s, %s", as.Maps[0], as.Maps[2])
	}

	// Options that name no file go as they are.
	if p := run("p1", "gomoku", map[string]any{"size": 12}); string(p.Options) != `{"size":12}` {
		t.Errorf("options without a file changed: %s", p.Options)
	}

	// The coordinator's files are gone; a new worker with an empty cache
	// plays the next game with the same opening.
	stop()
	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	startWorker(t, connect(t, srv.URL()), "second", 1, f)
	g2 := run("g2", "gomoku", map[string]any{"size": 15, "opening": opening})
	var gs2 gomoku.Settings
	json.Unmarshal(g2.Options, &gs2)
	if gs2.Opening == gs.Opening {
		t.Errorf("the second worker shares the first one's cache: %s", gs2.Opening)
	}
	if data, err := os.ReadFile(gs2.Opening); err != nil || string(data) != "0,0, 1,1\n-1,0, 2,2\n" {
		t.Errorf("the second worker's copy %s: %q, %v", gs2.Opening, data, err)
	}

	// A file that is not there stops the game on the coordinator, with
	// the option's path in the error.
	raw, _ := json.Marshal(map[string]any{"opening": filepath.Join(home, "missing.txt")})
	_, _, err := r.Run(context.Background(), match.Spec{ID: "m1", Game: "gomoku", Options: raw, Players: players(2), Seats: []int{0, 1}}, match.Local{})
	if err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("an opening file that does not exist: %v", err)
	}
}

// sameJSON says a and b are the same JSON value, each object's keys in
// any order; b's values must all be in a, which may have more (an
// option's default).
func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var va, vb map[string]any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	for k, v := range vb {
		if fmt.Sprint(va[k]) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// TestRestoreFiles: a record's options get the spec's paths back where
// they name a worker's cached copy, anywhere in the value; other values,
// numbers included, stay as they were.
func TestRestoreFiles(t *testing.T) {
	h := contentHash([]byte("m"))
	files := map[string]string{cachedName(h, "a.map"): "maps/a.map"}
	for _, tc := range []struct{ name, in, want string }{
		{"a top-level option", `{"map":"/w/cache/f-` + h + `/a.map","turns":30}`, `{"map":"maps/a.map","turns":30}`},
		{"in a list", `{"maps":["/c/f-` + h + `/a.map","x"],"seed":12345678901234567}`, `{"maps":["maps/a.map","x"],"seed":12345678901234567}`},
		{"no copy named", `{"map":"other.map","turns": 30}`, `{"map":"other.map","turns": 30}`},
		{"order and spacing kept", `{"turns": 30, "map": "/w/f-` + h + `/a.map", "b": [1.50]}`, `{"turns": 30, "map": "maps/a.map", "b": [1.50]}`},
		{"spelt with escapes", `{"z":1,"map":"\u002fw/f-` + h + `/a.map"}`, `{"map":"maps/a.map","z":1}`},
		{"another file of that content", `{"map":"/c/f-` + h + `/b.map"}`, `{"map":"/c/f-` + h + `/b.map"}`},
		{"the name alone", `{"map":"a.map"}`, `{"map":"a.map"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := restoreFiles(json.RawMessage(tc.in), files)
			if err != nil || string(got) != tc.want {
				t.Errorf("restoreFiles(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestWorkerRefusesOptionPaths: a job whose file options are anything
// but references to shipped content is answered with an error result,
// and the worker reads nothing at the path: Play is never called. A
// reference to content the object store does not hold is the worker's
// trouble (the job goes back to the queue), not the spec's.
func TestWorkerRefusesOptionPaths(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	nc := connect(t, srv.URL())
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	if err := setup(ctx, js, time.Second, 1); err != nil {
		t.Fatal(err)
	}
	obj, _ := js.ObjectStore(ctx, BotsBucket)
	played := 0
	w, err := NewWorker(ctx, nc, WorkerConfig{Name: "w", Games: testGames, Out: t.TempDir(), Cache: t.TempDir(),
		Play: func(ctx context.Context, spec match.Spec, _ match.Local) (*gameRecord, string, error) {
			played++
			return fakeRecord(spec), spec.ID + ".json", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.cache = &cache{dir: w.cfg.Cache, obj: obj}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("0,0\n"), 0o644)
	hash := contentHash([]byte("0,0\n"))
	for _, tc := range []struct {
		name    string
		options string
		want    string // in the result's error; "" for the worker's own trouble
	}{
		{"an absolute path", `{"opening":"` + secret + `"}`, "not a file the coordinator shipped"},
		{"a relative path", `{"opening":"secret.txt"}`, "not a file the coordinator shipped"},
		{"an ants map path", `{"maps":["` + secret + `"]}`, "not a file the coordinator shipped"},
		{"no hash", `{"opening":"arena-sha256:/secret.txt"}`, "no SHA-256"},
		{"a short hash", `{"opening":"arena-sha256:abc/secret.txt"}`, "no SHA-256"},
		{"a name leaving the cache", `{"opening":"arena-sha256:` + hash + `/../secret.txt"}`, "not a plain name"},
		{"a name with a folder", `{"opening":"arena-sha256:` + hash + `/a/b"}`, "not a plain name"},
		{"an unknown option", `{"openings":"x"}`, "unknown field"},
		{"content not in the store", `{"opening":"arena-sha256:` + hash + `/secret.txt"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gameName := "gomoku"
			if strings.Contains(tc.options, "maps") {
				gameName = "ants"
			}
			spec := match.Spec{ID: "x", Game: gameName, Options: json.RawMessage(tc.options), Players: players(2), Seats: []int{0, 1}}
			dg, _ := digest(spec)
			data, err := w.play(ctx, Job{Spec: spec, Bots: []Bot{{Builtin: true}, {Builtin: true}}, Digest: dg}, jobSubject("e", spec.ID))
			if played != 0 {
				t.Fatalf("the worker played a job whose options name %s", tc.options)
			}
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "fetch") {
					t.Errorf("content missing from the store: %s, %v; want the worker's error", data, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("the job went back to the queue: %v", err)
			}
			res, _, err := DecodeResult(data, spec, dg)
			if err != nil || !strings.Contains(res.Error, tc.want) {
				t.Errorf("result %+v (%v), want an error with %q", res, err, tc.want)
			}
		})
	}
}

// TestParseFileRef: a reference written by fileRef reads back; anything
// else is refused.
func TestParseFileRef(t *testing.T) {
	hash := contentHash([]byte("x"))
	if h, n, err := parseFileRef(fileRef(hash, "open.txt")); err != nil || h != hash || n != "open.txt" {
		t.Errorf("round trip: %s %s %v", h, n, err)
	}
	for _, bad := range []string{"", "/etc/passwd", "arena-sha256:", "arena-sha256:" + hash, "arena-sha256:" + hash + "/",
		"arena-sha256:" + hash + "/..", "arena-sha256:" + strings.ToUpper(hash) + "/a", "ARENA-SHA256:" + hash + "/a",
		"arena-sha256:" + hash + "x/a", "arena-sha256:" + hash + "/a\x00b"} {
		if _, _, err := parseFileRef(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseFileRef: a reference the worker takes is one fileRef writes,
// with a SHA-256 and one plain file name.
func FuzzParseFileRef(f *testing.F) {
	f.Add(fileRef(contentHash([]byte("x")), "open.txt"))
	f.Add("arena-sha256:../x")
	f.Fuzz(func(t *testing.T, s string) {
		hash, name, err := parseFileRef(s)
		if err != nil {
			return
		}
		if fileRef(hash, name) != s || !isHash(hash) || plainFileName(name) != nil || filepath.Base(name) != name {
			t.Fatalf("%q taken as %q, %q", s, hash, name)
		}
	})
}

// BenchmarkOptionFiles is what a game with an opening file costs each
// side per game once the file is in the store and the cache: the
// coordinator rewriting the options (ship) and the worker pointing them
// at its copy (fetch); and both sides' look at options naming no file.
func BenchmarkOptionFiles(b *testing.B) {
	srv := startServer(b, b.TempDir(), "")
	js, _ := jetstream.New(connect(b, srv.URL()))
	ctx := context.Background()
	if err := setup(ctx, js, time.Second, 1); err != nil {
		b.Fatal(err)
	}
	obj, _ := js.ObjectStore(ctx, BotsBucket)
	opening := filepath.Join(b.TempDir(), "openings.txt")
	os.WriteFile(opening, []byte(strings.Repeat("0,0, 1,1, 2,2\n", 500)), 0o644)
	raw, _ := json.Marshal(map[string]any{"size": 15, "rule": 1, "opening": opening})
	spec := match.Spec{ID: "g", Game: "gomoku", Options: raw, Players: players(2), Seats: []int{0, 1}}
	s := newShipper(obj, testGames)
	c := &cache{dir: b.TempDir(), obj: obj}
	sent, _, err := s.options(ctx, spec)
	if err != nil {
		b.Fatal(err)
	}
	wire := spec
	wire.Options = sent
	if _, err := c.options(ctx, testGames, wire); err != nil {
		b.Fatal(err)
	}
	b.Run("ship", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := s.options(ctx, spec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fetch", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.options(ctx, testGames, wire); err != nil {
				b.Fatal(err)
			}
		}
	})
	// What every other game pays: options that name no file, looked at
	// on both sides.
	none := match.Spec{ID: "g", Game: "gomoku", Options: json.RawMessage(`{"size":15,"rule":1}`), Players: players(2), Seats: []int{0, 1}}
	b.Run("no-file", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := s.options(ctx, none); err != nil {
				b.Fatal(err)
			}
			if _, err := c.options(ctx, testGames, none); err != nil {
				b.Fatal(err)
			}
		}
	})
}
