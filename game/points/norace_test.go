//go:build !race

package points

const raceEnabled = false
