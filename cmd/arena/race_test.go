//go:build race

package main

import "testing"

// raceEnabled skips, under the race detector, the tests that only drive
// other processes (nothing of this process runs concurrently in them) and
// that the plain run already covers.
const raceEnabled = true

// skipUnderRace skips a test under the race detector: for the tests of
// a game's rules and bots' start-up messages, whose goroutines the other
// tests already race-check, and which the plain run covers.
func skipUnderRace(t *testing.T) {
	t.Skip("rules and messages: the plain run covers them")
}
