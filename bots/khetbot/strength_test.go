package khetbot

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"arena/game/khet"
	"arena/internal/khetref"
)

// opponent picks a move for the side to move.
type opponent func(b *khet.Board, rng *rand.Rand) khet.Move

// playOne plays the engine (as colour bot) against opp through the
// referee and returns the outcome and the engine's deepest search.
func playOne(bot khet.Color, opp opponent, seed uint64, lim Limits) (khet.Outcome, int, int, error) {
	s, err := khet.NewState(khet.DefaultConfig())
	if err != nil {
		return khet.Outcome{}, 0, 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	eng := NewEngine(8)
	eng.Seen(s.Board().Hash())
	maxDepth := 0
	for !s.Over() {
		b := s.Board()
		var m khet.Move
		if s.ToMove() == bot {
			eng.SetGame(s.Plies(), khet.DefaultMaxPlies)
			res := eng.Search(b, lim)
			m = res.Move
			maxDepth = max(maxDepth, res.Depth)
		} else {
			m = opp(b, rng)
		}
		if _, err := s.Play(m); err != nil {
			return khet.Outcome{}, 0, 0, fmt.Errorf("%v played an illegal move %v: %w", s.ToMove(), m, err)
		}
		eng.Seen(s.Board().Hash())
	}
	return s.Outcome(), s.Plies(), maxDepth, nil
}

// TestStrength plays 40 games (colours alternating) against a random
// player and 40 against the one-ply greedy player with about 12 ms of search a move; the
// issue asks for at least 95 % and 70 % wins.
func TestStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 80 games")
	}
	// A node budget (about 12 ms of search on one core) rather than a
	// clock keeps the games the same on a loaded machine.
	lim := Limits{Nodes: 12000, Hard: 5 * time.Second}
	for _, tc := range []struct {
		name string
		opp  opponent
		need int
	}{{"random", khetref.Random, 38}, {"greedy", khetref.Greedy, 28}} {
		t.Run(tc.name, func(t *testing.T) {
			const games = 40
			var mu sync.Mutex
			wins, plies, depth := 0, 0, 0
			var wg sync.WaitGroup
			sem := make(chan struct{}, 2)
			for g := range games {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					bot := khet.Color(g % 2)
					o, n, d, err := playOne(bot, tc.opp, uint64(g+1), lim)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						t.Error(err)
						return
					}
					plies += n
					depth = max(depth, d)
					if o.Winner == int(bot) {
						wins++
					} else {
						t.Logf("game %d (engine %v): %s %s after %d plies", g+1, bot, o.Result(), o.Detail, n)
					}
				}()
			}
			wg.Wait()
			t.Logf("won %d of %d against %s, %.0f plies a game, deepest search %d", wins, games, tc.name, float64(plies)/games, depth)
			if wins < tc.need {
				t.Errorf("won %d of %d, need %d", wins, games, tc.need)
			}
		})
	}
}

// standIn is the stand-in for the simplest published engines: the
// search scoring leaves by material alone, without the quiescence search
// or the null move.
func standIn() tuning {
	t := defaultTuning()
	t.plainMaterial, t.quiesce, t.nullMove, t.calmLMR = true, false, false, false
	return t
}

// TestAgainstPlainAlphaBeta plays 16 games (8 balanced openings, colours
// swapped) against the stand-in for the simplest published engines (such
// as khetai): the same alpha-beta search scoring leaves by material alone
// (tuning.plainMaterial), without the quiescence search, at the same node
// budget. Node budgets make the
// games the same on any machine; the floor is above what the search
// before the quiescence search scored.
func TestAgainstPlainAlphaBeta(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 16 games")
	}
	plain := standIn()
	const openings, nodes, need = 8, 10000, 13.5
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	score := 0.0
	for i := range openings {
		for _, silver := range []bool{true, false} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				r := sprtVariantGame(t, sprtOpening(t, i), defaultTuning(), plain, nodes, nodes, silver)
				mu.Lock()
				score += r
				mu.Unlock()
				if r < 1 {
					t.Logf("opening %d, engine silver %v: scored %v", i, silver, r)
				}
			}()
		}
	}
	wg.Wait()
	t.Logf("scored %.1f of %d against plain material alpha-beta at %d nodes a move", score, 2*openings, nodes)
	if score < need {
		t.Errorf("scored %.1f of %d, need %.1f", score, 2*openings, need)
	}
}
