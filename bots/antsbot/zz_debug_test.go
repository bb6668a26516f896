package antsbot

import (
	"context"
	"fmt"
	"os"
	"testing"

	"arena/game/ants"
	"arena/game/ants/mapgen"
)

func TestZZDebug(t *testing.T) {
	exe, _ := os.Executable()
	text, _ := mapgen.Generate(mapgen.Options{Players: 4, Seed: 14, Rows: 60, Cols: 60})
	fmt.Println(text)
	opts := ants.DefaultOptions()
	opts.Turns, opts.TurnTime = 250, 300
	opts.EngineSeed, opts.PlayerSeed = 4, 10
	g := ants.Game{ID: "x", Seats: []int{1, 2, 3, 0}}
	g.Players = []ants.Player{{Name: "arena", Args: []string{exe, "antsbot-play", "arena"}}}
	for range 3 {
		g.Players = append(g.Players, ants.Player{Name: "greedy", Args: []string{exe, "antsbot-play", "greedy"}})
	}
	mc := ants.MatchConfig{Options: opts, MapText: text, WorkDir: t.TempDir(), OnTurn: func(ti ants.TurnInfo) {
		if ti.Turn%20 == 0 {
			fmt.Println(ti.Turn, ti.Ants, ti.Scores)
		}
	}}
	p, err := ants.PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/zz.replay", p.Replay, 0o644)
}
