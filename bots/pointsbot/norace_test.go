//go:build !race

package pointsbot

const raceEnabled = false
