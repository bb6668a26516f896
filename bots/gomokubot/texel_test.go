package gomokubot

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/game/gomoku"
)

// Texel tuning of the evaluation weights (pattern.go's weights and
// tuning.oppPct), in two steps that run only when asked:
//
//   - TestTexelGen plays fast self-play games of the current brain (a fixed
//     node budget a move, so the games do not depend on the machine) from
//     varied openings, and writes them to a file, one game a line.
//   - TestTexelFit replays those games, keeps the quiet positions (no four
//     on the board, no open three), labels each with its game's result for
//     the side to move, fits the logistic scale K of the static evaluation
//     and then the weights, minimising the logistic loss by coordinate
//     descent on the games with index%5 != 4; the others are held out to
//     check for overfitting.
//
// The evaluation is linear in the weights once oppPct is fixed: the sum of
// a colour is the weight of each line pattern times how often it occurs
// on the empty squares (per direction) plus each level's bonus times how
// many squares have that level (texelFeatures; TestTexelFeatures checks
// the decomposition against Engine.evaluate).
//
// The first fit (texelWeights, the texel variant of TestSPRT) predicts
// results better but plays worse than the defaults; see doc.go.

// texelGame is one self-play game: its moves, how many of them were the
// opening's, and the winner (gomoku.Empty: a draw).
type texelGame struct {
	opening int
	moves   []gomoku.Point
	winner  gomoku.Stone
}

// String writes g as one line: the winner (B, W or D), the number of
// opening stones and the moves as x,y.
func (g texelGame) String() string {
	var b strings.Builder
	switch g.winner {
	case gomoku.Black:
		b.WriteString("B")
	case gomoku.White:
		b.WriteString("W")
	default:
		b.WriteString("D")
	}
	fmt.Fprintf(&b, " %d", g.opening)
	for _, p := range g.moves {
		fmt.Fprintf(&b, " %d,%d", p.X, p.Y)
	}
	return b.String()
}

// parseTexelGame reads a line written by texelGame.String for a 15x15
// board.
func parseTexelGame(line string) (texelGame, error) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return texelGame{}, fmt.Errorf("game %q: want a result, an opening length and moves", line)
	}
	var g texelGame
	switch f[0] {
	case "B":
		g.winner = gomoku.Black
	case "W":
		g.winner = gomoku.White
	case "D":
		g.winner = gomoku.Empty
	default:
		return texelGame{}, fmt.Errorf("game result %q is not B, W or D", f[0])
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 0 || n > len(f)-2 {
		return texelGame{}, fmt.Errorf("opening length %q: not in 0..%d", f[1], len(f)-2)
	}
	g.opening = n
	for _, m := range f[2:] {
		xs, ys, ok := strings.Cut(m, ",")
		x, errX := strconv.Atoi(xs)
		y, errY := strconv.Atoi(ys)
		if !ok || errX != nil || errY != nil || x < 0 || y < 0 || x >= 15 || y >= 15 {
			return texelGame{}, fmt.Errorf("move %q is not x,y on a 15x15 board", m)
		}
		g.moves = append(g.moves, gomoku.Point{X: x, Y: y})
	}
	return g, nil
}

// texelOpening returns the i-th opening of seed: even ones are balanced
// openings (balancedOpening, numbered far from the ones TestSPRT plays),
// odd ones three to six random stones in the centre 9x9.
func texelOpening(t *testing.T, seed uint64, i int) []gomoku.Point {
	if i%2 == 0 {
		return balancedOpening(t, 10000*int(seed)+i/2)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	r := newReferee(15, 15, gomoku.Freestyle)
	for n := 3 + rng.IntN(4); len(r.history) < n; {
		p := gomoku.Point{X: 3 + rng.IntN(9), Y: 3 + rng.IntN(9)}
		if r.empty(p) {
			if err := r.play(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r.history
}

// texelSelfPlay plays the default brain against itself from opening at
// nodes a move on 15x15 freestyle.
func texelSelfPlay(t testing.TB, opening []gomoku.Point, nodes int64) texelGame {
	r := newReferee(15, 15, gomoku.Freestyle)
	for _, p := range opening {
		if err := r.play(p); err != nil {
			t.Fatal(err)
		}
	}
	mk := func() *enginePlayer {
		p := newEnginePlayer(t, r, time.Minute, 0)
		p.e.MaxNodes = nodes
		return p
	}
	playGame(t, r, mk(), mk(), 15*15)
	return texelGame{opening: len(opening), moves: r.history, winner: r.winner}
}

// texelGenerate plays games 0..n-1 of seed on workers goroutines and
// returns them in order.
func texelGenerate(t *testing.T, seed uint64, n int, nodes int64, workers int) []texelGame {
	games := make([]texelGame, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				games[i] = texelSelfPlay(t, texelOpening(t, seed, i), nodes)
			}
		})
	}
	start := time.Now()
	for i := range n {
		next <- i
		if i%100 == 99 {
			t.Logf("%d games started (%v)", i+1, time.Since(start).Round(time.Second))
		}
	}
	close(next)
	wg.Wait()
	return games
}

// TestTexelGen writes GOMOKU_TEXEL_GEN self-play games to the file
// GOMOKU_TEXEL_FILE, at GOMOKU_TEXEL_NODES nodes a move (default 4000),
// from the openings of GOMOKU_TEXEL_SEED (default 1), two at a time:
//
//	GOMOKU_TEXEL_GEN=2000 GOMOKU_TEXEL_FILE=/tmp/texel.txt go test -run TestTexelGen -v -timeout 2h ./bots/gomokubot/
func TestTexelGen(t *testing.T) {
	n := envInt("GOMOKU_TEXEL_GEN", 0)
	if n == 0 {
		t.Skip("set GOMOKU_TEXEL_GEN=<games> and GOMOKU_TEXEL_FILE=<path> to generate Texel games")
	}
	path := os.Getenv("GOMOKU_TEXEL_FILE")
	if path == "" {
		t.Fatal("GOMOKU_TEXEL_FILE must name the file to write")
	}
	seed := uint64(envInt("GOMOKU_TEXEL_SEED", 1))
	games := texelGenerate(t, seed, n, int64(envInt("GOMOKU_TEXEL_NODES", 4000)), 2)
	var b strings.Builder
	var wdl [3]int
	for _, g := range games {
		b.WriteString(g.String())
		b.WriteByte('\n')
		wdl[g.winner]++
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games written to %s: Black won %d, White %d, %d draws", n, path, wdl[gomoku.Black], wdl[gomoku.White], wdl[gomoku.Empty])
}

// readTexelGames reads a file written by TestTexelGen.
func readTexelGames(path string) ([]texelGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("texel games: %w", err)
	}
	defer f.Close()
	var out []texelGame
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		g, err := parseTexelGame(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("texel games %s: %w", path, err)
	}
	return out, nil
}

// nParam is the number of evaluation weights: one per line pattern, then
// one bonus per threat level.
const nParam = int(nPat) + int(nLevel)

// texelPos is one labelled position: the weight counts of the side to
// move and of the opponent, the evaluation that does not depend on the
// weights, the result for the side to move (1, 0.5, 0) and whether it is
// held out.
type texelPos struct {
	me, opp [nParam]float64
	fixed   float64
	y       float64
	test    bool
}

// texelFeatures returns how often each weight counts in colour c's sum:
// line patterns per empty square and direction, levels per empty square.
func texelFeatures(e *Engine, c uint8) [nParam]float64 {
	var f [nParam]float64
	for _, i := range e.real {
		if e.cells[i] != cEmpty {
			continue
		}
		k := e.pat[i][c-1]
		for d := 0; d < 4; d++ {
			f[k>>(4*d)&0xF]++
		}
		f[int(nPat)+int(e.comb[k].level)]++
	}
	return f
}

// texelQuiet reports whether the position is quiet for me to move:
// nobody has a four on the board (a square that makes five) and nobody an
// open three (a square that makes an open four or two fours), and me
// cannot make a four and an open three at once.
func texelQuiet(e *Engine, me uint8) bool {
	return e.cnt[0][lvFive]+e.cnt[1][lvFive] == 0 &&
		e.cnt[0][lvFlex4]+e.cnt[1][lvFlex4] == 0 &&
		e.cnt[me-1][lv43] == 0
}

// texelPositions replays games and returns their quiet positions after
// the opening; games with index%5 == 4 are held out.
func texelPositions(t testing.TB, games []texelGame) []texelPos {
	var out []texelPos
	for gi, g := range games {
		e := NewEngine(15, 15, gomoku.Freestyle)
		s := gomoku.Black
		for k, p := range g.moves {
			if k >= g.opening {
				me := uint8(s)
				if texelQuiet(e, me) {
					y := 0.5
					switch g.winner {
					case s:
						y = 1
					case s.Opponent():
						y = 0
					}
					out = append(out, texelPos{
						me: texelFeatures(e, me), opp: texelFeatures(e, 3-me),
						fixed: float64(e.threatBonus(me)), y: y, test: gi%5 == 4,
					})
				}
			}
			if err := e.Place(p, s); err != nil {
				t.Fatalf("game %d move %d: %v", gi, k, err)
			}
			s = s.Opponent()
		}
	}
	return out
}

// texelParams are the values being fitted.
type texelParams struct {
	w   [nParam]float64
	opp float64 // tuning.oppPct
}

func paramsOf(w weights, oppPct int32) texelParams {
	var p texelParams
	for i := range nPat {
		p.w[i] = float64(w.pat[i])
	}
	for i := range nLevel {
		p.w[int(nPat)+int(i)] = float64(w.bonus[i])
	}
	p.opp = float64(oppPct)
	return p
}

// weights returns p rounded to the engine's weights and oppPct.
func (p texelParams) weights() (weights, int32) {
	var w weights
	for i := range nPat {
		w.pat[i] = int32(math.Round(p.w[i]))
	}
	for i := range nLevel {
		w.bonus[i] = int32(math.Round(p.w[int(nPat)+int(i)]))
	}
	return w, int32(math.Round(p.opp))
}

// eval is the static evaluation of pos under p.
func (p *texelParams) eval(pos *texelPos) float64 {
	var a, b float64
	for i, w := range p.w {
		a += w * pos.me[i]
		b += w * pos.opp[i]
	}
	return a - p.opp/100*b + pos.fixed
}

// texelLoss is the mean logistic loss of the positions with test == held
// under p with scale k: the result predicted as 1/(1+exp(-k*eval)).
func texelLoss(ps []texelPos, p *texelParams, k float64, held bool) float64 {
	sum, n := 0.0, 0
	for i := range ps {
		pos := &ps[i]
		if pos.test != held {
			continue
		}
		z := k * p.eval(pos)
		// -log σ(z) = log(1+e^-z), computed without overflow.
		sp := func(x float64) float64 { return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }
		sum += pos.y*sp(-z) + (1-pos.y)*sp(z)
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// fitK finds the scale that minimises the training loss under p, by a
// golden-section search over log10 k in [-6, -1].
func fitK(ps []texelPos, p *texelParams) float64 {
	f := func(x float64) float64 { return texelLoss(ps, p, math.Pow(10, x), false) }
	a, b := -6.0, -1.0
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for b-a > 1e-4 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return math.Pow(10, (a+b)/2)
}

// texelFree lists the weights the fit may change: the patterns and
// levels that occur in quiet positions (a five, an open four and the
// levels made of them do not, so they keep their values), and -1 for
// oppPct.
var texelFree = []int{
	int(pB1), int(pF1), int(pB2), int(pF2), int(pB3), int(pF3), int(pB4),
	int(nPat) + int(lv33), int(nPat) + int(lv43), -1,
}

// texelOrder is the order the line patterns' weights must keep: a
// pattern closer to five is worth at least as much.
var texelOrder = []uint8{pB1, pF1, pB2, pF2, pB3, pF3, pB4}

// valid reports whether p keeps the weights non-negative, the patterns
// in texelOrder and oppPct in 0..100.
func (p *texelParams) valid() bool {
	if p.opp < 0 || p.opp > 100 {
		return false
	}
	for _, i := range texelFree {
		if i >= 0 && p.w[i] < 0 {
			return false
		}
	}
	for k := 1; k < len(texelOrder); k++ {
		if p.w[texelOrder[k]] < p.w[texelOrder[k-1]] {
			return false
		}
	}
	return true
}

// scaleUnseen multiplies the weights the fit cannot see of the open four
// and its level by how much the four's weight grew from def, if it grew,
// so that they stay above the patterns that were fitted. (Fives are
// found before any ordering or evaluation looks at them.)
func (p *texelParams) scaleUnseen(def texelParams) {
	r := p.w[pB4] / def.w[pB4]
	if r <= 1 {
		return
	}
	for _, i := range []int{int(pF4), int(nPat) + int(lvFlex4)} {
		p.w[i] = math.Round(def.w[i] * r)
	}
}

// fitWeights improves p by coordinate descent on integer values: each
// free value in turn moves up or down by a step (a share of its size, at
// least 1) while the training loss falls and p stays valid; the share
// halves from 1/4 to under 1/100. logf reports each round. It returns
// the values at the end of the round with the lowest held-out loss (the
// held-out positions stop the descent when it starts to overfit).
func fitWeights(ps []texelPos, p texelParams, k float64, logf func(string, ...any)) texelParams {
	get := func(p *texelParams, i int) *float64 {
		if i < 0 {
			return &p.opp
		}
		return &p.w[i]
	}
	best := texelLoss(ps, &p, k, false)
	kept, keptLoss := p, texelLoss(ps, &p, k, true)
	for share := 0.25; share >= 0.01; share /= 2 {
		for improved := true; improved; {
			improved = false
			for _, i := range texelFree {
				v := get(&p, i)
				step := max(1, math.Round(math.Abs(*v)*share))
				for _, dir := range []float64{1, -1} {
					for {
						old := *v
						*v = old + dir*step
						if !p.valid() {
							*v = old
							break
						}
						l := texelLoss(ps, &p, k, false)
						if l >= best {
							*v = old
							break
						}
						best, improved = l, true
					}
				}
			}
		}
		held := texelLoss(ps, &p, k, true)
		logf("step %.3f: train loss %.5f, held-out %.5f, %v", share, best, held, p)
		if held < keptLoss {
			kept, keptLoss = p, held
		}
	}
	return kept
}

// String lists the fitted values by name.
func (p texelParams) String() string {
	names := map[int]string{
		int(pB1): "B1", int(pF1): "F1", int(pB2): "B2", int(pF2): "F2", int(pB3): "B3", int(pF3): "F3", int(pB4): "B4",
		int(pF4): "F4", int(pF5): "F5", int(nPat) + int(lv33): "33", int(nPat) + int(lv43): "43",
		int(nPat) + int(lvFlex4): "flex4", int(nPat) + int(lvFive): "five",
	}
	var b strings.Builder
	for i := range nParam {
		if n, ok := names[i]; ok {
			fmt.Fprintf(&b, "%s=%.0f ", n, p.w[i])
		}
	}
	fmt.Fprintf(&b, "opp=%.0f%%", p.opp)
	return b.String()
}

// TestTexelFit fits the weights to the games in the file GOMOKU_TEXEL_FIT
// (written by TestTexelGen) and logs them with the losses before and
// after, on the training and the held-out positions:
//
//	GOMOKU_TEXEL_FIT=/tmp/texel.txt go test -run TestTexelFit -v ./bots/gomokubot/
func TestTexelFit(t *testing.T) {
	path := os.Getenv("GOMOKU_TEXEL_FIT")
	if path == "" {
		t.Skip("set GOMOKU_TEXEL_FIT=<games file> to fit the evaluation weights")
	}
	games, err := readTexelGames(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := texelPositions(t, games)
	var present [nParam]int
	test := 0
	for i := range ps {
		if ps[i].test {
			test++
		}
		for j := range nParam {
			if ps[i].me[j]+ps[i].opp[j] > 0 {
				present[j]++
			}
		}
	}
	t.Logf("%d games, %d quiet positions (%d held out); positions where each weight counts: %v", len(games), len(ps), test, present)
	p0 := paramsOf(defaultWeights(), defaultTuning().oppPct)
	k := fitK(ps, &p0)
	t.Logf("K = %.6g; default weights: train loss %.5f, held-out %.5f", k, texelLoss(ps, &p0, k, false), texelLoss(ps, &p0, k, true))
	p := fitWeights(ps, p0, k, t.Logf)
	p.scaleUnseen(p0)
	w, opp := p.weights()
	t.Logf("fitted: train loss %.5f, held-out %.5f (K refitted for them: %.6g)", texelLoss(ps, &p, k, false), texelLoss(ps, &p, k, true), fitK(ps, &p))
	t.Logf("weights: pat %v bonus %v oppPct %d", w.pat, w.bonus, opp)
	var half texelParams
	for i := range half.w {
		half.w[i] = math.Trunc((p0.w[i] + p.w[i]) / 2)
	}
	half.opp = math.Round((p0.opp + p.opp) / 2)
	t.Logf("half way from the defaults: train loss %.5f, held-out %.5f", texelLoss(ps, &half, k, false), texelLoss(ps, &half, k, true))
}

// TestTexelFeatures checks the decomposition the fit relies on: in the
// positions of two short self-play games, the evaluation computed from the
// weight counts equals Engine.evaluate, for the default weights and for
// changed ones, and a game survives its file format.
func TestTexelFeatures(t *testing.T) {
	// Odd openings are random stones: no search to balance them.
	games := []texelGame{texelSelfPlay(t, texelOpening(t, 7, 1), 500), texelSelfPlay(t, texelOpening(t, 7, 3), 500)}
	other := defaultWeights()
	for i := range other.pat {
		other.pat[i] = other.pat[i]*3/2 + int32(i)
	}
	for i := range other.bonus {
		other.bonus[i] += 10 * int32(i)
	}
	checked := 0
	for gi, g := range games {
		back, err := parseTexelGame(g.String())
		if err != nil || back.String() != g.String() {
			t.Fatalf("game %d: %q read back as %q (%v)", gi, g.String(), back.String(), err)
		}
		for _, c := range []struct {
			w   weights
			opp int32
		}{{defaultWeights(), 65}, {other, 80}} {
			e := NewEngine(15, 15, gomoku.Freestyle)
			e.comb = buildComb(c.w)
			e.rebuild()
			e.tune.oppPct = c.opp
			p := paramsOf(c.w, c.opp)
			s := gomoku.Black
			for k, m := range g.moves {
				me := uint8(s)
				pos := texelPos{me: texelFeatures(e, me), opp: texelFeatures(e, 3-me), fixed: float64(e.threatBonus(me))}
				want := e.evaluate(me)
				if got := p.eval(&pos); math.Abs(got-float64(want)) > 1 && math.Abs(float64(want)) < winMin-1 {
					t.Fatalf("game %d move %d: evaluation from counts %.1f, engine %d", gi, k, got, want)
				}
				checked++
				if err := e.Place(m, s); err != nil {
					t.Fatal(err)
				}
				s = s.Opponent()
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// FuzzParseTexelGame: whatever parseTexelGame accepts it writes back
// unchanged up to spacing.
func FuzzParseTexelGame(f *testing.F) {
	f.Add("B 4 7,7 8,6 6,8 7,8 9,9")
	f.Add("D 0")
	f.Add("W 1 14,14 0,0")
	f.Fuzz(func(t *testing.T, line string) {
		g, err := parseTexelGame(line)
		if err != nil {
			return
		}
		back, err := parseTexelGame(g.String())
		if err != nil || back.String() != g.String() {
			t.Fatalf("%q -> %q -> %q (%v)", line, g.String(), back.String(), err)
		}
	})
}
