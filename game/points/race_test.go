//go:build race

package points

// raceEnabled shortens pure-computation tests under the race detector.
const raceEnabled = true
