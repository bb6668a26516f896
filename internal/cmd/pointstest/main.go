// Command pointstest is a weak Points player for testing the arena: it
// speaks the Points Battle protocol, plays random or greedy dots and, on
// request, fails in the ways real bots fail.
//
// Usage:
//
//	pointstest [--policy=random|greedy] [--seed=N] [--name=NAME] [--base=0|1]
//	           [--misbehave=MODE] [--at=N] [--log=FILE] [--delay=DURATION]
//
// Policies: random plays a random free point; greedy plays the dot that
// captures most if any does, else a free point next to the last dot (a
// random one otherwise).
//
// A misbehaviour happens on the bot's own move number --at (default 1)
// and later:
//
//	silent    never answer "go" (keep reading)
//	hang      stop reading and sleep forever
//	crash     exit with status 3 without answering
//	garbage   answer "move here there"
//	chatter   print status lines but never a move
//	occupied  answer a point that holds a dot
//	offboard  answer a point off the field
//	noname    print nothing at start and never answer
//	flood     print an 8 MiB line
//
// With --log every line received is appended to FILE, and "START" and
// "EXIT" mark the start and a clean exit. With TESTBRAIN_PIDFILE set the
// process appends "PID PGID" to that file at start.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"arena/game/points"
	"arena/internal/pointsref"
	"arena/internal/testbrain"
)

func main() {
	policy := flag.String("policy", "random", "random or greedy")
	seed := flag.Uint64("seed", 1, "random seed")
	name := flag.String("name", "pointstest", "name line")
	base := flag.Int("base", 0, "coordinate base")
	misbehave := flag.String("misbehave", "", "failure mode")
	at := flag.Int("at", 1, "first own move that misbehaves")
	logFile := flag.String("log", "", "append received lines here")
	delay := flag.Duration("delay", 0, "wait before each answer")
	flag.Parse()

	log := testbrain.NoteStart(*logFile)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	if *misbehave == "noname" {
		time.Sleep(time.Hour)
	}
	say(*name)
	rng := rand.New(rand.NewPCG(*seed, 7))
	var f *points.Field
	var last points.Point
	own := 0
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if log != nil {
			fmt.Fprintln(log, line)
		}
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "quit":
			if log != nil {
				fmt.Fprintln(log, "EXIT")
			}
			return
		case "new":
			h, _ := strconv.Atoi(w[1])
			wd, _ := strconv.Atoi(w[2])
			var err error
			if f, err = points.NewField(wd, h, points.Standard); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		case "move":
			p, err := points.ParseMove(line, *base)
			if err != nil || f == nil || f.Check(p) != nil {
				fmt.Fprintf(os.Stderr, "bad move %q\n", line)
				os.Exit(4)
			}
			f.Put(f.Index(p))
			last = p
		case "go":
			own++
			if *delay > 0 {
				time.Sleep(*delay)
			}
			if own >= *at {
				switch *misbehave {
				case "silent":
					continue
				case "hang":
					time.Sleep(time.Hour)
				case "crash":
					os.Exit(3)
				case "garbage":
					say("move here there")
					continue
				case "chatter":
					for i := 0; i < 5; i++ {
						say("thinking " + strconv.Itoa(i))
					}
					continue
				case "occupied":
					say(points.FormatMove(last, *base))
					continue
				case "offboard":
					say(points.FormatMove(points.Point{X: f.Width(), Y: 0}, *base))
					continue
				case "flood":
					say(strings.Repeat("z", 8<<20))
					continue
				}
			}
			say("status: move " + strconv.Itoa(own))
			p := choose(f, *policy, last, rng)
			f.Put(f.Index(p))
			last = p
			say(points.FormatMove(p, *base))
		}
	}
}

// choose picks the dot to play.
func choose(f *points.Field, policy string, last points.Point, rng *rand.Rand) points.Point {
	if policy == "greedy" {
		return pointsref.Greedy(f, last, rng)
	}
	return pointsref.Random(f, last, rng)
}
