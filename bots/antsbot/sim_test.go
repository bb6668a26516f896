package antsbot

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/game/ants/mapgen"
)

// sim is a small in-process Ants game for the bot's own tests: the
// official phases (move, collisions, focus attack, raze, spawn, gather,
// food) and fog of war, without the engine's exact RNG, food symmetry or
// cutoffs. The referee in game/ants is the real thing; this one lets the
// bot be tested and tuned without processes.
type sim struct {
	p       Params
	players int
	w       *world
	ants    map[int]int // square -> owner
	hills   map[int]int // square -> owner (un-razed)
	razed   map[int]bool
	food    map[int]bool
	hive    []int
	score   []int
	dead    [][]int // per owner: squares of ants killed last turn, with owner
	deadOwn []int
	seen    [][]bool // per player: water already sent
	rng     *rand.Rand
	extra   float64
	turn    int
	// image, when set, is the map's symmetry between two players: food
	// then always comes in pairs, a square and its image, as the
	// official engine places it, so that no seat is favoured.
	image func(i int) int
}

func newSim(t testing.TB, text string, p Params, seed int64) *sim {
	t.Helper()
	return newSimWith(t, text, p, seed, false)
}

// newRotatedSim is newSim for a two-player map symmetric under the point
// rotation (mapgen's "rotate"), with food placed symmetrically.
func newRotatedSim(t testing.TB, text string, p Params, seed int64) *sim {
	t.Helper()
	return newSimWith(t, text, p, seed, true)
}

func newSimWith(t testing.TB, text string, p Params, seed int64, rotated bool) *sim {
	t.Helper()
	s := &sim{ants: map[int]int{}, hills: map[int]int{}, razed: map[int]bool{}, food: map[int]bool{},
		rng: rand.New(rand.NewPCG(uint64(seed), 1))}
	var grid []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "players" {
			s.players = int(f[1][0] - '0')
			if len(f[1]) == 2 {
				s.players = 10
			}
		}
		if len(f) == 2 && f[0] == "m" {
			grid = append(grid, f[1])
		}
	}
	p.Rows, p.Cols = len(grid), len(grid[0])
	s.p = p
	if rotated {
		n := p.Rows * p.Cols
		s.image = func(i int) int { return n - 1 - i }
	}
	s.w = newWorld(p)
	for r, row := range grid {
		for c, ch := range row {
			i := r*p.Cols + c
			switch {
			case ch == '%':
				s.w.water[i] = true
			case ch >= '0' && ch <= '9':
				s.hills[i] = int(ch - '0')
				s.ants[i] = int(ch - '0')
			}
		}
	}
	s.hive = make([]int, s.players)
	s.score = make([]int, s.players)
	for i := range s.score {
		s.score[i] = len(s.hills) / s.players
	}
	s.seen = make([][]bool, s.players)
	for i := range s.seen {
		s.seen[i] = make([]bool, s.w.n)
	}
	s.dead = make([][]int, 0)
	// Starting food: a few squares near each hill, then some anywhere
	// (hills in order, so that a seed always gives the same game).
	hills := make([]int, 0, len(s.hills))
	for h := range s.hills {
		hills = append(hills, h)
	}
	slices.Sort(hills)
	for _, h := range hills {
		for range 3 {
			s.addFoodNear(h, 6)
		}
	}
	land := 0
	for _, w := range s.w.water {
		if !w {
			land++
		}
	}
	for range land / 120 / s.foodPerDraw() {
		s.addFoodNear(s.rng.IntN(s.w.n), 1000)
	}
	return s
}

// foodPerDraw is how many squares of food one random draw places.
func (s *sim) foodPerDraw() int {
	if s.image != nil {
		return 2
	}
	return 1
}

// addFoodNear puts food on a free square within radius of c (and on its
// image, if the map's symmetry is known and that square is free too).
func (s *sim) addFoodNear(c, radius int) {
	free := func(i int) bool {
		_, ant := s.ants[i]
		_, hill := s.hills[i]
		return !s.w.water[i] && !ant && !hill && !s.food[i]
	}
	for range 50 {
		r := c/s.w.cols + s.rng.IntN(2*min(radius, s.w.rows)+1) - min(radius, s.w.rows)
		col := c%s.w.cols + s.rng.IntN(2*min(radius, s.w.cols)+1) - min(radius, s.w.cols)
		i := s.w.wrapIdx(r, col)
		if !free(i) {
			continue
		}
		if s.image != nil {
			j := s.image(i)
			if j == i || !free(j) {
				continue
			}
			s.food[j] = true
		}
		s.food[i] = true
		return
	}
}

func (s *sim) alive(p int) bool {
	for _, o := range s.ants {
		if o == p {
			return true
		}
	}
	return false
}

// observe builds player p's view: owners renumbered so p is 0.
func (s *sim) observe(p int) *Observation {
	w := s.w
	vis := make([]bool, w.n)
	for sq, o := range s.ants {
		if o == p {
			for _, off := range w.viewOff {
				vis[w.add(sq, off)] = true
			}
		}
	}
	rel := func(o int) int { return (o - p + s.players) % s.players }
	obs := &Observation{Turn: s.turn}
	for i := range w.n {
		if !vis[i] {
			continue
		}
		if w.water[i] && !s.seen[p][i] {
			s.seen[p][i] = true
			obs.Water = append(obs.Water, w.loc(i))
		}
		if o, ok := s.hills[i]; ok {
			obs.Hills = append(obs.Hills, Unit{w.loc(i), rel(o)})
		}
		if o, ok := s.ants[i]; ok {
			obs.Ants = append(obs.Ants, Unit{w.loc(i), rel(o)})
		}
		if s.food[i] {
			obs.Food = append(obs.Food, w.loc(i))
		}
	}
	return obs
}

// step plays one turn with the players' orders.
func (s *sim) step(orders [][]Order) {
	w := s.w
	s.turn++
	moved := map[int]int{} // old square -> new square
	for p, os := range orders {
		seen := map[int]bool{}
		for _, o := range os {
			i := w.idx(o.Loc)
			if seen[i] || s.ants[i] != p {
				continue
			}
			if _, ok := s.ants[i]; !ok {
				continue
			}
			seen[i] = true
			dir := strings.IndexByte("nesw", o.Dir)
			t := int(w.nb[i][dir])
			if w.water[t] || s.food[t] {
				continue
			}
			moved[i] = t
		}
	}
	next := map[int][]int{}
	for sq, o := range s.ants {
		t := sq
		if m, ok := moved[sq]; ok {
			t = m
		}
		next[t] = append(next[t], o)
	}
	s.ants = map[int]int{}
	for sq, os := range next {
		if len(os) == 1 {
			s.ants[sq] = os[0]
		}
	}
	// Focus attack.
	var kill []int
	for sq, o := range s.ants {
		weak := s.enemiesNear(sq, o)
		if len(weak) == 0 {
			continue
		}
		for _, e := range weak {
			if len(s.enemiesNear(e, s.ants[e])) <= len(weak) {
				kill = append(kill, sq)
				break
			}
		}
	}
	for _, sq := range kill {
		delete(s.ants, sq)
	}
	// Raze.
	for h, o := range s.hills {
		if a, ok := s.ants[h]; ok && a != o {
			s.score[a] += 2
			s.score[o]--
			delete(s.hills, h)
			s.razed[h] = true
		}
	}
	// Spawn.
	hs := make([]int, 0, len(s.hills))
	for h := range s.hills {
		hs = append(hs, h)
	}
	slices.Sort(hs)
	for _, h := range hs {
		o := s.hills[h]
		if _, busy := s.ants[h]; !busy && s.hive[o] > 0 {
			s.hive[o]--
			s.ants[h] = o
		}
	}
	// Gather.
	for f := range s.food {
		owners := map[int]bool{}
		for d := range 4 {
			if o, ok := s.ants[int(w.nb[f][d])]; ok {
				owners[o] = true
			}
		}
		if len(owners) > 0 {
			delete(s.food, f)
		}
		if len(owners) == 1 {
			for o := range owners {
				s.hive[o]++
			}
		}
	}
	s.extra += 0.3 * float64(s.players) / float64(s.foodPerDraw())
	for s.extra >= 1 {
		s.extra--
		s.addFoodNear(s.rng.IntN(w.n), 1000)
	}
}

func (s *sim) enemiesNear(sq, owner int) []int {
	var out []int
	for _, off := range s.w.attackOff {
		j := s.w.add(sq, off)
		if o, ok := s.ants[j]; ok && o != owner {
			out = append(out, j)
		}
	}
	return out
}

// play runs a whole game and returns the final scores; the lone survivor
// gets the engine's bonus for the hills still standing.
func (s *sim) play(players []Player, turns int, turnTime time.Duration) []int {
	for _, pl := range players {
		pl.Start(s.p)
	}
	for s.turn < turns {
		orders := make([][]Order, s.players)
		for p, pl := range players {
			if s.alive(p) {
				orders[p] = pl.Turn(s.observe(p), time.Now().Add(turnTime))
			}
		}
		s.step(orders)
		left := 0
		for p := range s.players {
			if s.alive(p) {
				left++
			}
		}
		if left <= 1 {
			for p := range s.players {
				if s.alive(p) {
					for _, o := range s.hills {
						if o != p {
							s.score[p] += 2
							s.score[o]--
						}
					}
				}
			}
			break
		}
	}
	return s.score
}

// counts returns each player's number of ants.
func (s *sim) counts() []int {
	out := make([]int, s.players)
	for _, o := range s.ants {
		out[o]++
	}
	return out
}

func genMap(t testing.TB, players int, seed int64, rows, cols int) string {
	t.Helper()
	text, err := mapgen.Generate(mapgen.Options{Players: players, Seed: seed, Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	return text
}
