package antsbot

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// bruteTrap is trapScores written the slow, plain way: every reply of
// the nearest enemies, then for each square the ant can step to next
// turn, every step of every enemy.
func bruteTrap(b *Bot, sq int) (scores [5]int, ok [5]bool) {
	w := b.w
	r2 := b.p.AttackRadius2
	step := func(from int, d int) (int, bool) {
		if d == dirStay {
			return from, true
		}
		t := int(w.nb[from][d])
		return t, b.passable(t)
	}
	var foes []int
	for _, e := range b.enemies {
		if w.dist2(sq, e) <= b.trapReach2() {
			foes = append(foes, e)
		}
	}
	// The nearest maxTrapFoes, ties in the order of b.enemies.
	for i := 1; i < len(foes); i++ {
		for j := i; j > 0 && w.dist2(sq, foes[j]) < w.dist2(sq, foes[j-1]); j-- {
			foes[j], foes[j-1] = foes[j-1], foes[j]
		}
	}
	if len(foes) > maxTrapFoes {
		foes = foes[:maxTrapFoes]
	}
	for m := range 5 {
		at, open := step(sq, m)
		if !open || b.enemyAt[at] != 0 {
			continue
		}
		ok[m] = true
		worst, alive := 0, false
		var rec func(j int, reply []int)
		rec = func(j int, reply []int) {
			if j < len(foes) {
				for d := range 5 {
					if p, open := step(foes[j], d); open {
						rec(j+1, append(reply, p))
					}
				}
				return
			}
			for _, p := range reply {
				if w.dist2(at, p) <= r2 {
					return // dead this turn
				}
			}
			alive = true
			fewest := 2
			for e := range 5 {
				t, open := step(at, e)
				if !open {
					continue
				}
				blocked := false
				for _, p := range reply {
					blocked = blocked || p == t
				}
				if blocked {
					continue
				}
				n := 0
				for _, p := range reply {
					for d := range 5 {
						if q, open := step(p, d); open && w.dist2(t, q) <= r2 {
							n++
							break
						}
					}
				}
				fewest = min(fewest, n)
			}
			worst = max(worst, fewest)
		}
		rec(0, nil)
		if alive {
			scores[m] = worst
		} else {
			scores[m] = 2
		}
	}
	return scores, ok
}

// TestTrapScores compares trapScores with the brute force on random
// scenes: one of our ants among water and up to six enemies.
func TestTrapScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	nonzero := 0
	for n := range 300 {
		rows := make([][]byte, 16)
		for r := range rows {
			rows[r] = []byte(strings.Repeat(".", 16))
			for c := range rows[r] {
				if rng.IntN(6) == 0 {
					rows[r][c] = '%'
				}
			}
		}
		rows[8][8] = 'a'
		for range 1 + rng.IntN(6) {
			r, c := 2+rng.IntN(13), 2+rng.IntN(13)
			if rows[r][c] == '.' {
				rows[r][c] = 'b'
			}
		}
		text := make([]string, len(rows))
		for r := range rows {
			text[r] = string(rows[r])
		}
		b, obs := scene(t, text...)
		b.Turn(obs, time.Time{}) // sets up the turn's ants and memory
		sq := b.w.idx(Loc{8, 8})
		got, gotOK, _ := b.trapScores(sq)
		want, wantOK := bruteTrap(b, sq)
		if got != want || gotOK != wantOK {
			t.Fatalf("scene %d:\n%s\ntrapScores %v %v, brute force %v %v", n, strings.Join(text, "\n"), got, gotOK, want, wantOK)
		}
		if got != [5]int{} {
			nonzero++
		}
	}
	if nonzero < 30 {
		t.Fatalf("only %d of 300 scenes have a trap: the test compares too little", nonzero)
	}
}

// TestEvadeTrap: a lone ant next to two enemies backs away from them
// (the combat search sees only this turn, and the step west is safe
// now) into a pocket of water where they corner it next turn; with the
// trap check it steps north into the open instead.
func TestEvadeTrap(t *testing.T) {
	rows := []string{
		"............%.......",
		".%..%.......%.......",
		"....................",
		".......%............",
		"......%.%..%.....%..",
		"........%.......%...",
		"..%.......%........%",
		"..%%.a.b%....%.*....",
		".....%%b............",
		"%...................",
		".%.....%.........%..",
		"...........%.%....%.",
		"........%...........",
		"%................%..",
	}
	for _, on := range []bool{false, true} {
		b, obs := scene(t, rows...)
		if on {
			b.tune.trapW, b.tune.trapTradeW, b.tune.trapAlone2 = 0.9, 0.3, 20
		}
		got := moves(t, b, obs)
		from := Loc{7, 5}
		pocket := got[from] == Loc{7, 4}
		if on && pocket {
			t.Fatalf("with the trap check the ant still backs into the pocket: %v (scores %v)", got, b.traps)
		}
		if !on && !pocket {
			t.Fatalf("without the trap check the ant does not back into the pocket (%v): the scene tests nothing", got)
		}
		if on && b.traps[0] != [5]int{0, 2, 0, 2, 2} {
			t.Fatalf("trap scores %v, want north 0, east 2, south 0 (water), west 2, stay 2", b.traps[0])
		}
	}
}

// TestConvoyWaits: of two ants marching on an enemy hill ten squares
// apart, the one in front waits for the other with convoy and walks on
// without it; the one behind walks on either way.
func TestConvoyWaits(t *testing.T) {
	rows := []string{
		"..................................................",
		"..................................................",
		"..................................................",
		"..................................................",
		"..................................................",
		"..........a.........a.........1...................",
		"..................................................",
		"..................................................",
		"..................................................",
		"..................................................",
	}
	for _, on := range []bool{false, true} {
		b, obs := scene(t, rows...)
		b.tune.armySize = 2 // two ants make an army: no lattice of explorers
		if on {
			b.tune.convoyR2, b.tune.convoyBack2, b.tune.convoyNear = 20, 144, 8
		}
		got := moves(t, b, obs)
		front, back := Loc{5, 20}, Loc{5, 10}
		if got[back] != (Loc{5, 11}) {
			t.Fatalf("convoy %v: the ant behind does not walk on toward the hill: %v", on, got)
		}
		waits := got[front] == front
		if on && !waits {
			t.Fatalf("with convoy the ant in front does not wait: %v", got)
		}
		if !on && got[front] != (Loc{5, 21}) {
			t.Fatalf("without convoy the ant in front does not march (%v): the scene tests nothing", got)
		}
	}
}

// TestStageGathers: marchers on the enemy hill east of them (1). With
// staging at five steps and a wave of three, the one on the ring waits,
// the one inside it backs out and the one far off walks on; a third ant
// near the ring lets the wave go, and without staging nobody waits.
func TestStageGathers(t *testing.T) {
	const far, ring, inside, third = 10, 25, 27, 24
	const backs = -1 // any move one step farther from the hill
	row := func(ants ...int) string {
		r := []byte(strings.Repeat(".", 50))
		if len(ants) > 0 {
			r[30] = '1'
		}
		for _, c := range ants {
			r[c] = 'a'
		}
		return string(r)
	}
	cases := []struct {
		name  string
		stage int
		ants  []int
		want  map[int]int // column before -> column after
	}{
		{"gathering", 5, []int{far, ring, inside}, map[int]int{far: far + 1, ring: ring, inside: backs}},
		{"wave", 5, []int{far, third, ring, inside}, map[int]int{far: far + 1, ring: ring + 1, inside: inside + 1}},
		{"off", 0, []int{far, ring, inside}, map[int]int{far: far + 1, ring: ring + 1, inside: inside + 1}},
	}
	for _, c := range cases {
		empty := row()
		b, obs := scene(t, empty, empty, row(c.ants...), empty, empty)
		b.tune.armySize = 2
		b.tune.stageSteps, b.tune.stageSize = c.stage, 3
		got := moves(t, b, obs)
		for from, to := range c.want {
			if to == backs {
				if l := got[Loc{2, from}]; abs(l.Row-2)+abs(30-l.Col) != 30-from+1 {
					t.Errorf("%s: the ant on column %d moves to %v, not one step farther from the hill", c.name, from, l)
				}
				continue
			}
			if got[Loc{2, from}] != (Loc{2, to}) {
				t.Errorf("%s: the ant on column %d moves to %v, want column %d (all: %v)", c.name, from, got[Loc{2, from}], to, got)
			}
		}
	}
}

// TestExploreAvoid: an explorer in the middle of an unexplored map, an
// enemy ant east of it. Unseen squares lie nine steps off in every
// direction, so without exploreAvoid the explorer sets off east for
// some seeds; with it the squares near the enemy are no goal and it
// never does.
func TestExploreAvoid(t *testing.T) {
	rows := make([]string, 30)
	for r := range rows {
		rows[r] = strings.Repeat(".", 30)
	}
	rows[15] = "...............a......b......."
	// A known enemy hill no ant can reach (walled in by water) ends the
	// first spreading out over a lattice, as a known hill does.
	rows[0] = "1%" + strings.Repeat(".", 27) + "%"
	rows[1] = "%" + strings.Repeat(".", 29)
	rows[29] = "%" + strings.Repeat(".", 29)
	for _, tc := range []struct {
		name string
		knob func(*tuning)
	}{
		{"off", func(*tuning) {}},
		{"exploreAvoid", func(t *tuning) { t.exploreAvoid = 10 }},
		{"frontier", func(t *tuning) { t.frontier = 20 }},
	} {
		east := 0
		for seed := range uint64(16) {
			b, obs := scene(t, rows...)
			b.rng = rand.New(rand.NewPCG(seed, 1))
			b.tune.armySize = 1
			b.tune.spread = 0 // explorers walk to the nearest stale square, as when the knobs were measured
			tc.knob(&b.tune)
			if got := moves(t, b, obs); got[Loc{15, 15}] == (Loc{15, 16}) {
				east++
			}
		}
		if tc.name != "off" && east > 0 {
			t.Errorf("with %s the explorer set off toward the enemy for %d of 16 seeds", tc.name, east)
		}
		if tc.name == "off" && east == 0 {
			t.Fatal("without a knob the explorer never sets off east: the scene tests nothing")
		}
	}
}

// TestFrontier: the map splits at the middle between our ants and the
// enemy's, the enemy's side takes the ties, and our side's edge is the
// last column of ours.
func TestFrontier(t *testing.T) {
	rows := make([]string, 9)
	for r := range rows {
		rows[r] = "%" + strings.Repeat(".", 39) // no way round the torus
	}
	rows[4] = "%.a.a...........................b......."
	b, obs := scene(t, rows...)
	b.tune.frontier = 40
	moves(t, b, obs)
	var stale []int
	for i := range b.w.n {
		if !b.w.water[i] {
			stale = append(stale, i)
		}
	}
	ours, edge := b.frontier(stale)
	// Column c is 4 steps and more from our ant at 4 and 32-c from theirs.
	for _, i := range ours {
		if c := i % b.w.cols; c > 17 {
			t.Errorf("square %v on our side, past column 17", b.w.loc(i))
		}
	}
	if want := 9 * 17; len(ours) != want {
		t.Errorf("%d squares on our side, want %d", len(ours), want)
	}
	if len(edge) != 9 {
		t.Errorf("edge %d squares, want the 9 of column 17", len(edge))
	}
	for _, i := range edge {
		if c := i % b.w.cols; c != 17 {
			t.Errorf("edge square %v, not in column 17", b.w.loc(i))
		}
	}
}

// BenchmarkTrapScores times one lone ant's trap scores against five
// enemies within reach (every combination of their replies is tried).
func BenchmarkTrapScores(b *testing.B) {
	rows := []string{
		"....................",
		"......b.....b.......",
		"....................",
		".........a..........",
		"....%...............",
		"......b......b......",
		"..........b.........",
		"....................",
	}
	bot, obs := scene(b, rows...)
	bot.Turn(obs, time.Time{})
	sq := bot.w.idx(Loc{3, 9})
	if _, _, any := bot.trapScores(sq); !any {
		b.Fatal("no trap in the scene: the benchmark times the easy case")
	}
	b.ResetTimer()
	for range b.N {
		bot.trapScores(sq)
	}
}

// TestMass: five of ours together nine steps west of an enemy ant, and
// one of ours alone seven steps west of two. With mass the five close in
// and the lone ant does not; with massRetreat too it backs away, with
// join it goes to the five. Without mass the five do not all close in:
// the scene can fail.
func TestMass(t *testing.T) {
	rows := make([]string, 20)
	for r := range rows {
		rows[r] = strings.Repeat(".", 40)
	}
	put := func(r, c int, ch byte) {
		b := []byte(rows[r])
		b[c] = ch
		rows[r] = string(b)
	}
	group := []Loc{{5, 10}, {4, 10}, {6, 10}, {5, 9}, {5, 11}}
	for _, l := range group {
		put(l.Row, l.Col, 'a')
	}
	put(5, 19, 'b')
	lone := Loc{15, 10}
	put(lone.Row, lone.Col, 'a')
	put(15, 17, 'b')
	put(14, 17, 'b')
	dist := func(a, b Loc) int { return abs(a.Row-b.Row) + abs(a.Col-b.Col) }
	for _, mode := range []string{"off", "mass", "retreat", "join"} {
		b, obs := scene(t, rows...)
		b.tune.spread = 0 // the lone explorer would head east, to the unseen side
		switch mode {
		case "off":
			b.tune.massSteps = 0
		case "mass":
			b.tune.massSteps, b.tune.massMin, b.tune.massR2 = 12, 5, 64
		case "retreat":
			b.tune.massSteps, b.tune.massMin, b.tune.massR2, b.tune.massRetreat = 12, 5, 64, true
		case "join":
			b.tune.massSteps, b.tune.massMin, b.tune.massR2, b.tune.join = 12, 5, 64, true
		}
		got := moves(t, b, obs)
		closer := 0
		for _, l := range group {
			if dist(got[l], Loc{5, 19}) < dist(l, Loc{5, 19}) {
				closer++
			}
		}
		loneD := dist(got[lone], Loc{15, 17}) - dist(lone, Loc{15, 17})
		switch {
		case mode == "off" && closer == len(group):
			t.Fatalf("without mass all five close in: the scene tests nothing")
		case mode != "off" && closer != len(group):
			t.Errorf("%s: %d of the five close in, want all (%v)", mode, closer, got)
		case mode != "off" && loneD < 0:
			t.Errorf("%s: the lone ant closes in (%v -> %v)", mode, lone, got[lone])
		case mode == "retreat" && loneD <= 0:
			t.Errorf("retreat: the lone ant does not back away (%v -> %v)", lone, got[lone])
		case mode == "join" && dist(got[lone], Loc{6, 10}) >= dist(lone, Loc{6, 10}):
			t.Errorf("join: the lone ant does not go to the five (%v -> %v)", lone, got[lone])
		}
	}
}

// TestRazeGroup: with razeGroup an ant chosen to march on a far hill
// goes only with company; the lone one nearest the hill explores.
func TestRazeGroup(t *testing.T) {
	rows := make([]string, 20)
	for r := range rows {
		rows[r] = strings.Repeat(".", 140) // wide: the short way to the hill is not round the torus
	}
	put := func(l Loc, ch byte) {
		b := []byte(rows[l.Row])
		b[l.Col] = ch
		rows[l.Row] = string(b)
	}
	lone := Loc{10, 35}
	group := []Loc{{10, 10}, {9, 10}, {11, 10}, {10, 11}}
	put(Loc{10, 65}, '1')
	put(lone, 'a')
	for _, l := range group {
		put(l, 'a')
	}
	for _, on := range []bool{false, true} {
		b, obs := scene(t, rows...)
		b.tune.armySize = 1
		if on {
			b.tune.razeGroup, b.tune.razeGroupR2 = 4, 64
		}
		moves(t, b, obs)
		role := func(l Loc) int { return b.role[b.ownAt[b.w.idx(l)]-1] }
		marching := 0
		for _, l := range group {
			if role(l) == roleRaze {
				marching++
			}
		}
		switch {
		case !on && role(lone) != roleRaze:
			t.Fatalf("without razeGroup the lone ant nearest the hill does not march (role %d): the scene tests nothing", role(lone))
		case on && role(lone) == roleRaze:
			t.Errorf("with razeGroup the lone ant marches alone")
		case marching != 2:
			t.Errorf("on %v: %d of the group march, want the 2 the share picks", on, marching)
		}
	}
}

// TestPrey: three of ours together eight steps west of a lone enemy ant,
// and three more as far from two enemies together. With prey the first
// three close in on the lone one; the others, too few for two, do not.
// Without prey (fewer than massMin) the first three do not all close in:
// the scene can fail.
func TestPrey(t *testing.T) {
	rows := make([]string, 24)
	for r := range rows {
		rows[r] = strings.Repeat(".", 40)
	}
	put := func(l Loc, ch byte) {
		b := []byte(rows[l.Row])
		b[l.Col] = ch
		rows[l.Row] = string(b)
	}
	hunters := []Loc{{5, 9}, {5, 10}, {6, 10}}
	others := []Loc{{17, 9}, {17, 10}, {18, 10}}
	prey, pair := Loc{5, 18}, []Loc{{17, 18}, {18, 18}}
	for _, l := range append(hunters, others...) {
		put(l, 'a')
	}
	put(prey, 'b')
	for _, l := range pair {
		put(l, 'b')
	}
	dist := func(a, b Loc) int { return abs(a.Row-b.Row) + abs(a.Col-b.Col) }
	closer := func(got map[Loc]Loc, ants []Loc, to Loc) int {
		n := 0
		for _, l := range ants {
			if dist(got[l], to) < dist(l, to) {
				n++
			}
		}
		return n
	}
	for _, on := range []bool{false, true} {
		b, obs := scene(t, rows...)
		b.tune.massSteps, b.tune.massMin, b.tune.massR2 = 12, 5, 64
		b.tune.spread = 0 // the others' explorers would take the hunters' squares
		if on {
			b.tune.prey = 3
		}
		got := moves(t, b, obs)
		h, o := closer(got, hunters, prey), closer(got, others, pair[0])
		switch {
		case !on && h == len(hunters):
			t.Fatalf("without prey all three close in: the scene tests nothing")
		case on && h != len(hunters):
			t.Errorf("prey: %d of the three close in on the lone enemy, want all (%v)", h, got)
		case on && o == len(others):
			t.Errorf("prey: the three near the pair all close in on it (%v)", got)
		}
	}
}
