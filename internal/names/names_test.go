package names

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, want string // want "": accepted
	}{
		{"cup", ""},
		{"gomoku-20261125-094812-3fa1c2", ""},
		{"my cup 2026", ""},
		{"кубок", ""},
		{"a..b", ""},
		{strings.Repeat("x", MaxName), ""},
		{"", "empty"},
		{"../x", "starts with a dot"},
		{"..", "starts with a dot"},
		{".hidden", "starts with a dot"},
		{"a/../../x", `holds '/'`},
		{"a/b", `holds '/'`},
		{`a\b`, `holds '\\'`},
		{"a\x00b", "control character"},
		{"a\nb", "control character"},
		{"a\u0085b", "control character"},
		{"-x", "dash"},
		{" x", "space"},
		{"x ", "space"},
		{"a\xffb", "UTF-8"},
		{strings.Repeat("x", MaxName+1), "bytes long"},
	} {
		err := Check(tc.name)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%q) = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Check(%q) = %v, want %q", tc.name, err, tc.want)
		case err != nil && strings.ContainsAny(err.Error(), "\n\r"):
			t.Errorf("Check(%q): error of more than one line: %q", tc.name, err)
		}
	}
	if err := CheckID(strings.Repeat("x", MaxName+50)); err != nil {
		t.Errorf("an ID longer than a name: %v", err)
	}
	if err := CheckID(strings.Repeat("x", MaxID+1)); err == nil {
		t.Error("an over-long ID accepted")
	}
}

// FuzzCheck: an accepted name, made into the files arena writes for it,
// stays one file directly in the folder, and the file can be created.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"cup", "../x", "a/b", ".", "..", "x\x00", " a", "кубок", "a..b"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, name string) {
		if Check(name) != nil {
			return
		}
		p := filepath.Join(dir, name+"-summary.txt")
		if filepath.Dir(p) != dir || filepath.Base(p) != name+"-summary.txt" {
			t.Fatalf("accepted %q leaves the folder: %s", name, p)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatalf("accepted %q cannot be created: %v", name, err)
		}
		os.Remove(p)
	})
}
