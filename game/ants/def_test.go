package ants

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"

	"arena/game"
	"arena/match"
)

// The progress bar names each seat's player with its ants and score.
func TestAntsTurnStatus(t *testing.T) {
	r := &runner{players: []Player{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	ti := TurnInfo{Turn: 7, Ants: []int{4, 0, 9}, Scores: []int{1, 0, 3}, Alive: []bool{true, false, true}}
	got := r.turnStatus(ti, []int{2, 0, 1})
	want := "c 4 ants 1 pts, a 0 ants 0 pts (out), b 9 ants 3 pts"
	if got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}

// countingListener counts what a job's Listener is told.
type countingListener struct {
	started bool
	frames  []string
}

func (l *countingListener) Started(h *game.Record) {
	l.started = h.Game == "ants" && len(h.Options) > 0
}
func (l *countingListener) Moved(ply int, m game.MoveRecord) {
	l.frames = append(l.frames, fmt.Sprintf("%d %d %s %t", ply, m.Side, m.Move, len(m.Effect) > 0))
}

// A job's Listener reaches the game: the header, then a frame per turn.
func TestAntsJobListener(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	fl := pflag.NewFlagSet("ants", pflag.ContinueOnError)
	s := DefaultSettings()
	s.Bind(fl)
	if err := fl.Parse([]string{"--map", filepath.Join("testdata", "tutorial1.map"), "--turns", "6", "--engine_seed", "2", "--turntime", "30000", "--loadtime", "30000"}); err != nil {
		t.Fatal(err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	var players []match.Player
	for _, name := range []string{"a", "b"} {
		players = append(players, match.Player{Name: name, Command: "python3 " + script + " random", Args: []string{py, script, "random"}})
	}
	r, err := Def{}.NewRunner(s, match.Env{Players: players, Out: t.TempDir(), Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	l := &countingListener{}
	rec, _, err := r.Play(context.Background(), match.Job{ID: "listened", Seats: []int{0, 1}, Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	if !l.started || len(l.frames) != rec.Turns || rec.Turns == 0 || l.frames[0] != "1 -1 turn 1 true" {
		t.Fatalf("started %t, frames %q for %d turns", l.started, l.frames, rec.Turns)
	}
}
