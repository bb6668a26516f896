package khetbot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"arena/game/khet"
)

// Options configure the player.
type Options struct {
	Name string // in the greeting; "" = arena-khet
	// TurnTime is the match's per-move limit (the protocol does not tell
	// it); see Budget for how much of it the bot uses. 0 = khet's 10 s.
	TurnTime time.Duration
	Depth    int   // search depth cap, 0 = none
	Nodes    int64 // node cap per move, 0 = none
	TTMB     int   // transposition table size, 0 = 32 MB
	Rules    khet.Rules
	MaxPlies int       // the game's ply limit, 0 = khet's 400
	Status   io.Writer // where the status line goes after every move (stderr); nil = none
}

// Budget returns the search limits for a per-move limit. The protocol
// never tells the bot its clock, so the match's limit comes from
// --turn-time. The search may run until Hard, which keeps a reserve for
// the pipe, process scheduling and a loaded machine: 15 % of the turn, at
// least 60 ms (a third of the turn below 180 ms) and at most 1.5 s.
// The per-move limit is the only one (time a move leaves unused is lost),
// so Soft is Hard: iterative deepening starts depths until Hard, the best
// move is searched first, and a depth cut off at Hard can only improve the
// move. A forced result ends the search at once. Run lowers Hard further
// while its moves come out late.
func Budget(turn time.Duration) Limits {
	if turn <= 0 {
		turn = 10 * time.Second
	}
	reserve := min(max(turn*15/100, 60*time.Millisecond), 1500*time.Millisecond)
	if turn < 180*time.Millisecond {
		reserve = turn / 3
	}
	hard := turn - reserve
	return Limits{Soft: hard, Hard: hard}
}

// lateness tracks how far past its limit the bot's moves went out (a
// loaded machine can stall a process for a while between two looks at the
// clock) and keeps that much more in reserve, forgetting it slowly.
type lateness struct{ slack time.Duration }

// observe records that a move meant to take at most hard took took.
func (l *lateness) observe(took, hard time.Duration) {
	l.slack = l.slack * 9 / 10
	if over := took - hard; over > l.slack {
		l.slack = over
	}
}

// limit is hard less twice the remembered lateness, never below a quarter
// of turn.
func (l *lateness) limit(hard, turn time.Duration) time.Duration {
	return max(hard-2*l.slack, turn/4)
}

// Run plays one game over the Tartu protocol: greet, then answer every R
// line with a move until the E line.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Name == "" {
		opts.Name = "arena-khet"
	}
	if opts.MaxPlies == 0 {
		opts.MaxPlies = khet.DefaultMaxPlies
	}
	if opts.TTMB == 0 {
		opts.TTMB = 32
	}
	w := bufio.NewWriter(out)
	say := func(s string) error {
		w.WriteString(s)
		w.WriteByte('\n')
		return w.Flush()
	}
	if err := say("play khet " + opts.Name); err != nil {
		return fmt.Errorf("greet: %w", err)
	}
	eng := NewEngine(opts.TTMB)
	base := Budget(opts.TurnTime)
	base.Depth, base.Nodes = opts.Depth, opts.Nodes
	turn := opts.TurnTime
	if turn <= 0 {
		turn = 10 * time.Second
	}
	var late lateness
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		received := time.Now()
		if err := ctx.Err(); err != nil {
			return err
		}
		line := strings.TrimSpace(sc.Text())
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "":
			continue
		case "E":
			return nil
		case "B", "R":
		default:
			return fmt.Errorf("unexpected line %q", clip(line))
		}
		letter, state, _ := strings.Cut(rest, " ")
		me, ok := khet.ColorOf(firstByte(letter))
		if !ok || len(letter) != 1 {
			return fmt.Errorf("line %q: bad colour", clip(line))
		}
		pos, err := khet.ParseState(state, opts.Rules)
		if err != nil {
			return fmt.Errorf("line %q: %w", clip(line), err)
		}
		b := pos.Board
		if b.ToMove() != me && kind == "R" {
			// The server's colour letter is what counts.
			b, err = khet.NewBoard(b.Pieces(), me, opts.Rules)
			if err != nil {
				return err
			}
		}
		eng.Seen(b.Hash())
		if kind == "B" {
			continue
		}
		eng.SetGame(pos.Plies, opts.MaxPlies)
		// The clock runs from the line's arrival, not from the search.
		lim := base
		lim.Hard = max(late.limit(base.Hard, turn)-time.Since(received), time.Millisecond)
		lim.Soft = lim.Hard
		res := eng.Search(b, lim)
		if err := say(res.Move.String()); err != nil {
			return fmt.Errorf("send move: %w", err)
		}
		late.observe(time.Since(received), base.Hard)
		after := b.Clone()
		after.Make(res.Move)
		eng.Seen(after.Hash())
		if opts.Status != nil {
			fmt.Fprintf(opts.Status, "%s ply %d: %v depth %d score %+d nodes %d nps %.0f time %v of %v pv %v\n",
				opts.Name, pos.Plies+1, res.Move, res.Depth, res.Score, res.Nodes, res.NPS(),
				res.Time.Round(time.Millisecond), turn, res.PV)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	return nil
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
