package match

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"arena/game"
)

// effectRef is the count game with an effect per move: the side's total
// after it.
type effectRef struct{ *countRef }

func (r effectRef) Effect() json.RawMessage {
	side := (r.turn - 1) % r.sides
	return json.RawMessage(fmt.Sprintf(`{"total":%d}`, r.total[side]))
}

type moveLog []string

func (l *moveLog) Started(*game.Record) {}

func (l *moveLog) Moved(ply int, m game.MoveRecord) {
	*l = append(*l, fmt.Sprintf("%d:%s:%s", ply, m.Move, m.Effect))
}

// TestEffecterAndListen checks that a referee's effects reach the moves
// before the hooks see them, and that Listen calls both hooks in order.
func TestEffecterAndListen(t *testing.T) {
	var hooked []string
	onMove := func(ev MoveEvent) { hooked = append(hooked, fmt.Sprintf("%d:%s", ev.Ply, ev.Move.Effect)) }
	tests := []struct {
		name       string
		onMove     func(MoveEvent)
		listener   bool
		wantHooked int
	}{
		{"both", onMove, true, 3},
		{"listener only", nil, true, 0},
		{"hook only", onMove, false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooked = nil
			var log moveLog
			var l game.Listener
			if tt.listener {
				l = &log
			}
			ref := effectRef{newCount(2, 4, false)}
			seats := []Seat[num]{&fakeSeat{steps: []step{{move: 2}, {move: 2}}}, &fakeSeat{steps: []step{{move: 1}}}}
			out := Run[num](context.Background(), ref, seats, Config{OnMove: Listen(tt.onMove, l)})
			want := []string{`1:2:{"total":2}`, `2:1:{"total":1}`, `3:2:{"total":4}`}
			if len(out.Moves) != 3 {
				t.Fatalf("moves %+v", out.Moves)
			}
			for i, m := range out.Moves {
				if got := fmt.Sprintf("%d:%s:%s", i+1, m.Move, m.Effect); got != want[i] {
					t.Errorf("record move %s, want %s", got, want[i])
				}
			}
			if tt.listener && fmt.Sprint(log) != fmt.Sprint(want) {
				t.Errorf("listener saw %v, want %v", log, want)
			}
			if len(hooked) != tt.wantHooked {
				t.Errorf("hook saw %v", hooked)
			}
		})
	}
	if Listen(nil, nil) != nil {
		t.Error("Listen(nil, nil) is not nil")
	}
}
