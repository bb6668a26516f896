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
	// it); the bot thinks well inside it. 0 = khet's 10 s.
	TurnTime time.Duration
	Depth    int   // search depth cap, 0 = none
	Nodes    int64 // node cap per move, 0 = none
	TTMB     int   // transposition table size, 0 = 32 MB
	Rules    khet.Rules
	MaxPlies int       // the game's ply limit, 0 = khet's 400
	Status   io.Writer // where the status line goes after every move (stderr); nil = none
}

// Budget returns the soft and hard search times for a per-move limit: a
// third of it to start iterations, half of it at most, so a loaded
// machine and the pipe's latency still leave a margin.
func Budget(turn time.Duration) Limits {
	if turn <= 0 {
		turn = 10 * time.Second
	}
	hard := turn / 2
	if turn > 2*time.Second {
		hard = min(hard, turn-time.Second)
	}
	return Limits{Soft: turn * 3 / 10, Hard: hard}
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
	lim := Budget(opts.TurnTime)
	lim.Depth, lim.Nodes = opts.Depth, opts.Nodes
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
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
		res := eng.Search(b, lim)
		if err := say(res.Move.String()); err != nil {
			return fmt.Errorf("send move: %w", err)
		}
		after := b.Clone()
		after.Make(res.Move)
		eng.Seen(after.Hash())
		if opts.Status != nil {
			fmt.Fprintf(opts.Status, "%s ply %d: %v depth %d score %+d nodes %d nps %.0f time %v pv %v\n",
				opts.Name, pos.Plies+1, res.Move, res.Depth, res.Score, res.Nodes, res.NPS(),
				res.Time.Round(time.Millisecond), res.PV)
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
