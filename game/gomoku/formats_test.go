package gomoku

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/game"
)

// TestFormatsMatchFiles checks that the files made from a stored record
// are the ones written when the game ended, and read back as the game.
func TestFormatsMatchFiles(t *testing.T) {
	one := 1
	rec := &game.Record{ID: "g1", Game: "gomoku", Options: json.RawMessage(`{"width":15,"height":15,"rule":4,"turn_ms":1000,"match_ms":0,"tolerance_ms":1000}`),
		Players: []game.PlayerRecord{{Name: "alpha"}, {Name: "beta"}}, Seats: []int{1, 0}, Opening: []string{"7,7", "8,8"},
		Moves:  []game.MoveRecord{{Side: 0, Move: "6,6", TimeMs: 12.4}, {Side: 1, Move: "9,9", TimeMs: 3}, {Side: 0, Move: "5,5", TimeMs: 0.6}},
		Winner: &one, Reason: game.ReasonTimeout, Start: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	if _, err := WriteFiles(dir, rec, time.Second); err != nil {
		t.Fatal(err)
	}
	for _, f := range Info().Formats {
		t.Run(f.Name, func(t *testing.T) {
			got, err := f.Write(rec)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, rec.ID+f.Ext))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s from the record:\n%s\nwritten at the end of the game:\n%s", f.Name, got, want)
			}
		})
	}
	psq, _ := RecordPSQ(rec)
	g, err := ReadPSQ(bytes.NewReader(psq))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 5 || g.First != 1 || g.ErrorCode != PSQTimeout || g.Moves[2] != (PSQMove{P: Point{6, 6}, Ms: 12}) {
		t.Errorf("the psq reads back as %+v", g)
	}
}

func TestFormatsRefuse(t *testing.T) {
	base := game.Record{ID: "g2", Game: "gomoku", Players: []game.PlayerRecord{{Name: "a"}, {Name: "b"}}, Seats: []int{0, 1}}
	for _, c := range []struct {
		name        string
		options     string
		seats       []int
		expressible bool
	}{
		{"no options", `nope`, []int{0, 1}, true},
		{"wide board", `{"width":60,"height":20}`, []int{0, 1}, false},
		{"bad seats", `{"width":15,"height":15}`, []int{0, 0}, true},
		{"seat out of range", `{"width":15,"height":15}`, []int{0, 2}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := base
			rec.Options, rec.Seats = json.RawMessage(c.options), c.seats
			_, err := RecordSGF(&rec)
			if err == nil {
				t.Fatal("no error")
			}
			if got := errors.Is(err, game.ErrNotExpressible); got == c.expressible {
				t.Errorf("error %v: wraps ErrNotExpressible: %v, want %v", err, got, !c.expressible)
			}
		})
	}
}
