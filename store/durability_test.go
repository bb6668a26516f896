package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// childEnv, when set to a DSN, turns the test binary into the child of
// TestKillWhileSaving: it saves games into that store until killed.
// childWritersEnv, when set to a number, makes it save from that many
// goroutines at once (TestKillWhileSavingTogether).
const (
	childEnv        = "ARENA_STORE_TEST_CHILD"
	childWritersEnv = "ARENA_STORE_TEST_CHILD_WRITERS"
)

func TestMain(m *testing.M) {
	if dsn := os.Getenv(childEnv); dsn != "" {
		if n, err := strconv.Atoi(os.Getenv(childWritersEnv)); err == nil {
			os.Exit(saveTogetherUntilKilled(dsn, n))
		}
		os.Exit(saveUntilKilled(dsn))
	}
	os.Exit(m.Run())
}

// childGames bounds the child, should its parent never kill it.
const childGames = 2000

// durableGame is game i of the child, with a record of typical size.
func durableGame(i int) Game {
	g := sampleGame("t", i)
	g.Record = sampleRecord(g.ID, 20_000)
	return g
}

// openChild opens the child's store. On SQLite the checkpointer is
// asked to run every few games rather than every 4 MiB, so that kills
// land while it copies the log too.
func openChild(ctx context.Context, dsn string) (*Store, error) {
	s, err := Open(ctx, dsn)
	if err == nil && s.ckpt != nil {
		s.ckpt.every.Store(64 << 10)
	}
	return s, err
}

// saveUntilKilled is the child: like a resumed tournament it skips the
// games already stored, saves the rest in order and reports each one on
// stdout once SaveGame has returned.
func saveUntilKilled(dsn string) int {
	ctx := context.Background()
	s, err := openChild(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	done, err := s.GameIDs(ctx, "t")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range childGames {
		g := durableGame(i)
		if done[g.ID] {
			continue
		}
		if err := s.SaveGame(ctx, g); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		// os.Stdout is unbuffered: once printed, the parent will read it
		// even after the kill.
		fmt.Printf("saved %s\n", g.ID)
	}
	return 0
}

// TestKillWhileSaving kills a process with SIGKILL while it saves games,
// three times over, resuming in between. After each kill the store must
// open, hold every game the process reported saved, each exactly once
// and whole, and nothing else but possibly the one game whose save had
// returned when the kill landed but was not yet reported (which the next
// run, like a resumed tournament, skips).
func TestKillWhileSaving(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		// known: the games reported saved, and those found stored after
		// an earlier kill (saved, then killed before reporting them).
		known := map[string]bool{}
		for round := range 3 {
			for _, id := range killChild(t, dsn, 10+round*7, time.Duration(round)*700*time.Microsecond) {
				if known[id] {
					t.Errorf("round %d: game %s saved again after a resume", round, id)
				}
				known[id] = true
			}
			for _, id := range checkAfterKill(t, dsn, known) {
				known[id] = true
			}
		}
	})
}

// saveTogetherUntilKilled is the child of TestKillWhileSavingTogether:
// writers goroutines save the games not yet stored, in no set order, so
// that they share commits, each reporting its game on stdout once
// SaveGame has returned.
func saveTogetherUntilKilled(dsn string, writers int) int {
	ctx := context.Background()
	s, err := openChild(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	done, err := s.GameIDs(ctx, "t")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < childGames; i = int(next.Add(1) - 1) {
				if done[sampleGame("t", i).ID] {
					continue
				}
				g := durableGame(i)
				if err := s.SaveGame(ctx, g); err != nil {
					fmt.Fprintln(os.Stderr, err)
					failed.Store(true)
					return
				}
				// One write of a short line: lines of several
				// goroutines never mix.
				fmt.Printf("saved %s\n", g.ID)
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return 1
	}
	return 0
}

// TestKillWhileSavingTogether kills, three times over, a process saving
// from 8 goroutines at once, whose games share commits. After each kill
// every game a goroutine reported saved is stored, whole and once; the
// others stored are at most those whose saves were in flight.
func TestKillWhileSavingTogether(t *testing.T) {
	const writers = 8
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		index := map[string]int{}
		for i := range childGames {
			index[sampleGame("t", i).ID] = i // durableGame's ID, without its record
		}
		known := map[string]bool{}   // reported, or found stored after a kill
		checked := map[string]bool{} // read back and compared
		for round := range 3 {
			reported := killChild(t, dsn, 12+round*8, time.Duration(round)*700*time.Microsecond,
				childWritersEnv+"="+strconv.Itoa(writers))
			for _, id := range reported {
				if known[id] {
					t.Errorf("round %d: game %s saved again after a resume", round, id)
				}
				known[id] = true
			}
			st, err := Open(ctx, dsn)
			if err != nil {
				t.Fatalf("reopening after the kill: %v", err)
			}
			games, err := st.Games(ctx, "t")
			if err != nil {
				t.Fatal(err)
			}
			var rows, distinct int
			if err := st.r.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT id) FROM games`).Scan(&rows, &distinct); err != nil {
				t.Fatal(err)
			}
			if rows != distinct {
				t.Errorf("round %d: %d rows for %d games: duplicates", round, rows, distinct)
			}
			stored := map[string]bool{}
			for _, g := range games {
				i, ok := index[g.ID]
				if !ok {
					t.Fatalf("round %d: unknown game %s stored", round, g.ID)
				}
				if !checked[g.ID] { // whole; an earlier round checked the others
					sameGame(t, g, durableGame(i))
					checked[g.ID] = true
				}
				stored[g.ID] = true
			}
			for id := range known {
				if !stored[id] {
					t.Errorf("round %d: game %s was reported saved but is lost", round, id)
				}
			}
			// Stored but never reported: only the saves in flight when
			// the kill landed, at most one per goroutine, in every round.
			if extra := len(stored) - len(known); extra < 0 || extra > writers {
				t.Errorf("round %d: %d games stored, %d known saved", round, len(stored), len(known))
			}
			for id := range stored {
				known[id] = true
			}
			st.Close()
		}
	})
}

// killChild runs the child until it has reported after more saves, kills
// it a moment later (mid-save, usually) and returns what it reported.
// env is added to the child's environment.
func killChild(t *testing.T, dsn string, after int, delay time.Duration, env ...string) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+dsn), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		id, ok := strings.CutPrefix(lines.Text(), "saved ")
		if !ok {
			t.Errorf("child said %q", lines.Text())
			continue
		}
		ids = append(ids, id)
		if len(ids) == after {
			time.Sleep(delay)
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed (%v, %d games); stderr: %s", err, len(ids), stderr.String())
	}
	if len(ids) < after {
		t.Fatalf("child reported %d games before dying, want at least %d", len(ids), after)
	}
	return ids
}

// checkAfterKill checks the store against the games known saved and
// returns the IDs stored.
func checkAfterKill(t *testing.T, dsn string, known map[string]bool) []string {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatalf("reopening after the kill: %v", err)
	}
	defer s.Close()
	if s.d == sqliteDialect {
		var verdict string
		if err := s.r.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&verdict); err != nil || verdict != "ok" {
			t.Errorf("integrity check: %q, %v", verdict, err)
		}
	}
	var rows, distinct int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT id) FROM games`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != distinct {
		t.Errorf("%d rows for %d games: duplicates", rows, distinct)
	}
	games, err := s.Games(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	// The child saves in order, so the store must hold games 0..n-1.
	if len(games) < len(known) || len(games) > len(known)+1 {
		t.Errorf("%d games stored, %d known saved", len(games), len(known))
	}
	for i, g := range games {
		want := durableGame(i)
		if g.ID != want.ID {
			t.Fatalf("game %d stored is %s, want %s", i, g.ID, want.ID)
		}
		sameGame(t, g, want)
	}
	stored := map[string]bool{}
	var ids []string
	for _, g := range games {
		stored[g.ID] = true
		ids = append(ids, g.ID)
	}
	for id := range known {
		if !stored[id] {
			t.Errorf("game %s was reported saved but is lost", id)
		}
	}
	return ids
}
