package points

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// The Points Battle protocol (seed 003 in the project's notes): the bot is
// a console program; the first line it prints is its name, every other
// line except "move X Y" is status text. The manager sends "new N M" (N
// horizontal lines = field height, M vertical lines = width), "increment
// I", "move X Y" for every dot the bot has not seen (the opening and the
// opponent's moves; the bot's own moves are not echoed; the colour of a
// dot follows its number: odd red, even blue), "time T" and "otime T"
// before every "go", and "quit" at the end.
//
// Where the original is silent arena decides, and each decision is a
// per-bot option because old engines differ: coordinates are 0-based
// (base=1 for 1-based) and "time"/"otime" are milliseconds (time_unit=s
// or cs). "increment" is in seconds whatever the unit, as the original
// says; a fraction of a second is written as a decimal ("0.5").

// TimeUnit is the unit of the numbers in "time" and "otime".
type TimeUnit string

// Time units.
const (
	Millis  TimeUnit = "ms"
	Seconds TimeUnit = "s"
	Centis  TimeUnit = "cs"
)

// ProtocolKind names the protocol a bot speaks.
type ProtocolKind string

// Protocols. The zero value is Points Battle.
const (
	PointsBattle ProtocolKind = "pb"   // seed 003's protocol (this file)
	AIProtocol6  ProtocolKind = "v6"   // Points AI Protocol v6 (v6.go)
	Probe        ProtocolKind = "auto" // ask the bot at start (Seat.Start)
)

// recordName is how a game record's player entry names the protocol:
// "pointsbattle", "v6", or "auto" for a bot not yet asked.
func (k ProtocolKind) recordName() string {
	switch k {
	case PointsBattle, "":
		return "pointsbattle"
	case AIProtocol6:
		return "v6"
	}
	return string(k)
}

// ParseProtocolKind reads "pb", "v6" or "auto" in any case.
func ParseProtocolKind(s string) (ProtocolKind, bool) {
	switch k := ProtocolKind(strings.ToLower(strings.TrimSpace(s))); k {
	case PointsBattle, AIProtocol6, Probe:
		return k, true
	}
	return "", false
}

// ProtocolOptions are the per-bot choices of the protocol.
type ProtocolOptions struct {
	Kind     ProtocolKind // "" = Points Battle
	Base     int          // 0 or 1: the number of the first line (Points Battle)
	TimeUnit TimeUnit     // "" = ms (Points Battle)
}

// ParseProtocolOptions reads "[pb|v6|auto,]base=0|1,time_unit=ms|s|cs"
// (any part may be left out; "" is the default; the protocol may also be
// written proto=v6).
func ParseProtocolOptions(s string) (ProtocolOptions, error) {
	o := ProtocolOptions{TimeUnit: Millis}
	setKind := func(v string) error {
		k, ok := ParseProtocolKind(v)
		if !ok {
			return fmt.Errorf("protocol %q: want pb, v6 or auto", v)
		}
		if o.Kind != "" && o.Kind != k {
			return fmt.Errorf("protocols %s and %s: one protocol per bot", o.Kind, k)
		}
		o.Kind = k
		return nil
	}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			if _, isKind := ParseProtocolKind(kv); isKind {
				if err := setKind(kv); err != nil {
					return o, err
				}
				continue
			}
			return o, fmt.Errorf("protocol option %q: want pb, v6, auto or key=value", kv)
		}
		switch strings.TrimSpace(k) {
		case "proto", "protocol":
			if err := setKind(v); err != nil {
				return o, err
			}
		case "base":
			switch strings.TrimSpace(v) {
			case "0":
				o.Base = 0
			case "1":
				o.Base = 1
			default:
				return o, fmt.Errorf("protocol option base=%s: want 0 or 1", v)
			}
		case "time_unit", "unit":
			switch u := TimeUnit(strings.TrimSpace(v)); u {
			case Millis, Seconds, Centis:
				o.TimeUnit = u
			default:
				return o, fmt.Errorf("protocol option time_unit=%s: want ms, s or cs", v)
			}
		default:
			return o, fmt.Errorf("protocol option %q: known options are proto, base and time_unit", k)
		}
	}
	return o, nil
}

// String writes the options as ParseProtocolOptions reads them.
func (o ProtocolOptions) String() string {
	u := o.TimeUnit
	if u == "" {
		u = Millis
	}
	kind := ""
	if o.Kind != "" {
		kind = string(o.Kind) + ","
	}
	return kind + "base=" + strconv.Itoa(o.Base) + ",time_unit=" + string(u)
}

// Count converts a duration to the unit (rounded down).
func (u TimeUnit) Count(d time.Duration) int64 {
	switch u {
	case Seconds:
		return int64(d / time.Second)
	case Centis:
		return int64(d / (10 * time.Millisecond))
	}
	return d.Milliseconds()
}

// Duration converts a number in the unit to a duration.
func (u TimeUnit) Duration(n int64) time.Duration {
	switch u {
	case Seconds:
		return time.Duration(n) * time.Second
	case Centis:
		return time.Duration(n) * 10 * time.Millisecond
	}
	return time.Duration(n) * time.Millisecond
}

// FormatMove writes a dot as the protocol does.
func FormatMove(p Point, base int) string {
	return "move " + strconv.Itoa(p.X+base) + " " + strconv.Itoa(p.Y+base)
}

// ErrNotMove is returned by ParseMove for lines that are status text.
var ErrNotMove = errors.New("not a move line")

// ParseMove reads a "move X Y" line (the keyword in any case, any
// spacing). A line whose first word is not "move" is status text
// (ErrNotMove); a "move" line that does not hold two integers is an error.
func ParseMove(line string, base int) (Point, error) {
	f := strings.Fields(line)
	if len(f) == 0 || !strings.EqualFold(f[0], "move") {
		return Point{}, ErrNotMove
	}
	if len(f) != 3 {
		return Point{}, fmt.Errorf("move line %q: want move X Y", clip(line))
	}
	x, err1 := strconv.Atoi(f[1])
	y, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || x > 1<<20 || y > 1<<20 || x < -1<<20 || y < -1<<20 {
		return Point{}, fmt.Errorf("move line %q: X and Y must be integers", clip(line))
	}
	return Point{X: x - base, Y: y - base}, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Clocks lets the two seats of a game tell each other's bots the time on
// the opponent's clock ("otime").
type Clocks struct {
	mu   sync.Mutex
	left [2]time.Duration
	set  [2]bool
}

func (c *Clocks) record(side int, d time.Duration) {
	c.mu.Lock()
	c.left[side], c.set[side] = d, true
	c.mu.Unlock()
}

func (c *Clocks) get(side int) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.left[side], c.set[side]
}

// SeatOptions configures one bot.
type SeatOptions struct {
	Args        []string // command; Args[0] absolute (bot.ResolveProgram)
	Env         []string
	Dir         string // working folder
	MemoryLimit int64  // bytes; 0 = none
	MaxLine     int    // longest accepted line (bytes); 0 = bot's default
	MaxOutput   int    // status lines kept per move (0 = 1000)
	Protocol    ProtocolOptions
	// Seed is sent to a v6 engine with init (its random seed).
	Seed int64
	// Clocks is shared by the two seats of a game (nil: otime is the
	// bot's own clock).
	Clocks *Clocks
	// Transcript, if set, logs everything sent to and read from the bot.
	Transcript *bot.Transcript
	// Sandbox, when set, starts the bot inside its layers (nil: off).
	Sandbox *sandbox.Sandbox
}

// unlimitedCount is sent as the time when nothing limits the bot.
const unlimitedCount = 2147483647

// Seat plays one side of a game of Points with a bot speaking the Points
// Battle protocol or Points AI Protocol v6 (v6.go) over its stdin and
// stdout, as its options say or, for Probe, as the bot answers at start.
type Seat struct {
	state *State
	me    Color
	opts  SeatOptions
	out   bot.Output
	proc  *bot.Process // used by the seat's own goroutine
	run   bot.Holder   // the same, for Kill from elsewhere
	known int          // dots the bot knows of
	name  string
	// v6 is set once the bot is known to speak Points AI Protocol v6;
	// then nextID is the last request's ID and commands what it listed.
	v6       bool
	nextID   int
	commands []string
	last     string // the last status line
	buf      []byte
}

// NewSeat prepares a seat for colour me of the game in state (read, never
// changed, by the seat).
func NewSeat(state *State, me Color, opts SeatOptions) *Seat {
	if opts.Protocol.TimeUnit == "" {
		opts.Protocol.TimeUnit = Millis
	}
	max := opts.MaxOutput
	if max <= 0 {
		max = 1000
	}
	return &Seat{state: state, me: me, opts: opts, out: bot.Output{Max: max}}
}

// Start launches the bot and greets it: over Points Battle it reads the
// name (the first line the bot prints) and sends "new" and "increment";
// over v6 see startV6; Probe decides between them (v6.go).
func (s *Seat) Start(ctx context.Context, req match.Request) (match.Greeting, error) {
	p, err := bot.Start(bot.Config{
		Args: s.opts.Args, Env: s.opts.Env, Dir: s.opts.Dir, MemoryLimit: s.opts.MemoryLimit,
		MaxLine: s.opts.MaxLine, Interactive: true, Transcript: s.opts.Transcript, Sandbox: s.opts.Sandbox,
	})
	if err != nil {
		return match.Greeting{}, game.Fault{Reason: game.ReasonCrash, Detail: err.Error()}
	}
	s.proc = p
	s.run.Set(p)
	switch s.opts.Protocol.Kind {
	case AIProtocol6:
		err := s.startV6(req.Deadline, nil)
		return s.greeting(), err
	case Probe:
		first, listed, err := s.probe(req.Deadline)
		if err != nil {
			return s.greeting(), err
		}
		if listed != nil {
			err := s.startV6(req.Deadline, listed)
			return s.greeting(), err
		}
		s.name = strings.TrimSpace(first)
	}
	for s.name == "" {
		line, err := p.ReadLine(req.Deadline)
		if err != nil {
			return s.greeting(), s.explain(err, "no name line")
		}
		s.name = strings.TrimSpace(line)
	}
	cfg := s.state.Config()
	err = s.send(req.Deadline,
		"new "+strconv.Itoa(cfg.Height)+" "+strconv.Itoa(cfg.Width),
		"increment "+strconv.FormatFloat(req.Clock.Increment.Seconds(), 'f', -1, 64))
	return s.greeting(), err
}

func (s *Seat) greeting() match.Greeting {
	return match.Greeting{About: s.name, Output: s.out.Take()}
}

// Move sends the dots the bot has not seen, the clocks and "go", and
// reads status lines until "move X Y".
func (s *Seat) Move(ctx context.Context, req match.Request) (match.Reply[Point], error) {
	if s.v6 {
		return s.moveV6(req)
	}
	moves := s.state.Moves()
	lines := make([]string, 0, len(moves)-s.known+3)
	for _, m := range moves[s.known:] {
		lines = append(lines, FormatMove(m, s.opts.Protocol.Base))
	}
	own, opp := s.times(req)
	lines = append(lines, "time "+strconv.FormatInt(own, 10), "otime "+strconv.FormatInt(opp, 10), "go")
	t0 := time.Now()
	if err := s.send(req.Deadline, lines...); err != nil {
		return match.Reply[Point]{Output: s.out.Take()}, err
	}
	p, err := s.readMove(req.Deadline)
	if err == nil && s.proc.Group().MemoryExceeded() {
		err = game.Fault{Reason: game.ReasonMemory, Detail: "exceeded its memory limit of " + strconv.FormatInt(s.opts.MemoryLimit, 10) + " bytes"}
	}
	s.known = len(moves) + 1
	if s.opts.Clocks != nil && !req.Unlimited {
		s.opts.Clocks.record(s.me.Side(), req.TimeLeft-time.Since(t0))
	}
	return match.Reply[Point]{Move: p, Output: s.out.Take()}, err
}

// times returns the "time" and "otime" values: the time this move may
// take and the opponent's clock.
func (s *Seat) times(req match.Request) (own, opp int64) {
	unit := s.opts.Protocol.TimeUnit
	limit, oppLeft := s.clocks(req)
	count := func(d time.Duration) int64 {
		if d < 0 {
			return unlimitedCount
		}
		return unit.Count(d)
	}
	return count(limit), count(oppLeft)
}

// clocks returns the time this move may take and the opponent's clock;
// -1 when nothing limits them.
func (s *Seat) clocks(req match.Request) (limit, oppLeft time.Duration) {
	limit, oppLeft = time.Duration(-1), time.Duration(-1)
	if !req.Unlimited {
		limit = req.TimeLeft
		oppLeft = req.Clock.Match
		if s.opts.Clocks != nil {
			if d, ok := s.opts.Clocks.get(1 - s.me.Side()); ok {
				oppLeft = d
			}
		}
	}
	if req.TurnLimit > 0 {
		if limit < 0 || req.TurnLimit < limit {
			limit = req.TurnLimit
		}
		if oppLeft < 0 || req.TurnLimit < oppLeft {
			oppLeft = req.TurnLimit
		}
	}
	return limit, oppLeft
}

// readMove reads until a move line; other lines are status text.
func (s *Seat) readMove(deadline time.Time) (Point, error) {
	for {
		line, err := s.proc.ReadLine(deadline)
		if err != nil {
			return Point{}, s.explain(err, "no move")
		}
		p, err := ParseMove(line, s.opts.Protocol.Base)
		switch {
		case err == nil:
			return p, nil
		case errors.Is(err, ErrNotMove):
			if strings.TrimSpace(line) != "" {
				s.out.Add(line)
				s.last = line
			}
		default:
			s.out.Add(line)
			return Point{}, game.Fault{Reason: game.ReasonProtocol, Detail: err.Error()}
		}
	}
}

// explain adds the last status line to a timeout and turns an over-long
// line into a protocol fault.
func (s *Seat) explain(err error, what string) error {
	switch {
	case errors.Is(err, bot.ErrTimeout):
		if s.last != "" {
			return fmt.Errorf("%s in time (last line %q): %w", what, clip(s.last), err)
		}
		return fmt.Errorf("%s in time: %w", what, err)
	case errors.Is(err, bot.ErrLineTooLong):
		return game.Fault{Reason: game.ReasonProtocol, Detail: err.Error()}
	}
	return err
}

// send writes lines, each ended with LF, in one write.
func (s *Seat) send(deadline time.Time, lines ...string) error {
	b := s.buf[:0]
	for _, l := range lines {
		b = append(b, l...)
		b = append(b, '\n')
	}
	s.buf = b
	return s.proc.WriteString(string(b), deadline)
}

// Finish sends "quit", gives the bot grace to exit, then kills it and
// everything it started.
func (s *Seat) Finish(ctx context.Context, res game.Result, grace time.Duration) match.Farewell {
	if s.proc == nil {
		return match.Farewell{}
	}
	if s.v6 {
		return s.finishV6(grace)
	}
	deadline := time.Now().Add(grace)
	sent := s.send(deadline, "quit") == nil
	f := match.Goodbye(s.proc, deadline, sent, func(line string) bool { s.out.Add(line); return true })
	f.Output = s.out.Take()
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
