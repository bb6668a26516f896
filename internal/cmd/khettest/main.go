// Command khettest is a Khet player for tests: it speaks the Tartu line
// protocol with a simple policy (random, or one-ply greedy: take whatever
// the laser hits), plays a script of moves, or misbehaves in one chosen
// way so the referee's verdicts can be tested against a real process.
//
//	khettest --policy=random|greedy|script --seed=N --moves=S23C,R21C --log=FILE
//	         --fault=nogreet|colour|garbage|sleep|crash|illegal|linger|flood
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"arena/game/khet"
	"arena/internal/khetref"
)

func main() {
	policy := flag.String("policy", "random", "random, greedy or script")
	seed := flag.Uint64("seed", 1, "random seed")
	moves := flag.String("moves", "", "script: moves to play in order, comma-separated")
	logFile := flag.String("log", "", "append every line received to this file")
	fault := flag.String("fault", "", "misbehaviour: nogreet, colour, garbage, sleep, crash, illegal, linger, flood")
	faultAt := flag.Int("fault-at", 1, "misbehave at this move of ours (1 = the first)")
	name := flag.String("name", "khettest", "name in the greeting")
	flag.Parse()

	var log *os.File
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		log = f
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	if *fault == "nogreet" {
		say("hello khet")
	} else {
		say("play khet " + *name)
	}
	rng := rand.New(rand.NewPCG(*seed, 7))
	script := strings.Split(*moves, ",")
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	mine := 0
	for in.Scan() {
		line := in.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "E":
			if *fault == "linger" {
				time.Sleep(time.Hour)
			}
			return
		case "B":
			continue
		case "R":
		default:
			fmt.Fprintf(os.Stderr, "unexpected line %q\n", line)
			os.Exit(2)
		}
		colour, state, _ := strings.Cut(rest, " ")
		mine++
		if mine == *faultAt {
			switch *fault {
			case "garbage":
				say("let me think about it")
				continue
			case "sleep":
				time.Sleep(time.Hour)
			case "crash":
				fmt.Fprintln(os.Stderr, "crashing on purpose")
				os.Exit(3)
			case "illegal":
				say(colour + "978") // the Sphinx never moves
				continue
			case "flood":
				for {
					out.WriteString(strings.Repeat("x", 4096))
				}
			}
		}
		pos, err := khet.ParseState(state, khet.Rules{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var m string
		switch *policy {
		case "script":
			if mine > len(script) || script[mine-1] == "" {
				fmt.Fprintln(os.Stderr, "script exhausted")
				os.Exit(4)
			}
			m = script[mine-1]
		case "greedy":
			m = khetref.Greedy(pos.Board, rng).String()
		default:
			m = khetref.Random(pos.Board, rng).String()
		}
		if mine == *faultAt && *fault == "colour" {
			other := "R"
			if colour == "R" {
				other = "S"
			}
			m = other + m[1:]
		}
		say(m)
	}
}
