package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"arena/internal/testbrain"
)

// Pipe protocol limits.
const (
	maxLine      = 1 << 20 // longer input lines are truncated
	minBoardSide = 5
	maxBoardSide = 128
)

// pipeBrain is the state of a brain speaking the pipe protocol. Its own
// stones are 'x' on board, the opponent's 'o'.
type pipeBrain struct {
	c       config
	in      *bufio.Reader
	inFd    int // the input's file descriptor, -1 when it is not a file
	out     *bufio.Writer
	board   testbrain.Board
	started bool
	moves   int
	hold    [][]byte // memory mode: kept alive until exit
	forked  bool
	alloced bool
}

// runPipe plays the pipe protocol on in/out until END or end of input and
// returns the exit status. Some misbehaviours exit the process directly.
func runPipe(c config, in io.Reader, out io.Writer) int {
	b := &pipeBrain{c: c, in: bufio.NewReader(in), out: bufio.NewWriterSize(out, 64<<10)}
	if f, ok := in.(*os.File); ok {
		b.inFd = int(f.Fd())
	} else {
		b.inFd = -1
	}
	for {
		line, err := b.readLine()
		if err != nil {
			return 0
		}
		if b.handle(line) {
			return 0
		}
	}
}

// readLine returns the next non-empty input line. CR, LF and CR LF all end
// a line; since empty lines are skipped, a CR LF pair needs no look-ahead.
func (b *pipeBrain) readLine() (string, error) {
	var buf []byte
	for {
		c, err := b.in.ReadByte()
		if err != nil {
			if len(buf) > 0 && errors.Is(err, io.EOF) {
				return string(buf), nil
			}
			return "", err
		}
		if c == '\n' || c == '\r' {
			if len(strings.TrimSpace(string(buf))) > 0 {
				return strings.TrimSpace(string(buf)), nil
			}
			buf = buf[:0]
			continue
		}
		if len(buf) < maxLine {
			buf = append(buf, c)
		}
	}
}

// say writes one line with the configured line ending and flushes it.
func (b *pipeBrain) say(format string, args ...any) {
	fmt.Fprintf(b.out, format, args...)
	b.out.WriteString(b.c.eol)
	b.out.Flush()
}

// handle executes one command and reports whether the brain must exit.
func (b *pipeBrain) handle(line string) (exit bool) {
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToUpper(cmd) {
	case "START":
		n, err := strconv.Atoi(arg)
		if err != nil {
			n = -1
		}
		b.start(n, n)
	case "RECTSTART":
		w, h, ok := parseXY(arg)
		if !ok {
			w = -1
		}
		b.start(w, h)
	case "RESTART":
		w, h := b.board.W, b.board.H
		if !b.started {
			w = -1
		}
		b.start(w, h)
	case "INFO":
	case "BEGIN":
		if b.needBoard() {
			b.move()
		}
	case "TURN":
		if !b.needBoard() {
			break
		}
		x, y, ok := parseXY(arg)
		if !ok || b.board.At(x, y) != testbrain.Empty {
			b.say("ERROR bad TURN %s", arg)
			break
		}
		b.board.Set(x, y, testbrain.O)
		b.move()
	case "BOARD":
		if b.readBoard() {
			return true
		}
		if b.needBoard() {
			b.move()
		}
	case "PLAY":
		if !b.needBoard() {
			break
		}
		x, y, ok := parseXY(arg)
		if !ok || b.board.At(x, y) != testbrain.Empty {
			b.say("ERROR bad PLAY %s", arg)
			break
		}
		b.board.Set(x, y, testbrain.X)
		b.say("%d,%d", x, y)
	case "TAKEBACK":
		x, y, ok := parseXY(arg)
		if !b.started || !ok || !b.board.In(x, y) {
			b.say("ERROR bad TAKEBACK %s", arg)
			break
		}
		b.board.Set(x, y, testbrain.Empty)
		b.say("OK")
	case "ABOUT":
		b.say(`name="%s", version="1.0", author="arena", country="CZ"`, b.c.name)
	case "END":
		return true
	default:
		b.say("UNKNOWN %s", cmd)
	}
	return false
}

// start answers START, RECTSTART and RESTART for a w×h board (w < 0: the
// command was malformed).
func (b *pipeBrain) start(w, h int) {
	switch {
	case b.c.mode == "nostart":
		return
	case b.c.mode == "startfail":
		b.say("ERROR cannot start")
		return
	case w < minBoardSide || h < minBoardSide || w > maxBoardSide || h > maxBoardSide:
		b.say("ERROR unsupported board size")
		return
	}
	b.board = testbrain.NewBoard(w, h)
	b.started = true
	b.say("OK")
}

// needBoard reports whether a game has been started, answering ERROR if
// not.
func (b *pipeBrain) needBoard() bool {
	if !b.started {
		b.say("ERROR no board: START first")
	}
	return b.started
}

// readBoard reads the lines of a BOARD command up to DONE into a fresh
// board and reports whether END arrived (or input ended) instead.
func (b *pipeBrain) readBoard() (exit bool) {
	if b.started {
		b.board = testbrain.NewBoard(b.board.W, b.board.H)
	}
	for {
		line, err := b.readLine()
		if err != nil {
			return true
		}
		switch strings.ToUpper(line) {
		case "DONE":
			return false
		case "END":
			return true
		}
		parts := strings.Split(line, ",")
		if len(parts) != 3 || !b.started {
			continue
		}
		x, errX := strconv.Atoi(strings.TrimSpace(parts[0]))
		y, errY := strconv.Atoi(strings.TrimSpace(parts[1]))
		if errX != nil || errY != nil || !b.board.In(x, y) {
			continue
		}
		switch strings.TrimSpace(parts[2]) {
		case "1":
			b.board.Set(x, y, testbrain.X)
		case "2":
			b.board.Set(x, y, testbrain.O)
		case "3":
			b.board.Set(x, y, testbrain.Blocked)
		}
	}
}

// move answers a move request (BEGIN, TURN, BOARD), misbehaving if asked.
func (b *pipeBrain) move() {
	b.moves++
	n := b.moves
	b.say("MESSAGE testbrain move %d", n)
	if b.c.mode == "pid" {
		appendPid(b.c.pidFile, os.Getpid())
	}
	if b.c.delay > 0 {
		time.Sleep(b.c.delay)
	}
	if b.c.misbehaves(n) {
		if done := b.misbehave(); done {
			return
		}
	}
	x, y, ok := b.c.policy(b.board, testbrain.X, b.c.rng)
	if !ok {
		b.say("ERROR no empty square")
		return
	}
	b.board.Set(x, y, testbrain.X)
	b.say("%d,%d", x, y)
	if b.c.mode == "busyafter" && b.c.misbehaves(n) {
		b.busyAfterMove()
	}
}

// busyAfterMove is the busyafter mode: CPU work after the move is printed,
// then a command that came meanwhile is refused (a brain still
// "thinking" drops it). A manager that waits for the brain to block
// before stopping it never sends a command that early.
func (b *pipeBrain) busyAfterMove() {
	spinCPU(b.c.busy)
	// The LF of the last command's CR LF may still be buffered: it is
	// not a command.
	for b.in.Buffered() > 0 {
		if c, _ := b.in.Peek(1); c[0] != '\r' && c[0] != '\n' {
			break
		}
		b.in.ReadByte()
	}
	if b.in.Buffered() == 0 && !readable(b.inFd) {
		return
	}
	line, err := b.readLine()
	if err != nil {
		return
	}
	word, _, _ := strings.Cut(line, " ")
	b.say("ERROR Unknown command: %s", word)
}

// misbehave performs the configured failure on a move; done reports that
// the move has been answered (or deliberately not answered) already.
func (b *pipeBrain) misbehave() (done bool) {
	switch b.c.mode {
	case "crash":
		b.out.Flush()
		os.Exit(crashStatus)
	case "segv":
		b.out.Flush()
		segv()
	case "hang", "stubborn":
		b.out.Flush()
		hang(b.c.mode == "stubborn")
	case "exit0":
		b.out.Flush()
		os.Exit(0)
	case "garbage":
		b.say("hello world")
		return true
	case "longline":
		b.out.Write(longLine())
		b.say("")
		return true
	case "longmsg":
		b.say("MESSAGE %s", longLine())
	case "flood":
		for range floodLines {
			b.out.WriteString(floodLine)
			b.out.WriteString(b.c.eol)
		}
		b.out.Flush()
		hang(false)
	case "offboard":
		b.say("%d,0", b.board.W)
		return true
	case "occupied":
		if x, y, ok := anyStone(b.board, b.c); ok {
			b.say("%d,%d", x, y)
			return true
		}
	case "msg":
		b.say("MESSAGE testbrain message 1")
		b.say("MESSAGE testbrain message 2")
	case "memory":
		if !b.alloced {
			b.alloced = true
			b.hold = allocate(b.c.memMiB)
		}
	case "fork":
		if !b.forked {
			b.forked = true
			forkChildren(b.c.pidFile)
		}
	case "stray":
		for _, l := range []string{"OK", "UNKNOWN x", "ERROR y", "DEBUG d", "MESSAGE m"} {
			b.say("%s", l)
		}
	case "suggest":
		x, y, ok := b.c.policy(b.board, testbrain.X, b.c.rng)
		if !ok {
			return false
		}
		b.say("SUGGEST %d,%d", x, y)
		return true
	case "stderr":
		spamStderr()
	}
	return false
}

// anyStone picks a random square holding a stone of either side.
func anyStone(bd testbrain.Board, c config) (x, y int, ok bool) {
	var stones []int
	for i, v := range bd.Cells {
		if v == testbrain.X || v == testbrain.O {
			stones = append(stones, i)
		}
	}
	if len(stones) == 0 {
		return 0, 0, false
	}
	i := stones[c.rng.IntN(len(stones))]
	return i % bd.W, i / bd.W, true
}

// parseXY parses "x,y" (spaces around the numbers allowed).
func parseXY(s string) (x, y int, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	x, errX := strconv.Atoi(strings.TrimSpace(a))
	y, errY := strconv.Atoi(strings.TrimSpace(b))
	return x, y, errX == nil && errY == nil
}
