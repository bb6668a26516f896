package antsbot

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// scene builds a bot and the observation of a small fully visible map:
// '.' land, '%' water, '*' food, 'a' our ant, 'b' and 'c' enemy ants of
// players 1 and 2, '0' our hill, '1' an enemy hill, 'A' our ant on our
// hill.
func scene(t testing.TB, rows ...string) (*Bot, *Observation) {
	t.Helper()
	p := DefaultParams()
	p.Rows, p.Cols = len(rows), len(rows[0])
	b := New()
	b.Start(p)
	obs := &Observation{Turn: 1}
	for r, row := range rows {
		for c, ch := range row {
			l := Loc{r, c}
			switch ch {
			case '%':
				obs.Water = append(obs.Water, l)
			case '*':
				obs.Food = append(obs.Food, l)
			case 'a':
				obs.Ants = append(obs.Ants, Unit{l, 0})
			case 'b', 'c':
				obs.Ants = append(obs.Ants, Unit{l, int(ch - 'a')})
			case '0', '1':
				obs.Hills = append(obs.Hills, Unit{l, int(ch - '0')})
			case 'A':
				obs.Hills = append(obs.Hills, Unit{l, 0})
				obs.Ants = append(obs.Ants, Unit{l, 0})
			}
		}
	}
	return b, obs
}

// moves plays one turn and returns where each of our ants ends, keyed by
// its start.
func moves(t testing.TB, b *Bot, obs *Observation) map[Loc]Loc {
	t.Helper()
	orders := b.Turn(obs, time.Time{})
	out := map[Loc]Loc{}
	for _, u := range obs.Ants {
		if u.Owner == 0 {
			out[u.Loc] = u.Loc
		}
	}
	seen := map[Loc]bool{}
	for _, o := range orders {
		if _, ok := out[o.Loc]; !ok {
			t.Fatalf("order %v for a square without our ant", o)
		}
		if seen[o.Loc] {
			t.Fatalf("two orders for the ant at %v", o.Loc)
		}
		seen[o.Loc] = true
		d := strings.IndexByte("nesw", o.Dir)
		out[o.Loc] = Loc{(o.Row + dirDelta[d][0] + b.p.Rows) % b.p.Rows, (o.Col + dirDelta[d][1] + b.p.Cols) % b.p.Cols}
	}
	ends := map[Loc]bool{}
	for _, e := range out {
		if ends[e] {
			t.Fatalf("two of our ants end on %v: %v", e, out)
		}
		ends[e] = true
	}
	return out
}

func d2(b *Bot, x, y Loc) int { return b.w.dist2(b.w.idx(x), b.w.idx(y)) }

func TestFocusRuleExamples(t *testing.T) {
	// The battle examples of the official rules page, on one row.
	cases := []struct {
		name           string
		rows           [3]string
		myDead, enDead int
	}{
		{"one on one both die", [3]string{"...........", "....a.b....", "..........."}, 1, 1},
		{"two on one the one dies", [3]string{"....a......", "...a.b.....", "..........."}, 0, 1},
		{"sandwich: the middle dies", [3]string{"...........", "...a.b.a...", "..........."}, 0, 1},
		{"enemy sandwich", [3]string{"...........", "...b.a.b...", "..........."}, 1, 0},
		{"out of range", [3]string{"...........", "..a...b....", "..........."}, 0, 0},
		{"pairs in a line trade one each", [3]string{"...........", "..aa.bb....", "..........."}, 1, 1},
		{"two pairs side by side", [3]string{"...........", "...a.b.....", "...a.b....."}, 2, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, obs := scene(t, tc.rows[:]...)
			b.Turn(obs, time.Time{}) // load the state
			var owner []int
			var cands [][]int32
			for _, u := range obs.Ants {
				owner = append(owner, u.Owner)
				cands = append(cands, []int32{int32(b.w.idx(u.Loc))})
			}
			myDead, enDead := 0, 0
			for i, dead := range resolveAt(b.w.rows, b.w.cols, b.p.AttackRadius2, owner, cands) {
				switch {
				case dead && owner[i] == 0:
					myDead++
				case dead:
					enDead++
				}
			}
			if myDead != tc.myDead || enDead != tc.enDead {
				t.Fatalf("dead mine/theirs %d/%d, want %d/%d", myDead, enDead, tc.myDead, tc.enDead)
			}
		})
	}
}

func TestCombatAttacksWhenStronger(t *testing.T) {
	b, obs := scene(t,
		"...............",
		"...............",
		"....a..........",
		"....a...b......",
		"....a..........",
		"...............",
		"...............",
	)
	got := moves(t, b, obs)
	enemy := Loc{3, 8}
	closer := 0
	for from, to := range got {
		if d2(b, to, enemy) < d2(b, from, enemy) {
			closer++
		}
	}
	if closer == 0 {
		t.Fatalf("three ants against one did not advance: %v", got)
	}
}

func TestCombatAvoidsLosingExchange(t *testing.T) {
	b, obs := scene(t,
		"...............",
		"...............",
		"..........b....",
		".......a..b....",
		"..........b....",
		"...............",
		"...............",
	)
	got := moves(t, b, obs)
	for _, to := range got {
		for _, e := range []Loc{{2, 10}, {3, 10}, {4, 10}} {
			// After the enemy steps toward us the ant must be out of
			// range: distance above (sqrt(5)+1)^2.
			if d2(b, to, e) <= 10 {
				t.Fatalf("lone ant moved to %v, within reach of %v", to, e)
			}
		}
	}
}

func TestFoodOneAntEach(t *testing.T) {
	b, obs := scene(t,
		"................",
		".a.....*........",
		".a..............",
		"................",
		"......*.........",
		"................",
	)
	got := moves(t, b, obs)
	if len(got) != 2 {
		t.Fatal(got)
	}
	var ends []Loc
	for _, to := range got {
		ends = append(ends, to)
	}
	// Both ants move right (east) toward different food: one up top,
	// one toward the lower food.
	if ends[0] == ends[1] {
		t.Fatalf("ants %v", got)
	}
	for from, to := range got {
		if to.Col != from.Col+1 && to.Row != from.Row+1 {
			t.Fatalf("ant %v moved to %v, away from food", from, to)
		}
	}
}

func TestRazesUndefendedHill(t *testing.T) {
	b, obs := scene(t,
		"........",
		"...a1...",
		"........",
	)
	got := moves(t, b, obs)
	if to := got[Loc{1, 3}]; to != (Loc{1, 4}) {
		t.Fatalf("ant next to the enemy hill went to %v", to)
	}
}

func TestLeavesOwnHillAndAvoidsWater(t *testing.T) {
	b, obs := scene(t,
		"%%%%%",
		"%.A.%",
		"%%%%%",
	)
	got := moves(t, b, obs)
	if to := got[Loc{1, 2}]; to == (Loc{1, 2}) || b.w.water[b.w.idx(to)] {
		t.Fatalf("ant on its hill went to %v", to)
	}
}

func TestColumnMovesWithoutCollisions(t *testing.T) {
	// A queue of ants in a corridor, all wanting to go the same way.
	b, obs := scene(t,
		"%%%%%%%%%%%%",
		"aaaaaa.....*",
		"%%%%%%%%%%%%",
	)
	got := moves(t, b, obs) // moves checks that no two ants share a square
	moved := 0
	for from, to := range got {
		if from != to {
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("nobody moved: %v", got)
	}
}

// TestGamesStayLegal plays whole simulated games and checks every order
// of every turn (through moves): our ants never collide, never get two
// orders, never walk into water or food.
func TestGamesStayLegal(t *testing.T) {
	for g, players := range []int{2, 4} {
		text := genMap(t, players, int64(7+g), 40+8*g, 40+8*g)
		s := newSim(t, text, DefaultParams(), int64(g))
		var pls []Player
		bots := map[int]*Bot{}
		for i := range players {
			if i%2 == 0 {
				bots[i] = New()
				pls = append(pls, bots[i])
			} else {
				sp, _ := NewSample("hunter", int64(i))
				pls = append(pls, sp)
			}
		}
		for _, pl := range pls {
			pl.Start(s.p)
		}
		for turn := 0; turn < 120; turn++ {
			orders := make([][]Order, players)
			for i, pl := range pls {
				if !s.alive(i) {
					continue
				}
				obs := s.observe(i)
				if b, ok := bots[i]; ok {
					ends := moves(t, b, obs) // checks the orders
					for from, to := range ends {
						if from == to {
							continue
						}
						sq := b.w.idx(to)
						if s.w.water[sq] || s.food[sq] {
							t.Fatalf("turn %d: ant %v ordered into water or food at %v", s.turn, from, to)
						}
						d := 0
						for dd := range 4 {
							if int(b.w.nb[b.w.idx(from)][dd]) == sq {
								d = dd
							}
						}
						orders[i] = append(orders[i], Order{from, dirLetter[d]})
					}
				} else {
					orders[i] = pl.Turn(obs, time.Time{})
				}
			}
			s.step(orders)
		}
	}
}

// bigScene is a 200x200 4-player position with about 1000 of our ants,
// 600 enemies and 300 food, all in view.
func bigScene(tb testing.TB) (*Bot, *Observation) {
	tb.Helper()
	text := genMap(tb, 4, 5, 200, 200)
	p := DefaultParams()
	s := newSim(tb, text, p, 1)
	rng := rand.New(rand.NewPCG(3, 4))
	obs := &Observation{Turn: 100}
	used := map[int]bool{}
	put := func(k int, f func(Loc)) {
		for k > 0 {
			i := rng.IntN(s.w.n)
			if s.w.water[i] || used[i] {
				continue
			}
			used[i] = true
			f(s.w.loc(i))
			k--
		}
	}
	for i := range s.w.n {
		if s.w.water[i] {
			obs.Water = append(obs.Water, s.w.loc(i))
		}
	}
	put(1000, func(l Loc) { obs.Ants = append(obs.Ants, Unit{l, 0}) })
	put(600, func(l Loc) { obs.Ants = append(obs.Ants, Unit{l, 1 + rng.IntN(3)}) })
	put(300, func(l Loc) { obs.Food = append(obs.Food, l) })
	for h, o := range s.hills {
		obs.Hills = append(obs.Hills, Unit{s.w.loc(h), o})
	}
	p.Rows, p.Cols = s.p.Rows, s.p.Cols
	b := New()
	b.Start(p)
	return b, obs
}

func TestBigTurnRespectsDeadline(t *testing.T) {
	b, obs := bigScene(t)
	// A deadline already past: the bot must still answer, and legally.
	orders := b.Turn(obs, time.Now().Add(-time.Second))
	seen := map[Loc]bool{}
	for _, o := range orders {
		if seen[o.Loc] {
			t.Fatalf("two orders for %v", o.Loc)
		}
		seen[o.Loc] = true
	}
	full := moves(t, b, obs)
	if len(full) != 1000 {
		t.Fatalf("%d ants", len(full))
	}
}

// BenchmarkTurnBig is one full turn (no deadline) on a 200x200 map with
// 1000 of our ants and 600 enemies.
func BenchmarkTurnBig(b *testing.B) {
	bot, obs := bigScene(b)
	bot.Turn(obs, time.Time{})
	water := obs.Water
	obs.Water = nil
	for i := 0; b.Loop(); i++ {
		obs.Turn = 101 + i
		bot.Turn(obs, time.Time{})
	}
	_ = water
	b.ReportMetric(float64(len(obs.Ants)), "ants")
}

// BenchmarkTurnFront is one turn with two armies of 600 ants facing
// each other along a long front on a 200x200 map; it reports the combat
// search's evaluations per turn and per second of search.
func BenchmarkTurnFront(b *testing.B) {
	p := DefaultParams()
	p.Rows, p.Cols = 200, 200
	bot := New()
	bot.Start(p)
	obs := &Observation{Turn: 50}
	for r := range 200 {
		for c := 94; c < 100; c++ {
			obs.Ants = append(obs.Ants, Unit{Loc{r, c}, 0})
		}
		for c := 102; c < 105; c++ {
			obs.Ants = append(obs.Ants, Unit{Loc{r, c}, 1})
		}
	}
	evals := 0
	var search time.Duration
	for b.Loop() {
		obs.Turn++
		bot.Turn(obs, time.Time{})
		evals += bot.evals
		search += bot.stats.combat
	}
	b.ReportMetric(float64(len(obs.Ants)), "ants")
	b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
	b.ReportMetric(float64(evals)/search.Seconds(), "evals/s")
}

func BenchmarkTurnSmall(b *testing.B) {
	text := genMap(b, 2, 3, 60, 60)
	s := newSim(b, text, DefaultParams(), 1)
	bot := New()
	bot.Start(s.p)
	hunter, _ := NewSample("hunter", 1)
	hunter.Start(s.p)
	for range 100 {
		s.step([][]Order{bot.Turn(s.observe(0), time.Time{}), hunter.Turn(s.observe(1), time.Time{})})
	}
	obs := s.observe(0)
	for b.Loop() {
		bot.Turn(obs, time.Time{})
	}
	b.ReportMetric(float64(len(obs.Ants)), "visible-ants")
}

func ExampleNewSample() {
	pl, err := NewSample("hold", 1)
	fmt.Println(pl != nil, err)
	_, err = NewSample("sleepy", 1)
	fmt.Println(err)
	// Output:
	// true <nil>
	// unknown sample strategy "sleepy" (want random, hold, lefty, greedy, hunter or phalanx)
}

func TestDefendsHillBeforeFood(t *testing.T) {
	b, obs := scene(t,
		"....................",
		"....................",
		"....................",
		"*..a................",
		"....................",
		"......0....b........",
		"....................",
		"....................",
	)
	got := moves(t, b, obs)
	from := Loc{3, 3}
	if to := got[from]; d2(b, to, Loc{5, 11}) >= d2(b, from, Loc{5, 11}) {
		t.Fatalf("the ant went to %v instead of meeting the intruder near our hill", to)
	}
}

func TestDuplicateAntLinesGetOneOrder(t *testing.T) {
	b, obs := scene(t,
		"........",
		"...a....",
		"........",
	)
	obs.Ants = append(obs.Ants, obs.Ants[0], Unit{obs.Ants[0].Loc, 1})
	moves(t, b, obs) // fails on two orders for one ant
}

// resolveAt resolves one turn's fights of ants (owners, each at the one
// square of its candidate list) with the skirmish's rules and returns
// who dies.
func resolveAt(rows, cols, r2 int, owner []int, cands [][]int32) []bool {
	// Every ant counts as ours: resolve only looks at owners.
	k := newSkirmish(rows, cols, r2, len(owner), owner, cands, rows*rows+cols*cols, true)
	k.resolve(make([]int8, len(owner)), nil)
	return k.dead
}

// TestCautionTurnsBack checks tuning.caution: a lone ant sent for food
// past three enemy ants, out of reach of a fight this turn, does not
// step toward them; without caution it does.
func TestCautionTurnsBack(t *testing.T) {
	rows := []string{
		"........................................",
		"........................................",
		"....a.....b.....*.......................",
		"..........b.............................",
		"..........b.............................",
		"........................................",
		"........................................",
		"........................................",
	}
	for _, on := range []bool{false, true} {
		b, obs := scene(t, rows...)
		if on {
			b.tune.caution, b.tune.cautionR2 = 2, 49
		}
		got := moves(t, b, obs)
		from := Loc{2, 4}
		toward := got[from] == Loc{2, 5}
		if on && toward {
			t.Fatalf("with caution the ant still steps toward three enemies: %v", got)
		}
		if !on && !toward {
			t.Fatalf("without caution the ant does not go for the food (%v): the scene tests nothing", got)
		}
	}
}

// TestHillGuesses: with no enemy hill known, the squares the usual
// symmetries would put it on are the ones not yet seen, and each draws
// one scout of its own.
func TestHillGuesses(t *testing.T) {
	rows := make([]string, 40)
	for r := range rows {
		rows[r] = strings.Repeat(".", 60)
	}
	rows[5] = ".....Aaaaa" + strings.Repeat(".", 50)
	rows[6] = ".....aaaaa" + strings.Repeat(".", 50)
	b, obs := scene(t, rows...)
	b.tune.scouts = 1
	b.tune.spread = 0 // explorers keep to the lattice, as when scouts was measured
	moves(t, b, obs)
	var got []Loc
	for _, i := range b.hillGuesses() {
		got = append(got, b.w.loc(i))
	}
	// From the hill at 5,5 on 40x60: half the map down and across
	// (25,35), down (25,5), across (5,35), mirrored (34,5), (5,54) and
	// (34,54); the map is not square, so nothing is transposed.
	want := []Loc{{5, 35}, {5, 54}, {25, 5}, {25, 35}, {34, 5}, {34, 54}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("guesses %v, want %v", got, want)
	}
	// Each guess has an ant of its own stepping toward it.
	used := map[int]bool{}
	for _, g := range b.hillGuesses() {
		f := b.field([]int{g}, b.w.n)
		found := false
		for a, sq := range b.mine {
			if used[a] || b.role[a] != roleExplore || len(b.pref[a]) == 0 {
				continue
			}
			if to, ok := b.step(sq, b.pref[a][0]); ok && f[to] < f[sq] {
				used[a], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("no scout heads for %v", b.w.loc(g))
		}
	}
}

// TestInterceptWaitsOnTheWayIn checks tuning.intercept: the defender an
// intruder draws waits half way along the intruder's path to our hill
// instead of walking out to meet it; without intercept it walks out.
func TestInterceptWaitsOnTheWayIn(t *testing.T) {
	rows := []string{
		"%%%%%%%%%%%%%%%%%%%%",
		"%..................%",
		"%..................%",
		"%.0.....a.....b....%",
		"%..................%",
		"%..................%",
		"%%%%%%%%%%%%%%%%%%%%",
	}
	for _, tc := range []struct {
		intercept bool
		want      Loc
	}{{true, Loc{3, 8}}, {false, Loc{3, 9}}} {
		b, obs := scene(t, rows...)
		b.tune.defendSteps, b.tune.intercept = 14, tc.intercept
		if got := moves(t, b, obs)[Loc{3, 8}]; got != tc.want {
			t.Errorf("intercept %v: the defender went to %v, want %v", tc.intercept, got, tc.want)
		}
	}
}

// TestInterceptSquares checks that the square half way is counted along
// the intruder's way round the water, not as the crow flies.
func TestInterceptSquares(t *testing.T) {
	b, obs := scene(t,
		"%%%%%%%%%%%%",
		"%..........%",
		"%0......%b.%",
		"%%%%%%%%%..%",
		"%%%%%%%%%%%%",
	)
	b.Turn(obs, time.Time{})
	near := b.field([]int{b.w.idx(Loc{2, 1})}, 30)
	intruder := b.w.idx(Loc{2, 9})
	got := b.interceptSquares([]int{intruder}, near)[0]
	if n := near[intruder]; n != 10 || near[got] != n-n/2 {
		t.Fatalf("intruder %d steps away, intercept square %v %d steps away; want 10 and 5", n, b.w.loc(got), near[got])
	}
}

// TestFleeHome checks tuning.fleeHome: a lone ant sent for food, with two
// enemy ants come up close behind it, makes for our hill, eight steps
// away, instead (unless fleeFar has it stop fleeing that near); without
// fleeHome it goes on for the food.
func TestFleeHome(t *testing.T) {
	rows := []string{
		"..............................",
		"..........bb..................",
		"..............................",
		"..............................",
		"..............................",
		"..0.......a.........*.........",
		"..............................",
		"..............................",
		"..............................",
		"..............................",
	}
	from, home, food := Loc{5, 10}, Loc{5, 9}, Loc{5, 11}
	for _, tc := range []struct {
		flee int
		far  int32
		want Loc
	}{
		{flee: 0, want: food},
		{flee: 2, want: home},
		{flee: 2, far: 7, want: home},
		{flee: 2, far: 8, want: food},
		{flee: 3, want: food}, // two enemies are not a pack of three
	} {
		b, obs := scene(t, rows...)
		b.tune.fleeHome, b.tune.fleeFar = tc.flee, tc.far
		if got := moves(t, b, obs)[from]; got != tc.want {
			t.Errorf("fleeHome %d, fleeFar %d: the ant goes to %v, want %v", tc.flee, tc.far, got, tc.want)
		}
	}
}

// TestFleeGroups checks tuning.fleeGroups: the chased lone ant makes for
// our group of five instead of for our hill, which lies the other way.
func TestFleeGroups(t *testing.T) {
	rows := []string{
		"..............................",
		"..........bb..................",
		"..............................",
		"..............................",
		"..................aaa.........",
		"..0.......a.......aa..........",
		"..............................",
		"..............................",
		"..............................",
		"..............................",
	}
	from := Loc{5, 10}
	for _, tc := range []struct {
		groups bool
		want   Loc
	}{{false, Loc{5, 9}}, {true, Loc{5, 11}}} {
		b, obs := scene(t, rows...)
		b.tune.fleeHome, b.tune.fleeGroups = 2, tc.groups
		if got := moves(t, b, obs)[from]; got != tc.want {
			t.Errorf("fleeGroups %v: the ant goes to %v, want %v", tc.groups, got, tc.want)
		}
	}
}

// TestLateMarch checks tuning.lateTurns: with fewer ants than armySize
// and a known enemy hill out of view, the ants explore, except in the
// game's last lateTurns turns, when all of them march on the hill.
func TestLateMarch(t *testing.T) {
	rows := landRows(5, 80)
	rows[2] = rows[2][:5] + "1" + rows[2][6:40] + "aaa" + rows[2][43:]
	for _, tc := range []struct {
		late, turn int
		want       int
	}{
		{late: 0, turn: 450, want: roleExplore},
		{late: 100, turn: 350, want: roleExplore},
		{late: 100, turn: 450, want: roleRaze},
	} {
		b, obs := scene(t, rows...)
		b.p.Turns, obs.Turn = 500, tc.turn
		b.tune.lateTurns = tc.late
		moves(t, b, obs)
		for a, role := range b.role {
			if role != tc.want {
				t.Errorf("lateTurns %d, turn %d: ant %d has role %d, want %d", tc.late, tc.turn, a, role, tc.want)
			}
		}
	}
}

// landRows is an open map of land, n rows of cols squares, for a scene
// to draw on.
func landRows(n, cols int) []string {
	rows := make([]string, n)
	for r := range rows {
		rows[r] = strings.Repeat(".", cols)
	}
	return rows
}

// foodSent reports whether our one ant is sent for food in an 11x30
// field of land whose row 5 is row, once tune has set the bot's tuning.
func foodSent(t *testing.T, row string, tune func(*tuning)) bool {
	t.Helper()
	rows := landRows(11, 30)
	rows[5] = row
	b, obs := scene(t, rows...)
	tune(&b.tune)
	moves(t, b, obs)
	return b.role[0] == roleFood
}

func TestFoodGuard(t *testing.T) {
	tests := []struct {
		name  string
		guard int // -1: the defaults' own
		sent  bool
	}{
		{"off", 0, true}, // else the scene tests nothing
		{"two steps", 2, false},
		{"the defaults", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sent := foodSent(t, "....a......*.b................", func(tu *tuning) {
				if tt.guard >= 0 {
					tu.foodGuard = tt.guard
				}
			})
			if sent != tt.sent {
				t.Errorf("sent for food two steps from an enemy ant: %v, want %v", sent, tt.sent)
			}
		})
	}
}

func TestFoodRace(t *testing.T) {
	tests := []struct {
		name string
		row  string
		race bool
		sent bool
	}{
		{"race off, the enemy nearer", "....a......*....b.............", false, true},
		{"the enemy nearer", "....a......*....b.............", true, false},
		{"ours nearer", "........a..*....b.............", true, true},
		{"no enemy in view", "....a......*..................", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if sent := foodSent(t, tt.row, func(tu *tuning) { tu.foodRace = tt.race }); sent != tt.sent {
				t.Errorf("sent for the food: %v, want %v", sent, tt.sent)
			}
		})
	}
}
