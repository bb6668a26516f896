package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"arena/game"
	"arena/match"
)

// specOfMatch writes down game 1 of "arena match GAME ARGS" as the
// command would play it, from the command's own flags.
func specOfMatch(t *testing.T, gameName string, args []string) match.Spec {
	t.Helper()
	m := newMatchCLI(mustDriver(t, gameName))
	cmd := m.cmd()
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
		t.Fatal(err)
	}
	env, r, cleanup, err := m.f.runner(m.d, m.opts.build)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	return r.(specRunner).spec(matchJob("rt", 0, env))
}

// sameGame reports how two records of one game differ in what was
// played: the players and seats, every move, the result.
func sameGame(a, b *game.Record) string {
	type played struct {
		Players []string
		Seats   []int
		Opening []string
		Moves   []string
		Sides   []int
		Turns   int
		Winner  *int
		Reason  game.Reason
		Scores  []int
		Options map[string]any
	}
	of := func(r *game.Record) played {
		p := played{Seats: r.Seats, Opening: r.Opening, Turns: r.Turns, Winner: r.Winner, Reason: r.Reason, Scores: r.Scores}
		for _, pl := range r.Players {
			p.Players = append(p.Players, pl.Name+" "+pl.Command)
		}
		for _, m := range r.Moves {
			p.Moves = append(p.Moves, m.Move)
			p.Sides = append(p.Sides, m.Side)
		}
		json.Unmarshal(r.Options, &p.Options)
		return p
	}
	pa, pb := of(a), of(b)
	if reflect.DeepEqual(pa, pb) {
		return ""
	}
	da, _ := json.Marshal(pa)
	db, _ := json.Marshal(pb)
	return "direct " + string(da) + "\nspec   " + string(db)
}

// For every game: a spec built from the command's flags, written as
// JSON, read back and played by match.Play gives the game "arena match"
// plays with the same flags and seed — the same moves and result, and
// for Ants the same replay bytes — with deterministic bots.
func TestSpecRoundTrip(t *testing.T) {
	brain := filepath.Join(testBrain(t), "pbrain-tb")
	antsBot, err := filepath.Abs(filepath.Join("..", "..", "game", "ants", "testdata", "testbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	antsMap := filepath.Join("..", "..", "game", "ants", "testdata", "tutorial1.map")
	cases := []struct {
		game  string
		args  []string
		files []string // the game's own files, compared byte for byte
	}{
		{"gomoku", []string{"--bot", "a=" + brain + " --policy=random --seed=1", "--bot", "b=" + brain + " --policy=random --seed=2",
			"--size", "10", "--turn-time", "10s"}, nil},
		{"khet", []string{"--bot", "a=builtin --depth 1", "--bot", "b=builtin --depth 2", "--max-plies", "16", "--turn-time", "20s"}, nil},
		{"points", []string{"--bot", "a=builtin --seed 1 --playouts 30", "--bot", "b=builtin --seed 2 --playouts 30",
			"--size", "12", "--max-moves", "24", "--opening", "random", "--increment", "20s"}, nil},
		{"ants", []string{"--bot", "a=python3 " + antsBot + " random", "--bot", "b=python3 " + antsBot + " random",
			"--map", antsMap, "--turns", "12", "--engine_seed", "3", "--player_seed", "5", "--turntime", "10000", "--loadtime", "20000"},
			[]string{".replay"}},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			direct, viaSpec := t.TempDir(), t.TempDir()
			common := []string{"--games", "1", "--seed", "7", "--name", "rt"}
			if _, stderr, err := arena(t, append(append([]string{"match", c.game}, c.args...), append(common, "--out", direct)...)...); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			want, err := game.ReadRecord(filepath.Join(direct, "rt-001.json"))
			if err != nil {
				t.Fatal(err)
			}

			spec := specOfMatch(t, c.game, append(append([]string(nil), c.args...), append(common, "--out", viaSpec)...))
			data, err := json.Marshal(spec)
			if err != nil {
				t.Fatal(err)
			}
			read, err := match.ReadSpec(data)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(read)
			if !bytes.Equal(data, again) {
				t.Fatalf("the spec changed on its way through JSON:\n%s\n%s", data, again)
			}
			got, path, err := match.Play(context.Background(), registryOf(games()), read, match.Local{Out: viaSpec, Work: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if path != filepath.Join(viaSpec, "rt-001.json") {
				t.Errorf("record at %s", path)
			}
			if diff := sameGame(want, got); diff != "" {
				t.Fatalf("the spec played another game:\n%s", diff)
			}
			if len(got.Moves) < 4 {
				t.Fatalf("only %d moves: too short a game to tell", len(got.Moves))
			}
			for _, ext := range c.files {
				a, errA := os.ReadFile(filepath.Join(direct, "rt-001"+ext))
				b, errB := os.ReadFile(filepath.Join(viaSpec, "rt-001"+ext))
				if errA != nil || errB != nil {
					t.Fatalf("%s: %v, %v", ext, errA, errB)
				}
				if !bytes.Equal(a, b) {
					t.Errorf("%s differs: %d and %d bytes", ext, len(a), len(b))
				}
			}
		})
	}
}
