// Package gametest holds what the game packages' tests share about
// games a person plays: a listener that records what it is told and
// checks it against the final record, a person who answers every turn
// from another goroutine, and building a package's test program.
package gametest

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

// Recorder is a game.Listener that keeps what it is told.
type Recorder struct {
	mu      sync.Mutex
	header  *game.Record
	started int  // calls of Started
	early   bool // Started came after a move
	plies   []int
	moves   []game.MoveRecord
}

// Started implements game.Listener.
func (r *Recorder) Started(h *game.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started++
	r.early = len(r.moves) > 0
	r.header = h
}

// Moved implements game.Listener.
func (r *Recorder) Moved(ply int, m game.MoveRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.plies = append(r.plies, ply)
	r.moves = append(r.moves, m)
}

// Header is the header Started gave, or nil.
func (r *Recorder) Header() *game.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.header
}

// Starts returns how many times Started was called.
func (r *Recorder) Starts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.started
}

// Plies returns the ply numbers Moved was told, in order.
func (r *Recorder) Plies() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.plies)
}

// Played returns the moves told so far.
func (r *Recorder) Played() []game.MoveRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.moves)
}

// Check compares what the listener saw with the final record: the header
// first and once, then every move as the record has it, effects included.
// sameOptions compares the header's options with the record's (nil:
// byte for byte; a game may know some options only at the end).
func (r *Recorder) Check(t testing.TB, rec *game.Record, sameOptions func(header, final json.RawMessage) bool) {
	t.Helper()
	if sameOptions == nil {
		sameOptions = func(a, b json.RawMessage) bool { return string(a) == string(b) }
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started != 1 || r.early || r.header == nil {
		t.Fatalf("Started %d times, after a move: %v", r.started, r.early)
	}
	h := r.header
	if h.ID != rec.ID || h.Game != rec.Game || !sameOptions(h.Options, rec.Options) ||
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

// ExpectTimeout fails t unless the person, player 0, lost rec by letting
// time run out.
func ExpectTimeout(t testing.TB, rec *game.Record) {
	t.Helper()
	if rec.Reason != game.ReasonTimeout || rec.Winner == nil || *rec.Winner != 1 || rec.Players[0].Fault != game.ReasonTimeout {
		t.Errorf("winner %v by %s, person %+v; want the person to lose by timeout", rec.Winner, rec.Reason, rec.Players[0])
	}
}

// ExpectResigned fails t unless the person, player person of two, lost
// rec by resigning after moves moves (-1: any number).
func ExpectResigned(t testing.TB, rec *game.Record, person, moves int) {
	t.Helper()
	if rec.Reason != game.ReasonResign || rec.Winner == nil || *rec.Winner != 1-person || (moves >= 0 && len(rec.Moves) != moves) {
		t.Errorf("winner %v by %s after %d moves, want the person to lose by resigning", rec.Winner, rec.Reason, len(rec.Moves))
	}
}

// Person plays h from another goroutine until done is closed: on each of
// the seat's turns it calls move.
func Person(h *match.Human, done <-chan struct{}, move func(h *match.Human)) {
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

// Build builds the Go program in dir (relative to the test's package,
// e.g. "./testdata/builtin") and returns its path.
func Build(t testing.TB, dir string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), filepath.Base(dir))
	if out, err := exec.Command("go", "build", "-o", exe, dir).CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", dir, err, out)
	}
	return exe
}
