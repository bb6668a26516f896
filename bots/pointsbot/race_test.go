//go:build race

package pointsbot

// raceEnabled: the race detector slows the search twentyfold; the
// strength test (pure computation, no goroutines) is skipped then.
const raceEnabled = true
