package version

import (
	"runtime/debug"
	"testing"
)

// TestFromBuildInfo reads the version from each kind of build
// information Go records.
func TestFromBuildInfo(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "a49cde3f0e1d2c3b4a5968778695a4b3c2d1e0f9"
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"tagged module", "v1.4.0", vcs(rev, "false"), "v1.4.0"},
		{"pseudo-version", "v0.0.0-20261125094217-a49cde3f0e1d+dirty", nil, "v0.0.0-20261125094217-a49cde3f0e1d+dirty"},
		{"devel with a commit", "(devel)", vcs(rev, "false"), "devel-a49cde3f0e1d"},
		{"devel with changes", "(devel)", vcs(rev, "true"), "devel-a49cde3f0e1d-dirty"},
		{"short revision", "", vcs("abc", "false"), "devel-abc"},
		{"no version control", "(devel)", nil, "devel"},
		{"nothing", "", nil, "devel"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "arena", Version: tc.version}, Settings: tc.settings}
			if got := fromBuildInfo(bi); got != tc.want {
				t.Errorf("version %q, want %q", got, tc.want)
			}
		})
	}
}

// TestString: the running binary has a version, and a stamp given at
// link time wins.
func TestString(t *testing.T) {
	if String() == "" {
		t.Fatal("empty version")
	}
	t.Cleanup(func() { stamp = "" })
	stamp = "v9.9.9"
	if got := String(); got != "v9.9.9" {
		t.Errorf("with a stamp: %q", got)
	}
}
