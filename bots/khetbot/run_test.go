package khetbot

import (
	"testing"
	"time"
)

// TestBudget checks how much of the per-move limit the search may use.
func TestBudget(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		turn, hard time.Duration
	}{
		{0, 8500 * ms}, // khet's 10 s
		{10 * time.Second, 8500 * ms},
		{20 * time.Second, 18500 * ms},
		{time.Second, 850 * ms},
		{300 * ms, 240 * ms},
		{150 * ms, 100 * ms},
	}
	for _, tc := range tests {
		lim := Budget(tc.turn)
		if lim.Hard != tc.hard || lim.Soft != tc.hard {
			t.Errorf("Budget(%v) = %+v, want hard and soft %v (the turn is the only limit)", tc.turn, lim, tc.hard)
		}
	}
}

// TestLateness checks that late moves shorten the next searches, never
// below a quarter of the turn, and that the lateness fades.
func TestLateness(t *testing.T) {
	ms := time.Millisecond
	var l lateness
	hard, turn := 850*ms, time.Second
	steps := []struct {
		took, limit time.Duration
	}{
		{700 * ms, 850 * ms},  // on time
		{950 * ms, 650 * ms},  // 100 ms late: keep 200 ms more
		{700 * ms, 670 * ms},  // fades to 90 ms
		{2000 * ms, 250 * ms}, // very late: a quarter of the turn
	}
	for i, s := range steps {
		l.observe(s.took, hard)
		if got := l.limit(hard, turn); got != s.limit {
			t.Errorf("step %d: limit %v, want %v", i, got, s.limit)
		}
	}
}

// TestNextIteration checks the prediction of the next iteration's time.
func TestNextIteration(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		last, prev, want time.Duration
	}{
		{10 * ms, 0, 40 * ms},        // no history: four times
		{30 * ms, 10 * ms, 90 * ms},  // grew three times
		{100 * ms, 5 * ms, 800 * ms}, // grew twenty times: at most eight
		{10 * ms, 10 * ms, 20 * ms},  // no growth: at least two
	}
	for _, tc := range tests {
		if got := nextIteration(tc.last, tc.prev); got != tc.want {
			t.Errorf("nextIteration(%v, %v) = %v, want %v", tc.last, tc.prev, got, tc.want)
		}
	}
}

// TestDeeper checks when iterative deepening starts another depth.
func TestDeeper(t *testing.T) {
	ms := time.Millisecond
	lim := Limits{Soft: 400 * ms, Hard: 800 * ms}
	tests := []struct {
		name                string
		elapsed, last, prev time.Duration
		want                bool
	}{
		{"early", 300 * ms, 200 * ms, 20 * ms, true},                // cannot finish, but before Soft
		{"finishes", 500 * ms, 50 * ms, 20 * ms, true},              // 500 + 125 <= 800
		{"cannot finish, late", 500 * ms, 200 * ms, 50 * ms, false}, // 500 + 800 > 800
		{"at the edge", 700 * ms, 50 * ms, 25 * ms, true},           // 700 + 100 = 800
		{"just over", 701 * ms, 50 * ms, 25 * ms, false},
	}
	for _, tc := range tests {
		if got := lim.deeper(tc.elapsed, tc.last, tc.prev); got != tc.want {
			t.Errorf("%s: deeper = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !(Limits{}).deeper(time.Hour, time.Hour, time.Minute) {
		t.Error("no limits: always deeper")
	}
}
