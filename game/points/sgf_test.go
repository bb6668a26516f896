package points

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/game"
)

func TestRecordSGF(t *testing.T) {
	opts, _ := json.Marshal(Options{Width: 39, Height: 32, Surround: "standard", Grounding: true, Opening: Cross})
	one := 1
	rec := &game.Record{
		ID: "g", Game: "points", Options: opts, Seats: []int{1, 0},
		Players: []game.PlayerRecord{{Name: "alice"}, {Name: "bob]"}},
		Opening: []string{"18,15", "18,16", "19,16", "19,15"},
		Moves:   []game.MoveRecord{{Move: "0,0"}, {Move: "38,31"}, {Move: "27,26"}},
		Winner:  &one, Reason: ReasonScore, Scores: []int{2, 5},
		Start: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
	}
	got, err := RecordSGF(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]GM[40]CA[UTF-8]AP[arena]SZ[39:32]RU[standard,grounding]PB[bob\\]]PW[alice]DT[2026-01-02]RE[B+3]TE[score]\n" +
		";B[sp];W[sq];B[tq];W[tp];B[aa];W[MF];B[BA]\n)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct {
		reason game.Reason
		winner *int
		want   string
	}{{game.ReasonTimeout, &one, "RE[B+T]"}, {game.ReasonCrash, &one, "RE[B+F]"}, {"draw", nil, "RE[0]"}} {
		rec.Reason, rec.Winner = c.reason, c.winner
		got, _ := RecordSGF(rec)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: %s", c.reason, got)
		}
	}
	big, _ := json.Marshal(Options{Width: 60, Height: 60, Surround: "standard"})
	rec.Options = big
	if got, err := RecordSGF(rec); got != "" || err != nil {
		t.Errorf("60x60: %q, %v", got, err)
	}
}

// TestEffectJSON: the per-move effect names the capturer and lists the
// area.
func TestEffectJSON(t *testing.T) {
	s, _ := NewState(Config{Width: 5, Height: 5})
	for _, p := range []Point{{2, 1}, {2, 2}, {1, 2}, {0, 0}, {2, 3}, {4, 4}} {
		if _, err := s.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	eff, err := s.Play(Point{3, 2})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(eff)
	if string(b) != `{"captures":[{"by":"red","dots":1,"area":["2,2"]}],"score":[1,0]}` {
		t.Errorf("effect %s", b)
	}
}
