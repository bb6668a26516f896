package match

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

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

// clockLog is a game.ClockListener that notes every ask.
type clockLog struct {
	moveLog
	asks []string
}

func (l *clockLog) Asked(side int, left time.Duration, deadline time.Time) {
	l.asks = append(l.asks, fmt.Sprintf("%d:%v:%v", side, left > 0, !deadline.IsZero()))
}

// TestAsks: a clock listener hears every side as it is asked to move,
// with the clock its seat is told; a plain listener is not asked.
func TestAsks(t *testing.T) {
	if Asks(new(moveLog)) != nil || Asks(nil) != nil {
		t.Fatal("Asks of a listener without clocks is not nil")
	}
	for _, tt := range []struct {
		name  string
		clock Clock
		want  string
	}{
		{"match clock", Clock{Match: time.Minute}, "[0:true:true 1:true:true 0:true:true]"},
		{"per move only", Clock{Turn: time.Minute}, "[0:false:true 1:false:true 0:false:true]"},
		{"none", Clock{}, "[0:false:false 1:false:false 0:false:false]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &clockLog{}
			seats := []Seat[num]{&fakeSeat{steps: []step{{move: 2}, {move: 2}}}, &fakeSeat{steps: []step{{move: 1}}}}
			Run[num](context.Background(), newCount(2, 4, false), seats, Config{Clock: tt.clock, OnAsk: Asks(l)})
			if got := fmt.Sprint(l.asks); got != tt.want {
				t.Errorf("asks %s, want %s", got, tt.want)
			}
		})
	}
}
