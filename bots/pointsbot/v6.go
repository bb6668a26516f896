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
	"arena/internal/version"
)

// v6Commands are the requests RunV6 answers, as list_commands says.
var v6Commands = []string{"list_commands", "name", "version", "author", "init", "play", "gen_move", "gen_move_with_time", "gen_move_with_complexity", "undo", "quit"}

// RunV6 speaks Points AI Protocol v6 on in and out until "quit" or the
// end of input, so that v6 GUIs (missile) and managers can use the
// player. It answers every request "ID COMMAND ARGS" with "= ID COMMAND
// RESULTS" or "? ID COMMAND". A generated move is not played: the manager
// plays it with "play". The field's colours follow the number of dots
// (red first), so a play or gen_move for the colour not to move is
// refused, as is a play on a point that cannot take a dot.
//
// Time: gen_move_with_time's milliseconds less a tenth (the clock is
// read every 32 playouts); gen_move thinks a second;
// gen_move_with_complexity C (0..100) runs 500 playouts per unit (at
// least 500). Lines without an ID are ignored.
func RunV6(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Name == "" {
		opts.Name = "arena-points"
	}
	w := bufio.NewWriter(out)
	say := func(r points.V6Reply) error {
		w.WriteString(r.String())
		w.WriteByte('\n')
		return w.Flush()
	}
	g := &v6Game{opts: opts, engine: New(opts.Seed)}
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			if err == io.EOF {
				return nil
			}
			return err
		}
		req, perr := points.ParseV6Request(line)
		if perr != nil {
			continue
		}
		results, ok := g.answer(ctx, req)
		if err := say(points.V6Reply{OK: ok, ID: req.ID, Command: req.Command, Args: results}); err != nil {
			return err
		}
		if req.Command == "quit" {
			return nil
		}
	}
}

// v6Game is the game as the manager has played it.
type v6Game struct {
	opts   Options
	engine *Engine
	field  *points.Field
	width  int
	height int
	moves  []points.Point
}

// answer carries out one request; ok false is "?".
func (g *v6Game) answer(ctx context.Context, req points.V6Request) (results []string, ok bool) {
	switch req.Command {
	case "list_commands":
		return v6Commands, true
	case "name":
		return []string{strings.Join(strings.Fields(g.opts.Name), "_")}, true
	case "version":
		return []string{strings.Join(strings.Fields(version.String()), "_")}, true
	case "author":
		return []string{"arena"}, true
	case "quit":
		return nil, true
	case "init":
		n, ok := ints(req.Args, 3)
		if !ok {
			return nil, false
		}
		if err := g.reset(n[0], n[1]); err != nil {
			return nil, false
		}
		g.engine = New(g.opts.Seed ^ uint64(n[2]))
		return nil, true
	case "play":
		n, ok := ints(req.Args, 3)
		if !ok || !g.toMove(n[2]) {
			return nil, false
		}
		p := points.Point{X: n[0], Y: n[1]}
		if _, err := g.field.Play(p); err != nil {
			return nil, false
		}
		g.moves = append(g.moves, p)
		return req.Args, true
	case "undo":
		if g.field == nil || len(g.moves) == 0 {
			return nil, false
		}
		moves := g.moves[:len(g.moves)-1]
		g.reset(g.width, g.height)
		for _, p := range moves {
			g.field.Play(p)
		}
		g.moves = moves
		return nil, true
	case "gen_move", "gen_move_with_time", "gen_move_with_complexity":
		want := 1
		if req.Command != "gen_move" {
			want = 2
		}
		n, ok := ints(req.Args, want)
		if !ok || !g.toMove(n[0]) || g.field.Free() == 0 {
			return nil, false
		}
		lim := Limits{Time: time.Second}
		switch req.Command {
		case "gen_move_with_time":
			lim.Time = max(time.Duration(n[1])*time.Millisecond*9/10, time.Millisecond)
		case "gen_move_with_complexity":
			lim = Limits{Playouts: 500 * max(1, min(n[1], 100))}
		}
		if g.opts.Playouts > 0 {
			lim.Playouts = g.opts.Playouts
		}
		lim.Threads = g.opts.Threads
		p, found := g.engine.Best(ctx, g.field, lim)
		if !found {
			return nil, false
		}
		if g.opts.Status != nil {
			// Best effort: a status line that cannot be written must not
			// cost the move.
			fmt.Fprintln(g.opts.Status, StatusLine(g.engine, g.field.Dots()+1, p, 0, lim))
		}
		return points.V6Move(p, g.field.Next()), true
	}
	return nil, false
}

// reset starts an empty field.
func (g *v6Game) reset(w, h int) error {
	f, err := points.NewField(w, h, g.opts.Surround)
	if err != nil {
		return err
	}
	g.field, g.width, g.height, g.moves = f, w, h, nil
	return nil
}

// toMove reports whether colour (0 red, 1 blue) is to move in a game.
func (g *v6Game) toMove(colour int) bool {
	return g.field != nil && colour == g.field.Next().Side()
}

// ints reads exactly n integer arguments.
func ints(args []string, n int) ([]int, bool) {
	if len(args) != n {
		return nil, false
	}
	out := make([]int, n)
	for i, a := range args {
		v, err := strconv.Atoi(a)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}
