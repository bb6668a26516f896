package bot

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestResolveCommand reads relative paths in a command against the folder
// it was given in, as a shell started there would, and leaves options and
// words that name nothing alone.
func TestResolveCommand(t *testing.T) {
	base := t.TempDir()
	for _, dir := range []string{"bots", "lib"} {
		if err := os.Mkdir(filepath.Join(base, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, mode := range map[string]os.FileMode{"bots/pbrain-x.py": 0o644, "bots/x.jar": 0o644, "bots/run": 0o755} {
		if err := os.WriteFile(filepath.Join(base, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	sh, err := ResolveProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	in := func(name string) string { return filepath.Join(base, name) }
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"interpreter and script", []string{"sh", "bots/pbrain-x.py"}, []string{sh, in("bots/pbrain-x.py")}},
		{"dot-dot path", []string{"sh", "bots/../bots/x.jar"}, []string{sh, in("bots/x.jar")}},
		{"options left alone", []string{"sh", "-jar", "bots/x.jar", "--level=3", "-cp"}, []string{sh, "-jar", in("bots/x.jar"), "--level=3", "-cp"}},
		{"words naming nothing", []string{"sh", "bots/missing.py", "7", "hello world"}, []string{sh, "bots/missing.py", "7", "hello world"}},
		{"a folder is a path too", []string{"sh", "lib"}, []string{sh, in("lib")}},
		{"absolute stays", []string{"sh", "/etc/hostname"}, []string{sh, "/etc/hostname"}},
		{"relative program", []string{"bots/run", "bots/x.jar"}, []string{in("bots/run"), in("bots/x.jar")}},
		{"dot-slash program", []string{"./bots/run"}, []string{in("bots/run")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveCommand(tc.args, base)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ResolveCommand(%q) = %q, want %q", tc.args, got, tc.want)
			}
		})
	}
	for _, bad := range [][]string{nil, {"bots/missing"}, {"bots/x.jar"}, {"no-such-program-anywhere"}} {
		if got, err := ResolveCommand(bad, base); err == nil {
			t.Errorf("ResolveCommand(%q) = %q, want an error", bad, got)
		}
	}
}
