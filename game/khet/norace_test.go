//go:build !race

package khet

const raceEnabled = false
