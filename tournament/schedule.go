package tournament

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Format is how a tournament pairs its bots.
type Format string

// The formats a schedule knows.
const (
	RoundRobin Format = "round-robin"
	Gauntlet   Format = "gauntlet"
	Swiss      Format = "swiss"
	Knockout   Format = "knockout"
)

// Formats lists every format, for help texts.
func Formats() []Format { return []Format{RoundRobin, Gauntlet, Swiss, Knockout} }

// ParseFormat reads a format name; "rr" and "roundrobin" are accepted for
// round robin, as cutechess and fastchess spell it.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "round-robin", "roundrobin", "rr", "":
		return RoundRobin, nil
	case "gauntlet":
		return Gauntlet, nil
	case "swiss":
		return Swiss, nil
	case "knockout", "ko":
		return Knockout, nil
	}
	return "", fmt.Errorf("format %q: want round-robin, gauntlet, swiss or knockout", s)
}

// Config describes a tournament's schedule.
type Config struct {
	// Name prefixes every game ID.
	Name   string
	Format Format
	// Players is the number of bots; player indexes are 0..Players-1
	// and, for Swiss and knockout, also their seeds (0 is the top seed).
	Players int
	// Seats is the number of players in one game: 2 for two-player
	// games, the map's number of players for N-player games.
	Seats int
	// GamesPerPair is the number of games a pairing plays on each
	// opening, seats rotating every game. For N-player games it is
	// rounded up to a multiple of Seats so every bot sits in every seat.
	GamesPerPair int
	// Openings is the number of distinct openings (maps, setups); at
	// least 1. Every pairing plays every opening.
	Openings int
	// Rounds is the number of Swiss rounds; 0 means enough to find a
	// winner, ceil(log2(Players)). Other formats ignore it.
	Rounds int
	// TieBreaks is the most extra pairs of games (one opening, colours
	// swapped) a drawn knockout match plays before the higher seed
	// advances; 0 means DefaultTieBreaks, negative means none.
	TieBreaks int
}

// DefaultTieBreaks is how many tie-break pairs a drawn knockout match
// plays before the higher seed advances.
const DefaultTieBreaks = 2

// maxGroups bounds the N-player groups a round robin may schedule: beyond
// it the event would never end and the user surely meant fewer bots.
const maxGroups = 100000

// Game is one scheduled game.
type Game struct {
	ID string
	// Round and Pairing are numbered from 1; a pairing is one match (two
	// players, or one group of an N-player game) within a round.
	Round, Pairing int
	// Slot numbers the opening within the pairing from 0 (tie-breaks
	// go on past the regular openings); Opening is the opening to play,
	// Slot modulo the number of openings.
	Slot, Opening int
	// Index numbers the game within its pairing and slot from 0.
	Index int
	// Seats maps seat to player index; seat 0 moves first.
	Seats []int
}

// Outcome is the result of a game as the schedule needs it.
type Outcome struct {
	// Winner is the winning player's index, -1 for a draw.
	Winner int
}

// Draw is the outcome of a drawn game.
var Draw = Outcome{Winner: -1}

// Schedule is a tournament's plan. It holds no results: Pending is a pure
// function of the results it is given, so a schedule is safe for
// concurrent use and a resumed tournament rebuilds the same rounds.
type Schedule struct {
	cfg   Config
	games []Game // the fixed games of round robin and gauntlet
}

// New checks cfg and builds its schedule.
func New(cfg Config) (*Schedule, error) {
	if cfg.Name == "" {
		return nil, errors.New("tournament: no name")
	}
	if cfg.Seats == 0 {
		cfg.Seats = 2
	}
	if cfg.Openings < 1 {
		cfg.Openings = 1
	}
	if cfg.TieBreaks == 0 {
		cfg.TieBreaks = DefaultTieBreaks
	}
	switch {
	case cfg.Seats < 2:
		return nil, fmt.Errorf("tournament: %d seats per game", cfg.Seats)
	case cfg.GamesPerPair < 1:
		return nil, fmt.Errorf("games per pair %d: must be at least 1", cfg.GamesPerPair)
	case cfg.Players < cfg.Seats:
		return nil, fmt.Errorf("%d bots: a game needs %d", cfg.Players, cfg.Seats)
	case cfg.Rounds < 0:
		return nil, fmt.Errorf("rounds %d: must not be negative", cfg.Rounds)
	}
	if cfg.Seats > 2 {
		cfg.GamesPerPair = (cfg.GamesPerPair + cfg.Seats - 1) / cfg.Seats * cfg.Seats
	}
	s := &Schedule{cfg: cfg}
	switch cfg.Format {
	case RoundRobin, Gauntlet:
		if err := s.buildStatic(); err != nil {
			return nil, err
		}
	case Swiss, Knockout:
		if cfg.Seats != 2 {
			return nil, fmt.Errorf("format %s: needs a two-player game", cfg.Format)
		}
		if cfg.Format == Swiss && cfg.Rounds == 0 {
			s.cfg.Rounds = max(1, bits.Len(uint(cfg.Players-1)))
		}
	default:
		return nil, fmt.Errorf("format %q: want round-robin, gauntlet, swiss or knockout", cfg.Format)
	}
	return s, nil
}

// Config returns the schedule's configuration with defaults filled in.
func (s *Schedule) Config() Config { return s.cfg }

// Pending returns the games still to play now, given the results so far
// keyed by game ID, in the order to start them. Games of later Swiss or
// knockout rounds appear once the rounds they depend on are complete.
// done is true when the tournament is over: every game it needs has a
// result.
func (s *Schedule) Pending(results map[string]Outcome) (games []Game, done bool) {
	switch s.cfg.Format {
	case Swiss:
		return s.swissPending(results)
	case Knockout:
		return s.knockoutPending(results)
	}
	for _, g := range s.games {
		if _, ok := results[g.ID]; !ok {
			games = append(games, g)
		}
	}
	return games, len(games) == 0
}

// Total is the number of games the tournament plays: exact for round
// robin, gauntlet and Swiss; for knockout the number without tie-breaks.
func (s *Schedule) Total() int {
	perMatch := s.cfg.GamesPerPair * s.cfg.Openings
	switch s.cfg.Format {
	case Swiss:
		return s.cfg.Rounds * (s.cfg.Players / 2) * perMatch
	case Knockout:
		return (s.cfg.Players - 1) * perMatch
	}
	return len(s.games)
}

// GameID builds the stable ID of a game: tournament, round, pairing,
// opening slot and game index within the slot (the seat order), the
// numbers counted from 1.
func GameID(name string, round, pairing, slot, index int) string {
	return fmt.Sprintf("%s-r%02d-p%02d-o%02d-s%d", name, round, pairing, slot+1, index+1)
}

// ParseID splits a game ID built by GameID into its parts (slot and index
// from 0, as in Game).
func ParseID(id string) (name string, round, pairing, slot, index int, err error) {
	parts := strings.Split(id, "-")
	if len(parts) < 5 {
		return "", 0, 0, 0, 0, fmt.Errorf("game id %q: want NAME-rN-pN-oN-sN", id)
	}
	tail := parts[len(parts)-4:]
	nums := make([]int, 4)
	for i, prefix := range []string{"r", "p", "o", "s"} {
		p := tail[i]
		if !strings.HasPrefix(p, prefix) || len(p) < 2 || len(p) > 10 {
			return "", 0, 0, 0, 0, fmt.Errorf("game id %q: part %q: want %sN", id, p, prefix)
		}
		for _, c := range p[1:] {
			if c < '0' || c > '9' {
				return "", 0, 0, 0, 0, fmt.Errorf("game id %q: part %q: want %sN", id, p, prefix)
			}
			nums[i] = nums[i]*10 + int(c-'0')
		}
		if nums[i] < 1 {
			return "", 0, 0, 0, 0, fmt.Errorf("game id %q: part %q counts from 1", id, p)
		}
	}
	name = strings.Join(parts[:len(parts)-4], "-")
	if name == "" {
		return "", 0, 0, 0, 0, fmt.Errorf("game id %q: no tournament name", id)
	}
	return name, nums[0], nums[1], nums[2] - 1, nums[3] - 1, nil
}

// matchGames lists the games a pairing plays on opening slots
// [from, to): perSlot games per slot, seats rotating every game. The
// rotation also advances by perSlot per slot, so with an odd number of
// games per opening the extra first move goes to each side in turn.
func (s *Schedule) matchGames(round, pairing int, base []int, from, to, perSlot int) []Game {
	g := perSlot
	n := len(base)
	var out []Game
	for slot := from; slot < to; slot++ {
		for k := 0; k < g; k++ {
			rot := (k + slot*g) % n
			seats := make([]int, n)
			for i := range seats {
				seats[i] = base[(i+rot)%n]
			}
			out = append(out, Game{
				ID:    GameID(s.cfg.Name, round, pairing, slot, k),
				Round: round, Pairing: pairing, Slot: slot, Opening: slot % s.cfg.Openings, Index: k,
				Seats: seats,
			})
		}
	}
	return out
}

// buildStatic lays out round robin and gauntlet: every pairing is known
// in advance. Two-player round robins follow the circle method, so each
// round has every bot in at most one pairing and the standings stay
// even while the event runs.
func (s *Schedule) buildStatic() error {
	type pairing struct {
		round int
		base  []int
	}
	var pairings []pairing
	p := s.cfg.Players
	switch {
	case s.cfg.Seats > 2:
		groups, err := combinations(p, s.cfg.Seats, s.cfg.Format == Gauntlet)
		if err != nil {
			return err
		}
		for _, g := range groups {
			pairings = append(pairings, pairing{1, g})
		}
	case s.cfg.Format == Gauntlet:
		for j := 1; j < p; j++ {
			pairings = append(pairings, pairing{j, balanced(0, j)})
		}
	default:
		for r, round := range circleRounds(p) {
			for _, pr := range round {
				pairings = append(pairings, pairing{r + 1, balanced(pr[0], pr[1])})
			}
		}
	}
	// Within a round, every pairing plays an opening (both colours)
	// before any moves on to the next.
	pairingNo := map[int]int{}
	numbered := make([]int, len(pairings))
	for i, pr := range pairings {
		pairingNo[pr.round]++
		numbered[i] = pairingNo[pr.round]
	}
	for start := 0; start < len(pairings); {
		end := start
		for end < len(pairings) && pairings[end].round == pairings[start].round {
			end++
		}
		for slot := 0; slot < s.cfg.Openings; slot++ {
			for i := start; i < end; i++ {
				s.games = append(s.games, s.matchGames(pairings[i].round, numbered[i], pairings[i].base, slot, slot+1, s.cfg.GamesPerPair)...)
			}
		}
		start = end
	}
	return nil
}

// balanced orders a round-robin pair so that over a whole round robin each
// bot moves first about as often as second: the lower index goes first
// when the indexes' sum is odd.
func balanced(i, j int) []int {
	if i > j {
		i, j = j, i
	}
	if (i+j)%2 == 1 {
		return []int{i, j}
	}
	return []int{j, i}
}

// circleRounds pairs n players in rounds by the circle method: player 0
// stays, the others rotate; with an odd count one sits out each round.
func circleRounds(n int) [][][2]int {
	m := n + n%2
	ring := make([]int, m)
	for i := range ring {
		ring[i] = i
	}
	var rounds [][][2]int
	for r := 0; r < m-1; r++ {
		var round [][2]int
		for i := 0; i < m/2; i++ {
			a, b := ring[i], ring[m-1-i]
			if a < n && b < n {
				round = append(round, [2]int{a, b})
			}
		}
		rounds = append(rounds, round)
		last := ring[m-1]
		copy(ring[2:], ring[1:m-1])
		ring[1] = last
	}
	return rounds
}

// combinations lists the groups of k players out of n in lexicographic
// order; withFirst keeps only the groups containing player 0 (a
// gauntlet).
func combinations(n, k int, withFirst bool) ([][]int, error) {
	var out [][]int
	cur := make([]int, 0, k)
	var rec func(next int) error
	rec = func(next int) error {
		if len(cur) == k {
			if withFirst && cur[0] != 0 {
				return nil
			}
			if len(out) == maxGroups {
				return fmt.Errorf("%d bots in groups of %d: more than %d groups", n, k, maxGroups)
			}
			out = append(out, append([]int(nil), cur...))
			return nil
		}
		for i := next; i <= n-(k-len(cur)); i++ {
			if withFirst && len(cur) == 0 && i > 0 {
				break
			}
			cur = append(cur, i)
			if err := rec(i + 1); err != nil {
				return err
			}
			cur = cur[:len(cur)-1]
		}
		return nil
	}
	if err := rec(0); err != nil {
		return nil, err
	}
	return out, nil
}
