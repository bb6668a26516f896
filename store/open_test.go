package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSQLiteErrors: a file that cannot be a store gives a one-line
// error naming the file, and is left as it was.
func TestOpenSQLiteErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := []byte(strings.Repeat("this is not a database\n", 200))
	truncated := func() string {
		// A real store cut short in its header.
		path := filepath.Join(dir, "real.db")
		s := open(t, path)
		s.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, "truncated.db")
		copy(data[:16], "SQLite format 2\x00")
		os.WriteFile(bad, data, 0o644)
		return bad
	}()
	for _, c := range []struct {
		name string
		path string
		want string
	}{
		{"garbage", write(t, filepath.Join(dir, "garbage.db"), garbage), "not a database"},
		{"bad header", truncated, "not a database"},
		{"a directory", dir, "directory"},
		{"parent is a file", filepath.Join(write(t, filepath.Join(dir, "file"), nil), "x.db"), "not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(c.path)
			s, err := Open(context.Background(), c.path)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%s) succeeded", c.path)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.path) || !strings.Contains(msg, c.want) || strings.ContainsAny(msg, "\r\n") {
				t.Errorf("error %q: want one line naming %s and saying %q", msg, c.path, c.want)
			}
			if after, _ := os.ReadFile(c.path); string(after) != string(before) {
				t.Errorf("Open changed the file")
			}
		})
	}
}

func write(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenCreatesFolder: the default store lives in the output folder,
// which may not exist yet.
func TestOpenCreatesFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out", "deeper", "arena.db")
	s := open(t, "sqlite:"+path)
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	// And an odd file name is a file name, not URI syntax.
	odd := filepath.Join(t.TempDir(), "a?b#c%20 d.db")
	open(t, odd).Close()
	if _, err := os.Stat(odd); err != nil {
		t.Fatalf("odd name: %v", err)
	}
}

// TestOpenExisting: a SQLite file that is not there is reported with
// ErrNoStore and nothing is created, not even its folder; one that is
// there opens as with Open.
func TestOpenExisting(t *testing.T) {
	dir := t.TempDir()
	for _, dsn := range []string{
		filepath.Join(dir, "arena.db"),
		filepath.Join(dir, "sub", "arena.db"),
		"sqlite:" + filepath.Join(dir, "other.db"),
	} {
		t.Run(dsn, func(t *testing.T) {
			s, err := OpenExisting(context.Background(), dsn)
			if err == nil {
				s.Close()
				t.Fatalf("OpenExisting(%s) opened a store that was not there", dsn)
			}
			if !errors.Is(err, ErrNoStore) || !strings.Contains(err.Error(), strings.TrimPrefix(dsn, "sqlite:")) {
				t.Errorf("error %q: want ErrNoStore naming the file", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("OpenExisting left %v behind", entries)
			}
		})
	}
	path := filepath.Join(dir, "made.db")
	open(t, path).Close()
	s, err := OpenExisting(context.Background(), path)
	if err != nil {
		t.Fatalf("OpenExisting of an existing store: %v", err)
	}
	s.Close()
}
