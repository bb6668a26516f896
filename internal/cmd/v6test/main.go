// Command v6test is a weak Points engine for testing the arena: it speaks
// Points AI Protocol v6, plays random or greedy dots and, on request,
// fails in the ways real engines fail.
//
// Usage:
//
//	v6test [--policy=random|greedy] [--seed=N] [--name=NAME]
//	       [--misbehave=MODE] [--at=N] [--log=FILE] [--pbname]
//
// Policies as pointstest's: random plays a random free point; greedy the
// dot that captures most if any does, else a free point next to the last
// dot.
//
// It answers list_commands, name, version, init, play, gen_move,
// gen_move_with_time, gen_move_with_complexity, undo and quit; anything
// else gets "? ID COMMAND". A generated dot is not played: the manager
// plays it. A misbehaviour happens on the engine's own move number --at
// (default 1), counted in gen_move requests, and later:
//
//	silent      never answer gen_move (keep reading)
//	crash       exit with status 3 instead of answering gen_move
//	garbage     answer gen_move with "hello there"
//	wrongid     answer gen_move with the next ID
//	wrongcolour answer gen_move with the other colour
//	refuse      answer gen_move with "? ID gen_move..."
//	occupied    answer gen_move with a point that holds a dot
//	offboard    answer gen_move with a point off the field
//	refuseplay  answer "?" to every play after that move
//	flood       answer gen_move with an 8 MiB line
//	mute        answer nothing at all, from the start
//
// With --log every line received is appended to FILE, and "START" and
// "EXIT" mark the start and a clean exit. With TESTBRAIN_PIDFILE set the
// process appends "PID PGID" to that file at start. --pbname prints a name
// line first, as a Points Battle bot would (for the probe's tests).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"arena/game/points"
	"arena/internal/pointsref"
	"arena/internal/testbrain"
)

// commands is what the engine answers list_commands with.
var commands = []string{"list_commands", "name", "version", "init", "play", "gen_move", "gen_move_with_time", "gen_move_with_complexity", "undo", "quit"}

func main() {
	policy := flag.String("policy", "random", "random or greedy")
	seed := flag.Uint64("seed", 1, "random seed")
	name := flag.String("name", "v6test", "the answer to name (one word)")
	misbehave := flag.String("misbehave", "", "failure mode")
	at := flag.Int("at", 1, "first own move that misbehaves")
	logFile := flag.String("log", "", "append received lines here")
	pbName := flag.Bool("pbname", false, "print a name line first")
	flag.Parse()

	log := testbrain.NoteStart(*logFile)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	if *pbName {
		say(*name)
	}
	e := &engine{rng: rand.New(rand.NewPCG(*seed, 7)), policy: *policy}
	own := 0
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if log != nil {
			fmt.Fprintln(log, line)
		}
		if line == "" || *misbehave == "mute" {
			continue
		}
		req, err := points.ParseV6Request(line)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		ok := func(args ...string) {
			say(points.V6Reply{OK: true, ID: req.ID, Command: req.Command, Args: args}.String())
		}
		refuse := func() { say(points.V6Reply{ID: req.ID, Command: req.Command}.String()) }
		switch req.Command {
		case "list_commands":
			ok(commands...)
		case "name":
			ok(*name)
		case "version":
			ok("1.0")
		case "quit":
			ok()
			if log != nil {
				fmt.Fprintln(log, "EXIT")
			}
			return
		case "init":
			if e.init(req.Args) != nil {
				refuse()
				continue
			}
			ok()
		case "play":
			if *misbehave == "refuseplay" && own >= *at {
				refuse()
				continue
			}
			if e.play(req.Args) != nil {
				refuse()
				continue
			}
			ok(req.Args...)
		case "undo":
			if e.undo() != nil {
				refuse()
				continue
			}
			ok()
		case "gen_move", "gen_move_with_time", "gen_move_with_complexity":
			own++
			c, err := e.colour(req.Args)
			if err != nil {
				refuse()
				continue
			}
			if own >= *at {
				switch *misbehave {
				case "silent":
					continue
				case "crash":
					os.Exit(3)
				case "garbage":
					say("hello there")
					continue
				case "wrongid":
					say(points.V6Reply{OK: true, ID: req.ID + 1, Command: req.Command, Args: points.V6Move(e.choose(), c)}.String())
					continue
				case "wrongcolour":
					say(points.V6Reply{OK: true, ID: req.ID, Command: req.Command, Args: points.V6Move(e.choose(), c.Opp())}.String())
					continue
				case "refuse":
					refuse()
					continue
				case "flood":
					say("= " + strconv.Itoa(req.ID) + " " + req.Command + " " + strings.Repeat("9", 8<<20))
					continue
				case "occupied":
					ok(points.V6Move(e.last, c)...)
					continue
				case "offboard":
					ok(points.V6Move(points.Point{X: e.field.Width(), Y: 0}, c)...)
					continue
				}
			}
			ok(points.V6Move(e.choose(), c)...)
		default:
			refuse()
		}
	}
}

// engine is the game as the manager has played it.
type engine struct {
	rng    *rand.Rand
	policy string
	width  int
	height int
	field  *points.Field
	moves  []points.Point
	last   points.Point
}

func (e *engine) init(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("init wants W H SEED")
	}
	w, err1 := strconv.Atoi(args[0])
	h, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("init wants integers")
	}
	f, err := points.NewField(w, h, points.Standard)
	if err != nil {
		return err
	}
	e.field, e.width, e.height, e.moves = f, w, h, nil
	return nil
}

// colour reads the colour argument of gen_move; it must be the side to
// move (the field's colours follow the number of dots).
func (e *engine) colour(args []string) (points.Color, error) {
	if e.field == nil || len(args) == 0 {
		return points.None, fmt.Errorf("no game")
	}
	c, err := strconv.Atoi(args[0])
	if err != nil || c != e.field.Next().Side() || e.field.Free() == 0 {
		return points.None, fmt.Errorf("not %s's move", args[0])
	}
	return points.ColorOf(c), nil
}

func (e *engine) play(args []string) error {
	if e.field == nil || len(args) != 3 {
		return fmt.Errorf("play wants X Y COLOUR after init")
	}
	x, err1 := strconv.Atoi(args[0])
	y, err2 := strconv.Atoi(args[1])
	c, err3 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || err3 != nil || c != e.field.Next().Side() {
		return fmt.Errorf("bad play")
	}
	p := points.Point{X: x, Y: y}
	if _, err := e.field.Play(p); err != nil {
		return err
	}
	e.moves = append(e.moves, p)
	e.last = p
	return nil
}

// undo takes back the last dot by playing the others again.
func (e *engine) undo() error {
	if e.field == nil || len(e.moves) == 0 {
		return fmt.Errorf("nothing to undo")
	}
	moves := e.moves[:len(e.moves)-1]
	if err := e.init([]string{strconv.Itoa(e.width), strconv.Itoa(e.height), "0"}); err != nil {
		return err
	}
	for _, p := range moves {
		e.field.Play(p)
		e.last = p
	}
	e.moves = moves
	return nil
}

// choose picks the dot to suggest.
func (e *engine) choose() points.Point {
	if e.policy == "greedy" {
		return pointsref.Greedy(e.field, e.last, e.rng)
	}
	return pointsref.Random(e.field, e.last, e.rng)
}
