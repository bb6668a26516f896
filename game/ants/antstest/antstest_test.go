package antstest

import (
	"encoding/json"
	"testing"
)

// The big replay is what the render test needs: the turns asked for, and
// more than 1000 ants alive at the last turn.
func TestBigReplay(t *testing.T) {
	for _, tc := range []struct {
		turns    int
		minAlive int
	}{
		{10, 1000},
		{1000, 1000},
	} {
		if testing.Short() && tc.turns > 100 {
			continue
		}
		data, err := BigReplay(tc.turns, 1)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			GameLength int `json:"game_length"`
			Data       struct {
				Ants [][]any `json:"ants"`
				Map  struct{ Rows, Cols int }
			} `json:"replaydata"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		alive := 0
		for _, a := range r.Data.Ants {
			if int(a[3].(float64)) > tc.turns {
				alive++
			}
		}
		if r.GameLength != tc.turns || r.Data.Map.Rows != 200 || alive < tc.minAlive {
			t.Fatalf("%d turns: length %d, %dx%d, %d ants alive at the end", tc.turns, r.GameLength, r.Data.Map.Rows, r.Data.Map.Cols, alive)
		}
		t.Logf("%d turns: %d ants ever, %d alive at the end, %d bytes", tc.turns, len(r.Data.Ants), alive, len(data))
		if tc.turns > 100 {
			continue
		}
		rec, again, err := BigGame("g", tc.turns, 1)
		if err != nil || string(again) != string(data) {
			t.Fatalf("BigGame differs from BigReplay with the same seed (err %v)", err)
		}
		var o struct {
			Rows, Cols int
			Water      []string
		}
		if err := json.Unmarshal(rec.Options, &o); err != nil || o.Rows != 200 || len(o.Water) != 200 || len(o.Water[0]) != 200 {
			t.Fatalf("record options: %v %d rows", err, len(o.Water))
		}
		if rec.Turns != tc.turns || len(rec.Players) != 4 || rec.Length() != tc.turns {
			t.Fatalf("record: %+v", rec)
		}
	}
}
