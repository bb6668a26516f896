package khet

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// The Tartu line protocol (the seed; every line ends in LF):
//
//	bot    -> server  play khet NAME
//	server -> bot     B <S|R> <state>     both bots, at the start
//	server -> bot     R <S|R> <state>     the side to move
//	bot    -> server  <S|R><x><y><action>
//	server -> bot     E <S|R> <state>     both bots, at the end; they exit
//
// stderr is logged, never read. A line that is not a move loses by E, as
// does a crash; a move the rules refuse is judged by the referee (E).

// SeatOptions configures one bot.
type SeatOptions struct {
	Args        []string // command; Args[0] absolute (bot.ResolveProgram)
	Env         []string
	Dir         string // working folder
	MemoryLimit int64  // bytes; 0 = none
	MaxLine     int    // longest accepted line (bytes); 0 = bot.DefaultMaxLine
	// Transcript, if set, logs everything sent to and read from the bot.
	Transcript *bot.Transcript
	// Sandbox, when set, starts the bot inside its layers (nil: off).
	Sandbox *sandbox.Sandbox
}

// Seat plays one colour with a bot speaking the Tartu protocol.
type Seat struct {
	state *State
	me    Color
	opts  SeatOptions
	proc  *bot.Process // used by the seat's own goroutine
	run   bot.Holder   // the same, for Kill from elsewhere
	name  string
	lines []string // what the bot printed outside its moves
}

// NewSeat prepares a seat for colour me of the game in state. The seat
// reads the state, never changes it.
func NewSeat(state *State, me Color, opts SeatOptions) *Seat {
	return &Seat{state: state, me: me, opts: opts}
}

// Start launches the bot, reads its "play khet NAME" line and sends the
// B line.
func (s *Seat) Start(ctx context.Context, req match.Request) (match.Greeting, error) {
	p, err := bot.Start(bot.Config{
		Args: s.opts.Args, Env: s.opts.Env, Dir: s.opts.Dir, MemoryLimit: s.opts.MemoryLimit, Sandbox: s.opts.Sandbox,
		MaxLine: s.opts.MaxLine, Interactive: true, Transcript: s.opts.Transcript,
	})
	if err != nil {
		return match.Greeting{}, game.Fault{Reason: game.ReasonCrash, Detail: err.Error()}
	}
	s.proc = p
	s.run.Set(p)
	line, err := s.readLine(req.Deadline, "no play khet line")
	if err != nil {
		return match.Greeting{}, err
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "play" || f[1] != "khet" {
		return match.Greeting{Output: []string{clip(line)}}, protocolFault("greeted %q, want \"play khet NAME\"", clip(line))
	}
	s.name = strings.Join(f[2:], " ")
	return match.Greeting{About: s.name}, s.send(req.Deadline, "B")
}

// Name is what the bot called itself in its greeting.
func (s *Seat) Name() string { return s.name }

// Move sends the R line and reads the bot's move. The colour letter and
// legality are the referee's to judge; a line that is not a move at all
// is a protocol fault.
func (s *Seat) Move(ctx context.Context, req match.Request) (match.Reply[Move], error) {
	if err := s.send(req.Deadline, "R"); err != nil {
		return match.Reply[Move]{}, err
	}
	line, err := s.readLine(req.Deadline, "no move")
	if err != nil {
		return match.Reply[Move]{}, err
	}
	m, err := ParseMove(strings.TrimSpace(line))
	if err != nil {
		return match.Reply[Move]{Output: []string{clip(line)}}, protocolFault("%v", err)
	}
	if s.proc.Group().MemoryExceeded() {
		return match.Reply[Move]{Move: m}, game.Fault{Reason: game.ReasonMemory,
			Detail: "exceeded its memory limit of " + strconv.FormatInt(s.opts.MemoryLimit, 10) + " bytes"}
	}
	return match.Reply[Move]{Move: m}, nil
}

// readLine reads the next line that is not blank and explains failures.
func (s *Seat) readLine(deadline time.Time, what string) (string, error) {
	for {
		line, err := s.proc.ReadLine(deadline)
		switch {
		case errors.Is(err, bot.ErrTimeout):
			return "", fmt.Errorf("%s in time: %w", what, err)
		case errors.Is(err, bot.ErrLineTooLong):
			return "", protocolFault("%v", err)
		case err != nil:
			return "", err
		}
		if strings.TrimSpace(line) != "" {
			return line, nil
		}
	}
}

// send writes "<kind> <colour> <state>" and LF.
func (s *Seat) send(deadline time.Time, kind string) error {
	return s.proc.WriteString(kind+" "+string(s.me.Letter())+" "+s.state.String()+"\n", deadline)
}

// Finish sends the E line, gives the bot grace to exit, then kills it and
// everything it started.
func (s *Seat) Finish(ctx context.Context, res game.Result, grace time.Duration) match.Farewell {
	if s.proc == nil {
		return match.Farewell{}
	}
	deadline := time.Now().Add(grace)
	sent := s.send(deadline, "E") == nil
	f := match.Goodbye(s.proc, deadline, sent, func(line string) bool {
		if len(s.lines) >= 100 {
			return false
		}
		s.lines = append(s.lines, clip(line))
		return len(s.lines) < 100
	})
	f.Output = s.lines
	return f
}

// Pause stops the bot while the opponent thinks.
func (s *Seat) Pause() { s.run.Pause() }

// Resume continues the bot.
func (s *Seat) Resume() { s.run.Resume() }

// Kill ends the bot at once; it may be called from any goroutine.
func (s *Seat) Kill() { s.run.Kill() }

// Pid returns the bot's process (group) id, 0 before Start.
func (s *Seat) Pid() int { return s.run.Pid() }

func protocolFault(format string, args ...any) game.Fault {
	return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf(format, args...)}
}
