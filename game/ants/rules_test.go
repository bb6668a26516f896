package ants

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// scenario builds a game from map rows with --scenario (ants and food as
// drawn) and no food spawning, so each test controls the board.
func scenario(t *testing.T, players int, rows ...string) *State {
	t.Helper()
	text := fmt.Sprintf("rows %d\ncols %d\nplayers %d\n", len(rows), len(rows[0]), players)
	for _, r := range rows {
		text += "m " + r + "\n"
	}
	m, err := ParseMap(text)
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	opt.Scenario = true
	opt.Food = "none"
	opt.EngineSeed = 1
	st, err := NewState(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// turn plays one turn with the given orders per player.
func turn(t *testing.T, st *State, orders ...[]string) []MoveReport {
	t.Helper()
	st.StartTurn()
	var reps []MoveReport
	for p, o := range orders {
		reps = append(reps, st.DoMoves(p, o))
	}
	if err := st.FinishTurn(); err != nil {
		t.Fatal(err)
	}
	return reps
}

func antsAt(st *State) map[string]int {
	out := map[string]int{}
	for _, a := range st.currentAnts() {
		out[fmt.Sprintf("%d,%d", st.row(a.Loc), st.col(a.Loc))] = a.Owner
	}
	return out
}

func TestCollisions(t *testing.T) {
	cases := []struct {
		name   string
		rows   []string
		orders [][]string
		want   map[string]int
	}{
		{"two ants onto one square both die", []string{
			"0.........", "..........", "..a.a.....", "..........", "..........", "..........", "........1."},
			[][]string{{"o 2 2 e", "o 2 4 w"}},
			map[string]int{"0,0": 0, "6,8": 1}},
		{"an ant standing still dies when one moves onto it", []string{
			"0.........", "..........", "..aa......", "..........", "..........", "..........", "........1."},
			[][]string{{"o 2 2 e"}},
			map[string]int{"0,0": 0, "6,8": 1}},
		{"ants swapping squares pass through each other", []string{
			"0.........", "..........", "..aa......", "..........", "..........", "..........", "........1."},
			[][]string{{"o 2 2 e", "o 2 3 w"}},
			map[string]int{"0,0": 0, "2,2": 0, "2,3": 0, "6,8": 1}},
		{"enemies colliding both die", []string{
			"0.........", "..........", "..a.b.....", "..........", "..........", "..........", "........1."},
			[][]string{{"o 2 2 e"}, {"o 2 4 w"}},
			map[string]int{"0,0": 0, "6,8": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := scenario(t, 2, c.rows...)
			// hills are empty in these maps: the hill ants come from the map
			turn(t, st, c.orders...)
			got := antsAt(st)
			delete(got, "0,0")
			delete(got, "6,8")
			want := map[string]int{}
			for k, v := range c.want {
				if k != "0,0" && k != "6,8" {
					want[k] = v
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ants %v, want %v", got, want)
			}
		})
	}
}

// The examples of the official battle page (attackradius2 = 5).
func TestFocusBattle(t *testing.T) {
	cases := []struct {
		name    string
		players int
		rows    []string
		want    map[string]int
	}{
		{"one on one: both die", 2, []string{
			"0.........", "..........", "..a.b.....", "..........", ".........1"},
			map[string]int{}},
		{"two on one: the lone ant dies", 2, []string{
			"0.........", "..a.......", "..a.b.....", "..........", ".........1"},
			map[string]int{"1,2": 0, "2,2": 0}},
		{"sandwich: the middle ant dies", 3, []string{
			"0.........", "..........", "a.b.c.....", "..........", "1........2"},
			map[string]int{"2,0": 0, "2,4": 2}},
		{"two pairs: one of each dies", 2, []string{
			"0.........", "..........", "a.a.b.b...", "..........", ".........1"},
			map[string]int{"2,0": 0, "2,6": 1}},
		{"out of range: nobody dies", 2, []string{
			"0.........", "..........", "a....b....", "..........", ".........1"},
			map[string]int{"2,0": 0, "2,5": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := scenario(t, c.players, c.rows...)
			turn(t, st)
			if got := antsAt(st); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("ants %v, want %v", got, c.want)
			}
		})
	}
}

func TestRazeAndOneTimePenalty(t *testing.T) {
	st := scenario(t, 2,
		"0a........",
		"..........",
		"..........",
		"..........",
		"........1b")
	st.KillPlayer(1) // crashed: -1 for its hill at once
	if st.Score[1] != 0 {
		t.Fatalf("score after kill_player %v, want player 1 at 0", st.Score)
	}
	turn(t, st, []string{"o 0 1 w"})
	if st.Score[0] != 1 || st.Score[1] != 0 {
		t.Fatalf("no raze yet: %v", st.Score)
	}
	// walk player 0's ant to player 1's hill at (4,8): 4 rows down, 7 cols
	st2 := scenario(t, 2,
		"0.........",
		"..........",
		"..........",
		"........a.",
		"........1b")
	st2.opt.AttackRadius2 = 0 // no battle: this test is about razing
	turn(t, st2, []string{"o 3 8 s"}, []string{"o 4 9 n"})
	h := st2.hillOn(4*10 + 8)
	if h.KilledBy != 0 || h.EndTurn != 1 {
		t.Fatalf("hill %+v, want razed by 0 at turn 1", h)
	}
	if !reflect.DeepEqual(st2.Score, []int{3, 0}) {
		t.Fatalf("scores %v, want [3 0]: +2 for the razer, -1 for the owner", st2.Score)
	}
	// A razed hill is razed once: standing on it again changes nothing.
	turn(t, st2, nil, nil)
	if !reflect.DeepEqual(st2.Score, []int{3, 0}) {
		t.Fatalf("scores %v after staying on the razed hill", st2.Score)
	}
}

func TestSpawnAndGather(t *testing.T) {
	st := scenario(t, 2,
		"0..0......",
		"..........",
		"..a.......",
		"..*.......",
		".........1",
		"........b.")
	// the food at (3,2) is next to player 0's ant: gathered this turn
	turn(t, st, nil, nil)
	if st.hive[0] != 1 || st.AllFood[0].Owner != 0 || st.AllFood[0].EndTurn != 1 {
		t.Fatalf("hive %v food %+v, want the food gathered by 0 at turn 1", st.hive, st.AllFood[0])
	}
	// next turn the hive spawns one ant on a free hill
	before := len(st.AllAnts)
	turn(t, st, nil, nil)
	if len(st.AllAnts) != before+1 || st.hive[0] != 0 {
		t.Fatalf("no spawn: ants %d -> %d, hive %v", before, len(st.AllAnts), st.hive)
	}
	spawned := st.AllAnts[len(st.AllAnts)-1]
	if st.hillOn(spawned.Loc) == nil || spawned.SpawnTurn != 2 {
		t.Fatalf("spawned %+v, want on a hill at turn 2", spawned)
	}
}

func TestSpawnBlockedByOwnAnt(t *testing.T) {
	st := scenario(t, 2,
		"A.........",
		"..a.......",
		"..*.......",
		"..........",
		".........1",
		"........b.")
	st.opt.AttackRadius2 = 0 // the map is small: keep the far ants out of battles
	turn(t, st, nil, nil)    // gathers the food
	turn(t, st, nil, nil)    // hill occupied: no spawn
	if st.hive[0] != 1 {
		t.Fatalf("hive %v: an ant standing on the only hill blocks spawning", st.hive)
	}
	turn(t, st, []string{"o 0 0 e"}, nil)
	if st.hive[0] != 0 {
		t.Fatalf("hive %v: the hill was free again", st.hive)
	}
}

func TestContestedFoodIsDestroyed(t *testing.T) {
	st := scenario(t, 2,
		"0.........",
		"..........",
		"..a*b.....",
		"..........",
		".........1")
	st.opt.AttackRadius2 = 0 // keep both ants alive to see the food go
	turn(t, st, nil, nil)
	f := st.AllFood[0]
	if f.EndTurn != 1 || f.Owner != -1 || st.hive[0]+st.hive[1] != 0 {
		t.Fatalf("food %+v hive %v, want destroyed without owner", f, st.hive)
	}
}

func TestCutoffFoodNotGathered(t *testing.T) {
	rows := []string{"0a..........", "............", "************", "************", "************", "............", "......1b...."}
	st := scenario(t, 2, rows...)
	st.opt.AttackRadius2 = 0
	st.opt.CutoffTurn = 3
	for i := 0; i < 3; i++ {
		if st.GameOver() {
			t.Fatalf("over too early at turn %d: %s", st.Turn, st.Cutoff)
		}
		turn(t, st, nil, nil)
	}
	if !st.GameOver() || st.Cutoff != "food not being gathered" {
		t.Fatalf("cutoff %q after 3 turns of food dominance", st.Cutoff)
	}
}

func TestRankStabilizedAndLoneSurvivorBonus(t *testing.T) {
	st := scenario(t, 3,
		"0a........",
		"..........",
		"1b........",
		"..........",
		"2c........")
	if st.isRankStabilized() {
		t.Fatal("equal scores with hills standing: not stabilized")
	}
	// Players 1 and 2 crash: -1 each, and only player 0 is alive.
	st.KillPlayer(1)
	st.KillPlayer(2)
	if !st.GameOver() || st.Cutoff != "lone survivor" {
		t.Fatalf("cutoff %q, want lone survivor", st.Cutoff)
	}
	st.FinishGame()
	if !reflect.DeepEqual(st.Bonus, []int{4, 0, 0}) || !reflect.DeepEqual(st.Score, []int{5, 0, 0}) {
		t.Fatalf("bonus %v score %v, want [4 0 0] and [5 0 0]", st.Bonus, st.Score)
	}
	if !reflect.DeepEqual(Rank(st.Score), []int{0, 1, 1}) {
		t.Fatalf("rank %v", Rank(st.Score))
	}
}

func TestRankStabilizedWhenNobodyCanCatchUp(t *testing.T) {
	st := scenario(t, 2,
		"0a........",
		"..........",
		"..........",
		"..........",
		"1b........")
	st.Score = []int{5, 1}
	if !st.isRankStabilized() {
		t.Fatal("player 1 can reach 3 at most, player 0 keeps 4 at least: stabilized")
	}
}

func TestFogOfWarAndRenumbering(t *testing.T) {
	// Player 0 at the left sees player 2 (right next to it) but not player 1
	// (far away): player 2 becomes its enemy number 1.
	row := func(s string) string { return s + strings.Repeat(".", 40-len(s)) }
	st := scenario(t, 3,
		row("0a.c2"),
		row(""),
		row("%"),
		row(""),
		row(""),
		row(""),
		row(""),
		row(""),
		row(""),
		row(""),
		row(""),
		row("....................1b"),
	)
	text := st.PlayerState(0)
	if !strings.Contains(text, "a 0 3 1\n") || !strings.Contains(text, "h 0 4 1\n") {
		t.Fatalf("player 0 state:\n%s", text)
	}
	if strings.Contains(text, "a 11 21") {
		t.Fatalf("player 0 sees an ant outside its view:\n%s", text)
	}
	if !strings.HasPrefix(text, "w 2 0\n") {
		t.Fatalf("water not sent first:\n%s", text)
	}
	st.StartTurn()
	if err := st.FinishTurn(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(st.PlayerState(0), "w 2 0") {
		t.Fatal("water is sent only once")
	}
	// Player 1 has seen nobody: the end message shows None for the others.
	got := st.OrderForPlayer(1, []string{"s0", "s1", "s2"})
	if !reflect.DeepEqual(got, []string{"s1", "None", "None"}) {
		t.Fatalf("order_for_player(1) = %v", got)
	}
}

func TestOrderJudgement(t *testing.T) {
	st := scenario(t, 2,
		"0a%.......",
		"..*.......",
		"..a.......",
		"..........",
		".........1",
		"........b.")
	st.StartTurn()
	rep := st.DoMoves(0, []string{
		"O 0 1 S", "o 0 1 e", "o 0 1 n", "o 2 2 n", "x 1 1 n", "o 1 1", "o a 1 n", "o 2 2 q",
		"o 5 8 n", "o 99 1 n", "o -6 1 n", "# comment", "", "o 2 2 s",
	})
	want := MoveReport{
		Valid:   []string{"o 0 1 s", "o 2 2 s"},
		Ignored: []string{"o 2 2 n # move blocked"},
		Invalid: []string{
			"x 1 1 n # unknown action", "o 1 1 # incorrectly formatted order", "o a 1 n # invalid row or col",
			"o 2 2 q # invalid direction", "o 0 1 e # duplicate order", "o 0 1 n # duplicate order", "o 5 8 n # not player ant",
			"o 99 1 n # out of bounds", "o -6 1 n # out of bounds",
		},
	}
	if !reflect.DeepEqual(rep, want) {
		t.Fatalf("got  %#v\nwant %#v", rep, want)
	}
}

// Spawning goes to the least recently touched hill first; ties are broken
// by one random() per hill, drawn whether or not anything spawns.
func TestSpawnOrderLeastRecentlyTouched(t *testing.T) {
	st := scenario(t, 2,
		"0....0....",
		"..........",
		"..........",
		"..........",
		".........1",
		"........b.")
	st.Hills[0].LastTouched = 3
	st.Hills[1].LastTouched = 1
	st.hive[0] = 1
	turn(t, st, nil, nil)
	last := st.AllAnts[len(st.AllAnts)-1]
	if last.Owner != 0 || last.Loc != 5 {
		t.Fatalf("spawned at %d, want the hill touched longest ago (square 5)", last.Loc)
	}
	if st.Hills[1].LastTouched != 1 {
		t.Fatalf("last_touched %d, want the spawn turn 1", st.Hills[1].LastTouched)
	}
}

// Spawning draws random() for every standing hill of every player each
// turn, in hill order: two games that differ only in the hive draw the
// same numbers.
func TestSpawnDrawsOneRandomPerHill(t *testing.T) {
	a := scenario(t, 2, "0....0....", "..........", "..........", ".........1", "........b.")
	b := scenario(t, 2, "0....0....", "..........", "..........", ".........1", "........b.")
	b.hive[0] = 1
	turn(t, a, nil, nil)
	turn(t, b, nil, nil)
	if x, y := a.rng.Random(), b.rng.Random(); x != y {
		t.Fatalf("generators diverged: %v vs %v", x, y)
	}
}

// TestEnemyNear checks doAttackFocus' quick look at the map against
// nearbyAnts on random boards: for every square far enough from the
// edges and every owner, it finds an enemy exactly when nearbyAnts lists
// one.
func TestEnemyNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, max2 := range []int{1, 2, 4, 5, 8, 9, 10, 13, 15} {
		for trial := 0; trial < 20; trial++ {
			rows, cols := 7+rng.IntN(12), 10+rng.IntN(12)
			players := 2 + rng.IntN(8)
			lines := make([]string, rows)
			for r := range lines {
				b := make([]byte, cols)
				for c := range b {
					switch x := rng.IntN(10); {
					case x < 3:
						b[c] = byte('a' + rng.IntN(players))
					case x < 4:
						b[c] = '%'
					case x < 5:
						b[c] = '*'
					default:
						b[c] = '.'
					}
				}
				lines[r] = string(b)
			}
			for p := 0; p < players; p++ { // a hill each, on the first row
				lines[0] = lines[0][:p] + string(byte('0'+p)) + lines[0][p+1:]
			}
			st := scenario(t, players, lines...)
			scan := st.newEnemyScan(max2)
			if scan.spans == nil {
				t.Fatalf("max2 %d: no scan", max2)
			}
			for loc := range st.grid {
				if !st.inner(loc, scan.reach) {
					continue
				}
				for owner := 0; owner < players; owner++ {
					want := len(st.nearbyAnts(loc, max2, owner, nil)) > 0
					if st.grid[loc] >= 0 && int(st.grid[loc]) != owner {
						continue // enemyNear is asked only about an ant's own square
					}
					if got := st.enemyNear(scan, loc, owner); got != want {
						t.Fatalf("max2 %d, %dx%d, square %d, owner %d: enemyNear %v, nearbyAnts %v\n%s",
							max2, rows, cols, loc, owner, got, want, strings.Join(lines, "\n"))
					}
				}
			}
		}
	}
	if scan := (&State{Cols: 20}).newEnemyScan(16); scan.spans != nil {
		t.Fatal("a radius of 4 squares cannot be read a word per row")
	}
}

// TestRecipBelow16 checks row's multiply against the division for every
// square index below 2^16 and every width up to 1000.
func TestRecipBelow16(t *testing.T) {
	for d := 1; d <= 1000; d++ {
		m := recipBelow16(d)
		for n := 0; n < 1<<16; n++ {
			if got := int(uint64(n) * m >> 32); got != n/d {
				t.Fatalf("%d / %d: got %d", n, d, got)
			}
		}
	}
}

// TestHugeMapRefused: state lines are built in 16 bytes, which holds row
// and column numbers below 100000.
func TestHugeMapRefused(t *testing.T) {
	for _, cols := range []int{99999, 100000} {
		text := fmt.Sprintf("rows 1\ncols %d\nplayers 2\nm 0%s1\n", cols, strings.Repeat(".", cols-2))
		m, err := ParseMap(text)
		if err != nil {
			t.Fatal(err)
		}
		opt := DefaultOptions()
		opt.Food = "none"
		st, err := NewState(m, opt)
		if (err != nil) != (cols >= 100000) {
			t.Fatalf("%d columns: %v", cols, err)
		}
		if st != nil {
			want := "h 0 99998 1\n"
			if got := st.FullState(); !strings.Contains(got, want) {
				t.Fatalf("%d columns: state %q lacks %q", cols, got, want)
			}
		}
	}
}
