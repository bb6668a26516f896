// Package version says which arena this is: the one string that
// "arena --version" prints and the web page's /api/info reports.
package version

import "runtime/debug"

// stamp is set when a release is linked:
//
//	go build -ldflags "-X arena/internal/version.stamp=v1.2.0" ./cmd/arena
//
// Left empty, the version comes from the build information Go records.
var stamp string

// String is arena's version: the stamp given at link time, else the
// module version Go recorded (a tag, or a pseudo-version from the
// commit), else "devel" with the commit the binary was built from.
func String() string {
	if stamp != "" {
		return stamp
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo reads a version from Go's build information.
func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return "devel"
	}
	v := "devel-" + revision[:min(len(revision), 12)]
	if modified {
		v += "-dirty"
	}
	return v
}
