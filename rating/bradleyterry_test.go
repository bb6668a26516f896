package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// games builds w wins, d draws and l losses of player a against player b,
// alternating who moves first.
func games(a, b, w, d, l int) []Game {
	var out []Game
	add := func(n int, score float64) {
		for k := range n {
			if k%2 == 0 {
				out = append(out, Game{First: a, Second: b, Score: score})
			} else {
				out = append(out, Game{First: b, Second: a, Score: 1 - score})
			}
		}
	}
	add(w, 1)
	add(d, 0.5)
	add(l, 0)
	return out
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// Two players, no advantage, draw Elo estimated: with two free parameters
// for a three-outcome distribution the maximum reproduces the observed
// frequencies exactly, P(win) = W/N and P(loss) = L/N, which solves by hand:
// x - d = logit(W/N) and -x - d = logit(L/N) in natural units.
func TestBradleyTerryTwoPlayersDrawModel(t *testing.T) {
	for _, tc := range []struct{ w, d, l int }{{60, 20, 20}, {10, 30, 5}, {7, 1, 12}} {
		n := float64(tc.w + tc.d + tc.l)
		pw, pl := float64(tc.w)/n, float64(tc.l)/n
		x := (logit(pw) - logit(pl)) / 2
		dr := -(logit(pw) + logit(pl)) / 2
		// Fisher information of x per game: a win has σ'(x-d) = pw(1-pw), a
		// loss σ'(x+d) = pl(1-pl), a draw both; the centred rating is x/2.
		info := float64(tc.w)*pw*(1-pw) + float64(tc.l)*pl*(1-pl) + float64(tc.d)*(pw*(1-pw)+pl*(1-pl))
		sd := 1 / (2 * math.Sqrt(info) * eloNat)

		est, err := BradleyTerry(2, games(0, 1, tc.w, tc.d, tc.l), BTOptions{DrawElo: 50, EstimateDraw: true})
		if err != nil {
			t.Fatal(err)
		}
		near(t, "Elo[0]", est.Elo[0], x/eloNat/2, 1e-6)
		near(t, "Elo[1]", est.Elo[1], -x/eloNat/2, 1e-6)
		near(t, "DrawElo", est.DrawElo, dr/eloNat, 1e-6)
		near(t, "Advantage", est.Advantage, 0, 0)
		near(t, "High[0]-Elo[0]", est.High[0]-est.Elo[0], 1.959963984540054*sd, 1e-6)
		near(t, "Elo[0]-Low[0]", est.Elo[0]-est.Low[0], 1.959963984540054*sd, 1e-6)
		// The difference has twice the rating's standard deviation.
		near(t, "LOS[0][1]", est.LOS[0][1], phi(x/eloNat/(2*sd)), 1e-9)
		near(t, "LOS[1][0]", est.LOS[1][0], 1-est.LOS[0][1], 1e-12)
	}
}

// Without draws and with the draw Elo fixed at 0 the model is plain
// Bradley–Terry: the difference is 400·log10(W/L).
func TestBradleyTerryTwoPlayersNoDraws(t *testing.T) {
	est, err := BradleyTerry(2, games(0, 1, 30, 0, 10), BTOptions{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Elo[0]-Elo[1]", est.Elo[0]-est.Elo[1], 400*math.Log10(3), 1e-6)
	sdDiff := 1 / (math.Sqrt(40*0.75*0.25) * eloNat)
	near(t, "interval", est.High[0]-est.Low[0], 2*1.959963984540054*sdDiff/2, 1e-6)
}

// With the advantage estimated and no draws, two players who each played
// both colours give two equations for two unknowns: logit(p1) = c(x+a) for
// the games player 0 began and logit(p2) = c(-x+a) for those player 1 began.
func TestBradleyTerryAdvantage(t *testing.T) {
	var g []Game
	for k := range 40 { // player 0 first: 30 wins, 10 losses
		g = append(g, Game{First: 0, Second: 1, Score: b2f(k < 30)})
	}
	for k := range 40 { // player 1 first: 20 wins, 20 losses
		g = append(g, Game{First: 1, Second: 0, Score: b2f(k < 20)})
	}
	est, err := BradleyTerry(2, g, BTOptions{EstimateAdvantage: true, EstimateDraw: true})
	if err != nil {
		t.Fatal(err)
	}
	x := (logit(0.75) - logit(0.5)) / 2 / eloNat
	a := (logit(0.75) + logit(0.5)) / 2 / eloNat
	near(t, "Elo[0]-Elo[1]", est.Elo[0]-est.Elo[1], x, 1e-6)
	near(t, "Advantage", est.Advantage, a, 1e-6)
	near(t, "DrawElo", est.DrawElo, 0, 0)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// BayesElo's prior of 2 virtual draws per player is, for two players who
// met only each other, exactly one draw with each colour.
func TestBradleyTerryPriorIsVirtualDraws(t *testing.T) {
	real := games(0, 1, 9, 0, 0) // a clean sweep: no maximum without the prior
	if _, err := BradleyTerry(2, real, BTOptions{DrawElo: 97.3}); !errors.Is(err, ErrNoMaximum) {
		t.Fatalf("sweep without prior: err = %v, want ErrNoMaximum", err)
	}
	opt := BTOptions{Advantage: 32.8, DrawElo: 97.3, Prior: 2}
	withPrior, err := BradleyTerry(2, real, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Prior = 0
	explicit, err := BradleyTerry(2, append(real, Game{0, 1, 0.5}, Game{1, 0, 0.5}), opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		near(t, "Elo", withPrior.Elo[i], explicit.Elo[i], 1e-9)
		near(t, "Low", withPrior.Low[i], explicit.Low[i], 1e-9)
		near(t, "High", withPrior.High[i], explicit.High[i], 1e-9)
	}
	if !(withPrior.Elo[0] > 100) {
		t.Errorf("sweeper rated %v", withPrior.Elo[0])
	}
}

// A balanced round robin where every pair splits its games evenly with
// both colours: everyone is rated 0 and no one is likelier better.
func TestBradleyTerrySymmetric(t *testing.T) {
	var g []Game
	for a := range 5 {
		for b := range 5 {
			if a != b {
				g = append(g, Game{a, b, 1}, Game{a, b, 0.5}, Game{a, b, 0.5}, Game{a, b, 0})
			}
		}
	}
	opt := DefaultBTOptions()
	opt.Prior = 0 // virtual draws would raise the draw rate
	est, err := BradleyTerry(5, g, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		near(t, "Elo", est.Elo[i], 0, 1e-9)
		for j := range 5 {
			near(t, "LOS", est.LOS[i][j], 0.5, 1e-9)
		}
	}
	near(t, "Advantage", est.Advantage, 0, 1e-6)
	// Half the games drawn with equal players: P(draw) = 1 - 2σ(-d) = 1/2.
	near(t, "DrawElo", est.DrawElo, 400*math.Log10(3), 1e-6)
}

// randomEvent plays a round robin among players with hidden strengths, a
// first-move advantage and BayesElo's draw model.
func randomEvent(rng *rand.Rand, players, rounds int) []Game {
	g, _ := randomEventStrengths(rng, players, rounds)
	return g
}

func randomEventStrengths(rng *rand.Rand, players, rounds int) ([]Game, []float64) {
	strength := make([]float64, players)
	for i := range strength {
		strength[i] = rng.NormFloat64() * 150
	}
	var g []Game
	for range rounds {
		for a := range players {
			for b := range players {
				if a == b {
					continue
				}
				x := strength[a] - strength[b] + 40
				pw := scoreFromElo(x - 100)
				pl := scoreFromElo(-x - 100)
				u := rng.Float64()
				s := 0.5
				if u < pw {
					s = 1
				} else if u < pw+pl {
					s = 0
				}
				g = append(g, Game{a, b, s})
			}
		}
	}
	return g, strength
}

// On a large simulated event (BayesElo's model with advantage 40 and draw
// Elo 100) the fit recovers the hidden parameters within their noise, and
// the true ratings lie inside their 95 % intervals (all ten do for this
// fixed seed; for a random one all ten would hold only about 60 % of the
// time).
func TestBradleyTerryRecoversSimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g, strength := randomEventStrengths(rng, 10, 40) // 3600 games
	est, err := BradleyTerry(10, g, DefaultBTOptions())
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Advantage", est.Advantage, 40, 10)
	near(t, "DrawElo", est.DrawElo, 100, 10)
	mean := 0.0
	for _, s := range strength {
		mean += s / 10
	}
	for i, s := range strength {
		if truth := s - mean; !(est.Low[i] < truth && truth < est.High[i]) {
			t.Errorf("player %d: true %.1f outside [%.1f, %.1f]", i, truth, est.Low[i], est.High[i])
		}
	}
}

// On a data set with no closed form the result must be a stationary point
// of the log-likelihood: its gradient, taken here by finite differences
// and so independent of the analytic one the fit uses, is zero.
func TestBradleyTerryGradientZeroAtMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := randomEvent(rng, 6, 4)
	for _, opt := range []BTOptions{DefaultBTOptions(), {Advantage: 32.8, DrawElo: 97.3}, {DrawElo: 97.3, Prior: 2, EstimateAdvantage: true}} {
		est, err := BradleyTerry(6, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := condense(6, g)
		if opt.Prior > 0 {
			c.addPrior(opt.Prior)
		}
		f := newFit(6, c, opt)
		p := append(append([]float64(nil), est.Elo...), est.Advantage, est.DrawElo)
		for k := range p {
			if !f.free[k] {
				continue
			}
			const h = 1e-3
			up := append([]float64(nil), p...)
			down := append([]float64(nil), p...)
			up[k] += h
			down[k] -= h
			llUp, _, _ := f.eval(up, false)
			llDown, _, _ := f.eval(down, false)
			if d := (llUp - llDown) / (2 * h); math.Abs(d) > 1e-6 {
				t.Errorf("%+v: d ll / d p[%d] = %g at the estimate", opt, k, d)
			}
		}
		sum := 0.0
		for _, e := range est.Elo {
			sum += e
		}
		near(t, "mean Elo", sum/6, 0, 1e-9)
	}
}

// The analytic gradient and Hessian agree with finite differences away
// from the maximum, where they matter for the Newton steps.
func TestBradleyTerryDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := randomEvent(rng, 4, 2)
	c, _ := condense(4, g)
	f := newFit(4, c, DefaultBTOptions())
	p := []float64{50, -20, 10, 0, 25, 120}
	_, grad, hess := f.eval(p, true)
	const h = 1e-4
	for k := range p {
		up := append([]float64(nil), p...)
		down := append([]float64(nil), p...)
		up[k] += h
		down[k] -= h
		llUp, gUp, _ := f.eval(up, true)
		llDown, gDown, _ := f.eval(down, true)
		near(t, "gradient", grad[k], (llUp-llDown)/(2*h), 1e-6)
		for l := range p {
			near(t, "Hessian", hess[l][k], (gUp[l]-gDown[l])/(2*h), 1e-6)
		}
	}
}

func TestBradleyTerryRecoversStrengthOrder(t *testing.T) {
	// Three players far apart in strength, many games: the fit puts them in
	// order with confident LOS.
	var g []Game
	g = append(g, games(0, 1, 70, 20, 10)...)
	g = append(g, games(1, 2, 70, 20, 10)...)
	g = append(g, games(0, 2, 90, 8, 2)...)
	est, err := BradleyTerry(3, g, DefaultBTOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !(est.Elo[0] > est.Elo[1] && est.Elo[1] > est.Elo[2]) {
		t.Errorf("Elo = %v, want decreasing", est.Elo)
	}
	if !(est.LOS[0][1] > 0.99 && est.LOS[1][2] > 0.99 && est.LOS[2][0] < 0.01) {
		t.Errorf("LOS = %v", est.LOS)
	}
	for i := range 3 {
		if !(est.Low[i] < est.Elo[i] && est.Elo[i] < est.High[i]) {
			t.Errorf("player %d: interval %v..%v around %v", i, est.Low[i], est.High[i], est.Elo[i])
		}
	}
}

func TestBradleyTerryPlayersWithoutGames(t *testing.T) {
	est, err := BradleyTerry(4, games(0, 2, 3, 2, 1), DefaultBTOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 3} {
		if est.Elo[i] != 0 || !math.IsInf(est.Low[i], -1) || !math.IsInf(est.High[i], 1) || est.LOS[i][0] != 0.5 || est.LOS[0][i] != 0.5 {
			t.Errorf("player %d without games: %v [%v, %v]", i, est.Elo[i], est.Low[i], est.High[i])
		}
	}
	near(t, "Elo[0]+Elo[2]", est.Elo[0]+est.Elo[2], 0, 1e-9)

	est, err = BradleyTerry(3, nil, DefaultBTOptions())
	if err != nil || len(est.Elo) != 3 || est.Advantage != 32.8 || est.DrawElo != 97.3 {
		t.Errorf("no games: %+v, %v", est, err)
	}
}

// When the games do not determine the draw Elo or the advantage, the fit
// keeps the given values instead of failing.
func TestBradleyTerryUndeterminedModel(t *testing.T) {
	// Every game drawn: the draw Elo's likelihood rises without bound; the
	// advantage is still determined (0: both colours drew alike).
	est, err := BradleyTerry(2, games(0, 1, 0, 6, 0), BTOptions{Advantage: 10, DrawElo: 97.3, EstimateDraw: true, EstimateAdvantage: true})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "DrawElo", est.DrawElo, 97.3, 0)
	near(t, "Advantage", est.Advantage, 0, 1e-6)
	near(t, "Elo[0]", est.Elo[0], 0, 1e-9)

	// Two players who never swapped colours: only rating difference plus
	// advantage is determined, so the advantage keeps its given value.
	var g []Game
	for k := range 20 {
		g = append(g, Game{0, 1, []float64{1, 0.5, 0, 1}[k%4]})
	}
	est, err = BradleyTerry(2, g, BTOptions{Advantage: 32.8, DrawElo: 97.3, EstimateAdvantage: true, EstimateDraw: true})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Advantage", est.Advantage, 32.8, 0)
	// 10 wins, 5 draws and 5 losses, all as first mover: with two free
	// parameters the fit reproduces the frequencies, x - d = logit(1/2) and
	// -x - d = logit(1/4) for x = Elo difference + advantage.
	x := (logit(0.5) - logit(0.25)) / 2 / eloNat
	near(t, "Elo[0]-Elo[1]+Advantage", est.Elo[0]-est.Elo[1]+est.Advantage, x, 1e-6)
	near(t, "DrawElo", est.DrawElo, -(logit(0.5)+logit(0.25))/2/eloNat, 1e-6)

	// Three games in a chain (found by fuzzing): estimated, the draw Elo
	// and the ratings run off together.
	g = []Game{{1, 2, 0.5}, {2, 3, 0}, {3, 0, 1}}
	est, err = BradleyTerry(5, g, DefaultBTOptions())
	if err != nil {
		t.Fatal(err)
	}
	near(t, "DrawElo", est.DrawElo, 97.3, 0)
	fixed, err := BradleyTerry(5, g, BTOptions{Advantage: 32.8, DrawElo: 97.3, Prior: 2, EstimateAdvantage: est.Advantage != 32.8})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		near(t, "Elo", est.Elo[i], fixed.Elo[i], 1e-9)
	}
}

func TestBradleyTerryErrors(t *testing.T) {
	tests := []struct {
		name    string
		players int
		games   []Game
		opt     BTOptions
		is      error
	}{
		{"unknown player", 2, []Game{{0, 2, 1}}, DefaultBTOptions(), nil},
		{"plays itself", 2, []Game{{1, 1, 1}}, DefaultBTOptions(), nil},
		{"bad score", 2, []Game{{0, 1, 0.7}}, DefaultBTOptions(), nil},
		{"negative prior", 2, nil, BTOptions{Prior: -1}, nil},
		{"NaN advantage", 2, nil, BTOptions{Advantage: math.NaN()}, nil},
		{"disconnected", 4, append(games(0, 1, 2, 2, 2), games(2, 3, 2, 2, 2)...), DefaultBTOptions(), ErrDisconnected},
		{"sweep without prior", 3, append(games(0, 1, 3, 0, 0), games(1, 2, 2, 1, 1)...), BTOptions{DrawElo: 97.3}, ErrNoMaximum},
		{"draws with draw Elo 0", 2, games(0, 1, 2, 2, 2), BTOptions{}, nil},
		{"negative draw Elo", 2, games(0, 1, 2, 0, 2), BTOptions{DrawElo: -5}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BradleyTerry(tc.players, tc.games, tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want %v", err, tc.is)
			}
			t.Log(err)
		})
	}
}

func BenchmarkBradleyTerry16x2000(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := randomEvent(rng, 16, 9)[:2000]
	opt := DefaultBTOptions()
	b.ResetTimer()
	for b.Loop() {
		if _, err := BradleyTerry(16, g, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// mmReference fits the ratings, with adv and draw fixed, by BayesElo's own
// algorithm: minorization–maximization on gamma = 10^(Elo/400) (Hunter
// 2004, as in Coulom's bayeselo). Each sweep sets a player's gamma to its
// wins plus draws divided by the sum, over the outcomes that credit it, of
// the derivative of that outcome's denominator. It is slow but shares
// nothing with the Newton fit except the model.
func mmReference(players int, cells []cell, adv, draw float64) []float64 {
	tw, td := math.Pow(10, adv/400), math.Pow(10, draw/400)
	gamma := make([]float64, players)
	for i := range gamma {
		gamma[i] = 1
	}
	for range 20000 {
		num := make([]float64, players)
		den := make([]float64, players)
		for _, c := range cells {
			f, s := c.first, c.second
			gf, gs := gamma[f], gamma[s]
			// First wins or draws: the win term θW·γf/(θW·γf + θD·γs).
			dWin := tw*gf + td*gs
			// Second wins or draws: γs/(θD·θW·γf + γs).
			dLoss := td*tw*gf + gs
			num[f] += c.w + c.d
			num[s] += c.l + c.d
			den[f] += (c.w+c.d)*tw/dWin + (c.l+c.d)*td*tw/dLoss
			den[s] += (c.w+c.d)*td/dWin + (c.l+c.d)/dLoss
		}
		for i := range gamma {
			if den[i] > 0 {
				gamma[i] = num[i] / den[i]
			}
		}
	}
	elo := make([]float64, players)
	mean := 0.0
	for i, g := range gamma {
		elo[i] = 400 * math.Log10(g)
		mean += elo[i] / float64(players)
	}
	for i := range elo {
		elo[i] -= mean
	}
	return elo
}

func TestBradleyTerryMatchesMinorizationMaximization(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g := randomEvent(rng, 6, 3)
	opt := BTOptions{Advantage: 32.8, DrawElo: 97.3, Prior: 2}
	est, err := BradleyTerry(6, g, opt)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := condense(6, g)
	c.addPrior(opt.Prior)
	want := mmReference(6, c.cells, opt.Advantage, opt.DrawElo)
	for i := range want {
		near(t, "Elo", est.Elo[i], want[i], 1e-6)
	}
}

// The same games give the same numbers to the last bit, run after run, so
// that standings printed twice agree.
func TestBradleyTerryDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g := randomEvent(rng, 8, 2)
	first, err := BradleyTerry(8, g, DefaultBTOptions())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := BradleyTerry(8, g, DefaultBTOptions())
		for i := range first.Elo {
			if again.Elo[i] != first.Elo[i] || again.Low[i] != first.Low[i] {
				t.Fatalf("run differs: %v vs %v", again.Elo, first.Elo)
			}
		}
	}
}
