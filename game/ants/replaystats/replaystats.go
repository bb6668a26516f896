// Package replaystats sums up Ants games from their replays (the
// official replay JSON, as arena and the AI Challenge engine write it):
// who won, how the colonies compared at a given turn, and where each
// side's ants died. It is how the built-in bot is measured against
// other programs (docs/strength.md): a score alone says who won, these
// figures say why.
package replaystats

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Options choose the figures.
type Options struct {
	// Turn is the turn at which the ants alive are counted.
	Turn int
	// LoneR2 is the squared distance within which a dying ant's own
	// colony must have another ant for its death not to count as lone.
	LoneR2 int
}

// DefaultOptions are the figures the strength notes quote: ants alive
// at turn 300, and lone deaths with no friend within squared distance
// 20 (about four squares, a step outside the attack radius).
func DefaultOptions() Options { return Options{Turn: 300, LoneR2: 20} }

// Game is one replay's figures, one entry per player in seat order.
type Game struct {
	Names []string
	// Rank is the official ranking: 0 is best, equal ranks tie.
	Rank []int
	// Turns is the number of turns played.
	Turns int
	// Born counts the ants each player had in the game (the hill's
	// first ants too).
	Born []int
	// Alive counts each player's ants alive at Options.Turn (all
	// zero when the game ended before it).
	Alive []int
	// Dead counts each player's ants killed before the game's end,
	// LoneDead those of them with no other of their ants within
	// Options.LoneR2 at the turn they died.
	Dead, LoneDead []int
	// HillsLost counts each player's hills razed.
	HillsLost []int
}

// replay is the part of the replay JSON the figures need.
type replay struct {
	Names []string `json:"playernames"`
	Rank  []int    `json:"rank"`
	Data  struct {
		Players int `json:"players"`
		Map     struct {
			Rows int `json:"rows"`
			Cols int `json:"cols"`
		} `json:"map"`
		// Ants: row, col, turn born, turn died (one past the last
		// turn for ants alive at the end), owner, moves.
		Ants [][]json.RawMessage `json:"ants"`
		// Hills: row, col, owner, turn razed (past the end if never).
		Hills [][]int `json:"hills"`
	} `json:"replaydata"`
	Length int `json:"game_length"`
}

// ant is one entry of the replay's ants.
type ant struct {
	row, col, born, died, owner int
	moves                       string
	path                        [][2]int // where it stands after each of its moves, its start first
}

// at is where the ant stands after the moves of turn t.
func (a ant) at(t int) (row, col int) {
	p := a.path[min(max(t-a.born, 0), len(a.path)-1)]
	return p[0], p[1]
}

// Parse reads one replay.
func Parse(data []byte, o Options) (*Game, error) {
	var r replay
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	n, rows, cols := r.Data.Players, r.Data.Map.Rows, r.Data.Map.Cols
	switch {
	case n < 1 || n > 26:
		return nil, fmt.Errorf("replay: %d players", n)
	case rows < 1 || cols < 1 || rows > 1000 || cols > 1000:
		return nil, fmt.Errorf("replay: map of %dx%d", rows, cols)
	case len(r.Rank) != n:
		return nil, fmt.Errorf("replay: %d ranks for %d players", len(r.Rank), n)
	}
	ants := make([]ant, len(r.Data.Ants))
	for i, raw := range r.Data.Ants {
		a, err := parseAnt(raw, n)
		if err != nil {
			return nil, fmt.Errorf("replay: ant %d: %w", i, err)
		}
		ants[i] = a
	}
	g := &Game{Names: r.Names, Rank: r.Rank, Turns: r.Length,
		Born: make([]int, n), Alive: make([]int, n), Dead: make([]int, n), LoneDead: make([]int, n), HillsLost: make([]int, n)}
	if len(g.Names) != n {
		g.Names = make([]string, n)
		for i := range g.Names {
			g.Names[i] = fmt.Sprintf("player %d", i+1)
		}
	}
	for _, h := range r.Data.Hills {
		if len(h) < 4 || h[2] < 0 || h[2] >= n {
			return nil, errors.New("replay: a hill is not [row, col, owner, razed]")
		}
		if h[3] <= g.Turns {
			g.HillsLost[h[2]]++
		}
	}
	w := world{rows: rows, cols: cols}
	for i := range ants {
		ants[i].path = w.path(ants[i])
	}
	deaths := map[int][]int{} // turn: ants killed then
	for i, a := range ants {
		g.Born[a.owner]++
		if a.born <= o.Turn && o.Turn < a.died && o.Turn <= g.Turns {
			g.Alive[a.owner]++
		}
		if a.died <= g.Turns {
			g.Dead[a.owner]++
			deaths[a.died] = append(deaths[a.died], i)
		}
	}
	for turn, killed := range deaths {
		// Everyone present in that turn's battle: alive after the
		// turn's moves, the ants killed in it too.
		type placed struct{ row, col, owner int }
		var present []placed
		for _, a := range ants {
			if a.born <= turn && turn <= a.died {
				r, c := a.at(turn)
				present = append(present, placed{r, c, a.owner})
			}
		}
		for _, i := range killed {
			a := ants[i]
			r, c := a.at(turn)
			lone := true
			for _, p := range present {
				if p.owner == a.owner && (p.row != r || p.col != c) && w.dist2(r, c, p.row, p.col) <= o.LoneR2 {
					lone = false
					break
				}
			}
			if lone {
				g.LoneDead[a.owner]++
			}
		}
	}
	return g, nil
}

func parseAnt(raw []json.RawMessage, players int) (ant, error) {
	if len(raw) < 6 {
		return ant{}, errors.New("not [row, col, born, died, owner, moves]")
	}
	var a ant
	for k, dst := range []*int{&a.row, &a.col, &a.born, &a.died, &a.owner} {
		if err := json.Unmarshal(raw[k], dst); err != nil {
			return ant{}, fmt.Errorf("field %d: %w", k, err)
		}
	}
	if err := json.Unmarshal(raw[5], &a.moves); err != nil {
		return ant{}, fmt.Errorf("moves: %w", err)
	}
	if a.owner < 0 || a.owner >= players || a.born < 0 || a.died < a.born {
		return ant{}, fmt.Errorf("owner %d, born %d, died %d", a.owner, a.born, a.died)
	}
	return a, nil
}

// world is the map's torus geometry.
type world struct{ rows, cols int }

// path walks the ant's moves from its start.
func (w world) path(a ant) [][2]int {
	row, col := mod(a.row, w.rows), mod(a.col, w.cols)
	path := make([][2]int, 1, len(a.moves)+1)
	path[0] = [2]int{row, col}
	for _, m := range a.moves {
		switch m {
		case 'n':
			row--
		case 's':
			row++
		case 'e':
			col++
		case 'w':
			col--
		}
		row, col = mod(row, w.rows), mod(col, w.cols)
		path = append(path, [2]int{row, col})
	}
	return path
}

func (w world) dist2(r1, c1, r2, c2 int) int {
	dr, dc := abs(r1-r2), abs(c1-c2)
	dr, dc = min(dr, w.rows-dr), min(dc, w.cols-dc)
	return dr*dr + dc*dc
}

func mod(x, m int) int { return ((x % m) + m) % m }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Total sums one player's games.
type Total struct {
	Name                    string
	Games, Won, Drawn, Lost int
	Born, Dead, LoneDead    int
	HillsLost               int
	EnemyDead               int // the other players' ants killed in its games
	// ShareSum adds up, over the GamesAtTurn games with ants alive at
	// Options.Turn, the player's share of them.
	ShareSum    float64
	GamesAtTurn int
}

// Share is the player's mean share of the ants alive at Options.Turn,
// game by game (so that two bots' figures on the same games can be
// compared pair by pair).
func (t Total) Share() float64 {
	if t.GamesAtTurn == 0 {
		return 0
	}
	return t.ShareSum / float64(t.GamesAtTurn)
}

// DeadPerEnemy is how many of its ants died per enemy ant killed.
func (t Total) DeadPerEnemy() float64 { return ratio(t.Dead, t.EnemyDead) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Add counts game g for every player in it.
func (t *Totals) Add(g *Game) {
	best := 0
	for _, r := range g.Rank {
		best = min(best, r)
	}
	firsts := 0
	for _, r := range g.Rank {
		if r == best {
			firsts++
		}
	}
	allAlive, allDead := 0, 0
	for i := range g.Names {
		allAlive += g.Alive[i]
		allDead += g.Dead[i]
	}
	for i, name := range g.Names {
		k, ok := t.index[name]
		if !ok {
			if t.index == nil {
				t.index = map[string]int{}
			}
			k = len(t.List)
			t.index[name] = k
			t.List = append(t.List, Total{Name: name})
		}
		p := &t.List[k]
		p.Games++
		switch {
		case g.Rank[i] != best:
			p.Lost++
		case firsts > 1:
			p.Drawn++
		default:
			p.Won++
		}
		p.Born += g.Born[i]
		p.Dead += g.Dead[i]
		p.LoneDead += g.LoneDead[i]
		p.HillsLost += g.HillsLost[i]
		p.EnemyDead += allDead - g.Dead[i]
		if allAlive > 0 {
			p.ShareSum += float64(g.Alive[i]) / float64(allAlive)
			p.GamesAtTurn++
		}
	}
}

// Totals sums games player by player, in the order players first
// appear.
type Totals struct {
	List  []Total
	index map[string]int
}
