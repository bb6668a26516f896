package gomoku

import (
	"context"
	"errors"
	"testing"
	"time"

	"arena/game"
	"arena/game/gametest"
	"arena/match"
)

// TestHumanSeat plays a person against arena's own brain over a real
// process: a game with refused clicks, one the person lets time run out
// in, one the person resigns.
func TestHumanSeat(t *testing.T) {
	brain := gametest.Build(t, "./testdata/builtin")
	cfg := Config{Width: 15, Height: 15}
	opening := []Point{{7, 7}, {8, 8}, {6, 8}}
	tests := []struct {
		name  string
		human int // index of the person in Players; Black is player 0
		turn  time.Duration
		// play is the person's turn: l has every move so far.
		play  func(t *testing.T, h *match.Human, l *gametest.Recorder)
		check func(t *testing.T, rec *game.Record)
	}{
		{
			name: "plays", human: 1, turn: 2 * time.Second,
			play: func(t *testing.T, h *match.Human, l *gametest.Recorder) {
				s, _ := NewState(cfg)
				for _, p := range opening {
					s.Play(p)
				}
				for _, m := range l.Played() {
					p, _ := ParsePoint(m.Move)
					if _, err := s.Play(p); err != nil {
						t.Errorf("replay %s: %v", m.Move, err)
					}
				}
				for _, bad := range []string{"7,7", "15,0", "seven"} {
					if err := h.Submit(bad); err == nil {
						t.Errorf("submit %q accepted", bad)
					}
				}
				for y := range cfg.Height {
					for x := range cfg.Width {
						if s.At(Point{x, y}) == Empty {
							if err := h.Submit(Point{x, y}.String()); err != nil {
								t.Errorf("submit %v: %v", Point{x, y}, err)
							}
							return
						}
					}
				}
			},
			check: func(t *testing.T, rec *game.Record) {
				if rec.Reason != "five" || rec.Winner == nil || *rec.Winner != 0 {
					t.Errorf("winner %v by %s (%s), want the brain by five", rec.Winner, rec.Reason, rec.Detail)
				}
				if rec.Players[1].Protocol != "human" || rec.Players[1].Fault != "" {
					t.Errorf("person %+v", rec.Players[1])
				}
				for _, m := range rec.Moves {
					if m.Side == 1 && m.Move == "7,7" {
						t.Errorf("a refused move is in the record: %+v", rec.Moves)
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
			name: "resigns", human: 0, turn: 5 * time.Second,
			play:  func(_ *testing.T, h *match.Human, _ *gametest.Recorder) { h.Resign() },
			check: func(t *testing.T, rec *game.Record) { gametest.ExpectResigned(t, rec, 0, -1) },
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
			players[1-tt.human] = Player{Player: match.Player{Name: "brain", Command: "builtin", Args: []string{brain}}, Protocol: ProtoPipe}
			mc := MatchConfig{Config: cfg, Clock: match.Clock{Turn: tt.turn, Tolerance: 50 * time.Millisecond},
				WorkDir: t.TempDir(), Listener: l}
			rec, err := PlayGame(context.Background(), mc, Game{ID: "human-" + tt.name, Players: players, Black: 0, Opening: opening})
			close(done)
			if err != nil {
				t.Fatal(err)
			}
			l.Check(t, rec, nil)
			tt.check(t, rec)
			t.Logf("%d moves, %s: %s", len(rec.Moves), rec.Reason, rec.Detail)
			if err := h.Submit("0,0"); !errors.Is(err, match.ErrGameOver) {
				t.Errorf("submit after the game: %v, want ErrGameOver", err)
			}
		})
	}
}
