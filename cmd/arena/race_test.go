//go:build race

package main

// raceEnabled skips, under the race detector, the tests that only drive
// other processes (nothing of this process runs concurrently in them) and
// that the plain run already covers.
const raceEnabled = true
