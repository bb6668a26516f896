package bot

import (
	"strings"
	"testing"
)

// FuzzStatState checks that any stat text gives a state letter found
// right after the command name, or 0, and never panics.
func FuzzStatState(f *testing.F) {
	for _, seed := range []string{
		"1234 (sh) S 1 1234 1234 0 -1",
		"77 (a) b) c) R 1 2",
		"9 (x)",
		"9 (x) ",
		"",
		")",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st := statState(data)
		if st == 0 {
			return
		}
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 || i+2 >= len(data) || data[i+2] != st {
			t.Fatalf("statState(%q) = %q, not the byte after the last \") \"", data, st)
		}
	})
}

// FuzzLastLines checks that the quoted stderr is one line of at most n
// parts, each from the text.
func FuzzLastLines(f *testing.F) {
	for _, seed := range []string{"", "a\nb\r\nc\r", "\n\n  \n", "Traceback:\n  File x\nError: y\n"} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, text string, n int) {
		if n < 1 || n > 50 {
			return
		}
		got := lastLines(text, n, 200)
		if strings.ContainsAny(got, "\r\n") {
			t.Fatalf("lastLines(%q) = %q spans lines", text, got)
		}
		if got == "" {
			return
		}
		parts := strings.Split(got, " | ")
		if len(parts) > n && !strings.Contains(text, " | ") {
			t.Fatalf("lastLines(%q, %d) = %q has %d parts", text, n, got, len(parts))
		}
	})
}
