package ants

import (
	"strings"
	"unicode"
)

// The official engine is Python: it splits and strips lines with Python's
// notion of whitespace and reads numbers with int(). Orders and maps that
// a bot or a user sends are judged the same way here.

func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

func pyStrip(s string) string { return strings.TrimFunc(s, isPySpace) }

func pyFields(s string) []string { return strings.FieldsFunc(s, isPySpace) }

// pyInt parses s as Python's int(s) does for base-10 ASCII text: optional
// surrounding whitespace, an optional sign, digits with single underscores
// between them. ok is false when int() would raise; big is set when the
// value is valid but does not fit in 32 bits (every such row or column is
// out of bounds anyway).
func pyInt(s string) (v int, ok, big bool) {
	s = pyStrip(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false, false
	}
	var n int64
	prevDigit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if n < 1<<40 {
				n = n*10 + int64(c-'0')
			} else {
				big = true
			}
			prevDigit = true
		case c == '_' && prevDigit && i+1 < len(s):
			prevDigit = false
		default:
			return 0, false, false
		}
	}
	if !prevDigit {
		return 0, false, false
	}
	if n > 1<<31 {
		big = true
	}
	if neg {
		n = -n
	}
	return int(n), true, big
}
