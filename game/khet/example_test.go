package khet_test

import (
	"fmt"

	"arena/game/khet"
)

// Silver turns its pyramid on 2,3; its laser leaves the board. Red turns
// its pyramid on 2,1 and destroys it with its own laser.
func ExampleState() {
	s, _ := khet.NewState(khet.DefaultConfig())
	for _, text := range []string{"S23C", "R21C"} {
		m, _ := khet.ParseMove(text)
		shot, _ := s.Play(m)
		fmt.Println(m, shot, s.Board().Count())
	}
	// Output:
	// S23C 97000330110000 26
	// R21C 002221100XR21Y3 25
}
