package points

import (
	"context"
	"encoding/json"
	"errors"
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
	if h.ID != rec.ID || h.Game != rec.Game || string(h.Options) != string(rec.Options) ||
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
// process: a game with refused dots, one the person lets time run out
// in, one the person resigns. The listener must see every capture and
// score as the record keeps them.
func TestHumanSeat(t *testing.T) {
	bin := builtinPlayer(t)
	cfg := Config{Width: 10, Height: 10, MaxMoves: 40}
	tests := []struct {
		name  string
		human int // index of the person in Players; Red is player 0
		turn  time.Duration
		// play is the person's turn: l has every move so far.
		play  func(t *testing.T, h *match.Human, l *recorder)
		check func(t *testing.T, rec *game.Record)
	}{
		{
			name: "plays", human: 0, turn: 2 * time.Second,
			play: func(t *testing.T, h *match.Human, l *recorder) {
				l.mu.Lock()
				opening := l.header.Opening
				l.mu.Unlock()
				s, _ := NewState(cfg)
				var pts []Point
				for _, o := range opening {
					p, _ := ParsePoint(o)
					pts = append(pts, p)
				}
				if err := s.PlayOpening(pts); err != nil {
					t.Errorf("opening %v: %v", opening, err)
				}
				for _, m := range l.played() {
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
			if err := h.Submit("0,0"); !errors.Is(err, match.ErrNotYourTurn) {
				t.Fatalf("submit before the game: %v, want ErrNotYourTurn", err)
			}
			l := &recorder{}
			done := make(chan struct{})
			person(h, done, func(h *match.Human) { tt.play(t, h, l) })
			players := make([]Player, 2)
			players[tt.human] = Player{Name: "person", Human: h}
			players[1-tt.human] = Player{Name: "builtin", Command: "builtin", Args: []string{bin, "--playouts=100"},
				Protocol: ProtocolOptions{TimeUnit: Millis}}
			mc := MatchConfig{Config: cfg, Opening: Cross, Clock: match.Clock{Turn: tt.turn, Tolerance: 50 * time.Millisecond},
				WorkDir: t.TempDir(), Listener: l}
			rec, err := PlayGame(context.Background(), mc, Game{ID: "human-" + tt.name, Players: players, Red: 0})
			close(done)
			if err != nil {
				t.Fatal(err)
			}
			l.check(t, rec)
			tt.check(t, rec)
			t.Logf("%d moves, %s: %s, scores %v", len(rec.Moves), rec.Reason, rec.Detail, rec.Scores)
			if err := h.Submit("0,0"); !errors.Is(err, match.ErrGameOver) {
				t.Errorf("submit after the game: %v, want ErrGameOver", err)
			}
		})
	}
}
