package antsbot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"arena/game/ants"
	"arena/game/ants/mapgen"
)

// TestLongSelfPlay is a measurement, not a check: four copies of the bot
// on a 200x200 map for many turns, reporting the slowest turns and the
// ant counts. Run it with ANTSBOT_LONG=1.
func TestLongSelfPlay(t *testing.T) {
	if os.Getenv("ANTSBOT_LONG") == "" {
		t.Skip("set ANTSBOT_LONG=1 to measure")
	}
	text := genMap(t, 4, 21, 200, 200)
	s := newSim(t, text, DefaultParams(), 3)
	bots := []*Bot{New(), New(), New(), New()}
	for _, b := range bots {
		b.Start(s.p)
	}
	var times []time.Duration
	for turn := 1; turn <= 700; turn++ {
		orders := make([][]Order, 4)
		for i, b := range bots {
			if !s.alive(i) {
				continue
			}
			obs := s.observe(i)
			start := time.Now()
			orders[i] = b.Turn(obs, start.Add(500*time.Millisecond))
			times = append(times, time.Since(start))
		}
		s.step(orders)
		if turn%100 == 0 {
			sorted := slices.Clone(times)
			slices.Sort(sorted)
			t.Logf("turn %d: ants %v, turn time median %v, p99 %v, max %v", turn, s.counts(),
				sorted[len(sorted)/2], sorted[len(sorted)*99/100], sorted[len(sorted)-1])
			times = times[:0]
		}
	}
}

// TestLongOfficialMaps plays the bot against hunters (and greedies) on
// the official maps of the recorded games, with the engine's default
// time, for as many turns as ANTSBOT_TURNS says (default 500). It is a
// measurement; run it with ANTSBOT_LONG=1.
func TestLongOfficialMaps(t *testing.T) {
	if os.Getenv("ANTSBOT_LONG") == "" {
		t.Skip("set ANTSBOT_LONG=1 to measure")
	}
	turns := envInt("ANTSBOT_TURNS", 500)
	seed := int64(3)
	if v, err := strconv.ParseInt(os.Getenv("ANTSBOT_SEED"), 10, 64); err == nil {
		seed = v
	}
	exe, _ := os.Executable()
	for _, tm := range testMaps(t) {
		m := tm.m
		for _, opp := range []string{"hunter", "greedy"} {
			opts := ants.DefaultOptions()
			opts.Turns, opts.TurnTime = turns, 500
			opts.EngineSeed, opts.PlayerSeed = seed, seed
			g := ants.Game{ID: "long"}
			g.Players = append(g.Players, ants.Player{Name: "arena", Args: []string{exe, "antsbot-play", "arena"}})
			for range m.Players - 1 {
				g.Players = append(g.Players, ants.Player{Name: opp, Args: []string{exe, "antsbot-play", opp}})
			}
			for s := range m.Players {
				g.Seats = append(g.Seats, s)
			}
			start := time.Now()
			played, err := ants.PlayGame(context.Background(), ants.MatchConfig{Options: opts, MapText: tm.text, WorkDir: t.TempDir()}, g)
			if err != nil {
				t.Fatal(err)
			}
			rec := played.Record
			t.Logf("%s vs %s: scores %v, %s at turn %d, arena thought %.0f ms in all (%s), wall %v",
				tm.name, opp, rec.Scores, played.Result.Cutoff, played.Result.GameLength,
				rec.Players[0].TimeMs, rec.Detail, time.Since(start).Round(time.Millisecond))
		}
	}
}

// TestLongStrength is TestStrength with more games (ANTSBOT_GAMES per
// strategy and player count, default 10). Run it with ANTSBOT_LONG=1.
func TestLongStrength(t *testing.T) {
	if os.Getenv("ANTSBOT_LONG") == "" {
		t.Skip("set ANTSBOT_LONG=1 to measure")
	}
	n := envInt("ANTSBOT_GAMES", 10)
	exe, _ := os.Executable()
	total, won := 0, 0
	for _, name := range SampleNames() {
		for _, players := range []int{2, 4} {
			w := 0
			for i := range n {
				seed := int64(1000 + 37*i + players)
				text, err := mapgen.Generate(mapgen.Options{Players: players, Seed: seed, Rows: 56 + 4*(i%3), Cols: 56 + 4*(i%3)})
				if err != nil {
					t.Fatal(err)
				}
				opts := ants.DefaultOptions()
				opts.Turns, opts.TurnTime = 300, 300
				opts.EngineSeed, opts.PlayerSeed = seed, seed
				g := ants.Game{ID: "s"}
				g.Players = append(g.Players, ants.Player{Name: "arena", Args: []string{exe, "antsbot-play", "arena"}})
				for range players - 1 {
					g.Players = append(g.Players, ants.Player{Name: name, Args: []string{exe, "antsbot-play", name}})
				}
				seat := i % players
				for s := range players {
					g.Seats = append(g.Seats, (s-seat+players)%players)
				}
				played, err := ants.PlayGame(context.Background(), ants.MatchConfig{Options: opts, MapText: text, WorkDir: t.TempDir()}, g)
				if err != nil {
					t.Fatal(err)
				}
				rec := played.Record
				if rec.Winner != nil && *rec.Winner == 0 {
					w++
				} else {
					t.Logf("lost: %s %dp seed %d seat %d: scores %v %s at %d", name, players, seed, seat, rec.Scores, played.Result.Cutoff, played.Result.GameLength)
				}
			}
			t.Logf("%s %dp: won %d of %d", name, players, w, n)
			total += n
			won += w
		}
	}
	t.Logf("won %d of %d", won, total)
}

// testMap is one of the official maps of the conformance games.
type testMap struct {
	name, text string // the conformance game's folder, the map file
	m          *ants.Map
}

// testMaps reads the distinct maps of testdata's Ants conformance games.
func testMaps(t testing.TB) []testMap {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/conformance/ants/*/map.map")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance maps: %v", err)
	}
	seen := map[string]bool{}
	var out []testMap
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if seen[string(data)] {
			continue
		}
		seen[string(data)] = true
		m, err := ants.ParseMap(string(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, testMap{filepath.Base(filepath.Dir(path)), string(data), m})
	}
	return out
}
