package khet

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"arena/game"
	"arena/game/gametest"
	"arena/match"
)

// sameBeforePlay reports whether a header's options are a record's as
// known before play: all but the final state, which the header leaves
// empty.
func sameBeforePlay(header, final json.RawMessage) bool {
	var a, b Options
	if json.Unmarshal(header, &a) != nil || json.Unmarshal(final, &b) != nil || a.Final != "" || b.Final == "" {
		return false
	}
	b.Final = ""
	return a == b
}

// TestHumanSeat plays a person against arena's own player over a real
// process: a game with refused moves, one the person lets time run out
// in, one the person resigns. The listener must see every laser as the
// record keeps it.
func TestHumanSeat(t *testing.T) {
	bin := gametest.Build(t, "./testdata/builtin")
	cfg := DefaultConfig()
	tests := []struct {
		name  string
		human int // index of the person in Players; Silver is player 0
		turn  time.Duration
		// play is the person's turn: l has every move so far.
		play  func(t *testing.T, h *match.Human, l *gametest.Recorder)
		check func(t *testing.T, rec *game.Record)
	}{
		{
			name: "plays", human: 1, turn: 2 * time.Second,
			play: func(t *testing.T, h *match.Human, l *gametest.Recorder) {
				s, _ := NewState(cfg)
				for _, m := range l.Played() {
					mv, _ := ParseMove(m.Move)
					if _, err := s.Play(mv); err != nil {
						t.Errorf("replay %s: %v", m.Move, err)
					}
				}
				before := s.String()
				for _, bad := range []string{"S00C", "R99C", "R00X", "pass"} {
					if err := h.Submit(bad); err == nil {
						t.Errorf("submit %q accepted", bad)
					}
				}
				moves := s.Board().Moves(nil)
				rng := rand.New(rand.NewPCG(uint64(len(l.Played())), 7))
				if err := h.Submit(moves[rng.IntN(len(moves))].String()); err != nil {
					t.Errorf("submit a legal move: %v (position %s, was %s)", err, s, before)
				}
			},
			check: func(t *testing.T, rec *game.Record) {
				if rec.Players[1].Protocol != "human" || rec.Players[1].Fault != "" {
					t.Errorf("person %+v", rec.Players[1])
				}
				if rec.Reason != ReasonPharaoh && rec.Reason != ReasonRepetition && rec.Reason != ReasonMaxPlies {
					t.Errorf("reason %s (%s)", rec.Reason, rec.Detail)
				}
				states, err := Replay(rec)
				if err != nil {
					t.Fatal(err)
				}
				for i, m := range rec.Moves {
					var e Effect
					if err := json.Unmarshal(m.Effect, &e); err != nil || e.State != states[i+1] || e.Shot == "" {
						t.Fatalf("move %d: effect %s (%v), replay %s", i+1, m.Effect, err, states[i+1])
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
			if err := h.Submit("S00C"); !errors.Is(err, match.ErrNotYourTurn) {
				t.Fatalf("submit before the game: %v, want ErrNotYourTurn", err)
			}
			l := &gametest.Recorder{}
			done := make(chan struct{})
			gametest.Person(h, done, func(h *match.Human) { tt.play(t, h, l) })
			players := make([]Player, 2)
			players[tt.human] = Player{Name: "person", Human: h}
			players[1-tt.human] = Player{Name: "builtin", Command: "builtin", Args: []string{bin, "--turn-time=" + tt.turn.String()}}
			mc := MatchConfig{Config: cfg, Clock: match.Clock{Turn: tt.turn, Tolerance: 50 * time.Millisecond},
				WorkDir: t.TempDir(), Listener: l}
			rec, err := PlayGame(context.Background(), mc, Game{ID: "human-" + tt.name, Players: players, Silver: 0})
			close(done)
			if err != nil {
				t.Fatal(err)
			}
			l.Check(t, rec, sameBeforePlay)
			tt.check(t, rec)
			t.Logf("%d moves, %s: %s", len(rec.Moves), rec.Reason, rec.Detail)
			if err := h.Submit("S00C"); !errors.Is(err, match.ErrGameOver) {
				t.Errorf("submit after the game: %v, want ErrGameOver", err)
			}
		})
	}
}

// BenchmarkLiveEffect is the price of a move's effect computed as it is
// played (what every live game pays per move): one op is the laser path
// and state string of the last move, encoded.
func BenchmarkLiveEffect(b *testing.B) {
	s, _ := NewState(DefaultConfig())
	rng := rand.New(rand.NewPCG(1, 2))
	for s.Plies() < 20 && !s.Over() {
		moves := s.Board().Moves(nil)
		s.Play(moves[rng.IntN(len(moves))])
	}
	ref := Referee{s}
	for b.Loop() {
		if len(ref.Effect()) == 0 {
			b.Fatal("no effect")
		}
	}
}

// BenchmarkHumanCheck is the judging of a person's click: parse and
// check against the position, without changing it.
func BenchmarkHumanCheck(b *testing.B) {
	s, _ := NewState(DefaultConfig())
	m := s.Board().Moves(nil)[0].String()
	for b.Loop() {
		mv, err := ParseMove(m)
		if err == nil {
			err = s.Check(mv)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
