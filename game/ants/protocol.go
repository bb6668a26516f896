package ants

// The bot protocol over real processes, timed as worker/engine.py times
// it. The engine keeps its own loop instead of match.Run: all live bots
// get their state before any is timed, they are timed in shuffled groups
// (--serial) drawn from the game's random generator, a bot eliminated in
// the middle of the game is sent "end" and stopped while the others play
// on, and a "go" already in the pipe at the deadline still counts. Those
// rules decide what bots see and are part of seed-for-seed parity.

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// Player is one bot program: the arena's one description of a player,
// of which Ants reads the name, the command as written and the resolved
// program and arguments (Args).
type Player = match.Player

// maxMoveLines caps the order lines kept per bot and turn, as the engine
// caps what it drains after the deadline; a flooding bot cannot make the
// arena hold more.
const maxMoveLines = 40000

// The engine writes the state to bots that are paused; a state bigger
// than the pipe holds would block a direct write until the bot runs (the
// official engine would hang there). Each bot has a writer goroutine
// instead, fed through a queue: the bytes flow as soon as the bot reads.
// A bot that stops reading for inboxSize messages has long been out of the
// game by timeout; what does not fit is dropped.
const (
	inboxSize  = 64
	writeGrace = 10 * time.Minute // a write blocks at most this long (the bot is killed well before)
)

// ProcessBots runs each player as a process in its own process group,
// paused (SIGSTOP) whenever it is not its time to think.
type ProcessBots struct {
	procs   []*bot.Process
	inbox   []chan string // texts waiting to be written to each bot
	writers sync.WaitGroup
	errs    []string // why a bot failed to start
	mu      sync.Mutex
	thought []time.Duration // total thinking time per bot
	dead    []bool
	moves   []game.MoveRecord // one per bot and turn it was asked
	closed  bool
	// errRead counts the bytes of each bot's stderr already taken into
	// its answers; only the bot's own reader touches its entry.
	errRead []int64
	// late holds, per bot, its first timeout: the turn and what the bot
	// was doing at the deadline (see Late).
	late []string
}

// ProcessConfig says how to start the bots.
type ProcessConfig struct {
	Players     []Player
	Dirs        []string // working folder per bot
	MemoryLimit int64
	Transcripts []*bot.Transcript // optional, per bot
	Sandbox     *sandbox.Sandbox  // nil: off
}

// StartProcesses starts every bot and pauses it until its first turn. A
// bot that cannot start is reported by Started and plays no turn
// ("crashed 0").
func StartProcesses(cfg ProcessConfig) *ProcessBots {
	n := len(cfg.Players)
	pb := &ProcessBots{procs: make([]*bot.Process, n), errs: make([]string, n), thought: make([]time.Duration, n), dead: make([]bool, n),
		errRead: make([]int64, n), late: make([]string, n)}
	pb.inbox = make([]chan string, n)
	for b, pl := range cfg.Players {
		bc := bot.Config{Args: pl.Args, MemoryLimit: cfg.MemoryLimit, Interactive: true, Sandbox: cfg.Sandbox}
		if b < len(cfg.Dirs) {
			bc.Dir = cfg.Dirs[b]
		}
		if b < len(cfg.Transcripts) {
			bc.Transcript = cfg.Transcripts[b]
		}
		p, err := bot.Start(bc)
		if err != nil {
			pb.errs[b] = err.Error()
			continue
		}
		p.Pause()
		pb.procs[b] = p
		inbox := make(chan string, inboxSize)
		pb.inbox[b] = inbox
		pb.writers.Add(1)
		go func() {
			defer pb.writers.Done()
			failed := false
			for text := range inbox {
				if !failed && p.WriteString(text, time.Now().Add(writeGrace)) != nil {
					failed = true // gone: the engine sees it when it asks for orders
				}
			}
		}()
	}
	return pb
}

// Started reports whether bot b's program started.
func (pb *ProcessBots) Started(b int) bool { return pb.procs[b] != nil }

// StartError says why bot b did not start ("" if it did).
func (pb *ProcessBots) StartError(b int) string { return pb.errs[b] }

// Send queues a copy of text for bot b; a bot that is gone or does not
// read is left to fail when asked for its orders.
func (pb *ProcessBots) Send(b int, text []byte) {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	if pb.inbox[b] == nil || pb.dead[b] || pb.closed {
		return
	}
	select {
	case pb.inbox[b] <- string(text):
	default:
	}
}

// Moves resumes the bots of group, reads each one's lines until "go" or
// the deadline, and pauses each again as soon as it is done.
func (pb *ProcessBots) Moves(turn int, group []int, limit time.Duration) []Answer {
	out := make([]Answer, len(group))
	for _, b := range group {
		if p := pb.procs[b]; p != nil {
			p.Resume()
		}
	}
	start := time.Now()
	deadline := start.Add(limit)
	took := make([]time.Duration, len(group))
	var wg sync.WaitGroup
	for i, b := range group {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = pb.read(b, deadline)
			pb.mu.Lock()
			pb.thought[b] += time.Since(start)
			took[i] = time.Since(start)
			pb.mu.Unlock()
		}()
	}
	wg.Wait()
	for i, b := range group {
		mv := fmt.Sprintf("turn %d: %d lines", turn, len(out[i].Lines))
		if out[i].Status != "" {
			mv += " (" + out[i].Status + ")"
		}
		if out[i].why != "" && pb.late[b] == "" {
			pb.late[b] = fmt.Sprintf("turn %d: %s", turn, out[i].why)
		}
		pb.moves = append(pb.moves, game.MoveRecord{Side: b, Move: mv, TimeMs: float64(took[i].Microseconds()) / 1000})
	}
	return out
}

// read collects one bot's answer for a turn.
func (pb *ProcessBots) read(b int, deadline time.Time) Answer {
	p := pb.procs[b]
	var a Answer
	if p == nil {
		a.Status = "crashed"
		return a
	}
	keep := func(line string) bool {
		line = pyStrip(line)
		if strings.ToLower(line) == "go" {
			return true
		}
		if len(a.Lines) < maxMoveLines {
			a.Lines = append(a.Lines, line)
		}
		return false
	}
	for {
		line, err := p.ReadLine(deadline)
		if err == nil {
			if keep(line) {
				p.Pause()
				a.Errors = pb.stderrLines(b, false)
				return a
			}
			continue
		}
		var exit *bot.ExitError
		switch {
		case errors.Is(err, bot.ErrTimeout):
			p.Pause()
			// What the bot wrote before its deadline still counts.
			for drained := 0; drained < maxMoveLines; drained++ {
				line, err := p.ReadLine(time.Now().Add(5 * time.Millisecond))
				if err != nil {
					break
				}
				if keep(line) {
					a.Errors = pb.stderrLines(b, false)
					return a
				}
			}
			a.Status, a.why = "timeout", err.Error()
			a.Errors = pb.stderrLines(b, false)
			return a
		case errors.As(err, &exit):
			// The engine logs what the bot wrote to stderr up to its
			// end, and nothing of its own about the exit: the bot's
			// last words are read in full once its stderr closes (a
			// child it left behind, which could hold stderr open, is
			// ended first).
			a.Status = "crashed"
			p.Kill()
			p.WaitStderr(stderrGrace)
			a.Errors = pb.stderrLines(b, true)
			pb.markDead(b)
			return a
		default:
			// A line longer than the arena accepts: the bot is cut off
			// as a crash, since the engine could not read it either.
			a.Status = "crashed"
			a.Errors = append(pb.stderrLines(b, false), fmt.Sprintf("protocol: %v", err))
			pb.markDead(b)
			p.Kill()
			return a
		}
	}
}

func (pb *ProcessBots) markDead(b int) {
	pb.mu.Lock()
	pb.dead[b] = true
	pb.mu.Unlock()
}

// stderrGrace is how long a crashed bot's stderr may take to be drained
// before its error log is written.
const stderrGrace = time.Second

// stderrLines takes the lines bot b wrote to stderr since its last
// answer, as the engine reads them during the turn: whole lines without
// their ends, a partial last line left for later unless the bot is gone
// (all). What a bot writes after its last answer (after the end message)
// is never taken, as the engine never reads it.
func (pb *ProcessBots) stderrLines(b int, all bool) []string {
	text, total := pb.procs[b].StderrSince(pb.errRead[b])
	if !all {
		whole := strings.LastIndexByte(text, '\n') + 1
		total -= int64(len(text) - whole)
		text = text[:whole]
	}
	pb.errRead[b] = total
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// Resume lets bot b run.
func (pb *ProcessBots) Resume(b int) {
	if p := pb.procs[b]; p != nil {
		p.Resume()
	}
}

// Kill ends bot b and everything it started.
func (pb *ProcessBots) Kill(b int) {
	if p := pb.procs[b]; p != nil {
		p.Kill()
		pb.markDead(b)
	}
}

// Close kills every bot and releases its pipes and group.
func (pb *ProcessBots) Close() {
	for _, p := range pb.procs {
		if p != nil {
			p.Kill()
		}
	}
	pb.mu.Lock()
	if !pb.closed {
		pb.closed = true
		for _, in := range pb.inbox {
			if in != nil {
				close(in)
			}
		}
	}
	pb.mu.Unlock()
	pb.writers.Wait()
	for _, p := range pb.procs {
		if p != nil {
			p.Close()
		}
	}
}

// Process returns bot b's process (nil if it did not start).
func (pb *ProcessBots) Process(b int) *bot.Process { return pb.procs[b] }

// Thought returns the time bot b spent on its turns.
func (pb *ProcessBots) Thought(b int) time.Duration {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	return pb.thought[b]
}

// Late says when bot b first missed its deadline and what it was doing
// then ("" if it never did).
func (pb *ProcessBots) Late(b int) string { return pb.late[b] }

// MoveRecords lists every answer: bot (seat), turn, lines and time.
func (pb *ProcessBots) MoveRecords() []game.MoveRecord { return pb.moves }
