package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// uniqueEventName names a tournament started without --name: the game
// and the time it started, with a random part so that two runs in the
// same second differ. Each run of the same command is so a new event;
// --name (or --resume) continues one.
func uniqueEventName(gameName string, now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return gameName + "-" + now.Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// printNextSteps tells, after a tournament, what to try next with the
// tournament's actual name and store.
func printNextSteps(w io.Writer, name, dsn string) {
	db := ""
	if def, err := filepath.Abs(filepath.Join("arena-out", "arena.db")); err != nil || def != dsn {
		db = " --db " + shellQuote(dsn)
	}
	fmt.Fprintf(w, "next:\n  arena standings %s%s   # these standings again\n", shellQuote(name), db)
	fmt.Fprintf(w, "  arena serve%s   # replay the games and follow new ones in a browser\n", db)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`&;|<>()*?[]#~!{}") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
