package gomoku

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

// procState returns the state letter of a process (R, S, T, ...).
func procState(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "?"
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return f[0]
}

// TestIdleBrainIsPaused watches Black's brain while White thinks: it is
// stopped (SIGSTOP of its process group) unless pondering is allowed.
func TestIdleBrainIsPaused(t *testing.T) {
	for _, ponder := range []bool{false, true} {
		t.Run("ponder="+strconv.FormatBool(ponder), func(t *testing.T) {
			dir := testBrain(t)
			state, _ := NewState(Config{Width: 15, Height: 15})
			black := NewPipeSeat(state, Black, SeatOptions{Args: []string{filepath.Join(dir, "pbrain-tb"), "--seed=1"}})
			white := NewPipeSeat(state, White, SeatOptions{Args: []string{filepath.Join(dir, "pbrain-tb"), "--seed=2", "--delay=800ms"}})
			seen := make(chan string, 10)
			cfg := match.Config{
				Clock:  generous,
				Ponder: ponder,
				OnMove: func(ev match.MoveEvent) {
					if ev.Move.Side == 0 && ev.Ply < 6 {
						go func() {
							time.Sleep(100 * time.Millisecond)
							seen <- procState(black.Pid())
						}()
					}
				},
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan match.Outcome)
			go func() { done <- match.Run[Point](ctx, Referee{state}, []match.Seat[Point]{black, white}, cfg) }()
			var states []string
			for len(states) < 3 {
				states = append(states, <-seen)
			}
			cancel()
			<-done
			for _, s := range states {
				if stopped := s == "T"; stopped == ponder {
					t.Fatalf("Black's brain was in state %v while White thought (ponder %v)", states, ponder)
				}
			}
		})
	}
}

// TestPauseWaitsForBrainToBlock plays, with --strict, a brain that stays
// busy for a while after printing each move and refuses a command that
// comes before it is done, as a brain that is stopped between printing
// its move and clearing its "thinking" flag does. Paused only once it is
// blocked, it never sees a command early; stopped at once (as arena did
// before), it refuses the next command and loses by protocol.
func TestPauseWaitsForBrainToBlock(t *testing.T) {
	tests := []struct {
		name   string
		grace  time.Duration
		reason game.Reason // Black's fault, "" for none
	}{
		{"paused once blocked", 10 * time.Second, ""},
		{"stopped at once", -1, game.ReasonProtocol},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state, err := NewState(Config{Width: 15, Height: 15, MaxMoves: 8})
			if err != nil {
				t.Fatal(err)
			}
			seats := make([]match.Seat[Point], 2)
			for side, flags := range [][]string{{"--misbehave=busyafter", "--busy=100ms", "--seed=1"}, {"--seed=2"}} {
				b := tb(t, ProtoPipe, flags...)
				seats[side] = NewPipeSeat(state, StoneOf(side), SeatOptions{Args: b.args, Strict: true, PauseGrace: tc.grace})
			}
			out := match.Run[Point](context.Background(), Referee{state}, seats, match.Config{Clock: generous})
			fault := out.Sides[0].Fault
			switch {
			case tc.reason == "" && (fault != nil || out.Sides[1].Fault != nil):
				t.Fatalf("faults %+v %+v after %d moves, want none: the brain was stopped before it blocked", fault, out.Sides[1].Fault, len(out.Moves))
			case tc.reason == "" && len(out.Moves) != 8:
				t.Fatalf("%d moves, want the game to run to its 8-move limit: %+v", len(out.Moves), out.Result)
			case tc.reason != "" && (fault == nil || fault.Reason != tc.reason || !strings.Contains(fault.Detail, "ERROR Unknown command")):
				t.Fatalf("Black's fault %+v, want %s for refusing a command", fault, tc.reason)
			}
		})
	}
}
