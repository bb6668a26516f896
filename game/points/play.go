package points

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// Player is a bot (or a person) entered in a match: who it is and
// the protocol options it speaks (a person speaks none).
type Player struct {
	match.Player
	Protocol ProtocolOptions
}

// MatchConfig holds everything that is the same for every game of a
// match.
type MatchConfig struct {
	Config      Config
	Opening     Opening
	Clock       match.Clock
	Ponder      bool
	MemoryLimit int64 // bytes per bot, 0 = none
	// WorkDir holds one working folder per player.
	WorkDir string
	// Sandbox, when set, puts every bot in its layers (nil: off).
	Sandbox *sandbox.Sandbox
	OnMove  func(match.MoveEvent)
	// Listener, if set, is told the game's header before the first move
	// and every move, with its effect, as it is played.
	Listener game.Listener
	// Transcripts, if set, gives the transcript for a player of a game.
	Transcripts func(gameID string, player int) *bot.Transcript
}

// Options is the part of a record that describes the game's parameters.
type Options struct {
	Width       int      `json:"width"`
	Height      int      `json:"height"`
	Surround    string   `json:"surround"`
	Grounding   bool     `json:"grounding,omitempty"`
	MaxMoves    int      `json:"max_moves,omitempty"`
	Opening     Opening  `json:"opening"`
	TurnMs      int64    `json:"turn_ms"`
	BaseMs      int64    `json:"base_ms"`
	IncrementMs int64    `json:"increment_ms"`
	ToleranceMs int64    `json:"tolerance_ms"`
	Protocols   []string `json:"protocols,omitempty"` // per player
}

// Config returns the game parameters the options describe.
func (o Options) Config() (Config, error) {
	s, err := ParseSurround(o.Surround)
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Width: o.Width, Height: o.Height, Surround: s, Grounding: o.Grounding, MaxMoves: o.MaxMoves}
	return cfg, cfg.Validate()
}

// Game is one game to play: the players in the order the user gave them
// and which of them plays red (moves first).
type Game struct {
	ID      string
	Players []Player // two
	Red     int      // index into Players of the red player
	Seed    int64    // for the random opening
}

// PlayGame plays one game and returns its record. It returns an error only
// when the game could not be played at all (bad opening, cancelled).
func PlayGame(ctx context.Context, mc MatchConfig, g Game) (*game.Record, error) {
	state, err := NewState(mc.Config)
	if err != nil {
		return nil, err
	}
	opening, err := mc.Opening.Points(mc.Config.Width, mc.Config.Height, g.Seed)
	if err != nil {
		return nil, err
	}
	if err := state.PlayOpening(opening); err != nil {
		return nil, err
	}
	seating := []int{g.Red, 1 - g.Red} // side -> player
	clocks := &Clocks{}
	var effects []Effect
	players := make([]match.Player, len(g.Players))
	for i, p := range g.Players {
		players[i] = p.Player
	}
	type probing struct {
		player int
		seat   *Seat
	}
	var probed []probing // seats that find out their bot's protocol
	rec, err := match.Table[Point]{
		ID: g.ID, Referee: Referee{State: state, Effects: &effects}, Players: players, Seating: seating,
		Clock: mc.Clock, Ponder: mc.Ponder, Memory: mc.MemoryLimit, WorkDir: mc.WorkDir,
		Seat: func(side, pi int, dir string, memory int64, tr *bot.Transcript) match.Seat[Point] {
			pl := g.Players[pi]
			seat := NewSeat(state, ColorOf(side), SeatOptions{Args: pl.Args, Env: pl.Env, Dir: dir, MemoryLimit: memory,
				Protocol: pl.Protocol, Clocks: clocks, Transcript: tr, Seed: engineSeed(g), Sandbox: mc.Sandbox})
			if pl.Protocol.Kind == Probe {
				probed = append(probed, probing{pi, seat})
			}
			return seat
		},
		Human:       func(side int, h *match.Human) match.Seat[Point] { return humanSeat(h, state, side, clocks) },
		Header:      func() *game.Record { return header(mc, g, seating, state) },
		OnMove:      mc.OnMove,
		Listener:    mc.Listener,
		Transcripts: mc.Transcripts,
	}.Play(ctx)
	if err != nil || len(probed) == 0 {
		return rec, err
	}
	// The record names the protocol each probed bot turned out to speak.
	g.Players = slices.Clone(g.Players) // the caller's players still probe
	for _, p := range probed {
		kind := p.seat.Spoken()
		g.Players[p.player].Protocol.Kind = kind
		if rec.Players[p.player].Protocol != "human" {
			rec.Players[p.player].Protocol = kind.recordName()
		}
	}
	rec.Options = header(mc, g, seating, state).Options
	return rec, nil
}

// engineSeed is the random seed a v6 engine is sent with init: the same
// for the same game (its ID and opening seed), different between games.
func engineSeed(g Game) int64 {
	h := fnv.New32a()
	h.Write([]byte(g.ID))
	fmt.Fprint(h, g.Seed)
	return int64(h.Sum32() & maxV6ID)
}

// header is the part of a game's record known before its first move:
// what a listener is told at the start. state holds the opening dots
// (in Opening, red first).
func header(mc MatchConfig, g Game, seating []int, state *State) *game.Record {
	cfg := mc.Config
	o := Options{
		Width: cfg.Width, Height: cfg.Height, Surround: cfg.Surround.String(), Grounding: cfg.Grounding,
		MaxMoves: cfg.MaxMoves, Opening: mc.Opening,
		TurnMs: mc.Clock.Turn.Milliseconds(), BaseMs: mc.Clock.Match.Milliseconds(),
		IncrementMs: mc.Clock.Increment.Milliseconds(), ToleranceMs: mc.Clock.Tolerance.Milliseconds(),
	}
	for _, p := range g.Players {
		o.Protocols = append(o.Protocols, p.Protocol.String())
	}
	opts, _ := json.Marshal(o)
	rec := &game.Record{ID: g.ID, Game: "points", Options: opts, Seats: seating, Seed: g.Seed, Sandbox: mc.Sandbox.Layers()}
	for _, p := range state.Moves()[:state.OpeningLen()] {
		rec.Opening = append(rec.Opening, p.String())
	}
	rec.Players = make([]game.PlayerRecord, len(g.Players))
	for pi, p := range g.Players {
		rec.Players[pi] = p.Record(p.Protocol.Kind.recordName())
	}
	return rec
}

// WriteFiles writes the record's SGF (GM[40]) next to its JSON record in
// dir, and the JSON record itself; it returns the path of the JSON record.
// Fields wider or taller than SGF can write (52) get no SGF file.
func WriteFiles(dir string, rec *game.Record) (string, error) {
	base := filepath.Join(dir, rec.ID)
	sgf, err := RecordSGF(rec)
	if err != nil {
		return "", err
	}
	if sgf != "" {
		if err := game.WriteFileAtomic(base+".sgf", []byte(sgf)); err != nil {
			return "", err
		}
	}
	path := base + ".json"
	return path, rec.WriteFile(path)
}

// Replay re-plays a record move by move on a fresh referee, calling step
// (if not nil) after each move with the position and what the move did,
// and checks that every move's effect is the one recorded. It returns the
// final state.
func Replay(rec *game.Record, step func(ply int, s *State, eff Effect)) (*State, error) {
	var o Options
	if err := json.Unmarshal(rec.Options, &o); err != nil {
		return nil, fmt.Errorf("record %s: options: %w", rec.ID, err)
	}
	cfg, err := o.Config()
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", rec.ID, err)
	}
	s, err := NewState(cfg)
	if err != nil {
		return nil, err
	}
	var opening []Point
	for _, m := range rec.Opening {
		p, err := ParsePoint(m)
		if err != nil {
			return nil, fmt.Errorf("record %s: opening: %w", rec.ID, err)
		}
		opening = append(opening, p)
	}
	if err := s.PlayOpening(opening); err != nil {
		return nil, fmt.Errorf("record %s: %w", rec.ID, err)
	}
	for i, m := range rec.Moves {
		p, err := ParsePoint(m.Move)
		if err != nil {
			return nil, fmt.Errorf("record %s: move %d: %w", rec.ID, i+1, err)
		}
		eff, err := s.Play(p)
		if err != nil {
			return nil, fmt.Errorf("record %s: move %d (%v): %w", rec.ID, i+1, p, err)
		}
		if len(m.Effect) > 0 {
			got, _ := json.Marshal(eff)
			var a, b any
			json.Unmarshal(got, &a)
			json.Unmarshal(m.Effect, &b)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				return nil, fmt.Errorf("record %s: move %d (%v) does %s, the record says %s", rec.ID, i+1, p, got, m.Effect)
			}
		}
		if step != nil {
			step(i+1, s, eff)
		}
	}
	return s, nil
}
