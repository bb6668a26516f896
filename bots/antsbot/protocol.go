package antsbot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Params are the game settings a bot receives at turn 0.
type Params struct {
	LoadTime, TurnTime int // milliseconds
	Rows, Cols         int
	Turns              int
	ViewRadius2        int
	AttackRadius2      int
	SpawnRadius2       int
	PlayerSeed         int64
}

// DefaultParams are the official engine's defaults (playgame.py).
func DefaultParams() Params {
	return Params{LoadTime: 3000, TurnTime: 1000, Turns: 1000, ViewRadius2: 77, AttackRadius2: 5, SpawnRadius2: 1}
}

// Loc is a square: row and column.
type Loc struct{ Row, Col int }

// Unit is an ant or a hill: its square and owner as the bot sees it
// (0 is the bot itself, enemies are numbered from 1 by first sighting).
type Unit struct {
	Loc
	Owner int
}

// Observation is what the engine tells a bot in one turn: what it can see
// after the previous turn was resolved. Water is only sent the first time
// it comes into view; dead ants are those killed in the previous turn.
type Observation struct {
	Turn  int
	Water []Loc
	Food  []Loc
	Hills []Unit
	Ants  []Unit
	Dead  []Unit
}

// Order moves the ant at (Row, Col) one step in Dir: 'n', 'e', 's' or 'w'.
type Order struct {
	Loc
	Dir byte
}

// A Player decides the orders of one side. Start is called once with the
// settings of turn 0, Turn once per turn; Turn should return before
// deadline.
type Player interface {
	Start(p Params)
	Turn(obs *Observation, deadline time.Time) []Order
}

// Budget is the share of turntime (or loadtime) a player may think
// before it must answer: the rest is left for the pipe, the scheduler and
// a loaded machine.
const Budget = 0.5

// turnBudget is the time Run gives a player for one turn, counted from
// the turn's "turn N" line.
func turnBudget(p Params) time.Duration {
	return time.Duration(float64(p.TurnTime)*Budget) * time.Millisecond
}

// Run speaks the AI Challenge bot protocol on in/out for player pl until
// the "end" block or the end of input, and returns nil then. Every answer
// ends in "go" and is flushed at once. A turn's clock starts when its
// "turn N" line is read.
func Run(ctx context.Context, in io.Reader, out io.Writer, pl Player) error {
	lines := make(chan string, 256)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-done:
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()
	w := bufio.NewWriter(out)
	r := &reader{params: DefaultParams()}
	started := false
	for {
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok = <-lines:
		}
		if !ok {
			return <-readErr
		}
		ev, err := r.feed(line, time.Now())
		if err != nil {
			return err
		}
		switch ev {
		case evReady:
			if r.params.Rows <= 0 || r.params.Cols <= 0 || r.params.Rows*r.params.Cols > 1<<24 {
				return fmt.Errorf("protocol: bad map size %dx%d at turn 0", r.params.Rows, r.params.Cols)
			}
			pl.Start(r.params)
			started = true
			if _, err := w.WriteString("go\n"); err != nil {
				return fmt.Errorf("write: %w", err)
			}
		case evGo:
			if !started {
				return fmt.Errorf("protocol: turn %d before the turn-0 settings", r.obs.Turn)
			}
			orders := pl.Turn(&r.obs, r.start.Add(turnBudget(r.params)))
			for _, o := range orders {
				fmt.Fprintf(w, "o %d %d %c\n", o.Row, o.Col, o.Dir)
			}
			if _, err := w.WriteString("go\n"); err != nil {
				return fmt.Errorf("write: %w", err)
			}
		case evEnd:
			return nil
		default:
			continue
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
}

type event int

const (
	evNone  event = iota
	evReady       // the turn-0 block is complete: answer "go"
	evGo          // a turn's state is complete: answer with orders and "go"
	evEnd         // the end block is complete
)

// reader assembles protocol lines into settings and observations.
type reader struct {
	params Params
	obs    Observation
	start  time.Time
	ended  bool
}

// feed takes one input line. Unknown lines are ignored, as a tolerant
// bot should; malformed numbers in known lines are errors.
func (r *reader) feed(line string, now time.Time) (event, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return evNone, nil
	}
	key := strings.ToLower(f[0])
	nums := make([]int64, 0, 3)
	for _, s := range f[1:] {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			nums = append(nums, 0)
			continue
		}
		nums = append(nums, v)
	}
	arg := func(i int) int {
		if i < len(nums) {
			return int(nums[i])
		}
		return 0
	}
	switch key {
	case "turn":
		if len(f) < 2 {
			return evNone, fmt.Errorf("protocol: %q has no turn number", line)
		}
		r.obs = Observation{Turn: arg(0)}
		r.start = now
	case "end":
		r.ended = true
	case "ready":
		return evReady, nil
	case "go":
		if r.ended {
			return evEnd, nil
		}
		return evGo, nil
	case "loadtime":
		r.params.LoadTime = arg(0)
	case "turntime":
		r.params.TurnTime = arg(0)
	case "rows":
		r.params.Rows = arg(0)
	case "cols":
		r.params.Cols = arg(0)
	case "turns":
		r.params.Turns = arg(0)
	case "viewradius2":
		r.params.ViewRadius2 = arg(0)
	case "attackradius2":
		r.params.AttackRadius2 = arg(0)
	case "spawnradius2":
		r.params.SpawnRadius2 = arg(0)
	case "player_seed":
		if len(nums) > 0 {
			r.params.PlayerSeed = nums[0]
		}
	case "w", "f":
		if len(f) < 3 || !r.inside(arg(0), arg(1)) {
			return evNone, nil
		}
		l := Loc{arg(0), arg(1)}
		if key == "w" {
			r.obs.Water = append(r.obs.Water, l)
		} else {
			r.obs.Food = append(r.obs.Food, l)
		}
	case "a", "h", "d":
		if len(f) < 4 || !r.inside(arg(0), arg(1)) {
			return evNone, nil
		}
		u := Unit{Loc{arg(0), arg(1)}, arg(2)}
		switch key {
		case "a":
			r.obs.Ants = append(r.obs.Ants, u)
		case "h":
			r.obs.Hills = append(r.obs.Hills, u)
		default:
			r.obs.Dead = append(r.obs.Dead, u)
		}
	}
	return evNone, nil
}

func (r *reader) inside(row, col int) bool {
	return row >= 0 && col >= 0 && (r.params.Rows == 0 || row < r.params.Rows) && (r.params.Cols == 0 || col < r.params.Cols)
}
