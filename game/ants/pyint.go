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
	runes := []rune(s)
	for i, c := range runes {
		if d, isDigit := digitValue(c); isDigit {
			if n < 1<<40 {
				n = n*10 + int64(d)
			} else {
				big = true
			}
			prevDigit = true
			continue
		}
		if c == '_' && prevDigit && i+1 < len(runes) {
			prevDigit = false
			continue
		}
		return 0, false, false
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

// digitValue is the decimal value of a Unicode decimal digit, as Python's
// int() reads any of them ('٣' is 3): digits come in runs of ten from a
// zero, and the run is found by walking back over digits.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	start := r
	for unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10, true
}
