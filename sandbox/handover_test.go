package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestHandOverTrees: every file and folder under the bot's folder
// becomes the bot's user's, however deep; a symbolic link is handed over
// itself, and what it points to outside stays the organiser's.
func TestHandOverTrees(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("handing files to another user needs root")
	}
	s := &Sandbox{hostID: nobody, gid: nobody}
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret")
	for _, f := range []string{secret, filepath.Join(dir, "PLOCHA.DAT"), filepath.Join(dir, "brain", "deep", "state")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(dir, "brain", "link")); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second time finds everything handed over already
		if err := s.handOverTrees([]string{dir}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		path string
		uid  int
	}{{dir, nobody}, {filepath.Join(dir, "PLOCHA.DAT"), nobody}, {filepath.Join(dir, "brain"), nobody},
		{filepath.Join(dir, "brain", "deep", "state"), nobody}, {filepath.Join(dir, "brain", "link"), nobody},
		{secret, 0}, {outside, 0}} {
		info, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if uid := int(info.Sys().(*syscall.Stat_t).Uid); uid != c.uid {
			t.Errorf("%s belongs to %d, want %d", c.path, uid, c.uid)
		}
	}
}
