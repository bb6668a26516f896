package khetbot

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/game/khet"
)

func board(t testing.TB, toMove khet.Color, pieces string) *khet.Board {
	t.Helper()
	var pp []khet.PlacedPiece
	for _, tok := range strings.Fields(pieces) {
		p, err := khet.ParsePiece(tok)
		if err != nil {
			t.Fatal(err)
		}
		pp = append(pp, p)
	}
	b, err := khet.NewBoard(pp, toMove, khet.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTactics: positions with one right answer.
func TestTactics(t *testing.T) {
	tests := []struct {
		name   string
		toMove khet.Color
		pieces string
		check  func(b *khet.Board, m khet.Move) bool
	}{
		{
			// Turning the pyramid on 3,0 sends Red's beam down column 3
			// onto Silver's Pharaoh.
			name: "hit the pharaoh", toMove: khet.Red,
			pieces: "R00X1 R50P2 R30Y1 S97X0 S37P0 S96Y0",
			check:  func(b *khet.Board, m khet.Move) bool { return wins(b, m) },
		},
		{
			// Silver's only piece in front of its Pharaoh must not step
			// aside: the beam from 9,7 would go up column 9 into it.
			name: "do not hit your own pharaoh", toMove: khet.Silver,
			pieces: "R00X2 R40P2 S97X0 S95Y2 S93P0 S85Y0",
			check: func(b *khet.Board, m khet.Move) bool {
				u := b.Make(m)
				defer b.Unmake(u)
				return !(u.Removed().IsPiece() && u.Removed().Kind() == khet.Pharaoh)
			},
		},
		{
			// Red threatens to turn 3,0 and hit Silver's Pharaoh on 3,7;
			// Silver must block or move away.
			name: "answer the threat", toMove: khet.Silver,
			pieces: "R00X1 R50P2 R30Y1 S97X3 S37P0 S27Y3 S47Y3",
			check: func(b *khet.Board, m khet.Move) bool {
				u := b.Make(m)
				defer b.Unmake(u)
				for _, r := range b.Moves(nil) {
					if wins(b, r) {
						return false
					}
				}
				return true
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := board(t, tc.toMove, tc.pieces)
			bad := 0
			for _, m := range b.Moves(nil) {
				if !tc.check(b, m) {
					bad++
				}
			}
			if bad == 0 || (tc.name == "hit the pharaoh" && bad == len(b.Moves(nil))) {
				t.Fatalf("the position does not test anything: %d wrong moves", bad)
			}
			e := NewEngine(4)
			res := e.Search(b, Limits{Depth: 4, Hard: 20 * time.Second})
			if b.Check(res.Move) != nil {
				t.Fatalf("illegal move %v", res.Move)
			}
			if !tc.check(b, res.Move) {
				t.Fatalf("played %v (score %d, depth %d, pv %v)\n%v", res.Move, res.Score, res.Depth, res.PV, b)
			}
		})
	}
}

// wins reports whether m's laser destroys the enemy Pharaoh.
func wins(b *khet.Board, m khet.Move) bool {
	me := b.ToMove()
	u := b.Make(m)
	defer b.Unmake(u)
	r := u.Removed()
	return r.IsPiece() && r.Kind() == khet.Pharaoh && r.Color() != me
}

// TestSearchLeavesBoard: the search puts the board back as it found it.
func TestSearchLeavesBoard(t *testing.T) {
	b, _ := khet.SetupBoard(khet.Classic, khet.Rules{})
	before := b.BoardString()
	h := b.Hash()
	res := NewEngine(4).Search(b, Limits{Depth: 3})
	if b.BoardString() != before || b.Hash() != h {
		t.Fatal("search changed the board")
	}
	if res.Depth != 3 || res.Nodes == 0 || len(res.PV) == 0 {
		t.Fatalf("result %+v", res)
	}
}

// TestTimeLimit: the search stops near its hard limit.
func TestTimeLimit(t *testing.T) {
	b, _ := khet.SetupBoard(khet.Classic, khet.Rules{})
	t0 := time.Now()
	res := NewEngine(4).Search(b, Limits{Soft: 50 * time.Millisecond, Hard: 100 * time.Millisecond})
	if took := time.Since(t0); took > 2*time.Second {
		t.Fatalf("took %v for a 100ms limit", took)
	}
	if b.Check(res.Move) != nil {
		t.Fatalf("illegal move %v", res.Move)
	}
}

// TestRunProtocol plays the protocol through in-memory pipes: greeting,
// a move for each R line, a status line with depth and nps, exit at E.
func TestRunProtocol(t *testing.T) {
	s, _ := khet.NewState(khet.DefaultConfig())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var status bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), inR, outW, Options{Name: "t", Depth: 2, Status: &status})
		outW.Close()
	}()
	lines := make(chan string)
	go func() {
		buf := make([]byte, 0, 64)
		one := make([]byte, 1)
		for {
			if _, err := outR.Read(one); err != nil {
				close(lines)
				return
			}
			if one[0] == '\n' {
				lines <- string(buf)
				buf = buf[:0]
				continue
			}
			buf = append(buf, one[0])
		}
	}()
	if got := <-lines; got != "play khet t" {
		t.Fatalf("greeting %q", got)
	}
	io.WriteString(inW, "B R "+s.String()+"\n")
	// Silver plays S23C, then the bot (Red) answers twice.
	for _, mv := range []string{"S23C", ""} {
		if mv == "" {
			mv = "S76C"
		}
		m, _ := khet.ParseMove(mv)
		if _, err := s.Play(m); err != nil {
			t.Fatal(err)
		}
		io.WriteString(inW, "R R "+s.String()+"\n")
		reply := <-lines
		m, err := khet.ParseMove(reply)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Play(m); err != nil {
			t.Fatalf("bot played %q: %v", reply, err)
		}
	}
	io.WriteString(inW, "E R dGM "+s.String()[2:]+"\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status.String(), "depth 2") || !strings.Contains(status.String(), "nps ") {
		t.Errorf("status lines: %q", status.String())
	}
}

// TestAlwaysLegal searches positions from random games with tiny and
// normal budgets: the answer is always a legal move.
func TestAlwaysLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	e := NewEngine(4)
	for g := range 6 {
		s, _ := khet.NewState(khet.Config{Setup: khet.Setups()[g%3], MaxPlies: 400, Repetition: 3})
		for !s.Over() {
			b := s.Board()
			for _, lim := range []Limits{{Hard: time.Nanosecond}, {Nodes: 1}, {Depth: 1}} {
				res := e.Search(b, lim)
				if err := b.Check(res.Move); err != nil {
					t.Fatalf("limits %+v: %v\n%v", lim, err, b)
				}
			}
			moves := b.Moves(nil)
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestOrderingWithoutPlaying: the move ordering, which plays only the
// moves that touch the mover's beam, ranks every move exactly as playing
// each one would, in positions along random games of every setup.
func TestOrderingWithoutPlaying(t *testing.T) {
	alongRandomGames(t, 11, 20, func(t *testing.T, e *Engine, b *khet.Board) {
		e.killers[0] = [2]khet.Move{}
		got := slices.Clone(e.ordered(b, 0, khet.Move{}))
		want := orderedByPlaying(e, b)
		if !slices.Equal(got, want) {
			t.Fatalf("ordered\n%v\nplaying every move orders\n%v\nin\n%v", got, want, b)
		}
	})
}

// alongRandomGames calls visit with a fresh engine's view of each
// position of games random games (up to 120 plies, or a Pharaoh's loss)
// of every setup, drawn from seed; the engine is kept through a game.
func alongRandomGames(t *testing.T, seed uint64, games int, visit func(t *testing.T, e *Engine, b *khet.Board)) {
	for _, setup := range khet.Setups() {
		t.Run(string(setup), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(setup)), seed))
			for range games {
				b, err := khet.SetupBoard(setup, khet.Rules{})
				if err != nil {
					t.Fatal(err)
				}
				e := NewEngine(1)
				for ply := 0; ply < 120 && b.PharaohAlive(khet.Silver) && b.PharaohAlive(khet.Red); ply++ {
					visit(t, e, b)
					moves := b.Moves(nil)
					b.Make(moves[rng.IntN(len(moves))])
				}
			}
		})
	}
}

// orderedByPlaying is ordered's ranking found by playing every move.
func orderedByPlaying(e *Engine, b *khet.Board) []khet.Move {
	me := b.ToMove()
	var moves []khet.Move
	var scores []int32
	for _, m := range b.Moves(nil) {
		if sameTurn(b, m) {
			continue
		}
		s := min(e.history[me][historyIndex(m)], orderKiller-1)
		u := b.Make(m)
		if r := u.Removed(); r.IsPiece() {
			s = captureOrder(r, me, s)
		}
		b.Unmake(u)
		i := len(scores)
		for i > 0 && scores[i-1] < s {
			i--
		}
		moves, scores = slices.Insert(moves, i, m), slices.Insert(scores, i, s)
	}
	return moves
}

// TestMaterialKept: the material and the Scarabs' squares the search
// keeps as it plays and takes back moves are, at every leaf, what a count
// of the board gives (the engine panics otherwise), along random games of
// every setup.
func TestMaterialKept(t *testing.T) {
	for _, setup := range khet.Setups() {
		t.Run(string(setup), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(setup)), 13))
			b, err := khet.SetupBoard(setup, khet.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			e := NewEngine(1)
			e.verify = true
			for ply := 0; ply < 60 && b.PharaohAlive(khet.Silver) && b.PharaohAlive(khet.Red); ply++ {
				e.Search(b, Limits{Depth: 3})
				moves := b.Moves(nil)
				b.Make(moves[rng.IntN(len(moves))])
			}
		})
	}
}

// TestSearchTreeKept pins the search's tree: the move, score and node
// count of a depth-4 search from positions along random games of every
// setup, as the search gave them before its speed-ups (the ordering
// without playing every move, the material kept, the picker), which must
// change nothing but the time. A change meant to change the search
// updates the table. The search is the one of that time
// (releaseBeforeQuiescence): the table pins the alpha-beta search that
// the later changes build on.
func TestSearchTreeKept(t *testing.T) {
	want := []struct {
		setup khet.Setup
		ply   int
		move  string
		score int
		nodes int64
	}{
		{"classic", 0, "S272", 0, 22506},
		{"classic", 8, "S947", 86, 24006},
		{"classic", 16, "S947", 90, 20630},
		{"imhotep", 0, "S358", 0, 20467},
		{"imhotep", 8, "S438", 200, 19066},
		{"imhotep", 16, "S457", -6, 16492},
		{"dynasty", 0, "S743", 0, 26401},
		{"dynasty", 8, "S430", -29999, 69},
		{"dynasty", 16, "S430", -29999, 65},
	}
	k := 0
	for _, setup := range khet.Setups() {
		rng := rand.New(rand.NewPCG(uint64(len(setup)), 17))
		b, err := khet.SetupBoard(setup, khet.Rules{})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 24; ply++ {
			if ply%8 == 0 {
				e := NewEngine(4)
				e.tune = releaseBeforeQuiescence()
				res := e.Search(b, Limits{Depth: 4})
				w := want[k]
				if w.setup != setup || w.ply != ply || res.Move.String() != w.move || res.Score != w.score || res.Nodes != w.nodes {
					t.Errorf("%s ply %d: %v score %d in %d nodes; want %s score %d in %d nodes", setup, ply, res.Move, res.Score, res.Nodes, w.move, w.score, w.nodes)
				}
				k++
			}
			moves := b.Moves(nil)
			b.Make(moves[rng.IntN(len(moves))])
		}
	}
}

// TestCaptures: the quiescence search's moves are every move that
// changes the mover's beam and takes an enemy piece, plus, when the beam
// hits an enemy piece as it stands, one move that leaves the beam alone
// and takes that piece; checked by playing every move in positions along
// random games of every setup.
func TestCaptures(t *testing.T) {
	standing := 0
	alongRandomGames(t, 19, 20, func(t *testing.T, e *Engine, b *khet.Board) {
		me := b.ToMove()
		beam, hit := e.beamOf(b, me)
		var want []khet.Move
		takes := map[khet.Move]bool{}
		for _, m := range b.Moves(nil) {
			if sameTurn(b, m) {
				continue
			}
			u := b.Make(m)
			r := u.Removed()
			b.Unmake(u)
			if r.IsPiece() && r.Color() != me {
				takes[m] = true
				if beam.touches(b, m) {
					want = append(want, m)
				}
			}
		}
		got := slices.Clone(e.captures(b, 0))
		var still []khet.Move
		for _, m := range got {
			if !takes[m] {
				t.Fatalf("%v takes nothing of the enemy's\n%v", m, b)
			}
			if !beam.touches(b, m) {
				still = append(still, m)
			}
		}
		wantStill := 0
		if hit.IsPiece() && hit.Color() != me && len(takes) > len(want) {
			wantStill = 1
			standing++
		}
		if len(still) != wantStill || len(got)-len(still) != len(want) {
			t.Fatalf("captures %v (%d leave the beam alone); want the %d that change the beam %v and %d more\n%v",
				got, len(still), len(want), want, wantStill, b)
		}
	})
	if standing == 0 {
		t.Fatal("no position had a beam on an enemy piece: the test saw nothing of that case")
	}
}

// TestExposure: the lines from a Pharaoh whose first piece is a mirror
// that can turn a beam onto him.
func TestExposure(t *testing.T) {
	const corners = "R00X2 S97X0 S44P0 "
	tests := []struct {
		name   string
		pieces string
		want   [2]int // Silver's mirrors, Red's
	}{
		{"nothing on his lines", "", [2]int{}},
		{"a Scarab on his row", "R74C0", [2]int{0, 1}},
		{"a Scarab of his own", "S14C1", [2]int{1, 0}},
		{"an Anubis first shields him", "S64A1 R74C0", [2]int{}},
		{"a Pyramid whose face looks down at him", "R41Y1", [2]int{0, 1}},
		{"a Pyramid whose other face looks down at him", "R41Y2", [2]int{0, 1}},
		{"a Pyramid with its back to him", "R41Y0", [2]int{}},
		{"a Pyramid turned away", "R41Y3", [2]int{}},
		{"two Scarabs and a Pyramid on three lines", "R74C0 S14C1 S46Y0", [2]int{2, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := board(t, khet.Silver, corners+tc.pieces)
			if got := exposure(b, 4, 4); got != tc.want {
				t.Errorf("exposure = %v, want %v\n%v", got, tc.want, b)
			}
		})
	}
}

// TestPickerOrder: a picker hands out moves in the order a stable sort by
// score (best first) gives, whether it chooses them one by one or sorts
// the rest after pickSelect of them; scores span the int32 range, with
// many ties.
func TestPickerOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 500 {
		n := rng.IntN(130)
		moves := make([]khet.Move, n)
		scores := make([]int32, n)
		for i := range moves {
			moves[i] = khet.Move{X: uint8(i % 10), Y: uint8(i / 10 % 8), Act: khet.Action(i / 80)}
			switch rng.IntN(3) {
			case 0:
				scores[i] = int32(rng.IntN(5)) - 2
			case 1:
				scores[i] = int32(rng.Uint32())
			default:
				scores[i] = []int32{orderTT, orderWin, orderLoss - 1, -1 << 31, 1<<31 - 1}[rng.IntN(5)]
			}
		}
		type pair struct {
			m khet.Move
			s int32
		}
		want := make([]pair, n)
		for i := range moves {
			want[i] = pair{moves[i], scores[i]}
		}
		slices.SortStableFunc(want, func(a, b pair) int { return int(int64(b.s) - int64(a.s)) })
		for _, buf := range []*sortBuf{nil, {}} {
			p := picker{moves: slices.Clone(moves), scores: slices.Clone(scores), buf: buf}
			for i := 0; ; i++ {
				m, ok := p.pick()
				if !ok {
					if i != n {
						t.Fatalf("trial %d: %d of %d moves handed out", trial, i, n)
					}
					break
				}
				if m != want[i].m || p.scores[i] != want[i].s {
					t.Fatalf("trial %d (sorting %v): move %d is %v score %d, want %v score %d", trial, buf != nil, i, m, p.scores[i], want[i].m, want[i].s)
				}
			}
		}
	}
}
