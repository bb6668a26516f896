package ants

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

// playJob plays a game of the given length between testbot.py bots in
// the given modes (see testdata/testbot.py) through the runner, as arena
// match does, with l told of it.
func playJob(t *testing.T, turns, turnTime int, l game.Listener, modes ...string) *game.Record {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	fl := pflag.NewFlagSet("ants", pflag.ContinueOnError)
	s := DefaultSettings()
	s.Bind(fl)
	if err := fl.Parse([]string{"--map", filepath.Join("testdata", "tutorial1.map"), "--turns", strconv.Itoa(turns), "--engine_seed", "2",
		"--turntime", strconv.Itoa(turnTime), "--loadtime", "30000"}); err != nil {
		t.Fatal(err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	var players []match.Player
	for i, mode := range modes {
		name := string(rune('a' + i))
		players = append(players, match.Player{Name: name, Command: "python3 " + script + " " + mode, Args: []string{py, script, mode, "3"}})
	}
	r, err := Def{}.NewRunner(s, match.Env{Players: players, Out: t.TempDir(), Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := r.Play(context.Background(), match.Job{ID: "job", Seats: []int{0, 1}, Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A job's Listener reaches the game: the header, then a frame per turn.
func TestAntsJobListener(t *testing.T) {
	l := &countingListener{}
	rec := playJob(t, 6, 30000, l, "random", "random")
	if !l.started || len(l.frames) != rec.Turns || rec.Turns == 0 || l.frames[0] != "1 -1 turn 1 true" {
		t.Fatalf("started %t, frames %q for %d turns", l.started, l.frames, rec.Turns)
	}
}

// A bot that times out is recorded with the turn and what it was doing
// at its deadline (see bot.Process.ReadLine).
func TestAntsTimeoutExplained(t *testing.T) {
	rec := playJob(t, 6, 300, nil, "hold", "timeout")
	if rec.Players[1].Fault != game.ReasonTimeout {
		t.Fatalf("player b: fault %q, want timeout (%s)", rec.Players[1].Fault, rec.Detail)
	}
	t.Log(rec.Detail)
	for _, want := range []string{"b timeout (turn 3: no answer in time (", "threads: "} {
		if !strings.Contains(rec.Detail, want) {
			t.Errorf("detail %q lacks %q", rec.Detail, want)
		}
	}
}
