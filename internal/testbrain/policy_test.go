package testbrain

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func mustBoard(t *testing.T, rows ...string) Board {
	t.Helper()
	b, err := ParseBoard(rows)
	if err != nil {
		t.Fatalf("ParseBoard: %v", err)
	}
	return b
}

func seeded(n uint64) *rand.Rand { return rand.New(rand.NewPCG(n, n^0x9e3779b97f4a7c15)) }

func TestParseBoard(t *testing.T) {
	b, err := ParseBoard([]string{"-x-#\r", "", "o--X", "   ", ""})
	if err != nil {
		t.Fatal(err)
	}
	if b.W != 4 || b.H != 2 {
		t.Fatalf("size %dx%d, want 4x2", b.W, b.H)
	}
	if got := string(b.Cells); got != "-x-#o--x" {
		t.Fatalf("cells %q", got)
	}
	if b.At(3, 0) != Blocked || b.At(0, 1) != O || b.At(-1, 0) != Blocked || b.At(4, 1) != Blocked {
		t.Fatal("At gives wrong squares")
	}
	if got := b.String(); got != "-x-#\no--x\n" {
		t.Fatalf("String %q", got)
	}
	for _, bad := range [][]string{nil, {"", "\r"}, {"---", "--"}, {"-a-"}, {"-.-"}} {
		if _, err := ParseBoard(bad); err == nil {
			t.Errorf("ParseBoard(%q) succeeded", bad)
		}
	}
}

func TestLineThroughAndFive(t *testing.T) {
	b := mustBoard(t,
		"xx-xx#",
		"-o----",
		"--o---",
		"---o--",
		"----o-",
		"------",
	)
	if n := b.LineThrough(2, 0, X); n != 5 {
		t.Errorf("LineThrough(2,0,x) = %d, want 5", n)
	}
	if n := b.LineThrough(5, 5, O); n != 5 {
		t.Errorf("LineThrough(5,5,o) = %d, want 5", n)
	}
	if n := b.LineThrough(0, 0, O); n != 5 {
		t.Errorf("LineThrough(0,0,o) = %d, want 5 (diagonal)", n)
	}
	if b.HasFive(X) || b.HasFive(O) {
		t.Error("HasFive on a board without fives")
	}
	b.Set(2, 0, X)
	if !b.HasFive(X) {
		t.Error("HasFive misses xxxxx")
	}
}

func TestRandomOnlyEmpty(t *testing.T) {
	b := mustBoard(t,
		"x#o-#",
		"#####",
		"o-x##",
		"ooxx#",
		"x#-#o",
	)
	rng := seeded(1)
	seen := map[[2]int]int{}
	for range 3000 {
		x, y, ok := Random(b, X, rng)
		if !ok {
			t.Fatal("Random found no move")
		}
		if b.At(x, y) != Empty {
			t.Fatalf("Random chose %d,%d holding %q", x, y, b.At(x, y))
		}
		seen[[2]int{x, y}]++
	}
	if len(seen) != 3 {
		t.Fatalf("Random used %d of the 3 empty squares: %v", len(seen), seen)
	}
	for sq, n := range seen {
		if n < 800 {
			t.Errorf("square %v chosen %d/3000 times; not uniform", sq, n)
		}
	}
}

func TestFullBoard(t *testing.T) {
	b := mustBoard(t, "xo#", "ox#", "#xo")
	if _, _, ok := Random(b, X, seeded(1)); ok {
		t.Error("Random found a move on a full board")
	}
	if _, _, ok := Greedy(b, X, seeded(1)); ok {
		t.Error("Greedy found a move on a full board")
	}
	if _, _, ok := Greedy(NewBoard(5, 5), '-', seeded(1)); ok {
		t.Error("Greedy accepted side '-'")
	}
}

func TestGreedyWins(t *testing.T) {
	// x to move wins at 5,0 (open four, either end) or 2,7 (gap);
	// o threatens five at 7,7 but the win comes first.
	b := mustBoard(t,
		"-xxxx-----",
		"----------",
		"----------",
		"-------o--",
		"-------o--",
		"-------o--",
		"-------o--",
		"xx-xx-----",
		"----------",
		"----------",
	)
	want := map[[2]int]bool{{0, 0}: true, {5, 0}: true, {2, 7}: true}
	got := map[[2]int]bool{}
	for i := range uint64(200) {
		x, y, ok := Greedy(b, X, seeded(i))
		if !ok || !want[[2]int{x, y}] {
			t.Fatalf("Greedy = %d,%d,%v; want one of %v", x, y, ok, want)
		}
		got[[2]int{x, y}] = true
	}
	if len(got) != len(want) {
		t.Errorf("Greedy used %v of the winning squares %v", got, want)
	}
}

func TestGreedyBlocks(t *testing.T) {
	// o to move cannot win; x threatens five only at 4,4 (diagonal).
	b := mustBoard(t,
		"x------",
		"-x-----",
		"--x----",
		"---x---",
		"-------",
		"------o",
		"oo-----",
	)
	for i := range uint64(50) {
		x, y, ok := Greedy(b, O, seeded(i))
		if !ok || x != 4 || y != 4 {
			t.Fatalf("Greedy = %d,%d,%v; want the block 4,4", x, y, ok)
		}
	}
}

func TestGreedyBlockedSquares(t *testing.T) {
	// A '#' at the end of a line does not stop a five: both 4,0 and 5,2
	// complete xxxxx.
	b := mustBoard(t,
		"xxxx-#",
		"#-----",
		"#xxxx-",
		"------",
		"-o-o--",
		"o-o-o-",
	)
	for i := range uint64(30) {
		x, y, ok := Greedy(b, X, seeded(i))
		if !ok {
			t.Fatal("no move")
		}
		if !(x == 4 && y == 0) && !(x == 5 && y == 2) {
			t.Fatalf("Greedy = %d,%d; want a win at 4,0 or 5,2", x, y)
		}
	}
	// A '#' inside the line: x x # x x never becomes five.
	b = mustBoard(t,
		"xx#xx-",
		"------",
		"------",
		"------",
		"------",
		"------",
	)
	for i := range uint64(30) {
		x, y, _ := Greedy(b, X, seeded(i))
		if b.LineThrough(x, y, X) != 3 {
			t.Fatalf("Greedy = %d,%d with line %d; want a square making three", x, y, b.LineThrough(x, y, X))
		}
	}
}

func TestGreedyPrefersNearStones(t *testing.T) {
	b := NewBoard(15, 15)
	b.Set(7, 7, O)
	for i := range uint64(50) {
		x, y, ok := Greedy(b, X, seeded(i))
		if !ok || x < 6 || x > 8 || y < 6 || y > 8 {
			t.Fatalf("Greedy = %d,%d,%v; want a neighbour of 7,7", x, y, ok)
		}
	}
	// Extending its own line beats merely being near a stone.
	b.Set(0, 0, X)
	b.Set(1, 0, X)
	for i := range uint64(50) {
		x, y, _ := Greedy(b, X, seeded(i))
		if b.LineThrough(x, y, X) != 3 {
			t.Fatalf("Greedy = %d,%d; want a square making three", x, y)
		}
	}
}

func TestGreedyPlaysAGame(t *testing.T) {
	// Two greedy players on a board with holes must keep playing legal moves
	// until someone wins or the board fills up.
	rows := make([]string, 12)
	for i := range rows {
		rows[i] = strings.Repeat("-", 12)
	}
	rows[5] = "-----##-----"
	b := mustBoard(t, rows...)
	rng := seeded(7)
	side := X
	for moves := 0; ; moves++ {
		x, y, ok := Greedy(b, side, rng)
		if !ok {
			if b.Count(Empty) != 0 {
				t.Fatal("Greedy gave up with empty squares left")
			}
			return
		}
		if b.At(x, y) != Empty {
			t.Fatalf("move %d: %d,%d is not empty", moves, x, y)
		}
		b.Set(x, y, side)
		if b.HasFive(side) {
			return
		}
		side = Opponent(side)
	}
}

func TestPolicyByName(t *testing.T) {
	for _, n := range []string{"random", "greedy"} {
		if _, ok := PolicyByName(n); !ok {
			t.Errorf("PolicyByName(%q) missing", n)
		}
	}
	if _, ok := PolicyByName("smart"); ok {
		t.Error("PolicyByName(smart) exists")
	}
	if _, _, ok := Random(NewBoard(5, 5), X, nil); !ok {
		t.Error("Random with nil rng failed")
	}
}
