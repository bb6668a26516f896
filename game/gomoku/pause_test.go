package gomoku

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
