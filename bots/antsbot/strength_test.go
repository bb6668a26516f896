package antsbot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"arena/game/ants"
	"arena/game/ants/mapgen"
)

// TestStrength plays arena's bot against every sample strategy through
// the real referee (game/ants) with real processes, on generated 2- and
// 4-player maps (the bot against three copies of the sample), and
// requires at least 90% wins: the best score alone.
func TestStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 30 whole games")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type setup struct {
		players    int
		seed       int64
		rows, cols int
	}
	maps := []setup{{2, 11, 48, 48}, {4, 12, 64, 64}, {2, 13, 40, 60}, {4, 14, 60, 60}, {2, 15, 60, 60}, {4, 16, 56, 56}}
	turnTime := 300
	if raceEnabled {
		maps, turnTime = maps[:2], 1000
	}
	wins, games := 0, 0
	for _, name := range SampleNames() {
		for gi, ms := range maps {
			text, err := mapgen.Generate(mapgen.Options{Players: ms.players, Seed: ms.seed, Rows: ms.rows, Cols: ms.cols})
			if err != nil {
				t.Fatal(err)
			}
			opts := ants.DefaultOptions()
			opts.Turns, opts.TurnTime, opts.LoadTime = 250, turnTime, 3000
			opts.EngineSeed, opts.PlayerSeed = int64(gi+1), int64(gi+7)
			g := ants.Game{ID: fmt.Sprintf("%s-%d", name, gi)}
			g.Players = append(g.Players, ants.Player{Name: "arena", Args: []string{exe, "antsbot-play", "arena"}})
			for range ms.players - 1 {
				g.Players = append(g.Players, ants.Player{Name: name, Args: []string{exe, "antsbot-play", name}})
			}
			// Our bot sits at a different seat in each game.
			seat := gi % ms.players
			g.Seats = make([]int, ms.players)
			for s := range g.Seats {
				g.Seats[s] = (s - seat + ms.players) % ms.players
			}
			work := t.TempDir()
			mc := ants.MatchConfig{Options: opts, MapText: text, WorkDir: filepath.Join(work, "w")}
			played, err := ants.PlayGame(context.Background(), mc, g)
			if err != nil {
				t.Fatal(err)
			}
			rec := played.Record
			won := rec.Winner != nil && *rec.Winner == 0
			games++
			if won {
				wins++
			}
			t.Logf("%s map %d (%dp, seat %d): scores %v, %s after %d turns, %s",
				name, gi, ms.players, seat, rec.Scores, played.Result.Cutoff, played.Result.GameLength, rec.Detail)
			if st := played.Result.Status[seat]; st == "timeout" || st == "crashed" || st == "invalid" {
				t.Errorf("%s map %d: arena's bot ended %q", name, gi, st)
			}
		}
	}
	t.Logf("arena won %d of %d games", wins, games)
	if wins*10 < games*9 {
		t.Fatalf("arena won %d of %d games, want at least 90%%", wins, games)
	}
}
