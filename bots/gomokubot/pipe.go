package gomokubot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arena/game/gomoku"
)

// Options configure the brain.
type Options struct {
	// Name is reported by ABOUT (default "arena-gomoku").
	Name string
	// Log, when set, receives debug lines (search iterations, protocol
	// complaints).
	Log io.Writer
	// MaxDepth limits the search depth (0: unlimited).
	MaxDepth int
}

// Version is reported by ABOUT.
const Version = "1.0"

// name returns the configured or default brain name.
func (o Options) name() string {
	if o.Name == "" {
		return "arena-gomoku"
	}
	return o.Name
}

// logf writes a debug line if a log is configured.
func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// maxLine is the longest command line kept; the rest of a longer line is
// dropped.
const maxLine = 4096

// pipeOverhead is subtracted from every move budget for reading,
// writing and scheduling.
const pipeOverhead = 15 * time.Millisecond

// RunPipe speaks the Piskvork pipe protocol on in/out until END or the
// end of in. Input lines may end in CR, LF or CRLF; commands are
// case-insensitive; replies end in "\n" and are flushed at once. Bad input
// is answered with ERROR or UNKNOWN and never ends the loop. RunPipe
// returns nil after END or EOF, ctx.Err() when ctx ends, or the error of a
// failed write or read.
func RunPipe(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	lines := make(chan string)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go readLines(in, lines, readErr, done)
	b := &pipeBrain{opts: opts, out: bufio.NewWriter(out), clock: newClock(), rule: gomoku.Freestyle}
	for {
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok = <-lines:
		}
		if !ok {
			return <-readErr
		}
		quit, err := b.handle(ctx, line)
		if err != nil {
			return err
		}
		if quit {
			return nil
		}
	}
}

// readLines sends the non-empty lines of in to lines until EOF or until
// done closes, then reports the read error (nil at EOF) and closes lines.
// A line ends at CR or LF; bytes beyond maxLine are dropped.
func readLines(in io.Reader, lines chan<- string, readErr chan<- error, done <-chan struct{}) {
	defer close(lines)
	r := bufio.NewReader(in)
	var buf []byte
	send := func() bool {
		line := strings.TrimSpace(string(buf))
		buf = buf[:0]
		if line == "" {
			return true
		}
		select {
		case lines <- line:
			return true
		case <-done:
			return false
		}
	}
	for {
		c, err := r.ReadByte()
		if err != nil {
			if !send() {
				readErr <- nil
				return
			}
			if err == io.EOF {
				err = nil
			}
			readErr <- err
			return
		}
		switch {
		case c == '\r' || c == '\n':
			if !send() {
				readErr <- nil
				return
			}
		case len(buf) < maxLine:
			buf = append(buf, c)
		}
	}
}

// pipeBrain is the state of one pipe session.
type pipeBrain struct {
	opts   Options
	out    *bufio.Writer
	eng    *Engine
	rule   gomoku.Rule
	me     gomoku.Stone // Empty until known
	clock  clock
	memory int64

	inBoard bool
	board   []boardStone
}

// boardStone is one line of a BOARD block.
type boardStone struct {
	p     gomoku.Point
	field int
}

// reply writes one line and flushes it.
func (b *pipeBrain) reply(format string, args ...any) error {
	fmt.Fprintf(b.out, format, args...)
	b.out.WriteByte('\n')
	return b.out.Flush()
}

// handle runs one input line. It reports whether the session is over.
func (b *pipeBrain) handle(ctx context.Context, line string) (bool, error) {
	if b.inBoard {
		return false, b.boardLine(ctx, line)
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToUpper(word) {
	case "START":
		n, err := strconv.Atoi(rest)
		if err != nil || n < gomoku.MinSize || n > gomoku.MaxSize {
			return false, b.reply("ERROR unsupported board size %q (use %d..%d)", clip(rest), gomoku.MinSize, gomoku.MaxSize)
		}
		b.newBoard(n, n)
		return false, b.reply("OK")
	case "RECTSTART":
		p, err := gomoku.ParsePoint(rest)
		if err != nil || p.X < gomoku.MinSize || p.X > gomoku.MaxSize || p.Y < gomoku.MinSize || p.Y > gomoku.MaxSize {
			return false, b.reply("ERROR unsupported board size %q (use %d..%d each way)", clip(rest), gomoku.MinSize, gomoku.MaxSize)
		}
		b.newBoard(p.X, p.Y)
		return false, b.reply("OK")
	case "RESTART":
		b.ensureBoard()
		b.eng.Reset()
		b.me = gomoku.Empty
		return false, b.reply("OK")
	case "INFO":
		b.info(rest)
		return false, nil
	case "BEGIN":
		b.ensureBoard()
		if b.me == gomoku.Empty {
			b.me = b.sideToMove()
		}
		return false, b.play(ctx)
	case "TURN":
		return false, b.turn(ctx, rest)
	case "BOARD":
		b.ensureBoard()
		b.inBoard = true
		b.board = b.board[:0]
		return false, nil
	case "TAKEBACK":
		b.ensureBoard()
		p, err := gomoku.ParsePoint(rest)
		if err == nil {
			err = b.eng.Remove(p)
		}
		if err != nil {
			b.opts.logf("TAKEBACK %s: %v", clip(rest), err)
		}
		return false, b.reply("OK")
	case "PLAY":
		b.ensureBoard()
		p, err := gomoku.ParsePoint(rest)
		if err != nil || !b.eng.Legal(p, b.mine()) {
			return false, b.reply("ERROR cannot play %q", clip(rest))
		}
		b.place(p, b.mine())
		return false, b.reply("%d,%d", p.X, p.Y)
	case "ABOUT":
		return false, b.reply(`name="%s", version="%s", author="arena", country="CZ"`, b.opts.name(), Version)
	case "END":
		return true, nil
	}
	return false, b.reply("UNKNOWN command %q", clip(word))
}

// clip shortens text echoed back to the manager.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == '"' || r > '~' {
			return '?'
		}
		return r
	}, s)
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// newBoard starts an empty width x height board.
func (b *pipeBrain) newBoard(w, h int) {
	if b.eng == nil || b.eng.Width() != w || b.eng.Height() != h {
		b.eng = NewEngine(w, h, b.rule)
		b.eng.MaxDepth = b.opts.MaxDepth
		b.eng.Log = b.opts.Log
		b.eng.SetMemory(b.memory)
	} else {
		b.eng.Reset()
	}
	b.me = gomoku.Empty
}

// ensureBoard creates the default 20x20 board if START never came.
func (b *pipeBrain) ensureBoard() {
	if b.eng == nil {
		b.newBoard(20, 20)
	}
}

// info handles INFO key value.
func (b *pipeBrain) info(rest string) {
	key, val, _ := strings.Cut(rest, " ")
	val = strings.TrimSpace(val)
	num, err := strconv.ParseInt(val, 10, 64)
	numeric := err == nil
	switch strings.ToLower(key) {
	case "timeout_turn":
		if numeric {
			b.clock.turnMs = max(num, 0)
		}
	case "timeout_match":
		if numeric {
			b.clock.matchMs = max(num, 0)
		}
	case "time_left":
		if numeric {
			b.clock.setLeft(num)
		}
	case "max_memory":
		if numeric {
			b.memory = num
			if b.eng != nil {
				b.eng.SetMemory(num)
			}
		}
	case "rule":
		if numeric {
			b.rule = supportedRule(gomoku.Rule(num))
			if b.eng != nil {
				b.eng.SetRule(b.rule)
			}
		}
	}
}

// supportedRule maps any rule code to the nearest one the engine plays.
func supportedRule(r gomoku.Rule) gomoku.Rule {
	if r.Valid() == nil {
		return r
	}
	switch {
	case r&gomoku.Renju != 0:
		return gomoku.Renju
	case r&gomoku.Caro != 0:
		return gomoku.Caro | r&gomoku.ExactFive
	}
	return r & (gomoku.ExactFive | gomoku.Continuous)
}

// mine returns the brain's colour, deciding it from the position if it is
// not known yet.
func (b *pipeBrain) mine() gomoku.Stone {
	if b.me == gomoku.Empty {
		b.me = b.sideToMove()
	}
	return b.me
}

// sideToMove guesses whose turn it is from the stone counts: Black moves
// when both have as many stones.
func (b *pipeBrain) sideToMove() gomoku.Stone {
	nb, nw := 0, 0
	for y := 0; y < b.eng.Height(); y++ {
		for x := 0; x < b.eng.Width(); x++ {
			switch b.eng.At(gomoku.Point{X: x, Y: y}) {
			case gomoku.Black:
				nb++
			case gomoku.White:
				nw++
			}
		}
	}
	if nb > nw {
		return gomoku.White
	}
	return gomoku.Black
}

// place puts a stone, logging refusals.
func (b *pipeBrain) place(p gomoku.Point, s gomoku.Stone) {
	if err := b.eng.Place(p, s); err != nil {
		b.opts.logf("%v", err)
	}
}

// turn handles TURN x,y: the opponent's move, then ours.
func (b *pipeBrain) turn(ctx context.Context, rest string) error {
	b.ensureBoard()
	p, err := gomoku.ParsePoint(rest)
	if err != nil {
		return b.reply("ERROR bad move %q", clip(rest))
	}
	if b.me == gomoku.Empty {
		// The opponent is moving now, so it has the side to move.
		b.me = b.sideToMove().Opponent()
	}
	if err := b.eng.Place(p, b.me.Opponent()); err != nil {
		return b.reply("ERROR %s", clip(err.Error()))
	}
	return b.play(ctx)
}

// boardLine handles one line inside a BOARD block.
func (b *pipeBrain) boardLine(ctx context.Context, line string) error {
	if strings.EqualFold(line, "DONE") {
		b.inBoard = false
		b.setBoard()
		return b.play(ctx)
	}
	parts := strings.Split(line, ",")
	if len(parts) != 3 {
		b.opts.logf("BOARD: ignoring %q", clip(line))
		return nil
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(parts[0]))
	y, err2 := strconv.Atoi(strings.TrimSpace(parts[1]))
	f, err3 := strconv.Atoi(strings.TrimSpace(parts[2]))
	if err1 != nil || err2 != nil || err3 != nil || f < 1 || f > 3 {
		b.opts.logf("BOARD: ignoring %q", clip(line))
		return nil
	}
	if len(b.board) < b.eng.Width()*b.eng.Height() {
		b.board = append(b.board, boardStone{gomoku.Point{X: x, Y: y}, f})
	}
	return nil
}

// setBoard replaces the position with the BOARD block. The brain is
// Black when both sides have as many stones (the first stone decides
// otherwise in odd cases).
func (b *pipeBrain) setBoard() {
	b.eng.Reset()
	own, opp := 0, 0
	first := 0
	for _, s := range b.board {
		switch s.field {
		case 1:
			own++
		case 2:
			opp++
		default:
			continue
		}
		if first == 0 {
			first = s.field
		}
	}
	switch {
	case own == opp:
		b.me = gomoku.Black
	case opp == own+1:
		b.me = gomoku.White
	case first == 2:
		b.me = gomoku.White
	default:
		b.me = gomoku.Black
	}
	for _, s := range b.board {
		var err error
		switch s.field {
		case 1:
			err = b.eng.Place(s.p, b.me)
		case 2:
			err = b.eng.Place(s.p, b.me.Opponent())
		case 3:
			err = b.eng.Block(s.p)
		}
		if err != nil {
			b.opts.logf("BOARD: %v", err)
		}
	}
}

// play searches, reports and makes the brain's move.
func (b *pipeBrain) play(ctx context.Context) error {
	start := time.Now()
	me := b.mine()
	budget := b.clock.budget(pipeOverhead, b.eng.EmptySquares())
	b.eng.TurnOnly = !b.clock.matchBinds()
	p, info := b.eng.Search(ctx, me, budget)
	if err := b.reply("MESSAGE %s", info); err != nil {
		return err
	}
	if p.X < 0 {
		return b.reply("ERROR no empty square left")
	}
	b.place(p, me)
	err := b.reply("%d,%d", p.X, p.Y)
	b.clock.observe(time.Since(start), budget+pipeOverhead)
	return err
}
