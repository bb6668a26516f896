package gomokubot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"arena/game/gomoku"
)

// enginePlayer plays with an Engine that is told every move of the game.
type enginePlayer struct {
	e      *Engine
	budget time.Duration
	seen   int
	t      testing.TB
}

func newEnginePlayer(t testing.TB, r *referee, budget time.Duration, maxDepth int) *enginePlayer {
	e := NewEngine(r.w, r.h, r.rule)
	e.MaxDepth = maxDepth
	return &enginePlayer{e: e, budget: budget, t: t}
}

func (p *enginePlayer) move(r *referee) gomoku.Point {
	p.sync(r)
	m, _ := p.e.Search(context.Background(), r.toMove, p.budget)
	return m
}

// sync tells the engine the moves it has not seen yet.
func (p *enginePlayer) sync(r *referee) {
	for ; p.seen < len(r.history); p.seen++ {
		s := gomoku.Black
		if p.seen%2 == 1 {
			s = gomoku.White
		}
		if err := p.e.Place(r.history[p.seen], s); err != nil {
			p.t.Fatalf("engine refused the game's move %d: %v", p.seen, err)
		}
	}
}

// playGame plays one game to its end (or maxMoves stones) and returns
// the referee. The package's own referee, gomoku.State, judges every move;
// the test referee r (which the players look at) must agree with it.
func playGame(t testing.TB, r *referee, black, white player, maxMoves int) *referee {
	t.Helper()
	judge, err := gomoku.NewState(gomoku.Config{Width: r.w, Height: r.h, Rule: r.rule})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.history {
		if _, err := judge.Play(p); err != nil {
			t.Fatalf("opening move %v: %v", p, err)
		}
	}
	for !judge.Over() && r.moves < maxMoves {
		pl := black
		if r.toMove == gomoku.White {
			pl = white
		}
		side := r.toMove
		p := pl.move(r)
		ev, err := judge.Play(p)
		if err != nil {
			t.Fatalf("%v played %v: %v\n%s", side, p, err, r)
		}
		if ev.Foul != gomoku.NoFoul {
			t.Fatalf("%v played the foul %v (%v)\n%s", side, p, ev.Foul, r)
		}
		if err := r.play(p); err != nil {
			t.Fatalf("test referee: %v played %v: %v\n%s", side, p, err, r)
		}
		if r.over != judge.Over() && !(r.over && r.reason == "full") {
			t.Fatalf("after %v at %v the referees disagree: test says over=%v (%s), gomoku.State says over=%v (%+v)\n%s", side, p, r.over, r.reason, judge.Over(), judge.Outcome(), r)
		}
	}
	if judge.Over() {
		if out := judge.Outcome(); out.Winner != r.winner {
			t.Fatalf("referees disagree on the winner: test %v (%s), gomoku.State %+v\n%s", r.winner, r.reason, out, r)
		}
	}
	return r
}

// TestStrength plays the engine against a random and a greedy player:
// it must win every game, with either colour, on 15x15 and 20x20, under
// freestyle and exactly-five rules, at 100 ms per move.
func TestStrength(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 8
	}
	opponents := []struct {
		name string
		make func(seed uint64) player
	}{
		{"random", func(seed uint64) player { return randomPlayer{rand.New(rand.NewPCG(seed, 1))} }},
		{"greedy", func(seed uint64) player { return greedyPlayer{rand.New(rand.NewPCG(seed, 2))} }},
	}
	for _, opp := range opponents {
		t.Run(opp.name, func(t *testing.T) {
			t.Parallel()
			wins := 0
			for g := 0; g < games; g++ {
				size := []int{15, 20}[(g/2)%2]
				rule := []gomoku.Rule{gomoku.Freestyle, gomoku.ExactFive}[(g/4)%2]
				r := newReferee(size, size, rule)
				eng := newEnginePlayer(t, r, 100*time.Millisecond, 0)
				other := opp.make(uint64(g) + 1)
				engineColour := gomoku.Black
				black, white := player(eng), other
				if g%2 == 1 {
					engineColour = gomoku.White
					black, white = other, eng
				}
				start := time.Now()
				playGame(t, r, black, white, size*size)
				desc := fmt.Sprintf("game %d (%dx%d %v, engine %v): %s after %d moves in %v", g, size, size, rule, engineColour, r.reason, r.moves, time.Since(start).Round(time.Millisecond))
				if r.winner == engineColour {
					wins++
					t.Log(desc)
				} else {
					t.Errorf("%s, winner %v\n%s", desc, r.winner, r)
				}
			}
			t.Logf("engine won %d/%d against %s", wins, games, opp.name)
		})
	}
}

// TestSelfPlay plays the engine against itself under every rule and
// checks the games end properly (no foul by Black in renju, continuous
// games run until the board is full).
func TestSelfPlay(t *testing.T) {
	for _, rule := range []gomoku.Rule{0, 1, 2, 3, 4, 8, 9} {
		t.Run(rule.String(), func(t *testing.T) {
			size := 15
			if rule&gomoku.Continuous != 0 {
				size = 10
			}
			r := newReferee(size, size, rule)
			a := newEnginePlayer(t, r, 30*time.Millisecond, 3)
			b := newEnginePlayer(t, r, 30*time.Millisecond, 4)
			playGame(t, r, a, b, size*size)
			if !r.over {
				t.Fatalf("game did not end after %d moves\n%s", r.moves, r)
			}
			if rule&gomoku.Continuous != 0 && r.reason != "full" {
				t.Errorf("continuous game ended by %s, want a full board", r.reason)
			}
			t.Logf("%s after %d moves, winner %v, fives %v", r.reason, r.moves, r.winner, r.fives[1:])
		})
	}
}

// TestContinuousScoring: in a continuous game against a random player the
// engine keeps making fives until the board is full and wins on score.
func TestContinuousScoring(t *testing.T) {
	for _, rule := range []gomoku.Rule{gomoku.Continuous, gomoku.Continuous | gomoku.ExactFive} {
		r := newReferee(10, 10, rule)
		eng := newEnginePlayer(t, r, 10*time.Millisecond, 2)
		playGame(t, r, eng, randomPlayer{rand.New(rand.NewPCG(1, uint64(rule)))}, 100)
		if !r.over || r.reason != "full" || r.winner != gomoku.Black || r.fives[gomoku.Black] < 3 {
			t.Errorf("rule %v: %s, winner %v, fives %v\n%s", rule, r.reason, r.winner, r.fives[1:], r)
		}
		eng.sync(r)
		if eng.e.Fives(gomoku.Black) != r.fives[gomoku.Black] {
			t.Errorf("rule %v: the engine counted %d fives, the referee %d", rule, eng.e.Fives(gomoku.Black), r.fives[gomoku.Black])
		}
	}
}
