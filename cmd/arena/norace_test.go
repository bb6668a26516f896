//go:build !race

package main

import "testing"

const raceEnabled = false

func skipUnderRace(*testing.T) {}
