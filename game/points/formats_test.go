package points

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

// TestFormatsMatchFiles checks that the SGF made from a stored record is
// the one written when the game ended, and that a field SGF cannot
// express is refused as such.
func TestFormatsMatchFiles(t *testing.T) {
	zero := 0
	rec := &game.Record{ID: "p1", Game: "points", Options: json.RawMessage(`{"width":10,"height":10,"surround":"standard","opening":"cross"}`),
		Players: []game.PlayerRecord{{Name: "alpha"}, {Name: "beta"}}, Seats: []int{0, 1}, Opening: []string{"4,4", "5,4", "5,5", "4,5"},
		Moves: []game.MoveRecord{{Side: 0, Move: "1,1"}, {Side: 1, Move: "2,2"}}, Winner: &zero, Reason: "score", Scores: []int{1, 0},
		Start: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	if _, err := WriteFiles(dir, rec); err != nil {
		t.Fatal(err)
	}
	formats := Info().Formats
	if len(formats) != 1 || formats[0].Name != "sgf" {
		t.Fatalf("formats %+v, want sgf", formats)
	}
	got, err := formats[0].Write(rec)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "p1.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("SGF from the record:\n%s\nwritten at the end of the game:\n%s", got, want)
	}

	wide := *rec
	wide.Options = json.RawMessage(`{"width":60,"height":10,"surround":"standard"}`)
	if _, err := formats[0].Write(&wide); !errors.Is(err, game.ErrNotExpressible) {
		t.Errorf("a 60x10 field: %v, want ErrNotExpressible", err)
	}
}
