package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestUniqueEventName(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 48, 12, 0, time.UTC)
	names := map[string]bool{}
	for range 4 {
		name := uniqueEventName("gomoku", now)
		if !regexp.MustCompile(`^gomoku-20261125-094812-[0-9a-f]{6}$`).MatchString(name) {
			t.Errorf("name %q", name)
		}
		names[name] = true
	}
	if len(names) == 1 {
		t.Errorf("four names in the same second are all %v", names)
	}
}

func TestPrintNextSteps(t *testing.T) {
	def, err := filepath.Abs(filepath.Join("arena-out", "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, dsn, want string }{
		{"cup", def, "next:\n  arena standings cup   # these standings again\n  arena serve   # replay the games and follow new ones in a browser\n"},
		{"cup", "/tmp/my out/a.db", "  arena standings cup --db '/tmp/my out/a.db'   # these standings again\n  arena serve --db '/tmp/my out/a.db'   #"},
		{"it's", "postgres://u@h/db", "  arena standings 'it'\\''s' --db postgres://u@h/db   #"},
	}
	for _, tc := range tests {
		var b strings.Builder
		printNextSteps(&b, tc.name, tc.dsn)
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("printNextSteps(%q, %q):\n%s\nwant it to hold:\n%s", tc.name, tc.dsn, b.String(), tc.want)
		}
	}
}

// TestTournamentRerun runs the README's command twice: each run without
// --name is a new event, ends by naming the commands to try next, and the
// standings command it names works; with --name a rerun continues the
// same event and plays nothing more.
func TestTournamentRerun(t *testing.T) {
	out := t.TempDir()
	db := filepath.Join(out, "arena.db")
	args := append([]string{"tournament", "gomoku", "--out", out, "--size", "10", "--turn-time", "2s"}, quickBots(t, 2, "")...)
	standingsCmd := regexp.MustCompile(`arena standings (\S+) --db (\S+)   #`)
	var names []string
	for run := 1; run <= 2; run++ {
		_, stderr, err := arena(t, args...)
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, stderr)
		}
		m := standingsCmd.FindStringSubmatch(stderr)
		if m == nil || !strings.Contains(stderr, "arena serve --db "+db) {
			t.Fatalf("run %d: no next steps with the store:\n%s", run, stderr)
		}
		if m[2] != db {
			t.Errorf("run %d: next steps name the store %s, want %s", run, m[2], db)
		}
		names = append(names, m[1])
		if n := len(storedGames(t, db, m[1])); n != 2 {
			t.Errorf("run %d: tournament %s has %d games, want 2", run, m[1], n)
		}
		stdout, serr, err := arena(t, "standings", m[1], "--db", m[2])
		if err != nil || !strings.Contains(stdout, "b0") {
			t.Errorf("run %d: the named standings command: %v\n%s%s", run, err, stdout, serr)
		}
	}
	if names[0] == names[1] {
		t.Errorf("both runs are tournament %s: the second played nothing new", names[0])
	}

	named := append(args, "--name", "cup")
	for run := 1; run <= 2; run++ {
		_, stderr, err := arena(t, named...)
		if err != nil {
			t.Fatalf("--name run %d: %v\n%s", run, err, stderr)
		}
		if run == 2 && !strings.Contains(stderr, "tournament cup: 2 of 2 games already played") {
			t.Errorf("the rerun with --name did not continue the event:\n%s", stderr)
		}
	}
	if n := len(storedGames(t, db, "cup")); n != 2 {
		t.Errorf("tournament cup has %d games after two runs, want 2", n)
	}
	if _, err := os.Stat(filepath.Join(out, "cup-standings.txt")); err != nil {
		t.Error(err)
	}
}
