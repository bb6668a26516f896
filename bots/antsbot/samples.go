package antsbot

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// SampleNames lists the simple opponents: those in the style of the
// official engine's Python sample bots (ants/dist/sample_bots/python),
// and phalanx, which fights in groups.
func SampleNames() []string {
	return []string{"random", "hold", "lefty", "greedy", "hunter", "phalanx"}
}

// NewSample returns the sample opponent of that name, seeded with seed
// (0: with the engine's player_seed, as the Python sample bots do):
//
//	hold    never moves (HoldBot)
//	random  each ant steps in a random free direction (RandomBot)
//	lefty   ants walk straight, then follow walls keeping them on the left (LeftyBot)
//	greedy  each ant chases the closest food, else the closest enemy ant, else wanders (GreedyBot)
//	hunter  each ant chases the closest food or enemy ant, whichever is closer (HunterBot)
//	phalanx fights in groups: near enemies, an ant advances only where its side
//	        outnumbers them locally, else falls back toward its friends; away from
//	        them it gathers food, joins fights nearby, or wanders (a test opponent
//	        for the combat of arena's bot, not one of the engine's samples)
//
// Like the Python starter kit they measure distance as wrapped Manhattan
// distance and step in a direction that shortens it, never onto water,
// food or an ant, and never two ants onto one square.
func NewSample(name string, seed int64) (Player, error) {
	s := &sample{seed: seed}
	switch name {
	case "hold":
		s.turn = func() {}
	case "random":
		s.turn = s.random
	case "lefty":
		s.turn = s.lefty
		s.straight, s.wall = map[int]int{}, map[int]int{}
	case "greedy":
		s.turn = s.greedy
	case "hunter":
		s.turn = s.hunter
	case "phalanx":
		s.turn = s.phalanx
	default:
		return nil, fmt.Errorf("unknown sample strategy %q (want random, hold, lefty, greedy, hunter or phalanx)", name)
	}
	return s, nil
}

// sample keeps the starter kit's view of the game: water is remembered,
// everything else is what this turn shows.
type sample struct {
	seed int64
	w    *world
	rng  *rand.Rand
	turn func()

	occupied    []bool // water, food or any ant
	mine        []int
	enemies     []int
	food        []int
	destination map[int]bool
	orders      []Order

	straight, wall map[int]int // lefty: ant square -> heading
}

func (s *sample) Start(p Params) {
	seed := s.seed
	if seed == 0 {
		seed = p.PlayerSeed
	}
	s.rng = rand.New(rand.NewPCG(uint64(seed), 0x73616d70))
	s.w = newWorld(p)
	s.occupied = make([]bool, s.w.n)
	if s.straight != nil {
		s.straight, s.wall = map[int]int{}, map[int]int{}
	}
}

func (s *sample) Turn(obs *Observation, _ time.Time) []Order {
	w := s.w
	for _, l := range obs.Water {
		w.water[w.idx(l)] = true
	}
	copy(s.occupied, w.water)
	s.mine, s.enemies, s.food = s.mine[:0], s.enemies[:0], s.food[:0]
	for _, u := range obs.Ants {
		i := w.idx(u.Loc)
		s.occupied[i] = true
		if u.Owner == 0 {
			s.mine = append(s.mine, i)
		} else {
			s.enemies = append(s.enemies, i)
		}
	}
	for _, l := range obs.Food {
		i := w.idx(l)
		s.occupied[i] = true
		s.food = append(s.food, i)
	}
	s.destination = map[int]bool{}
	s.orders = nil
	s.turn()
	return s.orders
}

// try moves the ant at sq in dir if the square is free; it reports
// whether it did.
func (s *sample) try(sq, dir int) bool {
	t := int(s.w.nb[sq][dir])
	if s.occupied[t] || s.destination[t] {
		return false
	}
	s.destination[t] = true
	s.orders = append(s.orders, Order{s.w.loc(sq), dirLetter[dir]})
	return true
}

func (s *sample) stay(sq int) { s.destination[sq] = true }

// wander steps the ant at sq in a random free direction, or keeps it
// where it is when none is free.
func (s *sample) wander(sq int) {
	for _, dir := range s.rng.Perm(4) {
		if s.try(sq, dir) {
			return
		}
	}
	s.stay(sq)
}

func (s *sample) random() {
	for _, sq := range s.mine {
		s.wander(sq)
	}
}

// manhattan is the starter kit's wrapped Manhattan distance.
func (s *sample) manhattan(a, b int) int {
	w := s.w
	dr := abs(a/w.cols - b/w.cols)
	dc := abs(a%w.cols - b%w.cols)
	return min(dr, w.rows-dr) + min(dc, w.cols-dc)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// towards lists the (at most two) directions that bring a closer to b
// on the torus, as the starter kit's direction() does, shuffled.
func (s *sample) towards(a, b int) []int {
	w := s.w
	ar, ac, br, bc := a/w.cols, a%w.cols, b/w.cols, b%w.cols
	var dirs []int
	switch {
	case ar < br && br-ar >= w.rows/2:
		dirs = append(dirs, dirN)
	case ar < br:
		dirs = append(dirs, dirS)
	case ar > br && ar-br >= w.rows/2:
		dirs = append(dirs, dirS)
	case ar > br:
		dirs = append(dirs, dirN)
	}
	switch {
	case ac < bc && bc-ac >= w.cols/2:
		dirs = append(dirs, dirW)
	case ac < bc:
		dirs = append(dirs, dirE)
	case ac > bc && ac-bc >= w.cols/2:
		dirs = append(dirs, dirE)
	case ac > bc:
		dirs = append(dirs, dirW)
	}
	s.rng.Shuffle(len(dirs), func(i, j int) { dirs[i], dirs[j] = dirs[j], dirs[i] })
	return dirs
}

func (s *sample) closest(sq int, targets []int) (int, bool) {
	best, bestD := -1, 1<<30
	for _, t := range targets {
		if d := s.manhattan(sq, t); d < bestD {
			best, bestD = t, d
		}
	}
	return best, best >= 0
}

// chase moves the ant at sq toward target; it reports whether it moved.
func (s *sample) chase(sq, target int) bool {
	for _, dir := range s.towards(sq, target) {
		if s.try(sq, dir) {
			return true
		}
	}
	return false
}

func (s *sample) hunter() {
	targets := append(append([]int(nil), s.food...), s.enemies...)
	for _, sq := range s.mine {
		t, ok := s.closest(sq, targets)
		if !ok || !s.chase(sq, t) {
			s.stay(sq)
		}
	}
}

func (s *sample) greedy() {
	for _, sq := range s.mine {
		if t, ok := s.closest(sq, s.food); ok && s.chase(sq, t) {
			continue
		}
		if t, ok := s.closest(sq, s.enemies); ok && s.chase(sq, t) {
			continue
		}
		s.wander(sq)
	}
}

var (
	leftOf   = [4]int{dirW, dirN, dirE, dirS}
	rightOf  = [4]int{dirE, dirS, dirW, dirN}
	behindOf = [4]int{dirS, dirW, dirN, dirE}
)

func (s *sample) lefty() {
	w := s.w
	newStraight, newWall := map[int]int{}, map[int]int{}
	for _, sq := range s.mine {
		_, st := s.straight[sq]
		_, wl := s.wall[sq]
		if !st && !wl {
			// New ants leave in a direction set by their square's parity.
			r, c := sq/w.cols, sq%w.cols
			switch {
			case r%2 == 0 && c%2 == 0:
				s.straight[sq] = dirN
			case r%2 == 0:
				s.straight[sq] = dirS
			case c%2 == 0:
				s.straight[sq] = dirE
			default:
				s.straight[sq] = dirW
			}
		}
		if dir, ok := s.straight[sq]; ok {
			t := int(w.nb[sq][dir])
			switch {
			case w.water[t]:
				s.wall[sq] = rightOf[dir] // hit a wall: follow it
			case s.try(sq, dir):
				newStraight[t] = dir
			default:
				newStraight[sq] = leftOf[dir] // blocked: turn and wait
				s.stay(sq)
			}
		}
		if dir, ok := s.wall[sq]; ok {
			for _, nd := range [4]int{leftOf[dir], dir, rightOf[dir], behindOf[dir]} {
				t := int(w.nb[sq][nd])
				if w.water[t] {
					continue
				}
				if s.try(sq, nd) {
					newWall[t] = nd
				} else {
					newStraight[sq] = rightOf[dir]
					s.stay(sq)
				}
				break
			}
		}
	}
	s.straight, s.wall = newStraight, newWall
}

// Phalanx's radii (squared distances): the neighbourhood whose ants are
// counted for local superiority, the distance from which an enemy is a
// danger, and how far an ant goes to join a fight.
const (
	phalanxCount2 = 25
	phalanxDanger = 16
	phalanxRally  = 14 // Manhattan steps
)

// phalanx moves ants as groups: each ant with an enemy near compares the
// ants of each side around it and attacks when its side is the larger,
// otherwise steps away from the enemy toward its friends. Ants far from
// enemies gather food as greedy does, or go to help a fight nearby.
func (s *sample) phalanx() {
	w := s.w
	count := func(sq int, sqs []int) int {
		n := 0
		for _, o := range sqs {
			if w.dist2(sq, o) <= phalanxCount2 {
				n++
			}
		}
		return n
	}
	for _, sq := range s.mine {
		e, ok := s.closest(sq, s.enemies)
		if ok && w.dist2(sq, e) <= phalanxCount2 {
			friends, foes := count(sq, s.mine), count(e, s.enemies)
			if friends > foes {
				if !s.chase(sq, e) {
					s.stay(sq)
				}
				continue
			}
			if w.dist2(sq, e) <= phalanxDanger && s.flee(sq, e) {
				continue
			}
			// Hold the line: close up on the nearest friend if it is
			// further from the enemy, else wait.
			if f, ok := s.closestOther(sq); ok && w.dist2(f, e) > w.dist2(sq, e) && s.chase(sq, f) {
				continue
			}
			s.stay(sq)
			continue
		}
		if f, ok := s.closest(sq, s.food); ok && s.chase(sq, f) {
			continue
		}
		if ok && s.manhattan(sq, e) <= phalanxRally && count(sq, s.mine) >= 3 && s.chase(sq, e) {
			continue
		}
		s.wander(sq)
	}
}

// flee steps the ant at sq to the free square furthest from the enemy
// at e, if that is further than where it stands; it reports whether it
// moved.
func (s *sample) flee(sq, e int) bool {
	w := s.w
	best, bestD := -1, w.dist2(sq, e)
	for _, dir := range s.rng.Perm(4) {
		t := int(w.nb[sq][dir])
		if s.occupied[t] || s.destination[t] {
			continue
		}
		if d := w.dist2(t, e); d > bestD {
			best, bestD = dir, d
		}
	}
	return best >= 0 && s.try(sq, best)
}

// closestOther is the nearest of our other ants to the ant at sq.
func (s *sample) closestOther(sq int) (int, bool) {
	best, bestD := -1, 1<<30
	for _, o := range s.mine {
		if d := s.manhattan(sq, o); o != sq && d < bestD {
			best, bestD = o, d
		}
	}
	return best, best >= 0
}
