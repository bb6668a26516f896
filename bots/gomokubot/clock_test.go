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
		{"nothing announced", newClock(), 0, 400, 1700 * ms},
		{"turn 1000", clock{turnMs: 1000, matchMs: -1}, 0, 400, 850 * ms},
		{"turn 1000 minus overhead", clock{turnMs: 1000, matchMs: -1}, 60 * ms, 400, 790 * ms},
		{"turn 0 plays at once", clock{turnMs: 0, matchMs: -1}, 0, 400, 0},
		{"match time left is shared", clock{turnMs: 30000, matchMs: 180000, leftMs: 60000, hasLeft: true}, 0, 400, 2000 * ms},
		{"unlimited match", clock{turnMs: 5000, matchMs: -1, leftMs: 2147483647, hasLeft: true}, 0, 400, 4250 * ms},
		{"no match limit ignores time_left", clock{turnMs: 5000, matchMs: 0, leftMs: 100, hasLeft: true}, 0, 400, 4250 * ms},
		{"little left", clock{turnMs: 5000, matchMs: 100000, leftMs: 1200, hasLeft: true}, 0, 10, 100 * ms},
		{"overrun", clock{turnMs: 5000, matchMs: 100000, leftMs: -50, hasLeft: true}, 0, 400, 0},
		{"short turn keeps 60 ms", clock{turnMs: 300, matchMs: -1}, 0, 400, 240 * ms},
		{"very short turn keeps a third", clock{turnMs: 150, matchMs: -1}, 0, 400, 100 * ms},
		{"long turn keeps 1.5 s", clock{turnMs: 20000, matchMs: -1}, 0, 400, 18500 * ms},
		{"late moves keep twice the lateness back", clock{turnMs: 1000, matchMs: -1, slack: 100 * ms}, 0, 400, 650 * ms},
		{"lateness leaves a quarter", clock{turnMs: 1000, matchMs: -1, slack: 2 * time.Second}, 0, 400, 250 * ms},
		{"overhead beyond budget", clock{turnMs: 50, matchMs: -1}, 60 * ms, 400, 0},
	}
	for _, tc := range tests {
		if got := tc.clock.budget(tc.overhead, tc.empty); got != tc.want {
			t.Errorf("%s: budget %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestObserve checks that lateness is remembered and fades.
func TestObserve(t *testing.T) {
	ms := time.Millisecond
	c := clock{turnMs: 1000, matchMs: -1}
	steps := []struct {
		took, budget, slack time.Duration
	}{
		{500 * ms, 850 * ms, 0},         // early: nothing to remember
		{950 * ms, 850 * ms, 100 * ms},  // 100 ms late
		{800 * ms, 850 * ms, 90 * ms},   // on time: fades by a tenth
		{900 * ms, 850 * ms, 81 * ms},   // 50 ms late is less than remembered
		{1050 * ms, 850 * ms, 200 * ms}, // later still
	}
	for i, s := range steps {
		c.observe(s.took, s.budget)
		if c.slack != s.slack {
			t.Errorf("step %d: slack %v, want %v", i, c.slack, s.slack)
		}
	}
}

// TestDeeper checks when iterative deepening starts another depth.
func TestDeeper(t *testing.T) {
	ms := time.Millisecond
	soft, budget := 400*ms, 800*ms
	tests := []struct {
		name                string
		elapsed, last, prev time.Duration
		want                bool
	}{
		{"early", 300 * ms, 200 * ms, 20 * ms, true},                // cannot finish, but before soft
		{"finishes", 500 * ms, 50 * ms, 20 * ms, true},              // 500 + 125 <= 800
		{"cannot finish, late", 500 * ms, 200 * ms, 50 * ms, false}, // 500 + 800 > 800
		{"no history", 500 * ms, 100 * ms, 0, true},                 // 500 + 300 = 800
		{"growth held at 1.5", 600 * ms, 100 * ms, 100 * ms, true},  // 600 + 150
		{"growth held at 6", 450 * ms, 100 * ms, 5 * ms, false},     // 450 + 600
	}
	for _, tc := range tests {
		if got := deeper(tc.elapsed, tc.last, tc.prev, soft, budget); got != tc.want {
			t.Errorf("%s: deeper = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMatchBinds checks when time a move leaves over is kept for later
// moves (and so the search may stop early) and when it is lost.
func TestMatchBinds(t *testing.T) {
	tests := []struct {
		name  string
		clock clock
		want  bool
	}{
		{"nothing announced", newClock(), false},
		{"turn only", clock{turnMs: 1000, matchMs: -1}, false},
		{"match limit and time left", clock{turnMs: 30000, matchMs: 180000, leftMs: 60000, hasLeft: true}, true},
		{"time left without a match limit announced", clock{turnMs: 5000, matchMs: -1, leftMs: 60000, hasLeft: true}, true},
		{"unlimited time left", clock{turnMs: 5000, matchMs: -1, leftMs: unlimitedMs, hasLeft: true}, false},
		{"match limit 0 means none", clock{turnMs: 5000, matchMs: 0, leftMs: 100, hasLeft: true}, false},
		{"overrun still binds", clock{turnMs: 5000, matchMs: 100000, leftMs: -50, hasLeft: true}, true},
	}
	for _, tc := range tests {
		if got := tc.clock.matchBinds(); got != tc.want {
			t.Errorf("%s: matchBinds = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSoftLimit checks that a search whose left-over time is lost starts
// iterations to the end of its budget, and one that saves time for later
// moves stops starting them after tuning.soft of it.
func TestSoftLimit(t *testing.T) {
	ms := time.Millisecond
	e := NewEngine(15, 15, 0)
	if got := e.softLimit(1000 * ms); got != 600*ms {
		t.Errorf("match clock: soft limit %v, want 600ms", got)
	}
	e.TurnOnly = true
	if got := e.softLimit(1000 * ms); got != 1000*ms {
		t.Errorf("turn only: soft limit %v, want 1s", got)
	}
	if !deeper(990*ms, 500*ms, 100*ms, e.softLimit(1000*ms), 1000*ms) {
		t.Error("turn only: no new iteration before the budget ends")
	}
}
