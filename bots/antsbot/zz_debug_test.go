package antsbot

import (
	"context"
	"fmt"
	"os"
	"testing"

	"arena/game/ants"
)

func TestZZDebug(t *testing.T) {
	exe, _ := os.Executable()
	data, _ := os.ReadFile("../../../shared/conformance/ants/v1_tutorial1_hunter_greedy_strict/map.map")
	opts := ants.DefaultOptions()
	opts.Turns, opts.TurnTime = 500, 500
	opts.EngineSeed, opts.PlayerSeed = 3, 3
	g := ants.Game{ID: "x", Seats: []int{0, 1}}
	g.Players = []ants.Player{{Name: "arena", Args: []string{exe, "antsbot-play", "arena"}}, {Name: "greedy", Args: []string{exe, "antsbot-play", "greedy"}}}
	mc := ants.MatchConfig{Options: opts, MapText: string(data), WorkDir: t.TempDir(), OnTurn: func(ti ants.TurnInfo) {
		if ti.Turn%10 == 0 {
			fmt.Println(ti.Turn, ti.Ants, ti.Scores)
		}
	}}
	p, err := ants.PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/zz.replay", p.Replay, 0o644)
}
