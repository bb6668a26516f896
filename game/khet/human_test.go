package khet

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

// recorder is a game.Listener that keeps what it is told.
type recorder struct {
	mu      sync.Mutex
	header  *game.Record
	started int // calls of Started
	early   bool
	plies   []int
	moves   []game.MoveRecord
}

func (r *recorder) Started(h *game.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started++
	r.early = len(r.moves) > 0
	r.header = h
}

func (r *recorder) Moved(ply int, m game.MoveRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.plies = append(r.plies, ply)
	r.moves = append(r.moves, m)
}

func (r *recorder) played() []game.MoveRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.moves)
}

// check compares what the listener saw with the final record: the header
// first and once, then every move as the record has it, effects included.
func (r *recorder) check(t *testing.T, rec *game.Record) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started != 1 || r.early || r.header == nil {
		t.Fatalf("Started %d times, after a move: %v", r.started, r.early)
	}
	h := r.header
	if h.ID != rec.ID || h.Game != rec.Game || !sameBeforePlay(h.Options, rec.Options) ||
		!slices.Equal(h.Seats, rec.Seats) || !slices.Equal(h.Opening, rec.Opening) || len(h.Players) != len(rec.Players) {
		t.Fatalf("header %+v\nrecord %+v", h, rec)
	}
	for i := range h.Players {
		if h.Players[i].Name != rec.Players[i].Name || h.Players[i].Protocol != rec.Players[i].Protocol {
			t.Fatalf("header player %d %+v, record %+v", i, h.Players[i], rec.Players[i])
		}
	}
	if len(r.moves) != len(rec.Moves) {
		t.Fatalf("listener saw %d moves, record has %d", len(r.moves), len(rec.Moves))
	}
	for i, m := range r.moves {
		w := rec.Moves[i]
		if r.plies[i] != i+1 || m.Side != w.Side || m.Move != w.Move || string(m.Effect) != string(w.Effect) {
			t.Fatalf("move %d: listener ply %d %+v, record %+v", i+1, r.plies[i], m, w)
		}
	}
}

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

// person plays h from another goroutine until done is closed: on each
// turn it calls move with the moves played so far.
func person(h *match.Human, done <-chan struct{}, move func(h *match.Human)) {
	turns := make(chan struct{}, 1)
	h.OnTurn(func(waiting bool, _ time.Time) {
		if waiting {
			turns <- struct{}{}
		}
	})
	go func() {
		for {
			select {
			case <-turns:
				move(h)
			case <-done:
				return
			}
		}
	}()
}

// builtinPlayer builds arena's own player as a program (testdata/builtin).
func builtinPlayer(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "builtin")
	if out, err := exec.Command("go", "build", "-o", exe, "./testdata/builtin").CombinedOutput(); err != nil {
		t.Fatalf("build the built-in player: %v\n%s", err, out)
	}
	return exe
}

// TestHumanSeat plays a person against arena's own player over a real
// process: a game with refused moves, one the person lets time run out
// in, one the person resigns. The listener must see every laser as the
// record keeps it.
func TestHumanSeat(t *testing.T) {
	bin := builtinPlayer(t)
	cfg := DefaultConfig()
	tests := []struct {
		name  string
		human int // index of the person in Players; Silver is player 0
		turn  time.Duration
		// play is the person's turn: l has every move so far.
		play  func(t *testing.T, h *match.Human, l *recorder)
		check func(t *testing.T, rec *game.Record)
	}{
		{
			name: "plays", human: 1, turn: 2 * time.Second,
			play: func(t *testing.T, h *match.Human, l *recorder) {
				s, _ := NewState(cfg)
				for _, m := range l.played() {
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
				rng := rand.New(rand.NewPCG(uint64(len(l.played())), 7))
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
			play: func(*testing.T, *match.Human, *recorder) {},
			check: func(t *testing.T, rec *game.Record) {
				if rec.Reason != game.ReasonTimeout || rec.Winner == nil || *rec.Winner != 1 || rec.Players[0].Fault != game.ReasonTimeout {
					t.Errorf("winner %v by %s, person %+v; want the person to lose by timeout", rec.Winner, rec.Reason, rec.Players[0])
				}
			},
		},
		{
			name: "resigns", human: 1, turn: 5 * time.Second,
			play: func(_ *testing.T, h *match.Human, _ *recorder) { h.Resign() },
			check: func(t *testing.T, rec *game.Record) {
				if rec.Reason != game.ReasonResign || rec.Winner == nil || *rec.Winner != 0 || len(rec.Moves) != 1 {
					t.Errorf("winner %v by %s after %d moves, want the person to lose by resigning", rec.Winner, rec.Reason, len(rec.Moves))
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := match.NewHuman()
			if err := h.Submit("S00C"); !errors.Is(err, match.ErrNotYourTurn) {
				t.Fatalf("submit before the game: %v, want ErrNotYourTurn", err)
			}
			l := &recorder{}
			done := make(chan struct{})
			person(h, done, func(h *match.Human) { tt.play(t, h, l) })
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
			l.check(t, rec)
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
