package gomoku

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// scriptedGame is a game whose moves both brains follow from a script.
type scriptedGame struct {
	name     string
	cfg      Config
	opening  []Point
	black    string // the moves Black's brain answers, "x,y;x,y"
	white    string
	winner   int
	reason   game.Reason
	scoresBW []int
}

var scriptedGames = []scriptedGame{
	{
		// Black makes five in a column; White's answers are TURN replies.
		name: "begin", cfg: Config{Width: 10, Height: 10, Rule: ExactFive},
		black: "4,4;4,5;4,6;4,7;4,8", white: "5,4;5,5;5,6;0,0",
		winner: 0, reason: "five",
	},
	{
		// An opening of three stones: White starts with a BOARD, Black's
		// first move is a BOARD too, then TURNs follow.
		name: "opening", cfg: Config{Width: 12, Height: 9, Rule: Freestyle},
		opening: []Point{{6, 4}, {7, 4}, {6, 5}},
		white:   "8,4;9,4;10,4;11,4",
		black:   "0,0;0,1;0,2",
		winner:  1, reason: "five",
	},
	{
		// A continuous game on the smallest board: fives are blocked ('#',
		// field 3) and counted; the board fills up.
		name: "continuous", cfg: Config{Width: 5, Height: 5, Rule: Continuous, EndEmpty: 10},
		black: "0,0;1,0;2,0;3,0;4,0;0,2;1,2;2,2", white: "0,1;1,1;2,1;3,1;4,1;0,3;1,3",
		winner: -1, reason: "draw", scoresBW: []int{1, 1},
	},
}

// play plays the game on a clock with no match limit, so time_left is the
// constant 2147483647 and the transcript is the same on every run.
func (g scriptedGame) play(t *testing.T, proto Protocol) (logs [2]string, out match.Outcome) {
	t.Helper()
	return g.playOn(t, proto, match.Clock{Turn: 2500 * time.Millisecond, Tolerance: 10 * time.Second})
}

// playOn plays the game on the given clock; env is added to both brains'
// environment.
func (g scriptedGame) playOn(t *testing.T, proto Protocol, clock match.Clock, env ...string) (logs [2]string, out match.Outcome) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	state, err := NewState(g.cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range g.opening {
		if _, err := state.Play(p); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	seats := make([]match.Seat[Point], 2)
	for side, script := range []string{g.black, g.white} {
		logs[side] = filepath.Join(tmp, "side"+string(rune('0'+side))+".log")
		dir := filepath.Join(tmp, "work"+string(rune('0'+side)))
		os.Mkdir(dir, 0o755)
		opts := SeatOptions{
			Args: []string{exe}, Dir: dir, MemoryLimit: 350 << 20, Folder: "/data/persistent",
			Env: append([]string{"ARENA_SCRIPTED_BRAIN=" + string(proto), "ARENA_SCRIPTED_MOVES=" + script, "ARENA_SCRIPTED_LOG=" + logs[side]}, env...),
		}
		if proto == ProtoPipe {
			seats[side] = NewPipeSeat(state, StoneOf(side), opts)
		} else {
			seats[side] = NewFileSeat(state, StoneOf(side), opts)
		}
	}
	out = match.Run[Point](context.Background(), Referee{state}, seats, match.Config{Clock: clock})
	return logs, out
}

// TestTranscripts plays scripted games over real pipes and files and
// compares every byte the manager sent (pipe) or wrote (file) with golden
// files.
func TestTranscripts(t *testing.T) {
	for _, proto := range []Protocol{ProtoPipe, ProtoFile} {
		for _, g := range scriptedGames {
			t.Run(string(proto)+"/"+g.name, func(t *testing.T) {
				logs, out := g.play(t, proto)
				if out.Result.Winner != g.winner || out.Result.Reason != g.reason {
					t.Fatalf("result %+v, want winner %d by %s", out.Result, g.winner, g.reason)
				}
				if g.scoresBW != nil && !slices.Equal(out.Result.Scores, g.scoresBW) {
					t.Fatalf("scores %v, want %v", out.Result.Scores, g.scoresBW)
				}
				for _, m := range out.Moves {
					if len(m.Output) != 1 || !strings.HasPrefix(m.Output[0], "MESSAGE scripted move") && m.Output[0] != "scripted move" {
						t.Fatalf("move %s: output %q, want the brain's message", m.Move, m.Output)
					}
				}
				var got strings.Builder
				for side, path := range logs {
					data, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					got.WriteString("### side " + string(rune('0'+side)) + "\n")
					got.Write(data)
				}
				golden(t, filepath.Join("testdata", "transcript_"+string(proto)+"_"+g.name+".golden"), got.String())
			})
		}
	}
}

// TestInfoWorkIsStartUp plays with brains that take far longer over
// INFO max_memory (as a champion brain resizing its hash does) than a move
// may take: that work belongs to start-up, whose limit is generous, so
// neither brain loses on time at its first move.
func TestInfoWorkIsStartUp(t *testing.T) {
	g := scriptedGames[0]
	clock := match.Clock{Turn: 300 * time.Millisecond, Tolerance: 700 * time.Millisecond, Startup: 30 * time.Second}
	_, out := g.playOn(t, ProtoPipe, clock, "ARENA_SCRIPTED_INFO_WORK=2s")
	if out.Result.Winner != g.winner || out.Result.Reason != g.reason {
		t.Fatalf("result %+v, want winner %d by %s (the INFO work was charged to a move)", out.Result, g.winner, g.reason)
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what the manager sent:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
