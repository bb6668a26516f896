// A Gomocup brain for the contest test: plays the last free cell.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	size := 15
	taken := map[[2]int]bool{}
	move := func() {
		for y := size - 1; y >= 0; y-- {
			for x := size - 1; x >= 0; x-- {
				if !taken[[2]int{x, y}] {
					taken[[2]int{x, y}] = true
					fmt.Printf("%d,%d\n", x, y)
					return
				}
			}
		}
	}
	in := bufio.NewScanner(os.Stdin)
	board := false
	for in.Scan() {
		w := strings.ToUpper(strings.TrimSpace(in.Text()))
		var x, y, f int
		switch {
		case board && w == "DONE":
			board = false
			move()
		case board:
			fmt.Sscanf(w, "%d,%d,%d", &x, &y, &f)
			taken[[2]int{x, y}] = true
		case strings.HasPrefix(w, "START"):
			fmt.Sscanf(w, "START %d", &size)
			fmt.Println("OK")
		case w == "ABOUT":
			fmt.Println(`name="go-last-free", version="1"`)
		case w == "BEGIN":
			move()
		case strings.HasPrefix(w, "TURN"):
			fmt.Sscanf(w, "TURN %d,%d", &x, &y)
			taken[[2]int{x, y}] = true
			fmt.Fprintln(os.Stderr, "stderr of go")
			move()
		case w == "BOARD":
			taken = map[[2]int]bool{}
			board = true
		case w == "END":
			return
		}
	}
}
