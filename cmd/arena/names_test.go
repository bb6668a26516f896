package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/internal/names"
	"arena/store"
	"arena/web"
)

// TestNamesRefused: every command that names files after a --name
// refuses one that would leave --out (or hide in it), with one line,
// before it writes anything anywhere.
func TestNamesRefused(t *testing.T) {
	bad := []struct{ name, want string }{
		{"../x", "starts with a dot"},
		{"a/../../x", `holds '/'`},
		{"a/b", `holds '/'`},
		{".hidden", "starts with a dot"},
		{"a\x00b", "control character"},
		{strings.Repeat("n", names.MaxName+1), "bytes long"},
	}
	commands := [][]string{
		{"match", "gomoku", "--bot", "builtin", "--bot", "builtin", "--games", "1", "--size", "8"},
		{"tournament", "gomoku", "--bot", "builtin", "--bot", "builtin", "--size", "8"},
		{"sprt", "gomoku", "--bot", "builtin", "--bot", "builtin", "--size", "8", "--elo1", "5"},
	}
	for _, c := range commands {
		for _, b := range bad {
			t.Run(c[0]+" "+b.want, func(t *testing.T) {
				if strings.ContainsRune(b.name, 0) {
					t.Skip("a NUL cannot be an argument of a process") // refused by names.Check, tested there
				}
				root := t.TempDir()
				dir := filepath.Join(root, "run")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				args := append(slices.Clone(c), "--out", "out", "--name", b.name)
				stdout, stderr, code := runArena(t, dir, args...)
				oneLineError(t, stdout, stderr, code, "--name", b.want)
				for _, d := range []string{root, dir} {
					entries, _ := os.ReadDir(d)
					for _, e := range entries {
						if e.Name() != "run" {
							t.Errorf("%s: %s was written", c[0], filepath.Join(d, e.Name()))
						}
					}
				}
			})
		}
	}
}

// TestServeLauncherRefusesBadIDs: the launcher behind the web page
// checks a game's ID before it claims a file for it.
func TestServeLauncherRefusesBadIDs(t *testing.T) {
	l, _ := testLauncher(t)
	for _, id := range []string{"../escape", "a/b", ".x", strings.Repeat("i", names.MaxID+1)} {
		req := web.PlayRequest{ID: id, Game: "gomoku", Players: []web.Entrant{{Bot: "builtin"}, {Bot: "rnd"}}}
		_, err := l.Play(context.Background(), req, nil)
		if err == nil || !strings.Contains(err.Error(), "game ID") {
			t.Errorf("ID %q: %v, want refused", id, err)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(l.out), "escape.json")); err == nil {
		t.Error("a record was claimed outside --out")
	}
}

// TestExportRefusesBadIDs: a store holding a game whose ID would leave
// the export folder (written by an older arena, or by hand) is refused.
func TestExportRefusesBadIDs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTournament(ctx, store.Tournament{Name: "cup", Game: "gomoku", Args: []string{"gomoku"}}); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveGame(ctx, store.Game{ID: "../../escaped", Tournament: "cup", Players: []string{"a", "b"},
		Seats: []int{0, 1}, Reason: "five", Record: []byte(`{"game":"gomoku"}`)}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	stdout, stderr, code := runArena(t, dir, "export", "cup", "--db", db, "--out", "x/y")
	oneLineError(t, stdout, stderr, code, `game ID "../../escaped"`)
	if _, err := os.Stat(filepath.Join(dir, "escaped.json")); err == nil {
		t.Error("export wrote outside its folder")
	}
}
