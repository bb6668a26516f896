package rating

import (
	"errors"
	"fmt"
	"math"
)

// fit is the state of one Bradley–Terry maximisation. The parameter vector
// is the n ratings followed by the advantage and the draw Elo, all in Elo.
type fit struct {
	n       int
	cells   []cell
	r       []float64
	adv     float64
	draw    float64
	free    []bool // which of the n+2 parameters move
	active  []bool // players with games: the ratings the gauge centres
	nActive int
}

func newFit(players int, c *condensed, opt BTOptions) *fit {
	f := &fit{n: players, cells: c.cells, r: make([]float64, players), adv: opt.Advantage, draw: opt.DrawElo,
		free: make([]bool, players+2), active: make([]bool, players)}
	for _, i := range c.active() {
		f.active[i] = true
		f.free[i] = true
		f.nActive++
	}
	f.free[players] = opt.EstimateAdvantage
	draws := 0.0
	for _, ce := range c.cells {
		draws += ce.d
	}
	switch {
	case opt.EstimateDraw && draws == 0:
		// Without a draw the likelihood grows as the draw Elo falls to its
		// boundary 0, where draws become impossible; that is the estimate.
		f.draw = 0
	case opt.EstimateDraw:
		f.free[players+1] = true
		if f.draw <= 0 {
			f.draw = 97.3
		}
	}
	return f
}

// params packs the state into one vector.
func (f *fit) params() []float64 {
	p := make([]float64, f.n+2)
	copy(p, f.r)
	p[f.n], p[f.n+1] = f.adv, f.draw
	return p
}

func (f *fit) set(p []float64) {
	copy(f.r, p[:f.n])
	f.adv, f.draw = p[f.n], p[f.n+1]
}

// run maximises the log-likelihood by damped Newton steps with a
// backtracking line search.
func (f *fit) run() error {
	if f.draw < 0 {
		return fmt.Errorf("draw Elo %v is negative", f.draw)
	}
	p := f.params()
	ll, g, h := f.eval(p, true)
	if math.IsInf(ll, -1) {
		return errors.New("games with draws need a draw Elo above 0")
	}
	for iter := 0; iter < 200; iter++ {
		step, err := f.newtonStep(g, h)
		if err != nil {
			return err
		}
		slope := 0.0
		for k := range step {
			slope += g[k] * step[k]
		}
		t := 1.0
		var next []float64
		var nextLL float64
		for {
			next = make([]float64, len(p))
			for k := range p {
				next[k] = p[k] + t*step[k]
			}
			f.centre(next)
			nextLL, _, _ = f.eval(next, false)
			if nextLL >= ll+1e-4*t*slope || t < 1e-12 {
				break
			}
			t /= 2
		}
		moved := 0.0
		for k := range p {
			moved = math.Max(moved, math.Abs(next[k]-p[k]))
		}
		if nextLL < ll {
			// Not even a tiny step gains: we are at the maximum to
			// rounding.
			return f.settle(p, h)
		}
		p = next
		ll, g, h = f.eval(p, true)
		for k, v := range p {
			if f.free[k] && math.Abs(v) > 1e4 {
				return ErrNoMaximum
			}
		}
		if moved < 1e-9 {
			return f.settle(p, h)
		}
	}
	return ErrNoMaximum
}

// settle accepts p as the maximum unless the games leave the advantage or
// the draw Elo undetermined there: the likelihood is flat in them (the
// iteration crawled onto a plateau that keeps rising towards infinity, as
// when every game is drawn) or only their combination with the ratings is
// fixed (a pair that never swapped colours). Flat directions in the
// ratings alone show up in their covariance instead.
func (f *fit) settle(p []float64, h [][]float64) error {
	idx, a := f.system(h)
	l, ok := cholesky(a)
	if !ok {
		return ErrNoMaximum
	}
	for x, k := range idx {
		if k < f.n {
			continue
		}
		e := make([]float64, len(idx))
		e[x] = 1
		// The variance of the parameter, all others estimated too: a
		// standard deviation over 10000 Elo means no information.
		if v := cholSolve(l, e)[x]; !(v > 0 && v < 1e8) {
			return ErrNoMaximum
		}
	}
	f.set(p)
	return nil
}

// centre shifts the active ratings to mean 0: the likelihood depends only
// on differences, so this is the gauge BayesElo reports in.
func (f *fit) centre(p []float64) {
	mean := 0.0
	for i := 0; i < f.n; i++ {
		if f.active[i] {
			mean += p[i]
		}
	}
	mean /= float64(f.nActive)
	for i := 0; i < f.n; i++ {
		if f.active[i] {
			p[i] -= mean
		}
	}
}

// newtonStep solves (-H + gauge) step = g over the free parameters. The
// gauge term adds a multiple of 11ᵀ on the ratings, which fills the one
// direction (a common shift) the likelihood is flat in without changing
// the step in any other direction.
func (f *fit) newtonStep(g []float64, h [][]float64) ([]float64, error) {
	idx, a := f.system(h)
	b := make([]float64, len(idx))
	for x, k := range idx {
		b[x] = g[k]
	}
	sol, err := solveDamped(a, b)
	if err != nil {
		return nil, err
	}
	step := make([]float64, f.n+2)
	for x, k := range idx {
		step[k] = sol[x]
	}
	return step, nil
}

// system returns the free parameters' indexes and -H over them plus the
// gauge term.
func (f *fit) system(h [][]float64) ([]int, [][]float64) {
	var idx []int
	for k, free := range f.free {
		if free {
			idx = append(idx, k)
		}
	}
	m := len(idx)
	a := make([][]float64, m)
	trace := 0.0
	for x, k := range idx {
		a[x] = make([]float64, m)
		for y, l := range idx {
			a[x][y] = -h[k][l]
		}
		if k < f.n {
			trace += a[x][x]
		}
	}
	kappa := trace / float64(f.nActive*f.nActive)
	for x, k := range idx {
		for y, l := range idx {
			if k < f.n && l < f.n {
				a[x][y] += kappa
			}
		}
	}
	return idx, a
}

// covariance returns the covariance matrix of the centred ratings of the
// active players: the pseudo-inverse of the ratings' block M of -H, found
// as (M + t·11ᵀ)⁻¹ - 11ᵀ/(t·n²) since M's only null direction is 1.
func (f *fit) covariance(active []int) ([][]float64, error) {
	_, _, h := f.eval(f.params(), true)
	n := len(active)
	m := make([][]float64, n)
	trace := 0.0
	for a, i := range active {
		m[a] = make([]float64, n)
		for b, j := range active {
			m[a][b] = -h[i][j]
		}
		trace += m[a][a]
	}
	t := trace / float64(n*n)
	if !(t > 0) {
		return nil, ErrNoMaximum
	}
	for a := range m {
		for b := range m[a] {
			m[a][b] += t
		}
	}
	l, ok := cholesky(m)
	if !ok {
		return nil, ErrNoMaximum
	}
	cov := make([][]float64, n)
	for a := range cov {
		e := make([]float64, n)
		e[a] = 1
		cov[a] = cholSolve(l, e)
		for b := range cov[a] {
			cov[a][b] -= 1 / (t * float64(n*n))
		}
	}
	for a := range cov {
		for b := 0; b < a; b++ {
			// Symmetric in exact arithmetic; make it so in floating point,
			// so that LOS[i][j] + LOS[j][i] = 1.
			cov[a][b] = (cov[a][b] + cov[b][a]) / 2
			cov[b][a] = cov[a][b]
		}
		// A standard deviation of 10000 Elo means the games do not pin
		// the rating down at all: the maximum lies at infinity and the
		// iteration stopped on the plateau leading there.
		if !(cov[a][a] >= 0 && cov[a][a] < 1e8) {
			return nil, ErrNoMaximum
		}
	}
	return cov, nil
}

// eval returns the log-likelihood at p and, if asked, its gradient and
// Hessian. Per game, with u = c·(r_first - r_second + adv) and
// δ = c·draw in natural units (c = ln10/400):
//
//	win:  log σ(u-δ)
//	loss: log σ(-u-δ)
//	draw: log(σ(δ-u) - σ(-δ-u)) = log σ(δ-u) + log σ(δ+u) + log(1-e^(-2δ))
//
// each concave in (u, δ).
func (f *fit) eval(p []float64, derivs bool) (ll float64, g []float64, h [][]float64) {
	n := f.n
	if derivs {
		g = make([]float64, n+2)
		h = make([][]float64, n+2)
		for k := range h {
			h[k] = make([]float64, n+2)
		}
	}
	const c = eloNat
	delta := c * p[n+1]
	// Terms of a draw that depend on δ alone: log(1-e^(-2δ)), its
	// derivative and minus its second derivative.
	var drawLog, drawG, drawH float64
	if delta > 0 {
		em, ep := -math.Expm1(-2*delta), math.Expm1(2*delta)
		drawLog, drawG, drawH = math.Log(em), 2/ep, 4/(ep*em)
	}
	for _, ce := range f.cells {
		u := c * (p[ce.first] - p[ce.second] + p[n])
		// zW and zL are the arguments of the win and loss probabilities;
		// everything below is built from σ(±zW), σ(±zL) and their logs.
		sW, cW, lsW, lcW := logistic(u - delta)
		sL, cL, lsL, lcL := logistic(-u - delta)
		dW, dL := sW*cW, sL*cL // σ'(u-δ), σ'(u+δ)
		var gu, gd, huu, hud, hdd float64
		if ce.w > 0 {
			ll += ce.w * lsW
			gu += ce.w * cW
			gd -= ce.w * cW
			huu -= ce.w * dW
			hud += ce.w * dW
			hdd -= ce.w * dW
		}
		if ce.l > 0 {
			ll += ce.l * lsL
			gu -= ce.l * cL
			gd -= ce.l * cL
			huu -= ce.l * dL
			hud -= ce.l * dL
			hdd -= ce.l * dL
		}
		if ce.d > 0 {
			if delta <= 0 {
				return math.Inf(-1), g, h
			}
			ll += ce.d * (lcW + lcL + drawLog)
			gu += ce.d * (sL - sW)
			gd += ce.d * (sW + sL + drawG)
			huu -= ce.d * (dL + dW)
			hud += ce.d * (dW - dL)
			hdd -= ce.d * (dL + dW + drawH)
		}
		if !derivs {
			continue
		}
		// u = c·(e_first - e_second + e_adv)·p, δ = c·e_draw·p.
		ui := [3]int{ce.first, ce.second, n}
		uc := [3]float64{c, -c, c}
		for x := range ui {
			g[ui[x]] += uc[x] * gu
			for y := range ui {
				h[ui[x]][ui[y]] += uc[x] * uc[y] * huu
			}
			h[ui[x]][n+1] += uc[x] * c * hud
			h[n+1][ui[x]] += uc[x] * c * hud
		}
		g[n+1] += c * gd
		h[n+1][n+1] += c * c * hdd
	}
	return ll, g, h
}

// logistic returns σ(z), σ(-z), log σ(z) and log σ(-z), accurate in both
// tails, from one exponential and one logarithm.
func logistic(z float64) (s, sc, ls, lsc float64) {
	e := math.Exp(-math.Abs(z))
	l := math.Log1p(e)
	if z >= 0 {
		return 1 / (1 + e), e / (1 + e), -l, -z - l
	}
	return e / (1 + e), 1 / (1 + e), z - l, -l
}

// solveDamped solves a·x = b for a symmetric matrix that should be positive
// definite; if rounding makes it not quite so, it adds a growing multiple of
// the identity (a Levenberg–Marquardt step), which still points uphill.
func solveDamped(a [][]float64, b []float64) ([]float64, error) {
	scale := 0.0
	for i := range a {
		scale = math.Max(scale, math.Abs(a[i][i]))
	}
	if scale == 0 {
		scale = 1
	}
	for lambda := 0.0; lambda <= 1e6*scale; {
		m := make([][]float64, len(a))
		for i := range a {
			m[i] = append([]float64(nil), a[i]...)
			m[i][i] += lambda
		}
		if l, ok := cholesky(m); ok {
			return cholSolve(l, b), nil
		}
		if lambda == 0 {
			lambda = 1e-10 * scale
		} else {
			lambda *= 10
		}
	}
	return nil, ErrNoMaximum
}

// cholesky factors a symmetric positive definite matrix as L·Lᵀ; false if
// it is not positive definite.
func cholesky(a [][]float64) ([][]float64, bool) {
	n := len(a)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
	}
	for j := 0; j < n; j++ {
		s := a[j][j]
		for k := 0; k < j; k++ {
			s -= l[j][k] * l[j][k]
		}
		if !(s > 0) {
			return nil, false
		}
		l[j][j] = math.Sqrt(s)
		for i := j + 1; i < n; i++ {
			s := a[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			l[i][j] = s / l[j][j]
		}
	}
	return l, true
}

// cholSolve solves L·Lᵀ·x = b.
func cholSolve(l [][]float64, b []float64) []float64 {
	n := len(l)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x
}
