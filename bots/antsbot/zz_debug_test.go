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
	for seed := int64(1); seed <= 12; seed++ {
		zz(t, seed)
	}
}

func zz(t *testing.T, seed int64) {
	exe, _ := os.Executable()
	data, _ := os.ReadFile("../../../shared/conformance/ants/v1_tutorial1_hunter_greedy_strict/map.map")
	text := string(data)
	_ = mapgen.Generate
	opts := ants.DefaultOptions()
	opts.Turns, opts.TurnTime = 500, 500
	opts.EngineSeed, opts.PlayerSeed = seed, seed
	g := ants.Game{ID: "x", Seats: []int{0, 1}}
	g.Players = []ants.Player{{Name: "arena", Args: []string{exe, "antsbot-play", "arena"}}}
	for range 1 {
		g.Players = append(g.Players, ants.Player{Name: "hunter", Args: []string{exe, "antsbot-play", "hunter"}})
	}
	mc := ants.MatchConfig{Options: opts, MapText: text, WorkDir: t.TempDir(), OnTurn: func(ti ants.TurnInfo) {

	}}
	p, err := ants.PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(seed, p.Record.Scores, p.Result.Cutoff, p.Result.GameLength)
	os.WriteFile(fmt.Sprintf("/tmp/zz%d.replay", seed), p.Replay, 0o644)
}
