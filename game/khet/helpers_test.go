package khet

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

var (
	playerOnce sync.Once
	playerDir  string
	playerErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if playerDir != "" {
		os.RemoveAll(playerDir)
	}
	os.Exit(code)
}

// testPlayer builds arena/internal/cmd/khettest once and returns its path.
func testPlayer(t testing.TB) string {
	t.Helper()
	playerOnce.Do(func() {
		playerDir, playerErr = os.MkdirTemp("", "arena-khettest-")
		if playerErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(playerDir, "khettest"), "arena/internal/cmd/khettest").CombinedOutput()
		if err != nil {
			playerErr = &buildError{err: err, out: string(out)}
		}
	})
	if playerErr != nil {
		t.Fatal(playerErr)
	}
	return filepath.Join(playerDir, "khettest")
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "build khettest: " + e.err.Error() + "\n" + e.out }

// player is a khettest command line.
func player(t testing.TB, flags ...string) []string {
	return append([]string{testPlayer(t)}, flags...)
}

// playGame runs one game between two commands (Silver first) with the
// given per-move limit and returns the outcome, the final state and the
// pids of both bots.
func playGame(t *testing.T, cfg Config, turn time.Duration, silver, red []string) (match.Outcome, *State, [2]int) {
	t.Helper()
	state, err := NewState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	seats := []*Seat{
		NewSeat(state, Silver, SeatOptions{Args: silver, Dir: t.TempDir()}),
		NewSeat(state, Red, SeatOptions{Args: red, Dir: t.TempDir()}),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := match.Run[Move](ctx, Referee{state}, []match.Seat[Move]{seats[0], seats[1]}, match.Config{
		Clock: match.Clock{Turn: turn, Tolerance: 200 * time.Millisecond, Startup: 20 * time.Second},
		Grace: 2 * time.Second,
	})
	if out.Canceled {
		t.Fatal("game cancelled")
	}
	return out, state, [2]int{seats[0].Pid(), seats[1].Pid()}
}

// gone reports whether no process of the group pgid is left.
func gone(pgid int) bool {
	if pgid <= 0 {
		return true
	}
	for range 50 {
		if err := killZero(pgid); err != nil {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func checkResult(t *testing.T, out match.Outcome, winner int, reason game.Reason) {
	t.Helper()
	if out.Result.Winner != winner || out.Result.Reason != reason {
		t.Fatalf("result %+v, want winner %d by %s", out.Result, winner, reason)
	}
}

func gameReason(s string) game.Reason { return game.Reason(s) }
