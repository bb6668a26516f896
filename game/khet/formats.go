package khet

import (
	"encoding/json"
	"fmt"
	"strings"

	"arena/game"
)

// formats are Khet's own files besides the JSON record.
func formats() []game.Format {
	return []game.Format{{Name: "khet", Ext: ".khet", ContentType: "text/plain; charset=utf-8",
		Title: "state log", Write: RecordLog}}
}

// RecordLog writes a record's replay log (an ID.khet file): one state
// string per line, as the server sent them: the start, the state after
// each move, and the final E state, between comment lines naming the
// game and how it ended:
//
//	# khet ID setup classic: silver NAME, red NAME
//	- - 0 26 R00X2 ...
//	...
//	# reason: detail
func RecordLog(rec *game.Record) ([]byte, error) {
	var opts Options
	if err := json.Unmarshal(rec.Options, &opts); err != nil {
		return nil, fmt.Errorf("record %s: options: %w", rec.ID, err)
	}
	if len(rec.Seats) != 2 || rec.Seats[0] < 0 || rec.Seats[1] < 0 ||
		rec.Seats[0] >= len(rec.Players) || rec.Seats[1] >= len(rec.Players) {
		return nil, fmt.Errorf("record %s: seats %v of %d players: want a seating of 2", rec.ID, rec.Seats, len(rec.Players))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# khet %s setup %s: silver %s, red %s\n", rec.ID, opts.Setup,
		rec.Players[rec.Seats[0]].Name, rec.Players[rec.Seats[1]].Name)
	fmt.Fprintln(&b, opts.Initial)
	for _, mr := range rec.Moves {
		var e Effect
		if json.Unmarshal(mr.Effect, &e) == nil && e.State != "" {
			fmt.Fprintln(&b, e.State)
		}
	}
	fmt.Fprintln(&b, opts.Final)
	fmt.Fprintf(&b, "# %s", rec.Reason)
	if rec.Detail != "" {
		fmt.Fprintf(&b, ": %s", rec.Detail)
	}
	fmt.Fprintln(&b)
	return []byte(b.String()), nil
}
