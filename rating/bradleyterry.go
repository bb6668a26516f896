package rating

import (
	"errors"
	"fmt"
	"math"
)

// Errors of BradleyTerry that a caller may want to tell apart: both mean the
// games do not determine the ratings yet (typical early in an event), not
// that the input is malformed.
var (
	// ErrDisconnected: some players have no chain of games to others, so
	// their relative ratings are undefined.
	ErrDisconnected = errors.New("players are not connected by games")
	// ErrNoMaximum: the likelihood has no finite maximum in the ratings,
	// e.g. a player won every game and no prior holds it back.
	ErrNoMaximum = errors.New("likelihood has no finite maximum (too few games, or a group of players won or lost all its games: a prior helps)")
)

// eloNat converts Elo points to natural logistic units: a difference of
// 400 Elo is a factor 10 in odds.
const eloNat = math.Ln10 / 400

// Game is one two-player game for the whole-history fit.
type Game struct {
	First, Second int     // player indexes; First moved first (white/black, X/O ...)
	Score         float64 // First's score: 1, 0.5 or 0
}

// BTOptions tune the Bradley–Terry fit as BayesElo does.
type BTOptions struct {
	Advantage, DrawElo              float64 // starting or fixed values (BayesElo defaults 32.8 and 97.3)
	EstimateAdvantage, EstimateDraw bool
	Prior                           float64 // virtual draws per player (BayesElo default 2, spread over its opponents as BayesElo does); 0 = none
}

// DefaultBTOptions are BayesElo's defaults with both the first-move
// advantage and the draw model estimated from the games, as its "mm 1 1"
// command does.
func DefaultBTOptions() BTOptions {
	return BTOptions{Advantage: 32.8, DrawElo: 97.3, EstimateAdvantage: true, EstimateDraw: true, Prior: 2}
}

// Estimate is the fit: ratings centred on 0 (mean 0), their 95 % intervals, the fitted
// advantage/draw parameters and the likelihood-of-superiority matrix LOS[i][j] = P(i stronger than j).
//
// A player without games has Elo 0, interval (-Inf, +Inf) and LOS 0.5
// against everyone; LOS[i][i] is 0.5.
type Estimate struct {
	Elo, Low, High     []float64
	Advantage, DrawElo float64
	LOS                [][]float64
}

// BradleyTerry fits the ratings of all players to all games at once, by
// maximum likelihood (maximum a posteriori with a prior), in BayesElo's
// model. For a game where First (rated r1) meets Second (r2), with
// x = r1 - r2 + Advantage:
//
//	P(First wins)  = 1/(1+10^((DrawElo - x)/400))
//	P(Second wins) = 1/(1+10^((DrawElo + x)/400))
//	P(draw)        = 1 - P(First wins) - P(Second wins)
//
// Advantage and DrawElo are kept fixed unless the options ask to estimate
// them. Where the games do not determine them (the likelihood keeps rising
// as they grow, as with a handful of games or with every game drawn, or
// players who never swapped colours) they keep the values given, the
// advantage first, and the Estimate reports the values used; with no draw
// at all the estimated draw Elo is 0.
//
// The prior adds Prior·n_ij/(4·n_i) virtual draws with each colour between
// a player i and each opponent j it met (n_i games in all, n_ij against j),
// as BayesElo's AddPrior does; it keeps a player who won or lost everything
// at a finite rating.
//
// The maximum is found by Newton's method (the log-likelihood is concave in
// the ratings, the advantage and the draw Elo), which reaches it in a few
// iterations where BayesElo's minorization–maximization takes hundreds.
// The intervals are Elo ± 1.96 standard deviations from the covariance
// matrix of the centred ratings, which is the inverse of the ratings' block
// of the Hessian with the advantage and draw Elo held at their estimates
// (BayesElo's "covariance" command); LOS[i][j] = Φ((Elo_i-Elo_j)/sd(Elo_i-Elo_j))
// from the same matrix, as BayesElo's "los" command computes it.
//
// It returns an error if a game names an unknown player, pits a player
// against itself or has a score other than 1, 0.5 or 0; ErrDisconnected if
// the players who have games do not form one connected group; ErrNoMaximum
// if the ratings run off to infinity.
func BradleyTerry(players int, games []Game, opt BTOptions) (Estimate, error) {
	if players < 0 {
		return Estimate{}, fmt.Errorf("bradley-terry: %d players", players)
	}
	if !finite(opt.Advantage) || !finite(opt.DrawElo) || !finite(opt.Prior) || opt.Prior < 0 {
		return Estimate{}, fmt.Errorf("bradley-terry: options need a finite Advantage and DrawElo and a Prior >= 0, got %+v", opt)
	}
	cells, err := condense(players, games)
	if err != nil {
		return Estimate{}, fmt.Errorf("bradley-terry: %w", err)
	}
	if opt.Prior > 0 {
		cells.addPrior(opt.Prior)
	}
	est := Estimate{Elo: make([]float64, players), Low: make([]float64, players), High: make([]float64, players),
		Advantage: opt.Advantage, DrawElo: opt.DrawElo, LOS: make([][]float64, players)}
	for i := range est.LOS {
		est.LOS[i] = make([]float64, players)
		for j := range est.LOS[i] {
			est.LOS[i][j] = 0.5
		}
		est.Low[i], est.High[i] = math.Inf(-1), math.Inf(1)
	}
	active := cells.active()
	if len(active) < 2 {
		return est, nil
	}
	if !cells.connected(active) {
		return Estimate{}, fmt.Errorf("bradley-terry: %w", ErrDisconnected)
	}
	f, cov, err := fitAndCovariance(players, cells, opt, active)
	// Early in an event the few games rarely pin down the advantage and
	// the draw rate; keep the given value of one, then of both.
	for _, fix := range [][2]bool{{true, false}, {false, true}, {true, true}} {
		if !errors.Is(err, ErrNoMaximum) {
			break
		}
		if (fix[0] && !opt.EstimateAdvantage) || (fix[1] && !opt.EstimateDraw) {
			continue
		}
		fixed := opt
		fixed.EstimateAdvantage = opt.EstimateAdvantage && !fix[0]
		fixed.EstimateDraw = opt.EstimateDraw && !fix[1]
		f, cov, err = fitAndCovariance(players, cells, fixed, active)
	}
	if err != nil {
		return Estimate{}, fmt.Errorf("bradley-terry: %w", err)
	}
	est.Advantage, est.DrawElo = f.adv, f.draw
	for a, i := range active {
		est.Elo[i] = f.r[i]
		sd := math.Sqrt(cov[a][a])
		est.Low[i], est.High[i] = f.r[i]-z95*sd, f.r[i]+z95*sd
		for b, j := range active {
			if i == j {
				continue
			}
			v := cov[a][a] + cov[b][b] - 2*cov[a][b]
			est.LOS[i][j] = phi((f.r[i] - f.r[j]) / math.Sqrt(math.Max(v, 1e-300)))
		}
	}
	return est, nil
}

func fitAndCovariance(players int, cells *condensed, opt BTOptions, active []int) (*fit, [][]float64, error) {
	f := newFit(players, cells, opt)
	if err := f.run(); err != nil {
		return nil, nil, err
	}
	cov, err := f.covariance(active)
	return f, cov, err
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// cell holds the results of all games between one ordered pair: First's
// wins, draws and losses (fractional once the prior's virtual draws are in).
type cell struct {
	first, second int
	w, d, l       float64
}

// condensed are the games grouped by ordered pair, which is all the
// likelihood depends on.
type condensed struct {
	players int
	cells   []cell
	index   map[[2]int]int
	games   []float64 // real games per player
}

func condense(players int, games []Game) (*condensed, error) {
	c := &condensed{players: players, index: map[[2]int]int{}, games: make([]float64, players)}
	for k, g := range games {
		if g.First < 0 || g.First >= players || g.Second < 0 || g.Second >= players {
			return nil, fmt.Errorf("game %d: players %d and %d, want 0..%d", k, g.First, g.Second, players-1)
		}
		if g.First == g.Second {
			return nil, fmt.Errorf("game %d: player %d plays itself", k, g.First)
		}
		ce := c.cell(g.First, g.Second)
		switch g.Score {
		case 1:
			ce.w++
		case 0.5:
			ce.d++
		case 0:
			ce.l++
		default:
			return nil, fmt.Errorf("game %d: score %v, want 1, 0.5 or 0", k, g.Score)
		}
		c.games[g.First]++
		c.games[g.Second]++
	}
	return c, nil
}

func (c *condensed) cell(first, second int) *cell {
	k, ok := c.index[[2]int{first, second}]
	if !ok {
		k = len(c.cells)
		c.index[[2]int{first, second}] = k
		c.cells = append(c.cells, cell{first: first, second: second})
	}
	return &c.cells[k]
}

// addPrior adds BayesElo's virtual draws: player i spreads prior/4 draws per
// real game over its opponents in proportion to the games it played with
// each, once with each colour.
func (c *condensed) addPrior(prior float64) {
	// Games between each unordered pair, from the real cells only, in the
	// order the pairs first appear so that the sums are reproducible.
	var pairs [][2]int
	count := map[[2]int]float64{}
	for _, ce := range c.cells {
		p := [2]int{min(ce.first, ce.second), max(ce.first, ce.second)}
		if _, ok := count[p]; !ok {
			pairs = append(pairs, p)
		}
		count[p] += ce.w + ce.d + ce.l
	}
	for _, p := range pairs {
		a, b := p[0], p[1]
		v := prior * 0.25 * count[p] * (1/c.games[a] + 1/c.games[b])
		c.cell(a, b).d += v
		c.cell(b, a).d += v
	}
}

// active lists the players with at least one game, in index order.
func (c *condensed) active() []int {
	var out []int
	for i, n := range c.games {
		if n > 0 {
			out = append(out, i)
		}
	}
	return out
}

// connected reports whether the active players form one group linked by
// games. Strong connectivity (every group has both scored against and
// conceded to the rest) is what a finite maximum needs; where it is missing
// the fit diverges and reports ErrNoMaximum instead.
func (c *condensed) connected(active []int) bool {
	adj := make([][]int, c.players)
	for _, ce := range c.cells {
		adj[ce.first] = append(adj[ce.first], ce.second)
		adj[ce.second] = append(adj[ce.second], ce.first)
	}
	seen := make([]bool, c.players)
	stack := []int{active[0]}
	seen[active[0]] = true
	count := 0
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		for _, w := range adj[v] {
			if !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return count == len(active)
}
