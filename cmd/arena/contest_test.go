package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestContestCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	if _, stderr, err := arena(t, "contest", "create", "spring", "--game", "gomoku", "--db", db, "--size", "15"); err != nil {
		t.Fatalf("create: %v\n%s", err, stderr)
	}
	if _, _, err := arena(t, "contest", "create", "spring", "--game", "gomoku", "--db", db); err == nil || !strings.Contains(err.Error(), "already stored") {
		t.Errorf("creating it twice: %v", err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown game", []string{"contest", "create", "x", "--game", "chess", "--db", db}, "chess"},
		{"bad game option", []string{"contest", "create", "x", "--game", "gomoku", "--db", db, "--size", "zero"}, "size"},
		{"no name", []string{"contest", "create", "--game", "gomoku", "--db", db}, "NAME"},
		{"user of no contest", []string{"contest", "user", "add", "ann", "--contest", "nope", "--db", db}, "not found"},
	} {
		if _, _, err := arena(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	tokens := map[string]bool{}
	for _, u := range []string{"ann", "bob"} {
		out, stderr, err := arena(t, "contest", "user", "add", u, "--contest", "spring", "--db", db)
		if err != nil {
			t.Fatalf("user add %s: %v\n%s", u, err, stderr)
		}
		tok := strings.TrimSpace(out)
		if len(tok) != 64 || tokens[tok] {
			t.Errorf("token %q", tok)
		}
		tokens[tok] = true
	}
	out, _, err := arena(t, "contest", "status", "spring", "--db", db, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Name      string `json:"name"`
		Game      string `json:"game"`
		Standings []struct {
			User string `json:"user"`
		} `json:"standings"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.Game != "gomoku" || len(s.Standings) != 2 {
		t.Errorf("status --json: %+v, %v\n%s", s, err, out)
	}
	for tok := range tokens {
		if strings.Contains(out, tok) {
			t.Error("status shows a token")
		}
	}
	out, _, err = arena(t, "contest", "status", "spring", "--db", db)
	if err != nil || !strings.Contains(out, "ann") || !strings.Contains(out, "rank") {
		t.Errorf("status: %v\n%s", err, out)
	}
}
