package ants

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Bots is how the engine reaches the players' programs: real processes
// (protocol.go) or recorded answers (conformance.go).
type Bots interface {
	// Started reports whether bot b's program is running at the start.
	Started(b int) bool
	// Send writes text to bot b's input. text is the engine's buffer,
	// good only until Send returns: an implementation that keeps it
	// (to write it later) keeps a copy.
	Send(b int, text []byte)
	// Moves lets the bots of group think together for at most limit and
	// returns one Answer per bot of group, in group order.
	Moves(turn int, group []int, limit time.Duration) []Answer
	// Resume lets a paused bot run (to read its end message).
	Resume(b int)
	// Kill ends bot b's program.
	Kill(b int)
}

// Answer is what one bot said in one turn.
type Answer struct {
	Lines  []string // stripped lines before "go"
	Errors []string // lines for the bot's error log (its stderr, engine notes)
	Status string   // "" answered, "crashed" or "timeout"
	// why says, for a timeout, what the bot was doing at its deadline
	// (see bot.Process.ReadLine), for the game's record.
	why string
}

// Logs are the optional files of playgame.py -S -I -O -E; nil entries
// are skipped.
type Logs struct {
	Stream io.Writer
	Input  []io.Writer
	Output []io.Writer
	Error  []io.Writer
}

// TurnInfo is the progress report after each turn.
type TurnInfo struct {
	Turn   int
	Ants   []int
	Scores []int
	Alive  []bool
}

// Result is the engine's result for one game.
type Result struct {
	Status      []string // survived, eliminated, crashed, timeout, invalid, "crashed 0"
	PlayerTurns []int
	Score       []int
	Rank        []int
	GameLength  int
	Cutoff      string
	State       *State
}

// Engine runs one game as worker/engine.py's run_game does: the same
// turn loop, the same order of random draws (the per-turn shuffle of the
// bots), the same texts to the bots and the same statuses.
type Engine struct {
	State  *State
	Bots   Bots
	Logs   Logs
	OnTurn func(TurnInfo)
	// Sleep waits for --end_wait; nil means time.Sleep.
	Sleep func(time.Duration)
}

func writeLog(w io.Writer, s string) {
	if w != nil && s != "" {
		io.WriteString(w, s)
	}
}

func writeLogBytes(w io.Writer, b []byte) {
	if w != nil && len(b) > 0 {
		w.Write(b)
	}
}

func logAt(ws []io.Writer, b int) io.Writer {
	if b < len(ws) {
		return ws[b]
	}
	return nil
}

func (e *Engine) send(b int, text []byte) {
	e.Bots.Send(b, text)
	writeLogBytes(logAt(e.Logs.Input, b), text)
}

func (e *Engine) sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	if e.Sleep != nil {
		e.Sleep(d)
		return
	}
	time.Sleep(d)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

func (e *Engine) endMessage(b int, status []string, turns []int) string {
	g := e.State
	scores := make([]string, g.N)
	ts := make([]string, g.N)
	for i := range scores {
		scores[i] = strconv.Itoa(g.Score[i])
		ts[i] = strconv.Itoa(turns[i])
	}
	var sb strings.Builder
	sb.WriteString("end\nplayers " + strconv.Itoa(g.N) + "\n")
	sb.WriteString("score " + strings.Join(g.OrderForPlayer(b, scores), " ") + "\n")
	sb.WriteString("status " + strings.Join(g.OrderForPlayer(b, status), " ") + "\n")
	sb.WriteString("playerturns " + strings.Join(g.OrderForPlayer(b, ts), " ") + "\n")
	sb.WriteString(g.PlayerState(b))
	sb.WriteString("go\n")
	return sb.String()
}

// Run plays the game to its end. It returns an error only when the game
// cannot go on (a broken map for the food method, a cancelled context);
// bots that fail are judged by the rules, not reported as errors.
func (e *Engine) Run(ctx context.Context) (res *Result, err error) {
	g := e.State
	opt := g.opt
	n := g.N
	status := make([]string, n)
	turns := make([]int, n)
	for b := 0; b < n; b++ {
		status[b] = "survived"
		if !e.Bots.Started(b) {
			status[b] = "crashed 0"
			g.KillPlayer(b)
		}
	}
	defer func() {
		if opt.EndWait > 0 {
			for b := 0; b < n; b++ {
				e.Bots.Resume(b)
			}
			e.sleep(opt.EndWait)
		}
		for b := 0; b < n; b++ {
			e.Bots.Kill(b)
		}
	}()
	writeLog(e.Logs.Stream, g.PlayerStart(true))

	var buf []byte // the texts of a turn, built in place
	// The turn's lists, reused from turn to turn.
	alive, moves, statuses, aliveBefore := make([]int, 0, n), make([][]string, n), make([]string, n), make([]bool, n)
	turn := 0
	for turn = 0; turn <= opt.Turns; turn++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("game stopped at turn %d: %w", turn, err)
		}
		if turn == 0 {
			if err := g.StartGame(); err != nil {
				return nil, err
			}
		}
		for b := 0; b < n; b++ {
			if !g.IsAlive(b) {
				continue
			}
			if turn == 0 {
				e.send(b, []byte(g.PlayerStart(false)+"ready\n"))
			} else {
				// One buffer for the whole text, handed to the bot as is.
				buf = append(buf[:0], "turn "...)
				buf = strconv.AppendInt(buf, int64(turn), 10)
				buf = append(buf, '\n')
				buf = g.appendPlayerState(buf, b)
				buf = append(buf, "go\n"...)
				e.send(b, buf)
				turns[b] = turn
			}
		}
		if turn > 0 {
			if e.Logs.Stream != nil {
				buf = append(buf[:0], "turn "...)
				buf = strconv.AppendInt(buf, int64(turn), 10)
				buf = append(buf, "\nscore "...)
				for i, sc := range g.Score {
					if i > 0 {
						buf = append(buf, ' ')
					}
					buf = strconv.AppendInt(buf, int64(sc), 10)
				}
				buf = append(buf, '\n')
				buf = g.appendFullState(buf)
				e.Logs.Stream.Write(buf)
			}
			g.StartTurn()
		}
		limit := time.Duration(opt.TurnTime) * time.Millisecond
		if turn == 0 {
			limit = time.Duration(opt.LoadTime) * time.Millisecond
		}
		alive = alive[:0]
		for b := 0; b < n; b++ {
			if g.IsAlive(b) {
				alive = append(alive, b)
			}
		}
		g.rng.Shuffle(len(alive), func(i, j int) { alive[i], alive[j] = alive[j], alive[i] })
		simul := len(alive)
		if opt.Serial > 0 {
			simul = opt.Serial
		}
		clear(moves)
		clear(statuses)
		for start := 0; start < len(alive); start += simul {
			group := alive[start:min(start+simul, len(alive))]
			answers := e.Bots.Moves(turn, group, limit)
			for i, b := range group {
				a := answers[i]
				moves[b] = a.Lines
				switch a.Status {
				case "crashed":
					a.Errors = append([]string{fmt.Sprintf("turn %4d bot %d crashed", turn, b)}, a.Errors...)
					g.KillPlayer(b)
				case "timeout":
					a.Errors = append(a.Errors, fmt.Sprintf("turn %4d bot %d timed out", turn, b))
					g.KillPlayer(b)
					e.Bots.Kill(b)
				}
				statuses[b] = a.Status
				if len(a.Errors) > 0 {
					writeLog(logAt(e.Logs.Error, b), strings.Join(a.Errors, "\n")+"\n")
				}
			}
		}
		for b, st := range statuses {
			if st != "" {
				status[b] = st
				turns[b] = turn
			}
		}
		for b := range aliveBefore {
			aliveBefore[b] = g.IsAlive(b)
		}
		if turn > 0 && !g.GameOver() {
			for b := 0; b < n; b++ {
				if !g.IsAlive(b) {
					continue
				}
				out := logAt(e.Logs.Output, b)
				rep := g.doMoves(b, moves[b], out != nil)
				if out != nil { // the texts are built only for a log
					writeLog(out, "# turn "+strconv.Itoa(turn)+"\n")
					if len(rep.Valid) > 0 {
						writeLog(out, strings.Join(rep.Valid, "\n")+"\n")
					}
				}
				if len(rep.Ignored) > 0 {
					writeLog(logAt(e.Logs.Error, b), fmt.Sprintf("turn %4d bot %d ignored actions:\n", turn, b)+strings.Join(rep.Ignored, "\n")+"\n")
					writeLog(out, strings.Join(rep.Ignored, "\n")+"\n")
				}
				if len(rep.Invalid) > 0 {
					if opt.Strict {
						g.KillPlayer(b)
						status[b] = "invalid"
						turns[b] = turn
					}
					writeLog(logAt(e.Logs.Error, b), fmt.Sprintf("turn %4d bot %d invalid actions:\n", turn, b)+strings.Join(rep.Invalid, "\n")+"\n")
					writeLog(out, strings.Join(rep.Invalid, "\n")+"\n")
				}
			}
		}
		if turn > 0 {
			if err := g.FinishTurn(); err != nil {
				return nil, err
			}
		}
		var eliminated []int
		for b, was := range aliveBefore {
			if was && !g.IsAlive(b) {
				eliminated = append(eliminated, b)
			}
		}
		for _, b := range eliminated {
			if status[b] == "survived" {
				status[b] = "eliminated"
				turns[b] = turn
			}
			e.send(b, []byte(e.endMessage(b, status, turns)))
			if opt.EndWait > 0 {
				e.Bots.Resume(b)
			}
		}
		if len(eliminated) > 0 && opt.EndWait > 0 {
			e.sleep(opt.EndWait)
		}
		for _, b := range eliminated {
			e.Bots.Kill(b)
		}
		if e.OnTurn != nil {
			info := TurnInfo{Turn: turn, Ants: g.Ants(), Scores: append([]int(nil), g.Score...), Alive: make([]bool, n)}
			for b := range info.Alive {
				info.Alive[b] = g.IsAlive(b)
			}
			e.OnTurn(info)
		}
		if g.GameOver() {
			break
		}
	}
	if turn > opt.Turns {
		turn = opt.Turns
	}
	g.FinishGame()
	writeLog(e.Logs.Stream, "end\nplayers "+strconv.Itoa(n)+"\nscore "+joinInts(g.Score)+"\nstatus "+strings.Join(status, " ")+"\nplayerturns "+joinInts(turns)+"\n"+g.FullState())
	for b := 0; b < n; b++ {
		if g.IsAlive(b) {
			e.send(b, []byte(e.endMessage(b, status, turns)))
		}
	}
	return &Result{
		Status:      status,
		PlayerTurns: turns,
		Score:       append([]int(nil), g.Score...),
		Rank:        Rank(g.Score),
		GameLength:  turn,
		Cutoff:      g.Cutoff,
		State:       g,
	}, nil
}
