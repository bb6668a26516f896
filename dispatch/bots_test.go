package dispatch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/match"
)

// TestBotsTravelByContent: a bot folder of several files and a program
// of its own go to a worker with another working folder and cache; the
// worker runs them from its cache, never from the coordinator's paths,
// fetches each piece once, and arena's own bot is the worker's own
// executable.
func TestBotsTravelByContent(t *testing.T) {
	home := t.TempDir() // the coordinator's machine
	folder := filepath.Join(home, "mybot")
	files := map[string]string{
		"run.sh":          "#!/bin/sh\nexec cat\n",
		"weights.txt":     "1 2 3\n",
		"lib/helper.txt":  "help\n",
		"lib/deep/x.conf": "x=1\n",
	}
	for name, data := range files {
		path := filepath.Join(folder, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	program := filepath.Join(home, "solo-bot")
	os.WriteFile(program, []byte("#!/bin/sh\necho solo\n"), 0o755)
	book := filepath.Join(home, "book.txt")
	os.WriteFile(book, []byte("opening book\n"), 0o644)
	ps := []match.Player{
		{Name: "folder", Command: "./run.sh --fast", Args: []string{filepath.Join(folder, "run.sh"), "--fast"}, Files: folder},
		{Name: "solo", Command: "solo-bot book.txt", Args: []string{program, book, "--x"}},
		{Name: "py", Command: "python3 -u", Args: []string{"/usr/bin/python3", "-u"}},
		{Name: "builtin", Command: "builtin", Args: []string{"/coordinator/arena", "bot", "gomoku", "--depth", "2"}, Builtin: true},
	}

	srv := startServer(t, t.TempDir(), "")
	var seen []match.Spec
	f := newFakeGames(0)
	f.check = func(spec match.Spec) error {
		seen = append(seen, spec)
		return nil
	}
	// The worker runs in a folder of its own: nothing of home is there.
	t.Chdir(t.TempDir())
	startWorker(t, connect(t, srv.URL()), "far", 1, f)
	r := newRunner(t, connect(t, srv.URL()), "bots", time.Second, nil)
	for i, seats := range [][]int{{0, 1}, {2, 3}, {1, 0}} {
		spec := match.Spec{ID: fmt.Sprintf("bots-%d", i), Game: "gomoku", Players: ps, Seats: seats}
		if _, _, err := r.Run(context.Background(), spec, match.Local{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("%d games played", len(seen))
	}
	got := seen[0].Players
	// Nothing the worker runs is a path of the coordinator's.
	for _, p := range got {
		for _, a := range append(p.Args, p.Files) {
			if strings.HasPrefix(a, home) || a == "/coordinator/arena" {
				t.Errorf("bot %s: the worker was given the coordinator's path %s", p.Name, a)
			}
		}
	}
	// The folder: every file, its content and its mode, from the cache.
	fp := got[0]
	for name, data := range files {
		b, err := os.ReadFile(filepath.Join(fp.Files, name))
		if err != nil || string(b) != data {
			t.Errorf("folder file %s on the worker: %q, %v", name, b, err)
		}
	}
	if fp.Args[0] != filepath.Join(fp.Files, "run.sh") || fp.Args[1] != "--fast" {
		t.Errorf("folder bot's command on the worker: %q", fp.Args)
	}
	if st, err := os.Stat(fp.Args[0]); err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Errorf("the folder's program is not executable on the worker: %v %v", st.Mode(), err)
	}
	// The program and the file it reads: each fetched by hash.
	sp := got[1]
	if b, _ := os.ReadFile(sp.Args[0]); string(b) != "#!/bin/sh\necho solo\n" || filepath.Base(sp.Args[0]) != "solo-bot" {
		t.Errorf("solo program on the worker: %s: %q", sp.Args[0], b)
	}
	if b, _ := os.ReadFile(sp.Args[1]); string(b) != "opening book\n" || sp.Args[2] != "--x" {
		t.Errorf("solo's arguments on the worker: %q (%q)", sp.Args, b)
	}
	// The system's interpreter is taken by name; arena's own bot is the
	// worker's executable.
	if a := got[2].Args; len(a) != 2 || a[0] != "/usr/bin/python3" {
		t.Errorf("python bot on the worker: %q", a)
	}
	if a := got[3].Args; strings.Join(a, " ") != "/arena-itself bot gomoku --depth 2" || !got[3].Builtin {
		t.Errorf("arena's own bot on the worker: %q", a)
	}
	// Every game of the match saw the same cached pieces.
	for _, s := range seen[1:] {
		if s.Players[0].Files != fp.Files || s.Players[1].Args[0] != sp.Args[0] {
			t.Errorf("game %s: bots at other places: %+v", s.ID, s.Players)
		}
	}
	// The object store holds three pieces: the folder, the program, the
	// book.
	js, _ := jetstream.New(connect(t, srv.URL()))
	obj, err := js.ObjectStore(context.Background(), BotsBucket)
	if err != nil {
		t.Fatal(err)
	}
	list, err := obj.List(context.Background())
	if err != nil || len(list) != 3 {
		t.Errorf("object store holds %d pieces (%v), want 3", len(list), err)
	}
}

// TestCacheRefusesWrongContent: a piece whose content does not hash to
// its name is refused and not cached.
func TestCacheRefusesWrongContent(t *testing.T) {
	srv := startServer(t, t.TempDir(), "")
	js, _ := jetstream.New(connect(t, srv.URL()))
	ctx := context.Background()
	if err := setup(ctx, js, time.Second, 1); err != nil {
		t.Fatal(err)
	}
	obj, _ := js.ObjectStore(ctx, BotsBucket)
	good := []byte("the real bot")
	liar := contentHash([]byte("another bot"))
	if _, err := obj.PutBytes(ctx, liar, good); err != nil {
		t.Fatal(err)
	}
	c := &cache{dir: t.TempDir(), obj: obj}
	if _, err := c.path(ctx, liar, "bot"); err == nil || !strings.Contains(err.Error(), "hashes to") {
		t.Errorf("a piece under a false hash: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.dir, "f-"+liar, "bot")); err == nil {
		t.Error("the false piece was cached")
	}
	for _, bad := range []string{"../../etc", "ABC", ""} {
		if _, err := c.path(ctx, bad, ""); err == nil {
			t.Errorf("hash %q accepted", bad)
		}
	}
	if _, err := c.path(ctx, contentHash(good), "../x"); err == nil {
		t.Error("a file name leaving the cache accepted")
	}
}

// TestPackFolder: the same contents give the same bytes, and unpacking
// gives the contents back; a tar leaving its folder is refused.
func TestPackFolder(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		os.MkdirAll(filepath.Join(d, "sub"), 0o755)
		os.WriteFile(filepath.Join(d, "sub", "f"), []byte("f"), 0o644)
		os.WriteFile(filepath.Join(d, "g"), []byte("g"), 0o755)
	}
	pa, err := packFolder(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := packFolder(b)
	if !bytes.Equal(pa, pb) {
		t.Error("the same contents packed differently")
	}
	dst := t.TempDir()
	if err := unpackFolder(pa, dst); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dst, "sub", "f")); string(data) != "f" {
		t.Errorf("unpacked sub/f: %q", data)
	}
}
