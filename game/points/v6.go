package points

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/game"
	"arena/match"
)

// Points AI Protocol v6 (kurnevsky's opai, oppai-rs until 2024, the
// missile GUI): the manager sends requests "ID COMMAND ARGS" and the
// engine answers each, in order, with "= ID COMMAND RESULTS" or, when it
// cannot, "? ID COMMAND". Colours are 0 (red, the first player) and 1;
// coordinates are 0-based x (column) and y (row). A generated move is only
// a suggestion: the manager plays every dot of both sides, the opening
// crosses included, with "play X Y COLOUR".
//
// How arena speaks it (Seat):
//
//	start   1 list_commands; then name and version (if listed), init W H SEED
//	        and a play for every opening dot, sent together
//	move    a play for each dot the engine has not played (its own last move
//	        and the opponent's), then gen_move_with_time COLOUR MS (or
//	        gen_move COLOUR when there is no clock or the engine does not
//	        list gen_move_with_time), sent together; the answers are read
//	        in order
//	end     N quit
//
// MS is what MoveTime gives for the clock a Points Battle bot would be
// told ("time"), so both protocols budget a move alike.
//
// Verdicts: an answer that is not "= ID ..." or "? ID ..." for the request
// it answers (garbage, a wrong ID or command, a gen_move answer for the
// other colour or without two integers) is a protocol fault, as is "?" to
// a play (arena plays only legal dots) or to gen_move; a generated dot off
// the field or on a taken point is an illegal move, judged by the referee;
// silence is a timeout and an exit a crash, as for Points Battle.
//
// Probing (kind auto): arena sends "1 list_commands" as soon as the bot
// starts and reads its first line. A v6 engine is silent until asked and
// answers "= 1 list_commands ..."; a Points Battle bot prints its name
// first whatever it is sent. So the first line decides, within the
// start-up time: "= 1 list_commands ..." is v6, anything else is the name
// line of a Points Battle bot, which has then been sent one line it does
// not know ("1 list_commands") before "new".

// V6Reply is one answer of an engine speaking Points AI Protocol v6.
type V6Reply struct {
	OK      bool // "=" (done) rather than "?" (refused)
	ID      int
	Command string
	Args    []string
}

// maxV6ID bounds request IDs (engines read them into an int).
const maxV6ID = 1<<31 - 1

// ParseV6Reply reads "= ID COMMAND RESULTS..." or "? ID COMMAND" (any
// spacing; the ID a non-negative integer).
func ParseV6Reply(line string) (V6Reply, error) {
	f := strings.Fields(line)
	if len(f) < 3 || (f[0] != "=" && f[0] != "?") {
		return V6Reply{}, fmt.Errorf("answer %q: want \"= ID COMMAND ...\" or \"? ID COMMAND\"", clip(line))
	}
	id, err := strconv.Atoi(f[1])
	if err != nil || id < 0 || id > maxV6ID {
		return V6Reply{}, fmt.Errorf("answer %q: the ID must be a non-negative integer", clip(line))
	}
	r := V6Reply{OK: f[0] == "=", ID: id, Command: f[2]}
	if len(f) > 3 {
		r.Args = f[3:]
	}
	return r, nil
}

// String writes the answer as the protocol does.
func (r V6Reply) String() string {
	mark := "?"
	if r.OK {
		mark = "="
	}
	return strings.Join(append([]string{mark, strconv.Itoa(r.ID), r.Command}, r.Args...), " ")
}

// Move reads the results "X Y COLOUR" of a play or gen_move answer.
func (r V6Reply) Move() (Point, int, error) {
	if len(r.Args) != 3 {
		return Point{}, 0, fmt.Errorf("answer %q: want X Y COLOUR", clip(r.String()))
	}
	var n [3]int
	for i, a := range r.Args {
		v, err := strconv.Atoi(a)
		if err != nil || v < -1<<20 || v > 1<<20 {
			return Point{}, 0, fmt.Errorf("answer %q: X, Y and COLOUR must be integers", clip(r.String()))
		}
		n[i] = v
	}
	return Point{X: n[0], Y: n[1]}, n[2], nil
}

// V6Request is one request of a manager.
type V6Request struct {
	ID      int
	Command string
	Args    []string
}

// ParseV6Request reads "ID COMMAND ARGS..." (the engine's side).
func ParseV6Request(line string) (V6Request, error) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return V6Request{}, fmt.Errorf("request %q: want ID COMMAND ARGS", clip(line))
	}
	id, err := strconv.Atoi(f[0])
	if err != nil || id < 0 || id > maxV6ID {
		return V6Request{}, fmt.Errorf("request %q: the ID must be a non-negative integer", clip(line))
	}
	r := V6Request{ID: id, Command: f[1]}
	if len(f) > 2 {
		r.Args = f[2:]
	}
	return r, nil
}

// String writes the request as the protocol does.
func (r V6Request) String() string {
	return strings.Join(append([]string{strconv.Itoa(r.ID), r.Command}, r.Args...), " ")
}

// V6Move is the arguments "X Y COLOUR" of a dot of colour c (0 red, 1
// blue) at p.
func V6Move(p Point, c Color) []string {
	return []string{strconv.Itoa(p.X), strconv.Itoa(p.Y), strconv.Itoa(c.Side())}
}

// MoveTime is how long one move may take on a clock showing left when
// increment is added before every move: most of the increment plus a
// twentieth of the time saved, never more than a third of the clock,
// less a reserve of 30 ms and a tenth for the pipes and for the process
// being paused and resumed; at least a millisecond. Arena's own player
// budgets its moves so from the "time" it is told over Points Battle,
// and a v6 engine is sent it as gen_move_with_time's milliseconds.
func MoveTime(left, increment time.Duration) time.Duration {
	saved := max(left-increment, 0)
	budget := min(increment*7/10+saved/20, left/3)
	reserve := 30*time.Millisecond + budget/10
	return max(budget-reserve, time.Millisecond)
}

// ask sends the requests in one write and reads their answers in order.
// Each answer must carry its request's ID and command; answer is called
// with each and may turn it into a fault.
func (s *Seat) ask(deadline time.Time, reqs []V6Request, answer func(V6Request, V6Reply) error) error {
	lines := make([]string, len(reqs))
	for i := range reqs {
		s.nextID++
		reqs[i].ID = s.nextID
		lines[i] = reqs[i].String()
	}
	if err := s.send(deadline, lines...); err != nil {
		return err
	}
	for _, q := range reqs {
		r, err := s.readV6(deadline, q)
		if err != nil {
			return err
		}
		if err := answer(q, r); err != nil {
			return err
		}
	}
	return nil
}

// readV6 reads the answer to q; empty lines are skipped.
func (s *Seat) readV6(deadline time.Time, q V6Request) (V6Reply, error) {
	for {
		line, err := s.proc.ReadLine(deadline)
		if err != nil {
			return V6Reply{}, s.explain(err, "no answer to \""+clip(q.String())+"\"")
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		s.last = line
		return checkV6Reply(q, line)
	}
}

// checkV6Reply parses line as the answer to q.
func checkV6Reply(q V6Request, line string) (V6Reply, error) {
	r, err := ParseV6Reply(line)
	if err != nil {
		return r, game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("to %q: %v", clip(q.String()), err)}
	}
	if r.ID != q.ID || r.Command != q.Command {
		return r, game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("to %q answered %q: wrong ID or command", clip(q.String()), clip(line))}
	}
	return r, nil
}

// startV6 completes the start-up over v6: list_commands (unless the
// probe's answer listed them already), name, version, init and the
// opening dots.
func (s *Seat) startV6(deadline time.Time, listed *V6Reply) error {
	s.v6 = true
	if listed == nil {
		err := s.ask(deadline, []V6Request{{Command: "list_commands"}}, func(_ V6Request, r V6Reply) error {
			listed = &r
			return nil
		})
		if err != nil {
			return err
		}
	}
	if listed.OK {
		s.commands = listed.Args
	}
	var reqs []V6Request
	for _, c := range []string{"name", "version"} {
		if s.knows(c) {
			reqs = append(reqs, V6Request{Command: c})
		}
	}
	cfg := s.state.Config()
	reqs = append(reqs, V6Request{Command: "init", Args: []string{strconv.Itoa(cfg.Width), strconv.Itoa(cfg.Height), strconv.FormatInt(s.opts.Seed, 10)}})
	moves := s.state.Moves()
	for i, m := range moves {
		reqs = append(reqs, V6Request{Command: "play", Args: V6Move(m, ColorOf(i%2))})
	}
	var about []string
	err := s.ask(deadline, reqs, func(q V6Request, r V6Reply) error {
		switch q.Command {
		case "name", "version":
			if r.OK && len(r.Args) > 0 {
				about = append(about, strings.Join(r.Args, " "))
			}
			return nil
		case "init":
			if !r.OK {
				return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("refused %q", q.String())}
			}
			return nil
		}
		return checkPlayed(q, r)
	})
	s.name = strings.Join(about, " ")
	s.known = len(moves)
	return err
}

// knows reports whether the engine listed command (an engine that listed
// nothing is taken to know everything).
func (s *Seat) knows(command string) bool {
	return len(s.commands) == 0 || slices.Contains(s.commands, command)
}

// checkPlayed checks the answer to a play of a legal dot.
func checkPlayed(q V6Request, r V6Reply) error {
	if !r.OK {
		return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("refused %q, a legal dot: %q", q.String(), clip(r.String()))}
	}
	if len(r.Args) > 0 && !slices.Equal(r.Args, q.Args) {
		return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("to %q answered %q: another dot", q.String(), clip(r.String()))}
	}
	return nil
}

// moveV6 plays the dots the engine has not played and asks for a move.
func (s *Seat) moveV6(req match.Request) (match.Reply[Point], error) {
	moves := s.state.Moves()
	reqs := make([]V6Request, 0, len(moves)-s.known+1)
	for i := s.known; i < len(moves); i++ {
		reqs = append(reqs, V6Request{Command: "play", Args: V6Move(moves[i], ColorOf(i%2))})
	}
	colour := strconv.Itoa(s.me.Side())
	gen := V6Request{Command: "gen_move", Args: []string{colour}}
	if limit, _ := s.clocks(req); limit >= 0 && s.knows("gen_move_with_time") {
		ms := MoveTime(limit, req.Clock.Increment).Milliseconds()
		gen = V6Request{Command: "gen_move_with_time", Args: []string{colour, strconv.FormatInt(max(ms, 1), 10)}}
	}
	reqs = append(reqs, gen)
	t0 := time.Now()
	var p Point
	err := s.ask(req.Deadline, reqs, func(q V6Request, r V6Reply) error {
		if q.Command == "play" {
			return checkPlayed(q, r)
		}
		if !r.OK {
			return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("refused to move: %q to %q", clip(r.String()), q.String())}
		}
		var c int
		var err error
		if p, c, err = r.Move(); err != nil {
			return game.Fault{Reason: game.ReasonProtocol, Detail: err.Error()}
		}
		if c != s.me.Side() {
			return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf("to %q answered %q: a move of colour %d", q.String(), clip(r.String()), c)}
		}
		return nil
	})
	if err == nil && s.proc.Group().MemoryExceeded() {
		err = game.Fault{Reason: game.ReasonMemory, Detail: "exceeded its memory limit of " + strconv.FormatInt(s.opts.MemoryLimit, 10) + " bytes"}
	}
	s.known = len(moves)
	if s.opts.Clocks != nil && !req.Unlimited {
		s.opts.Clocks.record(s.me.Side(), req.TimeLeft-time.Since(t0))
	}
	return match.Reply[Point]{Move: p, Output: s.out.Take()}, err
}

// Spoken is the protocol the seat speaks: for a seat told to ask, what
// the bot's first line showed (Probe until it has been read).
func (s *Seat) Spoken() ProtocolKind {
	switch {
	case s.v6:
		return AIProtocol6
	case s.opts.Protocol.Kind != Probe:
		return s.opts.Protocol.Kind
	case s.name != "":
		return PointsBattle
	}
	return Probe
}

// probe sends "1 list_commands" and reads the first line the bot prints:
// its answer if it speaks v6 (then listed is set), else a Points Battle
// name line.
func (s *Seat) probe(deadline time.Time) (first string, listed *V6Reply, err error) {
	q := V6Request{ID: 1, Command: "list_commands"}
	s.nextID = 1
	if err := s.send(deadline, q.String()); err != nil {
		return "", nil, err
	}
	for {
		line, err := s.proc.ReadLine(deadline)
		if err != nil {
			return "", nil, s.explain(err, "no name line nor answer to \"1 list_commands\"")
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if r, err := ParseV6Reply(line); err == nil && r.OK && r.ID == q.ID && r.Command == q.Command {
			return line, &r, nil
		}
		return line, nil, nil
	}
}

// finishV6 sends quit and keeps what the engine prints but the answer.
func (s *Seat) finishV6(grace time.Duration) match.Farewell {
	deadline := time.Now().Add(grace)
	s.nextID++
	q := V6Request{ID: s.nextID, Command: "quit"}
	sent := s.send(deadline, q.String()) == nil
	f := match.Goodbye(s.proc, deadline, sent, func(line string) bool {
		if r, err := checkV6Reply(q, line); err == nil && r.OK {
			return true
		}
		s.out.Add(line)
		return true
	})
	f.Output = s.out.Take()
	return f
}
