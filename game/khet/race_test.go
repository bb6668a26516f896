//go:build race

package khet

// raceEnabled shortens the slowest tests under the race detector.
const raceEnabled = true
