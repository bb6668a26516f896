package points

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/game"
	"arena/game/gametest"
	"arena/match"
)

// TestHumanSeat plays a person against arena's own player over a real
// process: a game with refused dots, one the person lets time run out
// in, one the person resigns. The listener must see every capture and
// score as the record keeps them.
func TestHumanSeat(t *testing.T) {
	bin := gametest.Build(t, "./testdata/builtin")
	cfg := Config{Width: 10, Height: 10, MaxMoves: 40}
	tests := []struct {
		name  string
		human int // index of the person in Players; Red is player 0
		turn  time.Duration
		// play is the person's turn: l has every move so far.
		play  func(t *testing.T, h *match.Human, l *gametest.Recorder)
		check func(t *testing.T, rec *game.Record)
	}{
		{
			name: "plays", human: 0, turn: 2 * time.Second,
			play: func(t *testing.T, h *match.Human, l *gametest.Recorder) {
				opening := l.Header().Opening
				s, _ := NewState(cfg)
				var pts []Point
				for _, o := range opening {
					p, _ := ParsePoint(o)
					pts = append(pts, p)
				}
				if err := s.PlayOpening(pts); err != nil {
					t.Errorf("opening %v: %v", opening, err)
				}
				for _, m := range l.Played() {
					p, _ := ParsePoint(m.Move)
					if _, err := s.Play(p); err != nil {
						t.Errorf("replay %s: %v", m.Move, err)
					}
				}
				for _, bad := range []string{opening[0], "10,0", "-1,3", "dot"} {
					if err := h.Submit(bad); err == nil {
						t.Errorf("submit %q accepted", bad)
					}
				}
				// Row by row from the top: the person walls nothing in, so
				// the bot gets to capture.
				for i := range cfg.Width * cfg.Height {
					p := Point{i % cfg.Width, i / cfg.Width}
					if s.Field().Check(p) == nil {
						if err := h.Submit(p.String()); err != nil {
							t.Errorf("submit %v: %v", p, err)
						}
						return
					}
				}
			},
			check: func(t *testing.T, rec *game.Record) {
				if rec.Players[0].Protocol != "human" || rec.Players[0].Fault != "" || len(rec.Opening) == 0 {
					t.Errorf("person %+v, opening %v", rec.Players[0], rec.Opening)
				}
				if rec.Reason != ReasonMaxMoves || len(rec.Moves) != cfg.MaxMoves {
					t.Errorf("%d moves, reason %s (%s)", len(rec.Moves), rec.Reason, rec.Detail)
				}
				if _, err := Replay(rec, nil); err != nil {
					t.Error(err)
				}
				for i, m := range rec.Moves {
					var e Effect
					if err := json.Unmarshal(m.Effect, &e); err != nil {
						t.Fatalf("move %d: effect %s: %v", i+1, m.Effect, err)
					}
				}
			},
		},
		{
			name: "times out", human: 0, turn: 300 * time.Millisecond,
			play:  func(*testing.T, *match.Human, *gametest.Recorder) {},
			check: func(t *testing.T, rec *game.Record) { gametest.ExpectTimeout(t, rec) },
		},
		{
			name: "resigns", human: 1, turn: 5 * time.Second,
			play:  func(_ *testing.T, h *match.Human, _ *gametest.Recorder) { h.Resign() },
			check: func(t *testing.T, rec *game.Record) { gametest.ExpectResigned(t, rec, 1, 1) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := match.NewHuman()
			if err := h.Submit("0,0"); !errors.Is(err, match.ErrNotYourTurn) {
				t.Fatalf("submit before the game: %v, want ErrNotYourTurn", err)
			}
			l := &gametest.Recorder{}
			done := make(chan struct{})
			gametest.Person(h, done, func(h *match.Human) { tt.play(t, h, l) })
			players := make([]Player, 2)
			players[tt.human] = Player{Player: match.Player{Name: "person", Human: h}}
			players[1-tt.human] = Player{Player: match.Player{Name: "builtin", Command: "builtin", Args: []string{bin, "--playouts=100"}},
				Protocol: ProtocolOptions{TimeUnit: Millis}}
			mc := MatchConfig{Config: cfg, Opening: Cross, Clock: match.Clock{Turn: tt.turn, Tolerance: 50 * time.Millisecond},
				WorkDir: t.TempDir(), Listener: l}
			rec, err := PlayGame(context.Background(), mc, Game{ID: "human-" + tt.name, Players: players, Red: 0})
			close(done)
			if err != nil {
				t.Fatal(err)
			}
			l.Check(t, rec, nil)
			tt.check(t, rec)
			t.Logf("%d moves, %s: %s, scores %v", len(rec.Moves), rec.Reason, rec.Detail, rec.Scores)
			if err := h.Submit("0,0"); !errors.Is(err, match.ErrGameOver) {
				t.Errorf("submit after the game: %v, want ErrGameOver", err)
			}
		})
	}
}
