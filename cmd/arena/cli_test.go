package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/engine"
	"arena/internal/version"
)

// runArena runs the test binary as the arena command in the folder dir
// and returns its stdout, stderr and exit status.
func runArena(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ARENA_TEST_AS_ARENA=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("run arena %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// oneLineError checks that a run failed with exit status 1, printed
// nothing on stdout and one line on stderr holding every one of want.
func oneLineError(t *testing.T, stdout, stderr string, code int, want ...string) {
	t.Helper()
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "arena: ") {
		t.Errorf("stderr %q: want one line starting with \"arena: \"", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q: want %q", stderr, w)
		}
	}
}

// TestUnknownGame: a game a command does not know, mistyped or not, is
// named in a one-line error with the nearest game's name, even when
// flags meant for the game follow it, and the exit status is 1.
func TestUnknownGame(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"match", "gomuku"}, []string{`unknown game "gomuku"`, "did you mean gomoku?"}},
		{[]string{"match", "Gomoku", "--bot", "x"}, []string{`unknown game "Gomoku"`, "did you mean gomoku?"}},
		{[]string{"match", "chess", "--bot", "x"}, []string{`unknown game "chess"`, "ants, gomoku, khet, points"}},
		{[]string{"match", "kht", "--setup", "classic", "--games", "2"}, []string{`unknown game "kht"`, "did you mean khet?"}},
		{[]string{"match"}, []string{"give a game", "ants, gomoku, khet, points"}},
		{[]string{"tournament", "gomuku", "--bot", "a", "--bot", "b"}, []string{`unknown game "gomuku"`, "did you mean gomoku?"}},
		{[]string{"tournament", "chess", "--format", "swiss"}, []string{`unknown game "chess"`}},
		{[]string{"sprt", "gomuku", "--elo1", "5"}, []string{`unknown game "gomuku"`, "did you mean gomoku?"}},
		{[]string{"sprt", "pionts", "--bot", "x"}, []string{`unknown game "pionts"`, "did you mean points?"}},
		{[]string{"bot", "gomuku"}, []string{`unknown game "gomuku"`, "did you mean gomoku?"}},
		{[]string{"bot", "chess", "--file"}, []string{`unknown game "chess"`}},
		{[]string{"bot"}, []string{"give a game"}},
		{[]string{"games", "--game", "gomuku"}, []string{`unknown game "gomuku"`, "did you mean gomoku?"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			stdout, stderr, code := runArena(t, dir, tc.args...)
			oneLineError(t, stdout, stderr, code, tc.want...)
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("the refused command left %v behind", entries)
			}
		})
	}
}

// TestNearest checks the suggestions for mistyped names.
func TestNearest(t *testing.T) {
	games := []string{"ants", "gomoku", "khet", "points"}
	tests := []struct {
		typed string
		want  []string
	}{
		{"gomuku", []string{"gomoku"}},
		{"GOMOKU", []string{"gomoku"}},
		{"go", []string{"gomoku"}},
		{"khett", []string{"khet"}},
		{"ant", []string{"ants"}},
		{"chess", nil},
		{"x", nil},
		{"", nil},
	}
	for _, tc := range tests {
		if got := nearest(tc.typed, games); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("nearest(%q) = %v, want %v", tc.typed, got, tc.want)
		}
	}
}

// TestNoStore: the commands that read the store, started in a folder
// without one, say so in one line, exit 1 and create nothing.
func TestNoStore(t *testing.T) {
	for _, args := range [][]string{
		{"standings"},
		{"standings", "cup"},
		{"standings", "cup", "--json"},
		{"games"},
		{"games", "--json"},
		{"export", "cup"},
		{"tournament", "--resume", "cup"},
		{"games", "--db", "elsewhere/x.db"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			stdout, stderr, code := runArena(t, dir, args...)
			oneLineError(t, stdout, stderr, code, "no store at")
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("left %v behind", entries)
			}
		})
	}
}

// TestStoredGamesCommands plays a small tournament, then lists its games,
// asks for a mistyped tournament and exports it to the default folder.
func TestStoredGamesCommands(t *testing.T) {
	dir := t.TempDir()
	args := append([]string{"tournament", "gomoku", "--size", "10", "--games-per-pair", "1", "--name", "cup"},
		quickBots(t, 3, "")...)
	if _, stderr, code := runArena(t, dir, args...); code != 0 {
		t.Fatalf("tournament: exit %d\n%s", code, stderr)
	}

	stdout, stderr, code := runArena(t, dir, "games")
	if code != 0 || strings.Count(stdout, "\n") != 4 || strings.Count(stdout, "cup-") != 3 {
		t.Errorf("games: exit %d, want a header and 3 games:\n%s%s", code, stdout, stderr)
	}
	stdout, _, _ = runArena(t, dir, "games", "--json", "--tournament", "cup")
	lines := decodeLines(t, stdout)
	if len(lines) != 3 {
		t.Fatalf("games --json: %d lines, want 3:\n%s", len(lines), stdout)
	}
	for _, l := range lines {
		if l["type"] != "game" || l["game"] != "gomoku" || l["tournament"] != "cup" {
			t.Errorf("games --json line %v", l)
		}
	}
	if stdout, _, _ = runArena(t, dir, "games", "--game", "khet"); strings.Count(stdout, "\n") != 1 {
		t.Errorf("games --game khet lists gomoku games:\n%s", stdout)
	}

	stdout, stderr, code = runArena(t, dir, "standings", "cpu")
	oneLineError(t, stdout, stderr, code, `unknown tournament "cpu"`, "did you mean cup?")
	stdout, stderr, code = runArena(t, dir, "export", "tea")
	oneLineError(t, stdout, stderr, code, `unknown tournament "tea"`, "holds cup")

	if _, stderr, code = runArena(t, dir, "export", "cup"); code != 0 {
		t.Fatalf("export: exit %d\n%s", code, stderr)
	}
	records, _ := filepath.Glob(filepath.Join(dir, "cup-export", "records", "*.json"))
	if len(records) != 3 {
		t.Errorf("export without --out wrote %v, want 3 records in cup-export/records", records)
	}
	if _, err := os.Stat(filepath.Join(dir, "cup-export", "cup.pgn")); err != nil {
		t.Errorf("export without --out: %v", err)
	}
}

// TestVersion: "arena --version" prints arena's one version string.
func TestVersion(t *testing.T) {
	stdout, stderr, code := runArena(t, t.TempDir(), "--version")
	if want := "arena " + version.String() + "\n"; code != 0 || stdout != want {
		t.Errorf("arena --version: exit %d, %q (stderr %q), want %q", code, stdout, stderr, want)
	}
}

// TestClaimRunName: a run's name is free, or the next free one after it;
// names of earlier runs, claimed or not, are never handed out again, and
// runs claiming at once get distinct names.
func TestClaimRunName(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		existing []string
		want     string
	}{
		{"empty folder", nil, "m"},
		{"claimed", []string{"m-summary.txt"}, "m-2"},
		{"claimed twice", []string{"m-summary.txt", "m-2-summary.txt"}, "m-3"},
		{"records of a run that claimed nothing", []string{"m-001.json", "m-001.psq"}, "m-2"},
		{"a debug log only", []string{"m-001-builtin.log"}, "m-2"},
		{"a gap", []string{"m-summary.txt", "m-3-summary.txt"}, "m-2"},
		{"other runs", []string{"n-summary.txt", "mm-001.json", "persistent"}, "m"},
		{"glob characters", []string{"m[1]-summary.txt"}, "m[1]-2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.existing {
				os.WriteFile(filepath.Join(dir, f), []byte("earlier run\n"), 0o644)
			}
			base := "m"
			if strings.HasPrefix(tc.want, "m[1]") {
				base = "m[1]"
			}
			got, err := claimRunName(dir, base, now)
			if err != nil || got != tc.want {
				t.Fatalf("claimRunName = %q, %v; want %q", got, err, tc.want)
			}
			for _, f := range tc.existing {
				if data, _ := os.ReadFile(filepath.Join(dir, f)); string(data) != "earlier run\n" {
					t.Errorf("%s changed: %q", f, data)
				}
			}
			if data, _ := os.ReadFile(filepath.Join(dir, got+"-summary.txt")); !strings.HasPrefix(string(data), got+": running since") {
				t.Errorf("claim file holds %q", data)
			}
		})
	}
	t.Run("at once", func(t *testing.T) {
		dir := t.TempDir()
		const runs = 8
		names := make(chan string, runs)
		var wg sync.WaitGroup
		for range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name, err := claimRunName(dir, "m", now)
				if err != nil {
					t.Error(err)
				}
				names <- name
			}()
		}
		wg.Wait()
		close(names)
		seen := map[string]bool{}
		for n := range names {
			if seen[n] {
				t.Errorf("name %q given to two runs", n)
			}
			seen[n] = true
		}
		if len(seen) != runs {
			t.Errorf("%d names for %d runs", len(seen), runs)
		}
	})
}

// TestSameSecondRunsKeepBoth starts two "arena match" runs into one
// folder under one name (what two runs started in the same second get by
// default), one after the other and both at once, and a pair with the
// default names at once: every game of every run keeps its own files.
func TestSameSecondRunsKeepBoth(t *testing.T) {
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	const games = 2
	run := func(dir string, named bool, seed int) (string, string, int) {
		args := []string{"match", "gomoku", "--json", "--out", "out", "--games", fmt.Sprint(games), "--size", "10",
			"--bot", fmt.Sprintf("%s --policy=greedy --seed=%d", brain, seed), "--bot", fmt.Sprintf("%s --policy=random --seed=%d", brain, seed)}
		if named {
			args = append(args, "--name", "same")
		}
		return runArena(t, dir, args...)
	}
	for _, tc := range []struct {
		name          string
		named, atOnce bool
	}{
		{"one after the other", true, false},
		{"at once", true, true},
		{"default names at once", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			type result struct {
				stdout, stderr string
				code           int
			}
			results := make([]result, 2)
			var wg sync.WaitGroup
			for i := range results {
				play := func() {
					stdout, stderr, code := run(dir, tc.named, i+1)
					results[i] = result{stdout, stderr, code}
				}
				if !tc.atOnce {
					play()
					continue
				}
				wg.Add(1)
				go func() { defer wg.Done(); play() }()
			}
			wg.Wait()
			ids := map[string]bool{}
			for i, r := range results {
				if r.code != 0 {
					t.Fatalf("run %d: exit %d\n%s", i+1, r.code, r.stderr)
				}
				for _, g := range decodeLines(t, r.stdout) {
					id, _ := g["id"].(string)
					if ids[id] {
						t.Errorf("game ID %s given twice", id)
					}
					ids[id] = true
					rec, _ := g["record"].(string)
					data, err := os.ReadFile(rec)
					if err != nil {
						t.Errorf("run %d: %v", i+1, err)
						continue
					}
					var stored struct{ ID string }
					if json.Unmarshal(data, &stored); stored.ID != id {
						t.Errorf("run %d: %s holds game %q, want %q", i+1, rec, stored.ID, id)
					}
				}
			}
			records, _ := filepath.Glob(filepath.Join(dir, "out", "*-0[0-9][0-9].json"))
			summaries, _ := filepath.Glob(filepath.Join(dir, "out", "*-summary.txt"))
			if len(ids) != 2*games || len(records) != 2*games || len(summaries) != 2 {
				t.Errorf("%d game IDs, records %v, summaries %v: want %d of each and 2 summaries",
					len(ids), records, summaries, 2*games)
			}
			for _, s := range summaries {
				if data, _ := os.ReadFile(s); !strings.Contains(string(data), "points") {
					t.Errorf("%s holds no standings: %q", s, data)
				}
			}
		})
	}
}

// TestFlagsOffered: every flag a command accepts is in its help (none is
// hidden), each option has one name (--opening, never --openings), and
// the shared flags a game has no use for are neither listed nor taken.
func TestFlagsOffered(t *testing.T) {
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				t.Errorf("%s: --%s is hidden", cmd.CommandPath(), f.Name)
			}
			if f.Name == "openings" {
				t.Errorf("%s: --openings, want --opening", cmd.CommandPath())
			}
		})
		for _, c := range cmd.Commands() {
			walk(c)
		}
	}
	walk(newRoot())

	tests := []struct {
		args    []string // the command
		refused []string // flags neither listed nor taken
		listed  []string // flags listed
	}{
		{[]string{"match", "ants"}, []string{"--ponder", "--match-time", "--tolerance", "--startup-time"}, []string{"--turn-time", "--memory", "--games"}},
		{[]string{"tournament", "ants"}, []string{"--ponder", "--match-time", "--games"}, []string{"--games-per-pair", "--map"}},
		{[]string{"match", "gomoku"}, nil, []string{"--ponder", "--match-time", "--tolerance", "--startup-time", "--opening", "--games"}},
		{[]string{"tournament", "gomoku"}, []string{"--games", "--openings"}, []string{"--opening", "--games-per-pair", "--ponder"}},
		{[]string{"tournament", "points"}, []string{"--games", "--openings"}, []string{"--opening"}},
		{[]string{"tournament", "khet"}, []string{"--games", "--openings"}, []string{"--setup"}},
		{[]string{"sprt"}, []string{"--games", "--openings"}, []string{"--opening", "--max-games"}},
		{[]string{"sprt", "khet"}, []string{"--games", "--openings"}, []string{"--setup"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			help, _, err := arena(t, append(tc.args, "--help")...)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]bool{}
			for _, m := range regexp.MustCompile(`(?m)^ +(?:-\w, )?(--[\w-]+) `).FindAllStringSubmatch(help, -1) {
				listed[m[1]] = true
			}
			for _, f := range tc.listed {
				if !listed[f] {
					t.Errorf("help does not list %s:\n%s", f, help)
				}
			}
			for _, f := range tc.refused {
				if listed[f] {
					t.Errorf("help lists %s", f)
				}
				args := append(append([]string{}, tc.args...), "--out", t.TempDir(), f+"=1")
				if _, _, err := arena(t, args...); err == nil || !strings.Contains(err.Error(), "unknown flag: "+f) && !strings.Contains(err.Error(), f+" does not apply to") {
					t.Errorf("%s: error %v, want unknown flag", f, err)
				}
			}
		})
	}
}

// TestHelpListsGames: "arena --help" names every game arena plays.
func TestHelpListsGames(t *testing.T) {
	help, _, err := arena(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drivers() {
		if !regexp.MustCompile(`(?m)^  ` + d.info.Name + ` +` + regexp.QuoteMeta(d.info.Title)).MatchString(help) {
			t.Errorf("arena --help does not list %s:\n%s", d.info.Name, help)
		}
	}
}

// TestTournamentRunsOnce: while a tournament runs (here: this process
// holds its lock), a second arena running it into the same folder, by
// its command or by --resume, is refused before it plays or writes
// anything; once the first ends, it runs.
func TestTournamentRunsOnce(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	args := append([]string{"tournament", "gomoku", "--size", "10", "--games-per-pair", "1", "--name", "cup", "--out", "out"},
		quickBots(t, 2, "")...)
	if _, stderr, code := runArena(t, dir, args...); code != 0 {
		t.Fatalf("tournament: exit %d\n%s", code, stderr)
	}
	before, _ := filepath.Glob(filepath.Join(out, "*"))

	unlock, err := engine.Lock(out, "cup")
	if err != nil {
		t.Fatal(err)
	}
	for _, second := range [][]string{args, {"tournament", "--resume", "cup", "--out", "out"}} {
		stdout, stderr, code := runArena(t, dir, second...)
		oneLineError(t, stdout, stderr, code, "tournament cup is running in another arena")
	}
	if after, _ := filepath.Glob(filepath.Join(out, "*")); !slices.Equal(after, before) {
		t.Errorf("the refused runs changed the folder: %v, was %v", after, before)
	}
	unlock()
	if _, stderr, code := runArena(t, dir, args...); code != 0 || !strings.Contains(stderr, "already played") {
		t.Fatalf("after the first ended: exit %d\n%s", code, stderr)
	}
}

// FuzzEditDistance checks the distance behind the suggestions: zero
// only for equal names, symmetric, and between the length difference
// and the longer length.
func FuzzEditDistance(f *testing.F) {
	for _, s := range [][2]string{{"gomuku", "gomoku"}, {"", "ants"}, {"khet", "khet"}, {"pionts", "points"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 64 || len(b) > 64 {
			return
		}
		d := editDistance(a, b)
		if d != editDistance(b, a) {
			t.Fatalf("d(%q, %q) = %d, not symmetric", a, b, d)
		}
		if (d == 0) != (a == b) {
			t.Fatalf("d(%q, %q) = %d", a, b, d)
		}
		if lo, hi := max(len(a)-len(b), len(b)-len(a)), max(len(a), len(b)); d < lo || d > hi {
			t.Fatalf("d(%q, %q) = %d, outside [%d, %d]", a, b, d, lo, hi)
		}
	})
}

// TestSPRTRunsKeepBoth: two SPRTs of one name into one folder keep both
// runs' games, and each run's summary holds its verdict.
func TestSPRTRunsKeepBoth(t *testing.T) {
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	out := t.TempDir()
	ids := map[string]bool{}
	for run := 1; run <= 2; run++ {
		stdout, stderr, err := arena(t, "sprt", "--out", out, "--size", "10", "--name", "ab", "--max-games", "2", "--json",
			"--bot", "a="+brain+" --policy=greedy --seed=1", "--bot", "b="+brain+" --policy=random --seed=2")
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, stderr)
		}
		if run == 2 && !strings.Contains(stderr, "this one is ab-2") {
			t.Errorf("run 2 does not say it took another name:\n%s", stderr)
		}
		for _, g := range decodeLines(t, stdout) {
			if g["type"] != "game" {
				continue
			}
			id, _ := g["id"].(string)
			if ids[id] {
				t.Errorf("game ID %s given twice", id)
			}
			ids[id] = true
		}
	}
	records, _ := filepath.Glob(filepath.Join(out, "ab-*.json"))
	if len(ids) != 4 || len(records) != 4 {
		t.Errorf("game IDs %v, records %v: want 4 of each", ids, records)
	}
	for _, name := range []string{"ab", "ab-2"} {
		if data, _ := os.ReadFile(filepath.Join(out, name+"-summary.txt")); !strings.Contains(string(data), "pairs 1, games 2") {
			t.Errorf("%s-summary.txt holds %q", name, data)
		}
	}
}
