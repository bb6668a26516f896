package pointsbot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arena/game/points"
)

// Options configure the bot.
type Options struct {
	Name     string
	Protocol points.ProtocolOptions
	Surround points.Surround
	Seed     uint64
	// Playouts, if positive, fixes the search to that many playouts per
	// move whatever the clock says (tests; the clock still caps it).
	Playouts int
	// Threads is how many search trees grow side by side on a move (one
	// a core is what they are for); 0 = 1.
	Threads int
	// Status, if set, switches on a status line per move saying what the
	// search did (see StatusLine). The Points Battle protocol has room
	// for it: every line but "move X Y" is status text, which the manager
	// keeps with the move, so RunPipe writes the line on out just before
	// the move. Points AI Protocol v6 has none, so RunV6 writes it to
	// Status (stderr) before its answer. nil = no status lines.
	Status io.Writer
}

// StatusLine describes the last search of e, which chose p as dot
// number dot of the game (opening crosses included), within the budget
// lim (p written with the given coordinate base):
//
//	status: dot 23 at 12 7: playouts 45123 pps 150412 tree 12345 depth 9 visits 3400 win 56.2% time 300ms of 312ms max 624ms
//
// pps is playouts per second, tree the nodes of the search tree, depth
// its deepest descent, visits and win the chosen move's visits and mean
// result for the side that played it (all trees together); "max" is the
// time an unstable choice may take (Limits.MaxTime); a fixed
// playout count adds "cap N", trees grown side by side "threads N".
func StatusLine(e *Engine, dot int, p points.Point, base int, lim Limits) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "status: dot %d at %d %d: playouts %d pps %.0f tree %d depth %d visits %.0f win %.1f%% time %v",
		dot, p.X+base, p.Y+base, e.Playouts, e.PlayoutRate(), e.Nodes, e.Depth, e.Visits, 100*e.WinRate, e.Elapsed.Round(time.Millisecond))
	if lim.Time > 0 {
		fmt.Fprintf(&sb, " of %v", lim.Time.Round(time.Millisecond))
		if lim.MaxTime > lim.Time {
			fmt.Fprintf(&sb, " max %v", lim.MaxTime.Round(time.Millisecond))
		}
	}
	if lim.Playouts > 0 {
		fmt.Fprintf(&sb, " cap %d", lim.Playouts)
	}
	if lim.Threads > 1 {
		fmt.Fprintf(&sb, " threads %d", lim.Threads)
	}
	return sb.String()
}

// RunPipe speaks the Points Battle protocol on in and out until "quit"
// or the end of input: it prints its name, follows "new", "increment",
// "move", "time" and "otime", and answers "go" with "move X Y". With
// opts.Protocol.Kind v6 it speaks Points AI Protocol v6 instead (RunV6).
func RunPipe(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Name == "" {
		opts.Name = "arena-points"
	}
	if opts.Protocol.Kind == points.AIProtocol6 {
		return RunV6(ctx, in, out, opts)
	}
	unit := opts.Protocol.TimeUnit
	if unit == "" {
		unit = points.Millis
	}
	w := bufio.NewWriter(out)
	say := func(s string) error {
		w.WriteString(s)
		w.WriteByte('\n')
		return w.Flush()
	}
	if err := say(opts.Name); err != nil {
		return err
	}
	b := &brain{engine: New(opts.Seed), opts: opts, timeLeft: -1}
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			if err == io.EOF {
				return nil
			}
			return err
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "quit":
			return nil
		case "new":
			if len(f) != 3 {
				return fmt.Errorf("bad command %q", strings.TrimSpace(line))
			}
			h, err1 := strconv.Atoi(f[1])
			wd, err2 := strconv.Atoi(f[2])
			if err1 != nil || err2 != nil {
				return fmt.Errorf("bad command %q", strings.TrimSpace(line))
			}
			if b.field, err = points.NewField(wd, h, opts.Surround); err != nil {
				return err
			}
		case "increment":
			// Seconds, possibly with a fraction, whatever the time unit.
			if len(f) == 2 {
				if sec, err := strconv.ParseFloat(f[1], 64); err == nil && sec >= 0 && sec < 1e6 {
					b.increment = time.Duration(sec * float64(time.Second))
				}
			}
		case "time", "otime":
			if len(f) == 2 && f[0] == "time" {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				b.timeLeft = unit.Duration(n)
				if n >= 2147483647 {
					b.timeLeft = -1
				}
			}
		case "move":
			p, err := points.ParseMove(line, opts.Protocol.Base)
			if err != nil {
				return err
			}
			if b.field == nil {
				return fmt.Errorf("move before new")
			}
			if err := b.field.Check(p); err != nil {
				return fmt.Errorf("move %v: %w", p, err)
			}
			b.field.Put(b.field.Index(p))
		case "go":
			if b.field == nil {
				return fmt.Errorf("go before new")
			}
			lim := b.limits()
			p, ok := b.engine.Best(ctx, b.field, lim)
			if !ok {
				return fmt.Errorf("go with no free point")
			}
			if opts.Status != nil {
				// A status line is never flushed alone: it goes out with
				// the move.
				w.WriteString(StatusLine(b.engine, b.field.Dots()+1, p, opts.Protocol.Base, lim))
				w.WriteByte('\n')
			}
			b.field.Put(b.field.Index(p))
			if err := say(points.FormatMove(p, opts.Protocol.Base)); err != nil {
				return err
			}
		}
	}
}

// brain is the bot's view of the game.
type brain struct {
	engine    *Engine
	opts      Options
	field     *points.Field
	increment time.Duration
	timeLeft  time.Duration // -1 = not announced or unlimited
}

// limits decides the time for the next move by points.MoveTime (most of
// the increment plus a twentieth of the time saved, never more than a
// third of the clock, less a reserve), the rule arena also uses for the
// time it gives v6 engines, and lets an unstable choice go on to twice
// that (Limits.MaxTime); a second when the clock is unknown. A choice
// that can no longer change stops the search sooner, and the clock keeps
// what it saves.
func (b *brain) limits() Limits {
	lim := Limits{Playouts: b.opts.Playouts, Threads: b.opts.Threads}
	if b.timeLeft < 0 {
		lim.Time = time.Second
		return lim
	}
	lim.Time = points.MoveTime(b.timeLeft, b.increment)
	// An unstable choice may take up to twice that, never more than a
	// quarter of the clock.
	lim.MaxTime = max(lim.Time, min(2*lim.Time, b.timeLeft/4))
	return lim
}
