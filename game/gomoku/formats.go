package gomoku

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"arena/game"
)

// formats are Gomoku's own files, made from a stored record as WriteFiles
// makes them when the game ends.
func formats() []game.Format {
	return []game.Format{
		{Name: "psq", Ext: ".psq", ContentType: "text/plain; charset=utf-8", Title: "Piskvork record", Write: RecordPSQ},
		{Name: "sgf", Ext: ".sgf", ContentType: "application/x-go-sgf", Title: "SGF", Write: RecordSGF},
	}
}

// RecordPSQ writes a record as a Piskvork .psq file; the players' level
// comes from the game's turn time.
func RecordPSQ(rec *game.Record) ([]byte, error) {
	opts, err := recordOptions(rec)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := WritePSQ(&b, psqOf(rec, opts, time.Duration(opts.TurnMs)*time.Millisecond)); err != nil {
		return nil, fmt.Errorf("record %s: %w", rec.ID, err)
	}
	return b.Bytes(), nil
}

// RecordSGF writes a record as SGF (GM[4]).
func RecordSGF(rec *game.Record) ([]byte, error) {
	opts, err := recordOptions(rec)
	if err != nil {
		return nil, err
	}
	if len(rec.Seats) != 2 || len(rec.Players) != 2 || rec.Seats[0] == rec.Seats[1] ||
		rec.Seats[0]&^1 != 0 || rec.Seats[1]&^1 != 0 {
		return nil, fmt.Errorf("record %s: seats %v of %d players: want a seating of 2", rec.ID, rec.Seats, len(rec.Players))
	}
	if opts.Width > sgfMaxSize || opts.Height > sgfMaxSize {
		return nil, fmt.Errorf("record %s: %w: a %dx%d board (SGF letters reach %d)", rec.ID, game.ErrNotExpressible, opts.Width, opts.Height, sgfMaxSize)
	}
	var b bytes.Buffer
	if err := WriteSGF(&b, sgfOf(rec, opts)); err != nil {
		return nil, fmt.Errorf("record %s: %w", rec.ID, err)
	}
	return b.Bytes(), nil
}

func recordOptions(rec *game.Record) (Options, error) {
	var opts Options
	if err := json.Unmarshal(rec.Options, &opts); err != nil {
		return Options{}, fmt.Errorf("record %s: options: %w", rec.ID, err)
	}
	return opts, nil
}
