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

func pyStrip(s string) string {
	// Orders come already trimmed: two byte tests instead of two runes.
	if s == "" || (isPlainASCII(s[0]) && isPlainASCII(s[len(s)-1])) {
		return s
	}
	return strings.TrimFunc(s, isPySpace)
}

// isPlainASCII: an ASCII byte that is not Python whitespace.
func isPlainASCII(c byte) bool { return c > ' ' && c < 0x7f }

// isASCIISpace is isPySpace for a byte below 0x80.
func isASCIISpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)
}

func pyFields(s string) []string { return strings.FieldsFunc(s, isPySpace) }

// pyFieldsInto is pyFields appending to dst (orders are split every turn:
// a buffer on the caller's stack saves an allocation per line).
func pyFieldsInto(dst []string, s string) []string {
	// ASCII text (every order a bot sends) is split byte by byte; text
	// with other characters goes rune by rune from the start again.
	n, start := len(dst), -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return pyFieldsRunes(dst[:n], s)
		}
		if isASCIISpace(c) {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

func pyFieldsRunes(dst []string, s string) []string {
	start := -1
	for i, r := range s {
		if isPySpace(r) {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

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
	if len(s) <= 9 {
		// the common case, plain ASCII digits, without the rune walk
		n, plain := 0, true
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				plain = false
				break
			}
			n = n*10 + int(s[i]-'0')
		}
		if plain {
			if neg {
				n = -n
			}
			return n, true, false
		}
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
