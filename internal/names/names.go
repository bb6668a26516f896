// Package names checks the names arena turns into file names: a match's,
// a tournament's or an SPRT's name (the prefix of its game IDs) and the
// game IDs themselves. Each becomes part of a path in --out, so a name
// that climbs out of it ("../x"), hides (".x"), holds a separator or a
// NUL, or is too long for a file system is refused, wherever it comes
// from: a flag, the web page or a store.
package names

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	// MaxName is the longest name, in bytes: a game ID adds about 20
	// bytes and a transcript the player's name, within a file system's
	// 255.
	MaxName = 100
	// MaxID is the longest game ID, in bytes.
	MaxID = 200
)

// Check returns nil if name can name a match, tournament or SPRT, or an
// error (one line, without the name: the caller says which flag or
// field it was) saying why not.
func Check(name string) error { return check(name, MaxName) }

// CheckID is Check for a game ID, which may be longer.
func CheckID(id string) error { return check(id, MaxID) }

func check(s string, maxLen int) error {
	switch {
	case s == "":
		return fmt.Errorf("empty: want 1 to %d characters", maxLen)
	case len(s) > maxLen:
		return fmt.Errorf("%d bytes long: at most %d", len(s), maxLen)
	case !utf8.ValidString(s):
		return fmt.Errorf("not valid UTF-8")
	case strings.HasPrefix(s, "."):
		return fmt.Errorf("starts with a dot: it would be a hidden file, or climb out of the folder")
	case strings.HasPrefix(s, "-"):
		return fmt.Errorf("starts with a dash: it would read as an option")
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("starts or ends with a space")
	}
	for _, r := range s {
		switch {
		case r == '/' || r == '\\':
			return fmt.Errorf("holds %q: a name is one file name, not a path", r)
		case r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Errorf("holds the control character %q", r)
		}
	}
	return nil
}
