package gomoku

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
)

// PipeSeat plays one side with a brain that speaks the Piskvork pipe
// protocol on its stdin and stdout. The manager writes CRLF and accepts
// CR, LF or CRLF; MESSAGE and DEBUG lines are kept with the move, stray
// OK/ERROR/UNKNOWN lines are kept and skipped, SUGGEST is answered with
// PLAY.
type PipeSeat struct {
	state *State
	me    Stone
	opts  SeatOptions
	out   bot.Output
	proc  *bot.Process // used by the seat's own goroutine
	run   bot.Holder   // the same, for Kill from elsewhere

	// known is how many moves of the history the brain knows (after
	// START it knows the empty board; then its own answers and what it
	// was sent); blocked counts the blocked squares it knows of, so a new
	// five in a continuous game resends the board.
	known   int
	blocked int
	about   string
	stray   string // the last stray line, quoted when the brain then times out
	buf     []byte
	// resume is set when the brain is to be continued: it is, once the
	// next command is in its pipe (see bot.Process.WriteResume).
	resume atomic.Bool
}

// NewPipeSeat prepares a seat for side me of the game in state. The state
// is read, never changed, by the seat.
func NewPipeSeat(state *State, me Stone, opts SeatOptions) *PipeSeat {
	if opts.GameType == 0 {
		opts.GameType = 1
	}
	return &PipeSeat{state: state, me: me, opts: opts, out: bot.Output{Max: opts.maxOutput()}}
}

// Start launches the brain, sends START (RECTSTART for a board that is not
// square) and waits for OK, then sends the INFO limits and asks ABOUT,
// waiting for its answer.
func (s *PipeSeat) Start(ctx context.Context, req match.Request) (match.Greeting, error) {
	p, err := bot.Start(bot.Config{
		Args: s.opts.Args, Env: s.opts.Env, Dir: s.opts.Dir,
		MemoryLimit: s.opts.MemoryLimit, MaxLine: s.opts.MaxLine, Interactive: true, Transcript: s.opts.Transcript,
		PauseGrace: s.opts.PauseGrace, Sandbox: s.opts.Sandbox, Writable: s.opts.writable(),
	})
	if err != nil {
		return match.Greeting{}, game.Fault{Reason: game.ReasonCrash, Detail: err.Error()}
	}
	s.proc = p
	s.run.Set(p)
	cfg := s.state.Config()
	start := "START " + strconv.Itoa(cfg.Width)
	if cfg.Width != cfg.Height {
		start = "RECTSTART " + strconv.Itoa(cfg.Width) + "," + strconv.Itoa(cfg.Height)
	}
	if err := s.send(req.Deadline, start); err != nil {
		return s.greeting(), err
	}
	if err := s.expectOK(req.Deadline, start); err != nil {
		return s.greeting(), err
	}
	// The INFO lines go before ABOUT: a brain handles its input in order,
	// so the answer to ABOUT proves it has done whatever the INFO lines
	// asked (a champion brain resizes a 350 MB hash on INFO max_memory),
	// and that work is charged to start-up, not to its first move.
	lines := infoLines(cfg, req, s.opts)
	if s.opts.Folder != "" {
		lines = append(lines, "folder "+s.opts.Folder)
	}
	for i := range lines {
		lines[i] = "INFO " + lines[i]
	}
	if err := s.send(req.Deadline, append(lines, "ABOUT")...); err != nil {
		return s.greeting(), err
	}
	return s.greeting(), s.readAbout(req.Deadline)
}

func (s *PipeSeat) greeting() match.Greeting {
	return match.Greeting{About: s.about, Output: s.out.Take()}
}

// expectOK reads the answer to START: OK, or ERROR with the brain's reason.
func (s *PipeSeat) expectOK(deadline time.Time, cmd string) error {
	for {
		line, kind, _, err := s.readReply(deadline)
		if err != nil {
			return s.explain(err, "no OK to "+cmd)
		}
		switch {
		case kind == replyStray && isOK(line):
			return nil
		case kind == replyStray:
			return protocolFault("brain refused %s: %s", cmd, strings.TrimSpace(line))
		case kind != replyMessage:
			return protocolFault("answered %q to %s, want OK", clip(line), cmd)
		}
	}
}

// readAbout reads the answer to ABOUT: key="value" pairs, or UNKNOWN.
func (s *PipeSeat) readAbout(deadline time.Time) error {
	for {
		line, kind, _, err := s.readReply(deadline)
		switch {
		case err != nil:
			return s.explain(err, "no answer to ABOUT")
		case kind == replyStray:
			s.out.Add(line)
			return nil
		case kind != replyMessage:
			s.about = strings.TrimSpace(line)
			return nil
		}
	}
}

// readReply reads the next line that is not blank, logs MESSAGE and DEBUG
// lines with the move, and classifies it.
func (s *PipeSeat) readReply(deadline time.Time) (string, replyKind, Point, error) {
	for {
		line, err := s.proc.ReadLine(deadline)
		if err != nil {
			return "", replyBad, Point{}, err
		}
		kind, p := parseReply(line)
		if kind == replyMessage {
			s.out.Add(line)
		}
		if kind != replyEmpty {
			return line, kind, p, nil
		}
	}
}

func isOK(line string) bool {
	word, _ := splitWord(line)
	return word == "OK"
}

// Move sends time_left and the position (TURN with the opponent's last
// move when the brain knows the rest, BEGIN on an empty board, BOARD
// otherwise) and reads lines until a move.
func (s *PipeSeat) Move(ctx context.Context, req match.Request) (match.Reply[Point], error) {
	moves := s.state.Moves()
	cmd := s.position(moves)
	s.stray = ""
	err := s.send(req.Deadline, append([]string{"INFO time_left " + strconv.FormatInt(timeLeftMs(req), 10)}, cmd...)...)
	if err != nil {
		return match.Reply[Point]{Output: s.out.Take()}, err
	}
	p, err := s.readMove(req.Deadline)
	if err == nil && s.proc.Group().MemoryExceeded() {
		err = memoryFault(s.opts.MemoryLimit)
	}
	s.known = len(moves) + 1
	return match.Reply[Point]{Move: p, Output: s.out.Take()}, err
}

// position returns the command lines that bring the brain up to date.
func (s *PipeSeat) position(moves []Point) []string {
	blocked := 0
	if s.state.Config().Rule.Has(Continuous) {
		for _, m := range moves {
			if s.state.Blocked(m) {
				blocked++
			}
		}
	}
	switch {
	case len(moves) == 0:
		return []string{"BEGIN"}
	case len(moves) == s.known+1 && blocked == s.blocked:
		return []string{"TURN " + moves[len(moves)-1].String()}
	}
	s.blocked = blocked
	lines := make([]string, 0, len(moves)+2)
	lines = append(lines, "BOARD")
	for _, m := range moves {
		f := "2"
		switch {
		case s.state.Blocked(m):
			f = "3"
		case s.state.At(m) == s.me:
			f = "1"
		}
		lines = append(lines, m.String()+","+f)
	}
	return append(lines, "DONE")
}

// replyKind classifies a line a brain prints while the manager waits for
// its move.
type replyKind int

const (
	replyEmpty   replyKind = iota // blank: ignored
	replyMessage                  // MESSAGE or DEBUG: logged
	replyStray                    // OK, UNKNOWN or ERROR: logged, skipped
	replySuggest                  // SUGGEST x,y: answered with PLAY x,y
	replyMove                     // x,y
	replyBad                      // anything else: a protocol fault
)

// parseReply classifies one line and reads its square (for SUGGEST and
// moves). Keywords are case-insensitive.
func parseReply(line string) (replyKind, Point) {
	word, rest := splitWord(line)
	switch word {
	case "":
		return replyEmpty, Point{}
	case "MESSAGE", "DEBUG":
		return replyMessage, Point{}
	case "OK", "UNKNOWN", "ERROR":
		return replyStray, Point{}
	case "SUGGEST":
		if p, err := ParsePoint(rest); err == nil {
			return replySuggest, p
		}
		return replyBad, Point{}
	}
	if p, err := ParsePoint(line); err == nil {
		return replyMove, p
	}
	return replyBad, Point{}
}

// readMove reads until a line that is a move. A SUGGEST is accepted at
// once (PLAY is sent back and the brain's echo is read as the answer).
func (s *PipeSeat) readMove(deadline time.Time) (Point, error) {
	var suggested *Point
	for {
		line, kind, p, err := s.readReply(deadline)
		if err != nil {
			return Point{}, s.explain(err, "no move")
		}
		switch kind {
		case replyMessage:
		case replyStray:
			s.out.Add(line)
			s.stray = line
			if s.opts.Strict {
				return Point{}, protocolFault("answered %q instead of a move", clip(line))
			}
		case replySuggest:
			s.out.Add(line)
			if err := s.send(deadline, "PLAY "+p.String()); err != nil {
				return Point{}, err
			}
			suggested = &p
		case replyMove:
			if suggested != nil && p != *suggested {
				s.out.Add("[arena: answered " + p.String() + " after PLAY " + suggested.String() + "]")
			}
			return p, nil
		default:
			return Point{}, protocolFault("answered %q, not a move x,y", clip(line))
		}
	}
}

// explain adds what the brain said last to a timeout, and turns the end of
// its output into a crash (or memory) verdict.
func (s *PipeSeat) explain(err error, what string) error {
	switch {
	case errors.Is(err, bot.ErrTimeout):
		if s.stray != "" {
			return fmt.Errorf("%s in time (last line %q): %w", what, clip(s.stray), err)
		}
		return fmt.Errorf("%s in time: %w", what, err)
	case errors.Is(err, bot.ErrLineTooLong):
		return protocolFault("%v", err)
	}
	return err
}

// send writes lines, each ended with CRLF, in one write.
func (s *PipeSeat) send(deadline time.Time, lines ...string) error {
	b := s.buf[:0]
	for _, l := range lines {
		b = append(b, l...)
		b = append(b, '\r', '\n')
	}
	s.buf = b
	if s.resume.Swap(false) {
		return s.proc.WriteResume(string(b), deadline)
	}
	return s.proc.WriteString(string(b), deadline)
}

// Finish sends END, gives the brain grace to exit, then kills it and all it
// started.
func (s *PipeSeat) Finish(ctx context.Context, res game.Result, grace time.Duration) match.Farewell {
	if s.proc == nil {
		return match.Farewell{}
	}
	deadline := time.Now().Add(grace)
	sent := s.send(deadline, "END") == nil
	f := match.Goodbye(s.proc, deadline, sent, func(line string) bool { s.out.Add(line); return true })
	f.Output = s.out.Take()
	return f
}

// Pause stops the brain while the opponent thinks.
func (s *PipeSeat) Pause() {
	s.resume.Store(false)
	s.run.Pause()
}

// Resume continues the brain when the next command is sent to it: woken
// once, it finds the command waiting. Resume and the sending are called
// from the match's goroutine for the seat.
func (s *PipeSeat) Resume() { s.resume.Store(true) }

// Kill ends the brain at once; it may be called from any goroutine.
func (s *PipeSeat) Kill() { s.run.Kill() }

// Pid returns the brain's process (group) id, 0 before Start.
func (s *PipeSeat) Pid() int { return s.run.Pid() }

// splitWord returns the first word of a line in upper case (commands are
// case-insensitive) and the rest.
func splitWord(line string) (word, rest string) {
	w, r, _ := strings.Cut(strings.TrimSpace(line), " ")
	return strings.ToUpper(w), strings.TrimSpace(r)
}
