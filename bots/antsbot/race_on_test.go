//go:build race

package antsbot

// raceEnabled makes the whole-game tests play fewer games with more time:
// the race detector slows the bot processes down several times.
const raceEnabled = true
