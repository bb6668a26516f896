package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A whole short game's input on stdin: the bot answers the settings,
// orders its ant off its hill and stops at "end".
func TestAntsBotCommandSpeaksProtocol(t *testing.T) {
	in := strings.Join([]string{
		"turn 0", "loadtime 3000", "turntime 1000", "rows 10", "cols 10", "turns 5",
		"viewradius2 77", "attackradius2 5", "spawnradius2 1", "player_seed 42", "ready",
		"turn 1", "w 0 0", "f 5 7", "h 5 5 0", "a 5 5 0", "go",
		"end", "players 2", "score 1 1", "status survived survived", "playerturns 1 1", "a 5 6 0", "go",
		"",
	}, "\n")
	for _, args := range [][]string{nil, {"--quiet"}, {"--sample", "hunter"}} {
		cmd := newAntsBotCmd()
		var out, errb bytes.Buffer
		cmd.SetIn(strings.NewReader(in))
		cmd.SetOut(&out)
		cmd.SetErr(&errb)
		cmd.SetArgs(args)
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		// arena's bot reports each turn on stderr unless told not to.
		status := errb.String()
		if args == nil && (!strings.HasPrefix(status, "turn 1: time ") || strings.Count(status, "\n") != 1) || args != nil && status != "" {
			t.Errorf("%v: stderr %q", args, status)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if lines[0] != "go" || lines[len(lines)-1] != "go" || len(lines) != 3 {
			t.Fatalf("%v: output %q, want go, one order, go", args, out.String())
		}
		if !strings.HasPrefix(lines[1], "o 5 5 ") {
			t.Fatalf("%v: order %q does not move the ant at 5 5", args, lines[1])
		}
	}
}

func TestAntsBotCommandBadSample(t *testing.T) {
	cmd := newAntsBotCmd()
	cmd.SetIn(strings.NewReader(""))
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetArgs([]string{"--sample", "sleepy"})
	err := cmd.ExecuteContext(context.Background())
	if err == nil || !strings.Contains(err.Error(), `unknown sample strategy "sleepy"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestAntsMapCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.map")
	run := func(args ...string) (string, error) {
		cmd := newAntsMapCmd()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&bytes.Buffer{})
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(context.Background())
		return out.String(), err
	}
	stdout, err := run("--players", "4", "--seed", "3", "--rows", "60", "--cols", "60", "--symmetry", "rotate")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "rows 60\ncols 60\nplayers 4\n") || strings.Count(stdout, "\nm ") != 60 {
		t.Fatalf("map on stdout:\n%s", stdout)
	}
	if _, err := run("--players", "4", "--seed", "3", "--rows", "60", "--cols", "60", "--symmetry", "rotate", "--out", path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != stdout {
		t.Fatalf("--out wrote something else than stdout (err %v)", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "12"}, "players must be 2..10"},
		{[]string{"--players", "3", "--symmetry", "mirror"}, "mirror symmetry needs 2 or 4"},
		{[]string{"--out", filepath.Join(dir, "no", "such", "dir", "x.map")}, "--out:"},
	} {
		if _, err := run(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}
