package antsbot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/game/ants"
)

// TestResolveMatchesReferee plays one turn of random crowded positions
// (two to four players, random moves, some into each other) through the
// referee of game/ants and checks that the combat search's resolution
// kills exactly the ants the referee kills.
func TestResolveMatchesReferee(t *testing.T) {
	const rows, cols = 16, 18
	rng := rand.New(rand.NewPCG(17, 5))
	for tc := range 300 {
		players := 2 + tc%3
		r2 := []int{5, 5, 2, 10}[tc%4]
		grid := make([][]byte, rows)
		for r := range grid {
			grid[r] = []byte(strings.Repeat(".", cols))
		}
		// Hills on the last row, out of reach of the ants (rows 2..11).
		for p := range players {
			grid[rows-1][2+4*p] = byte('0' + p)
		}
		type ant struct{ r, c, owner int }
		var all []ant
		for range 6 + rng.IntN(14) {
			r, c := 2+rng.IntN(10), rng.IntN(cols)
			if grid[r][c] != '.' {
				continue
			}
			o := rng.IntN(players)
			grid[r][c] = byte('a' + o)
			all = append(all, ant{r, c, o})
		}
		var text strings.Builder
		fmt.Fprintf(&text, "rows %d\ncols %d\nplayers %d\n", rows, cols, players)
		for _, row := range grid {
			fmt.Fprintf(&text, "m %s\n", row)
		}
		m, err := ants.ParseMap(text.String())
		if err != nil {
			t.Fatal(err)
		}
		opts := ants.DefaultOptions()
		opts.Scenario, opts.Food, opts.AttackRadius2 = true, "none", r2
		opts.EngineSeed = int64(tc + 1)
		s, err := ants.NewState(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.StartGame(); err != nil {
			t.Fatal(err)
		}
		s.StartTurn()
		owner := make([]int, len(all))
		cands := make([][]int32, len(all))
		lines := make([][]string, players)
		for i, a := range all {
			owner[i] = a.owner
			d := rng.IntN(5)
			r, c := a.r, a.c
			if d < 4 {
				lines[a.owner] = append(lines[a.owner], fmt.Sprintf("o %d %d %c", a.r, a.c, dirLetter[d]))
				r = (r + dirDelta[d][0] + rows) % rows
				c = (c + dirDelta[d][1] + cols) % cols
			}
			cands[i] = []int32{int32(r*cols + c)}
		}
		for p := range players {
			if rep := s.DoMoves(p, lines[p]); len(rep.Invalid) > 0 {
				t.Fatalf("case %d: invalid orders %v", tc, rep.Invalid)
			}
		}
		if err := s.FinishTurn(); err != nil {
			t.Fatal(err)
		}
		refDead := map[int]bool{} // by starting square
		for _, a := range s.AllAnts {
			if a.Killed && a.DieTurn == 1 {
				refDead[a.InitialLoc] = true
			}
		}
		got := resolveAt(rows, cols, r2, owner, cands)
		for i, a := range all {
			if want := refDead[a.r*cols+a.c]; got[i] != want {
				t.Fatalf("case %d (attackradius2 %d): ant of player %d from (%d,%d) to square %d: dead %v, referee says %v\n%s",
					tc, r2, a.owner, a.r, a.c, cands[i][0], got[i], want, text.String())
			}
		}
	}
}

// TestCombatDecisions checks the search's choice in small battles
// against one move of the enemy's: the exchange after the enemy's best
// reply (found by trying all its move-sets) must be what the table says.
func TestCombatDecisions(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		// The worst exchange over every enemy reply (most of our losses
		// net of kills): kills minus losses at least minNet, and at most
		// maxLosses of ours die.
		minNet, maxLosses int
		// advance: at least one of our ants gets closer to the enemy.
		advance bool
	}{
		{"three on one attack", []string{
			"...............",
			"....a..........",
			"....a...b......",
			"....a..........",
			"...............",
		}, 0, 0, true},
		{"lone ant avoids three", []string{
			"...............",
			".........b.....",
			"......a..b.....",
			".........b.....",
			"...............",
		}, 0, 0, false},
		{"pair against pair keeps out of an even trade", []string{
			"...............",
			"......a..b.....",
			"......a..b.....",
			"...............",
		}, 0, 0, false},
		{"line of four against two in reach kills", []string{
			"...............",
			"....a..........",
			"....a.b........",
			"....a.b........",
			"....a..........",
			"...............",
		}, 0, 2, false},
		{"defends the hill against one intruder", []string{
			"...............",
			"..a............",
			"..0..b.........",
			"..a............",
			"...............",
		}, 0, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, obs := scene(t, tc.rows...)
			got := moves(t, b, obs)
			var mine, theirs []int
			var myTo []int32
			for from, to := range got {
				mine = append(mine, b.w.idx(from))
				myTo = append(myTo, int32(b.w.idx(to)))
			}
			for _, u := range obs.Ants {
				if u.Owner != 0 {
					theirs = append(theirs, b.w.idx(u.Loc))
				}
			}
			kills, losses := worstReply(b, myTo, theirs)
			if kills-losses < tc.minNet || losses > tc.maxLosses {
				t.Fatalf("moves %v: after the enemy's worst reply %d kills, %d losses; want kills-losses at least %d, at most %d losses",
					got, kills, losses, tc.minNet, tc.maxLosses)
			}
			if tc.advance {
				closer := false
				for from, to := range got {
					for _, e := range theirs {
						if b.w.dist2(b.w.idx(to), e) < b.w.dist2(b.w.idx(from), e) {
							closer = true
						}
					}
				}
				if !closer {
					t.Fatalf("no ant advanced: %v", got)
				}
			}
		})
	}
}

// worstReply tries every move-set of the enemy ants at theirs against
// our ants ending at myTo and returns the kills and losses of the reply
// that is worst for us (most losses net of kills, then most losses).
func worstReply(b *Bot, myTo []int32, theirs []int) (kills, losses int) {
	w := b.w
	owner := make([]int, 0, len(myTo)+len(theirs))
	cands := make([][]int32, 0, len(myTo)+len(theirs))
	for _, t := range myTo {
		owner = append(owner, 0)
		cands = append(cands, []int32{t})
	}
	for _, e := range theirs {
		owner = append(owner, b.owner[e])
		cs := []int32{int32(e)}
		for d := range 4 {
			if t := int(w.nb[e][d]); b.passable(t) {
				cs = append(cs, int32(t))
			}
		}
		cands = append(cands, cs)
	}
	k := newSkirmish(w.rows, w.cols, b.p.AttackRadius2, len(myTo), owner, cands, 1<<20, true)
	our := make([]int8, len(myTo))
	en := make([]int8, len(theirs))
	kills, losses = 0, -1
	var try func(j int)
	try = func(j int) {
		if j == len(en) {
			k.resolve(our, en)
			ki, lo := 0, 0
			for i, d := range k.dead {
				switch {
				case d && i < len(myTo):
					lo++
				case d:
					ki++
				}
			}
			if lo-ki > losses-kills || (lo-ki == losses-kills && lo > losses) {
				kills, losses = ki, lo
			}
			return
		}
		for m := range k.sq[len(myTo)+j] {
			en[j] = int8(m)
			try(j + 1)
		}
	}
	try(0)
	return kills, losses
}

// BenchmarkCombatSearch is the search of the battles of one turn (12 of
// our ants against 10 in the open), from the simple plans to the settled
// move-set, without a clock.
func BenchmarkCombatSearch(b *testing.B) {
	rows := []string{
		"..........................",
		"......a.a.a...............",
		".....a.a.a.a..b.b.b.......",
		"......a.a.a....b.b........",
		".....a.a.a....b.b.b.......",
		"...............b.b........",
		"..........................",
	}
	bot, obs := scene(b, rows...)
	bot.Turn(obs, time.Time{})
	evals := 0
	for b.Loop() {
		bot.evals = 0
		bot.combat()
		evals += bot.evals
	}
	b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
	b.ReportMetric(float64(evals)/b.Elapsed().Seconds(), "evals/s")
}

// TestPhalanxFightsInGroups checks the group-fighting sample: alone
// against a group it falls back, with the larger group it advances.
func TestPhalanxFightsInGroups(t *testing.T) {
	cases := []struct {
		name    string
		rows    []string
		advance bool
	}{
		{"alone against three falls back", []string{
			"...............",
			"..........b....",
			".......a..b....",
			"..........b....",
			"...............",
		}, false},
		{"three against one advance", []string{
			"...............",
			"....a..........",
			"....a...b......",
			"....a..........",
			"...............",
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, obs := scene(t, tc.rows...)
			ph, err := NewSample("phalanx", 1)
			if err != nil {
				t.Fatal(err)
			}
			ph.Start(b.p)
			var enemies []int
			for _, u := range obs.Ants {
				if u.Owner != 0 {
					enemies = append(enemies, b.w.idx(u.Loc))
				}
			}
			closer, away := 0, 0
			for _, o := range ph.Turn(obs, time.Time{}) {
				from := b.w.idx(o.Loc)
				to := int(b.w.nb[from][strings.IndexByte("nesw", o.Dir)])
				switch d0, d1 := nearest2(b.w, from, enemies), nearest2(b.w, to, enemies); {
				case d1 < d0:
					closer++
				case d1 > d0:
					away++
				}
			}
			if tc.advance && (closer == 0 || away > 0) {
				t.Fatalf("%d ants closed in, %d fell back; want an advance", closer, away)
			}
			if !tc.advance && (closer > 0 || away == 0) {
				t.Fatalf("%d ants closed in, %d fell back; want a retreat", closer, away)
			}
		})
	}
}

// TestBestReply checks the exhaustive enemy reply on random small
// battles: its score is the least over every enemy move-set without two
// of the enemy's ants on one square (tried here by recursion), and never
// above what the ascent of respond finds from the enemy holding still.
func TestBestReply(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	beaten := 0
	for tc := range 200 {
		k := randomSkirmish(t, rng, 3, 4)
		our := make([]int8, k.nm)
		for i := range our {
			our[i] = int8(rng.IntN(len(k.sq[i])))
			if k.taken(our, 0, i, k.sq[i][our[i]]) {
				our[i] = 0
			}
		}
		low := math.Inf(1)
		eachReply(k, func(en []int8) { low = min(low, k.eval(our, en)) })
		reply, got := k.bestReply(our)
		if math.Abs(got-low) > 1e-9 {
			t.Fatalf("case %d: bestReply scores %.3f, the least over all replies is %.3f", tc, got, low)
		}
		if s := k.eval(our, reply); math.Abs(s-got) > 1e-9 {
			t.Fatalf("case %d: the reply returned scores %.3f, not the %.3f reported", tc, s, got)
		}
		_, ascent := k.respond(our, make([]int8, len(k.sq)-k.nm))
		if ascent < got-1e-9 {
			t.Fatalf("case %d: the ascent found %.3f, below the exhaustive %.3f", tc, ascent, got)
		}
		if ascent > got+1e-9 {
			beaten++
		}
	}
	t.Logf("the exhaustive reply beat the ascent in %d of 200 battles", beaten)
}

// TestMaxMin checks the exhaustive battle search on random small
// battles: the worst reply to its move-set is the best worst reply over
// all our move-sets (tried here by recursion), and no worse than the
// worst reply to the ascent's choice it starts from.
func TestMaxMin(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	better := 0
	for tc := range 150 {
		k := randomSkirmish(t, rng, 3, 3)
		ne := len(k.sq) - k.nm
		worst := func(our []int8) float64 {
			low := math.Inf(1)
			eachReply(k, func(en []int8) { low = min(low, k.eval(our, en)) })
			return low
		}
		want := math.Inf(-1)
		our := make([]int8, k.nm)
		var try func(i int)
		try = func(i int) {
			if i == k.nm {
				want = max(want, worst(our))
				return
			}
			for m := range k.sq[i] {
				our[i] = int8(m)
				if !k.taken(our[:i+1], 0, i, k.sq[i][m]) {
					try(i + 1)
				}
			}
		}
		try(0)
		var plans [][]int8
		for range 3 {
			p := make([]int8, k.nm)
			for i := range p {
				p[i] = int8(rng.IntN(len(k.sq[i])))
				if k.taken(p, 0, i, k.sq[i][p[i]]) {
					p[i] = 0
				}
			}
			plans = append(plans, p)
		}
		start := k.search(plans, [][]int8{make([]int8, ne)})
		got := k.maxMin(start)
		if g := worst(got); math.Abs(g-want) > 1e-9 {
			t.Fatalf("case %d: maxMin's move-set has worst reply %.3f, the best worst reply is %.3f", tc, g, want)
		}
		if worst(got) > worst(start)+1e-9 {
			better++
		}
	}
	t.Logf("the exhaustive search beat the ascent's worst case in %d of 150 battles", better)
}

// eachReply calls f with every enemy move-set of k in which no two of the
// enemy's ants share a square.
func eachReply(k *skirmish, f func(en []int8)) {
	en := make([]int8, len(k.sq)-k.nm)
	var try func(j int)
	try = func(j int) {
		if j == len(en) {
			f(en)
			return
		}
		for m := range k.sq[k.nm+j] {
			en[j] = int8(m)
			if !k.taken(en[:j+1], k.nm, k.nm+j, k.sq[k.nm+j][m]) {
				try(j + 1)
			}
		}
	}
	try(0)
}

// randomSkirmish is a battle of up to maxOurs of our ants against up to
// maxTheirs enemy ants, placed at random in the middle of a 12x12 map
// with scattered water, every ant with its stay and open steps as
// candidates, kills worth 0.9 of a loss.
func randomSkirmish(t *testing.T, rng *rand.Rand, maxOurs, maxTheirs int) *skirmish {
	const rows, cols = 12, 12
	for {
		grid := make([]string, rows)
		for r := range grid {
			line := []byte(strings.Repeat(".", cols))
			for c := range line {
				if rng.IntN(12) == 0 {
					line[c] = '%'
				}
			}
			grid[r] = string(line)
		}
		place := func(ch byte, n int) {
			for range n {
				r, c := 3+rng.IntN(6), 3+rng.IntN(6)
				if grid[r][c] == '.' {
					grid[r] = grid[r][:c] + string(ch) + grid[r][c+1:]
				}
			}
		}
		place('a', 1+rng.IntN(maxOurs))
		place('b', 1+rng.IntN(maxTheirs))
		b, obs := scene(t, grid...)
		b.Turn(obs, time.Time{})
		var mine, theirs []int
		for _, u := range obs.Ants {
			if u.Owner == 0 {
				mine = append(mine, b.w.idx(u.Loc))
			} else {
				theirs = append(theirs, b.w.idx(u.Loc))
			}
		}
		if len(mine) == 0 || len(theirs) == 0 {
			continue
		}
		var owner []int
		var cands [][]int32
		for i, sq := range append(mine, theirs...) {
			owner = append(owner, min(i/len(mine), 1))
			cs := []int32{int32(sq)}
			for d := range 4 {
				if t := int(b.w.nb[sq][d]); b.passable(t) {
					cs = append(cs, int32(t))
				}
			}
			cands = append(cands, cs)
		}
		k := newSkirmish(rows, cols, b.p.AttackRadius2, len(mine), owner, cands, 1<<20, true)
		k.killW = 0.9
		return k
	}
}

// TestRoom checks the ground score the run-away tie-break reads: a dead
// end scores below open ground, friends raise a square, enemies lower it.
func TestRoom(t *testing.T) {
	// room scores the square (r, c) of a corridor map whose second row
	// is row1.
	room := func(row1 string, r, c int) float64 {
		b, obs := scene(t,
			"%%%%%%%%%%%%%%%%%%",
			row1,
			"%.%%%%%..........%",
			"%................%",
			"%%%%%%%%%%%%%%%%%%",
		)
		b.Turn(obs, time.Time{})
		return b.room(b.w.idx(Loc{r, c}), -1)
	}
	const empty = "%.....%..........%"
	open := room(empty, 2, 11)
	if deadEnd := room(empty, 1, 2); deadEnd >= open {
		t.Fatalf("dead end %.0f, open ground %.0f: want the dead end lower", deadEnd, open)
	}
	if friend := room("%.....%...a......%", 2, 11); friend <= open {
		t.Fatalf("with a friend near %.0f, alone %.0f: want it higher", friend, open)
	}
	if foe := room("%.....%...b......%", 2, 11); foe >= open {
		t.Fatalf("with an enemy near %.0f, alone %.0f: want it lower", foe, open)
	}
}

// TestYieldAlone checks tuning.yieldAlone: a lone ant two enemy ants
// could reach next turn, with food behind them, backs away from them
// instead of holding at the edge of their reach as press would have it.
func TestYieldAlone(t *testing.T) {
	rows := []string{
		"..............................",
		"..............................",
		"..............................",
		"..............................",
		"..............................",
		"..........a...b..*............",
		"..............b...............",
		"..............................",
		"..............................",
		"..............................",
	}
	from, back := Loc{5, 10}, Loc{5, 9}
	for _, yield := range []int{0, 2} {
		b, obs := scene(t, rows...)
		b.tune.yieldAlone = yield
		got := moves(t, b, obs)[from]
		if yield > 0 && got != back {
			t.Errorf("yieldAlone %d: the ant goes to %v, want %v, away from both enemies", yield, got, back)
		}
		if yield == 0 && got == back {
			t.Errorf("without yieldAlone the ant backs away too (%v): the scene tests nothing", got)
		}
		t.Logf("yieldAlone %d: %v to %v", yield, from, got)
	}
}

func TestBattleFood(t *testing.T) {
	const rows, cols = 20, 20
	sq := func(r, c int32) int32 { return r*cols + c }
	food := sq(5, 7)
	cands := [][]int32{
		{sq(5, 5), sq(5, 6)}, // ours: stay, or step beside the food
		{sq(5, 9), sq(5, 8)}, // theirs: stay, or step beside it
	}
	k := newSkirmish(rows, cols, 5, 1, []int{0, 1}, cands, 100, false)
	k.setFood(0.5, func(s int32) []int32 {
		if s == sq(5, 6) || s == sq(5, 8) {
			return []int32{food}
		}
		return nil
	})
	tests := []struct {
		name     string
		our, en  int8
		wantFood float64
	}{
		{"both stay", 0, 0, 0},
		{"we gather", 1, 0, 1},
		{"they gather", 0, 1, -1},
		{"both beside it: they trade and nobody gathers", 1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			our, en := []int8{tt.our}, []int8{tt.en}
			k.resolve(our, en)
			if got := k.foodScore(our, en); got != tt.wantFood {
				t.Errorf("foodScore = %v, want %v", got, tt.wantFood)
			}
			withFood := k.eval(our, en)
			k.foodW = 0
			without := k.eval(our, en)
			k.foodW = 0.5
			if d := withFood - without; math.Abs(d-0.5*tt.wantFood) > 1e-9 {
				t.Errorf("eval moved by %v, want %v", d, 0.5*tt.wantFood)
			}
		})
	}
}

// TestKillRaze: two of ours facing two of the enemy's trade only next
// to the enemy's hill, and only with killRazeW above an even trade.
func TestKillRaze(t *testing.T) {
	tests := []struct {
		name      string
		row       string
		killRazeW float64
		closeIn   bool
	}{
		{"off, by the enemy's hill", "....a...b.1...................", 0, false},
		{"by the enemy's hill", "....a...b.1...................", 1.2, true},
		{"no hill near", "....a...b.....................", 1.2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := landRows(11, 30)
			rows[5] = tt.row
			rows[6] = strings.Replace(tt.row, "1", ".", 1)
			b, obs := scene(t, rows...)
			b.tune.killRazeW = tt.killRazeW
			m := moves(t, b, obs)
			closeIn := m[Loc{5, 4}] == Loc{5, 5} && m[Loc{6, 4}] == Loc{6, 5}
			if closeIn != tt.closeIn {
				t.Errorf("our ants go to %v and %v: closing in %v, want %v", m[Loc{5, 4}], m[Loc{6, 4}], closeIn, tt.closeIn)
			}
		})
	}
}
