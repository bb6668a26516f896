package ants

import (
	"slices"
	"strings"
	"testing"
)

// The fast paths for ASCII text must split and strip as the general
// Unicode ones do.
func FuzzPyText(f *testing.F) {
	for _, s := range []string{"o 1 2 n", " o\t1  2 n ", "\x1co 1\x1f2\v n\r", "o\u00a01 2 n", "o\u00851", "", "   ", "a\x7fb c", "o ٣ 1 n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := pyFieldsInto(nil, s), strings.FieldsFunc(s, isPySpace); !slices.Equal(got, want) {
			t.Fatalf("pyFieldsInto(%q) = %q, want %q", s, got, want)
		}
		if got, want := pyStrip(s), strings.TrimFunc(s, isPySpace); got != want {
			t.Fatalf("pyStrip(%q) = %q, want %q", s, got, want)
		}
	})
}
