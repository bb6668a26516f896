package match

import (
	"context"
	"fmt"

	"arena/bot"
	"arena/game"
)

// Table is one game set up for Run the way every game package's
// PlayGame sets it up: a seat per side, a bot's in its working folder or
// a person's, the clocks, the live listener, and a record made from the
// outcome. The game package gives the referee, how to make its seats
// and its record's fixed part; Play does the rest, once for every game.
type Table[M fmt.Stringer] struct {
	ID      string
	Referee Referee[M]
	// Players are the game's players in the record's order; Seating
	// maps each side (0 moves first) to an index into Players.
	Players []Player
	Seating []int
	Clock   Clock
	Ponder  bool
	Memory  int64  // the match's limit per bot, bytes (0 = none)
	WorkDir string // holds one working folder per player
	// Seat makes the seat of the bot of player pi on side, in its
	// working folder dir, with its memory limit and its transcript (nil:
	// none).
	Seat func(side, pi int, dir string, memory int64, transcript *bot.Transcript) Seat[M]
	// Human makes the seat of a person on side.
	Human func(side int, h *Human) Seat[M]
	// Header returns the record's fixed part as the game stands: before
	// the first move for the listener, after the last for the record.
	Header func() *game.Record
	// OnMove, Listener and Transcripts follow the game (each may be nil).
	OnMove      func(MoveEvent)
	Listener    game.Listener
	Transcripts func(gameID string, player int) *bot.Transcript
}

// Play plays the game to its end and returns its record. It returns an
// error only when the game could not be played at all (a working folder
// could not be made, ctx ended).
func (t Table[M]) Play(ctx context.Context) (*game.Record, error) {
	n := len(t.Seating)
	clocks := make([]Clock, n)
	seats := make([]Seat[M], n)
	for side, pi := range t.Seating {
		pl := t.Players[pi]
		clocks[side] = pl.Clock
		if pl.Human != nil {
			seats[side] = t.Human(side, pl.Human)
			continue
		}
		dir, err := pl.WorkDir(t.WorkDir, pi)
		if err != nil {
			return nil, err
		}
		var tr *bot.Transcript
		if t.Transcripts != nil {
			tr = t.Transcripts(t.ID, pi)
		}
		seats[side] = t.Seat(side, pi, dir, pl.Memory(t.Memory), tr)
	}
	if t.Listener != nil {
		t.Listener.Started(t.Header())
	}
	out := Run(ctx, t.Referee, seats, Config{
		Clock: t.Clock, Clocks: clocks, Ponder: t.Ponder, OnMove: Listen(t.OnMove, t.Listener),
		OnAsk: Asks(t.Listener),
	})
	if out.Canceled {
		return nil, ctx.Err()
	}
	rec := t.Header()
	rec.Moves, rec.Reason, rec.Detail = out.Moves, out.Result.Reason, out.Result.Detail
	rec.Start, rec.End = out.Start, out.End
	out.RecordSides(rec)
	if !out.Result.Draw() {
		w := t.Seating[out.Result.Winner]
		rec.Winner = &w
	}
	if out.Result.Scores != nil {
		rec.Scores = make([]int, len(t.Players))
		for side, sc := range out.Result.Scores {
			rec.Scores[t.Seating[side]] = sc
		}
	}
	return rec, nil
}
