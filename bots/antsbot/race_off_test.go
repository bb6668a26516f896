//go:build !race

package antsbot

const raceEnabled = false
