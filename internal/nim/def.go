package nim

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/match"
)

// Def is Nim's contract with the arena (match.Game).
type Def struct{}

var _ match.Game = Def{}

// Info describes Nim.
func (Def) Info() game.Info {
	return game.Info{
		Name: "nim", Title: "Nim", Players: [2]int{2, 2}, Human: true,
		TurnTime:       time.Second,
		PlayerSettings: []string{"dir", "env", "memory", "turn_time", "match_time"},
		Help:           game.Help{Short: "Play Nim: take 1 to max_take stones, whoever takes the last wins"},
	}
}

// NewOptions returns Nim's options at their defaults.
func (Def) NewOptions() game.Options { return &Settings{Stones: 15, MaxTake: 3} }

// Settings are the options of a game of Nim.
type Settings struct {
	Stones  int `json:"stones"`
	MaxTake int `json:"max_take"`
}

// Bind registers the options as flags.
func (s *Settings) Bind(fl *pflag.FlagSet) {
	fl.IntVar(&s.Stones, "stones", s.Stones, "stones in the pile at the start (1..1000)")
	fl.IntVar(&s.MaxTake, "max-take", s.MaxTake, "most stones one move may take")
}

// Validate checks the options.
func (s *Settings) Validate() error {
	if s.Stones > 1000 {
		return fmt.Errorf("--stones %d: at most 1000", s.Stones)
	}
	if _, err := NewState(s.Stones, s.MaxTake); err != nil {
		return fmt.Errorf("--stones/--max-take: %w", err)
	}
	return nil
}

// Options is the part of a record that describes the game's parameters.
type Options struct {
	Stones  int   `json:"stones"`
	MaxTake int   `json:"max_take"`
	TurnMs  int64 `json:"turn_ms"`
}

// NewRunner makes the runner of a match's games.
func (Def) NewRunner(opts game.Options, env match.Env) (match.Runner, error) {
	s, ok := opts.(*Settings)
	if !ok {
		return nil, fmt.Errorf("nim: options of type %T", opts)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &runner{s: *s, env: env}, nil
}

type runner struct {
	s   Settings
	env match.Env
}

func (r *runner) Openings() int { return 1 }

// Play plays one game on the match loop and writes its JSON record.
func (r *runner) Play(ctx context.Context, j match.Job) (*game.Record, string, error) {
	gs, done := j.Setup(r.env.Work)
	defer done()
	state, err := NewState(r.s.Stones, r.s.MaxTake)
	if err != nil {
		return nil, "", err
	}
	players := match.Pick(r.env.Players, gs.Order)
	seating := []int{gs.First, 1 - gs.First}
	rec, err := match.Table[Take]{
		ID: j.ID, Referee: Referee{state}, Players: players, Seating: seating,
		Clock: r.env.Clock, Ponder: r.env.Ponder, Memory: r.env.Memory, WorkDir: gs.WorkDir,
		Seat: func(side, pi int, dir string, memory int64, tr *bot.Transcript) match.Seat[Take] {
			p := players[pi]
			return &seat{state: state, cfg: bot.Config{Args: p.Args, Env: p.Env, Dir: dir, MemoryLimit: memory,
				Interactive: true, Transcript: tr}}
		},
		Human: func(_ int, h *match.Human) match.Seat[Take] {
			return match.HumanSeat(h, func(text string) (Take, error) {
				t, err := ParseTake(text)
				if err != nil {
					return 0, err
				}
				return t, state.Check(t)
			})
		},
		Header: func() *game.Record {
			opts, _ := json.Marshal(Options{Stones: r.s.Stones, MaxTake: r.s.MaxTake, TurnMs: r.env.Clock.Turn.Milliseconds()})
			h := &game.Record{ID: j.ID, Game: "nim", Options: opts, Seats: seating, Seed: j.Seed}
			for _, p := range players {
				h.Players = append(h.Players, p.Record("nim"))
			}
			return h
		},
		OnMove: gs.OnMove, Listener: gs.Listener, Transcripts: gs.Transcripts,
	}.Play(ctx)
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(r.env.Out, rec.ID+".json")
	return rec, path, rec.WriteFile(path)
}

// seat is a bot speaking Nim's line protocol.
type seat struct {
	state *State
	cfg   bot.Config
	proc  *bot.Process
	run   bot.Holder
}

func (s *seat) Start(ctx context.Context, req match.Request) (match.Greeting, error) {
	p, err := bot.Start(s.cfg)
	if err != nil {
		return match.Greeting{}, game.Fault{Reason: game.ReasonCrash, Detail: err.Error()}
	}
	s.proc = p
	s.run.Set(p)
	return match.Greeting{}, nil
}

func (s *seat) Move(ctx context.Context, req match.Request) (match.Reply[Take], error) {
	if err := s.proc.WriteString(fmt.Sprintf("take %d %d\n", s.state.Left(), s.state.Most()), req.Deadline); err != nil {
		return match.Reply[Take]{}, err
	}
	line, err := s.proc.ReadLine(req.Deadline)
	switch {
	case errors.Is(err, bot.ErrTimeout):
		return match.Reply[Take]{}, fmt.Errorf("no move in time: %w", err)
	case errors.Is(err, bot.ErrLineTooLong):
		return match.Reply[Take]{}, game.Fault{Reason: game.ReasonProtocol, Detail: err.Error()}
	case err != nil:
		return match.Reply[Take]{}, err
	}
	t, err := ParseTake(line)
	if err != nil {
		return match.Reply[Take]{}, game.Fault{Reason: game.ReasonProtocol, Detail: err.Error()}
	}
	return match.Reply[Take]{Move: t}, nil
}

func (s *seat) Finish(ctx context.Context, res game.Result, grace time.Duration) match.Farewell {
	if s.proc == nil {
		return match.Farewell{}
	}
	deadline := time.Now().Add(grace)
	sent := s.proc.WriteString("end\n", deadline) == nil
	return match.Goodbye(s.proc, deadline, sent, func(string) bool { return true })
}

func (s *seat) Pause()  { s.run.Pause() }
func (s *seat) Resume() { s.run.Resume() }
func (s *seat) Kill()   { s.run.Kill() }

// Bot is Nim's built-in player: it reads "take N MAX" lines from in and
// answers on out until "end". With perfect set it leaves a multiple of
// MAX+1 stones whenever it can; otherwise, and when it cannot, it takes
// one stone.
func Bot(in io.Reader, out io.Writer, perfect bool) error {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 1 && f[0] == "end" {
			return nil
		}
		var left, most int
		if len(f) != 3 || f[0] != "take" {
			return fmt.Errorf("nim bot: unexpected line %q", sc.Text())
		}
		if _, err := fmt.Sscan(f[1]+" "+f[2], &left, &most); err != nil {
			return fmt.Errorf("nim bot: %q: %w", sc.Text(), err)
		}
		take := 1
		if m := left % (most + 1); perfect && m != 0 && left > 0 {
			take = m
		}
		if _, err := fmt.Fprintln(out, take); err != nil {
			return err
		}
	}
	return sc.Err()
}
