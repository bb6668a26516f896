package game

import (
	"strconv"
	"strings"
)

// Count writes a number of things in words: "1 move", "2 moves", "0 plies".
// noun is the singular; the plural follows the regular English rules
// (ply/plies, box/boxes, move/moves), which every count arena prints
// follows. Every record and summary that counts says it this way, so none
// reads "after 1 moves".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Plural(n, noun)
}

// Plural returns noun as it goes with a count of n.
func Plural(n int, noun string) string {
	if n == 1 || n == -1 || noun == "" {
		return noun
	}
	last := noun[len(noun)-1]
	switch {
	case last == 'y' && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	case last == 's' || last == 'x' || strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "sh"):
		return noun + "es"
	}
	return noun + "s"
}
