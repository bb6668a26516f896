// Command echobrain is the instant brain of the protocol benchmarks, in
// Go: it answers at once, so what the benchmarks measure is the manager
// and the operating system, not thinking. The benchmarks run the same
// brain written in C (../floor/echobrain.c), as the floor they compare
// with does; this one is the pipe benchmark's brain whose runtime has
// several threads.
//
// With -pipe it speaks the pipe protocol and answers TURN x,y (or a BOARD)
// with the mirror square across the board's vertical middle. Without it,
// it plays one move of the file protocol: the first free square of the
// right half where (x' + 2y) mod 5 != 0 for the mirrored column x', a set
// with no five in a row in any direction.
package main

import (
	"bufio"
	"flag"
	"os"
	"strconv"
	"strings"
)

const size = 20

func main() {
	pipe := flag.Bool("pipe", false, "speak the pipe protocol")
	flag.Parse()
	if *pipe {
		pipeBrain()
		return
	}
	os.Exit(fileBrain())
}

func mirror(x, y int) string { return strconv.Itoa(size-1-x) + "," + strconv.Itoa(y) }

func pipeBrain() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	last := "0,0"
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSpace(line)
		word, rest, _ := strings.Cut(line, " ")
		reply := ""
		switch word {
		case "START", "RECTSTART", "RESTART":
			reply = "OK"
		case "ABOUT":
			reply = `name="echo"`
		case "END":
			return
		case "TURN":
			last = rest
			fallthrough
		case "DONE":
			xs, ys, _ := strings.Cut(last, ",")
			x, _ := strconv.Atoi(xs)
			y, _ := strconv.Atoi(ys)
			reply = mirror(x, y)
		default:
			if strings.Count(line, ",") == 2 { // a BOARD line
				last = line[:strings.LastIndexByte(line, ',')]
			}
		}
		if reply != "" {
			out.WriteString(reply + "\r\n")
			out.Flush()
		}
	}
}

func fileBrain() int {
	board, err := os.ReadFile("PLOCHA.DAT")
	if err != nil {
		return 1
	}
	if _, err := os.ReadFile("TAH.DAT"); err != nil {
		return 1
	}
	rows := strings.Fields(string(board))
	for y := 0; y < size; y++ {
		for x := 0; x < size/2; x++ {
			if (x+2*y)%5 == 0 || y >= len(rows) || len(rows[y]) < size {
				continue
			}
			if mx := size - 1 - x; rows[y][mx] == '-' {
				os.WriteFile("TAH.DAT", []byte(mirror(x, y)+"\n"), 0o644)
				return 0
			}
		}
	}
	return 1
}
