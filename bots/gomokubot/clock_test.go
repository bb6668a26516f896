package gomokubot

import (
	"testing"
	"time"
)

// TestBudget checks the time budget for one move.
func TestBudget(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		clock    clock
		overhead time.Duration
		empty    int
		want     time.Duration
	}{
		{"nothing announced", newClock(), 0, 400, 1400 * ms},
		{"turn 1000", clock{turnMs: 1000, matchMs: -1}, 0, 400, 700 * ms},
		{"turn 1000 minus overhead", clock{turnMs: 1000, matchMs: -1}, 60 * ms, 400, 640 * ms},
		{"turn 0 plays at once", clock{turnMs: 0, matchMs: -1}, 0, 400, 0},
		{"match time left is shared", clock{turnMs: 30000, matchMs: 180000, leftMs: 60000, hasLeft: true}, 0, 400, 2000 * ms},
		{"unlimited match", clock{turnMs: 5000, matchMs: -1, leftMs: 2147483647, hasLeft: true}, 0, 400, 3500 * ms},
		{"no match limit ignores time_left", clock{turnMs: 5000, matchMs: 0, leftMs: 100, hasLeft: true}, 0, 400, 3500 * ms},
		{"little left", clock{turnMs: 5000, matchMs: 100000, leftMs: 1200, hasLeft: true}, 0, 10, 100 * ms},
		{"overrun", clock{turnMs: 5000, matchMs: 100000, leftMs: -50, hasLeft: true}, 0, 400, 0},
		{"overhead beyond budget", clock{turnMs: 50, matchMs: -1}, 60 * ms, 400, 0},
	}
	for _, tc := range tests {
		if got := tc.clock.budget(tc.overhead, tc.empty); got != tc.want {
			t.Errorf("%s: budget %v, want %v", tc.name, got, tc.want)
		}
	}
}
