// Package antstest makes large Ants games for tests that need one: the
// web page's render-time test loads a replay of 1000 turns with more than
// 1000 ants, which real bots would take minutes to play. The games are
// played by the real referee (every turn judged, the replay written by
// ants.ReplayJSON), only the bots are replaced by swarms moved in place.
package antstest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"arena/game"
	"arena/game/ants"
)

// BigMap is a 4-player 200x200 scenario map, symmetric by translation
// (period 100 both ways, so symmetric food works), with about 300 ants per
// player packed around each hill and walls of water between.
func BigMap() string {
	const n, half = 200, 100
	cell := func(r, c int) byte {
		r, c = r%half, c%half
		switch {
		case r == 50 && c == 50:
			return 'H'
		case (r%17 == 3 && c%23 < 12) || (c%19 == 7 && r%29 < 10):
			return '%'
		case r >= 38 && r < 63 && c >= 38 && c < 63 && (r+c)%2 == 0:
			return 'a'
		}
		return '.'
	}
	var b strings.Builder
	b.WriteString("rows 200\ncols 200\nplayers 4\n")
	for r := 0; r < n; r++ {
		b.WriteString("m ")
		for c := 0; c < n; c++ {
			p := (r/half)*2 + c/half
			ch := cell(r, c)
			switch ch {
			case 'H':
				ch = byte('0' + p)
			case 'a':
				ch = byte('a' + p)
			}
			b.WriteByte(ch)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// BigReplay plays turns turns on BigMap and returns the rev-3 replay.
// Each player's ants all step the same way, the four directions in a
// random order every four turns: swarms that sway in place, gather the
// food they meet and lose a few ants at the walls, so that more than 1000
// ants live to the end. It takes about a second for 1000 turns.
func BigReplay(turns int, seed int64) ([]byte, error) {
	_, replay, err := BigGame("big", turns, seed)
	return replay, err
}

// BigGame is BigReplay with a record to go with it (what the store and
// the web server keep for a finished Ants game: ID.json beside
// ID.replay), whose options carry the map as live games' do.
func BigGame(id string, turns int, seed int64) (*game.Record, []byte, error) {
	m, err := ants.ParseMap(BigMap())
	if err != nil {
		return nil, nil, fmt.Errorf("big map: %w", err)
	}
	opt := ants.DefaultOptions()
	opt.Turns = turns
	opt.Scenario = true
	opt.EngineSeed, opt.PlayerSeed = seed, seed
	st, err := ants.NewState(m, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("big game: %w", err)
	}
	if err := st.StartGame(); err != nil {
		return nil, nil, fmt.Errorf("big game: %w", err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	ways := make([][]byte, st.N)
	orders := make([][]string, st.N)
	for turn := 1; turn <= turns; turn++ {
		if turn%4 == 1 {
			for p := range ways {
				ways[p] = []byte("nesw")
				rng.Shuffle(4, func(i, j int) { ways[p][i], ways[p][j] = ways[p][j], ways[p][i] })
			}
		}
		for p := range orders {
			orders[p] = orders[p][:0]
		}
		for _, a := range st.AllAnts {
			if a.Killed {
				continue
			}
			r, c := a.Loc/st.Cols, a.Loc%st.Cols
			orders[a.Owner] = append(orders[a.Owner], "o "+strconv.Itoa(r)+" "+strconv.Itoa(c)+" "+string(ways[a.Owner][(turn-1)%4]))
		}
		st.StartTurn()
		for p := 0; p < st.N; p++ {
			st.DoMoves(p, orders[p])
		}
		if err := st.FinishTurn(); err != nil {
			return nil, nil, fmt.Errorf("big game turn %d: %w", turn, err)
		}
	}
	st.FinishGame()
	res := &ants.Result{
		Status: make([]string, st.N), PlayerTurns: make([]int, st.N),
		Score: append([]int(nil), st.Score...), Rank: ants.Rank(st.Score),
		GameLength: turns, Cutoff: st.Cutoff, State: st,
	}
	names := make([]string, st.N)
	for p := range names {
		res.Status[p], res.PlayerTurns[p] = "survived", turns
		names[p] = "swarm " + string(rune('A'+p))
	}
	water := make([]string, st.Rows)
	for r, line := range strings.Split(BigMap(), "\n")[3 : 3+st.Rows] {
		water[r] = strings.Map(func(c rune) rune {
			if c == '%' {
				return '%'
			}
			return '.'
		}, line[2:])
	}
	opts, err := json.Marshal(map[string]any{
		"turns": turns, "viewradius2": opt.ViewRadius2, "attackradius2": opt.AttackRadius2,
		"engine_seed": seed, "player_seed": seed, "scenario": true,
		"rows": st.Rows, "cols": st.Cols, "water": water,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("big game options: %w", err)
	}
	now := time.Now()
	rec := &game.Record{
		ID: id, Game: "ants", Options: opts, Seats: make([]int, st.N), Turns: turns,
		Reason: "turn limit", Scores: append([]int(nil), st.Score...), Start: now, End: now, Seed: seed,
	}
	for p := range names {
		rec.Seats[p] = p
		rec.Players = append(rec.Players, game.PlayerRecord{Name: names[p], Protocol: "ants", Exit: "survived"})
	}
	if w := ants.Winner(st.Score); w >= 0 {
		rec.Winner = &w
	}
	return rec, ants.ReplayJSON(res, names), nil
}
