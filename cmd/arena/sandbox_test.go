package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSandboxStopsOpponentKiller replays the attack that won games
// before the sandbox: a brain that finds its opponent among the
// machine's processes and kills it at start-up. Without the sandbox the
// opponent loses by crash; with it the kill finds nothing, nobody
// crashes, and the game is played out.
func TestSandboxStopsOpponentKiller(t *testing.T) {
	brains := testBrain(t)
	src := t.TempDir()
	os.Chmod(src, 0o755)
	// The victim's seed makes its command line unique on the machine, so
	// that the attack in mode off hits nothing but the victim.
	seed := strconv.FormatUint(rand.Uint64()>>1, 10)
	killer := filepath.Join(src, "pbrain-killer.sh")
	// It looks for a second, in case the victim starts after it.
	script := "#!/bin/sh\n" +
		"for i in 1 2 3 4 5 6 7 8 9 10; do\n" +
		"  for p in /proc/[0-9]*; do\n" +
		"    if tr '\\0' ' ' < $p/cmdline 2>/dev/null | grep -q -- '--seed=" + seed + "'; then kill -KILL ${p#/proc/} 2>/dev/null && killed=1; fi\n" +
		"  done\n" +
		"  [ -n \"$killed\" ] && break; sleep 0.1\n" +
		"done\n" +
		"exec \"$1\" --policy=random --seed=1\n"
	if err := os.WriteFile(killer, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tb := filepath.Join(brains, "pbrain-tb")
	victim := "victim=" + tb + " --policy=random --seed=" + seed
	for _, c := range []struct {
		mode        string
		victimCrash bool
	}{{"off", true}, {"auto", false}} {
		t.Run(c.mode, func(t *testing.T) {
			stdout, stderr, err := arena(t, "match", "gomoku", "--bot", "killer=/bin/sh "+killer+" "+tb, "--bot", victim,
				"--games", "2", "--size", "10", "--turn-time", "500ms", "--out", t.TempDir(), "--json", "--sandbox", c.mode)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			lines := decodeLines(t, stdout)
			if len(lines) != 2 {
				t.Fatalf("want 2 games, got %q", stdout)
			}
			for _, g := range lines {
				crashed := g["reason"] == "crash"
				if crashed != c.victimCrash {
					t.Errorf("game %v: reason %v %v, want a crash: %v", g["id"], g["reason"], g["detail"], c.victimCrash)
				}
				if !crashed && g["moves"].(float64) == 0 {
					t.Errorf("game %v: no moves played: %v", g["id"], g)
				}
				if crashed {
					if w, ok := g["winner"].(float64); !ok || w != 0 {
						t.Errorf("game %v: winner %v, want the killer (0) by the victim's crash", g["id"], g["winner"])
					}
				}
			}
		})
	}
}
