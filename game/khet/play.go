package khet

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// Player is a bot (or a person) entered in a match.
type Player = match.Player

// MatchConfig holds everything that is the same for every game of a
// match.
type MatchConfig struct {
	Config      Config
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
	// Transcripts, if set, gives the transcript for a player of a game
	// (nil: none).
	Transcripts func(gameID string, player int) *bot.Transcript
}

// Options is the part of a record that describes the game's parameters.
type Options struct {
	Setup           Setup  `json:"setup"`
	MaxPlies        int    `json:"max_plies"`
	Repetition      int    `json:"repetition"`
	PharaohRotation bool   `json:"pharaoh_rotation,omitempty"`
	SwapMoverOnly   bool   `json:"swap_mover_only,omitempty"`
	Initial         string `json:"initial"` // the state string before the first move
	Final           string `json:"final"`   // the state string sent in the E lines
	TurnMs          int64  `json:"turn_ms"`
	MatchMs         int64  `json:"match_ms"`
	ToleranceMs     int64  `json:"tolerance_ms"`
}

// Config returns the game parameters the options describe.
func (o Options) Config() Config {
	return Config{Setup: o.Setup, MaxPlies: o.MaxPlies, Repetition: o.Repetition,
		Rules: Rules{PharaohRotation: o.PharaohRotation, SwapMoverOnly: o.SwapMoverOnly}}
}

// Effect is what one move did, kept in the record for replays.
type Effect struct {
	Shot    string   `json:"shot"`              // the seed's shot: sphinx square, trajectory, X piece
	Path    [][2]int `json:"path"`              // the beam's squares from the Sphinx on
	Removed string   `json:"removed,omitempty"` // the piece the laser removed, e.g. R21Y3
	State   string   `json:"state"`             // the state string after the move
}

// Game is one game to play: the players in the order the user gave them,
// which of them plays Silver (moves first) and the opening's moves,
// played before the bots take over.
type Game struct {
	ID      string
	Players []Player // two
	Silver  int      // index into Players
	Opening []Move
}

// PlayGame plays one game and returns its record. It returns an error only
// when the game could not be played at all (bad config or opening,
// cancelled).
func PlayGame(ctx context.Context, mc MatchConfig, g Game) (*game.Record, error) {
	state, err := openingState(mc.Config, g.Opening)
	if err != nil {
		return nil, fmt.Errorf("khet game %s: opening: %w", g.ID, err)
	}
	initial := state.String()
	seating := []int{g.Silver, 1 - g.Silver} // side -> player
	started := false
	return match.Table[Move]{
		ID: g.ID, Referee: Referee{state}, Players: g.Players, Seating: seating,
		Clock: mc.Clock, Ponder: mc.Ponder, Memory: mc.MemoryLimit, WorkDir: mc.WorkDir,
		Seat: func(side, pi int, dir string, memory int64, tr *bot.Transcript) match.Seat[Move] {
			pl := g.Players[pi]
			return NewSeat(state, Color(side), SeatOptions{Args: pl.Args, Env: pl.Env, Dir: dir, MemoryLimit: memory, Transcript: tr, Sandbox: mc.Sandbox})
		},
		Human: func(_ int, h *match.Human) match.Seat[Move] { return humanSeat(h, state) },
		// The final state string is known once the game is over: the
		// listener's header, asked before the first move, has none.
		Header: func() *game.Record {
			if !started {
				started = true
				if mc.Listener != nil {
					return header(mc, g, seating, initial, "")
				}
			}
			return header(mc, g, seating, initial, state.String())
		},
		OnMove:      mc.OnMove,
		Listener:    mc.Listener,
		Transcripts: mc.Transcripts,
	}.Play(ctx)
}

// header is the part of a game's record known before its first move
// (final is "" then): what a listener is told at the start. The opening's
// moves are in Opening, played before Moves; initial is the state after
// them.
func header(mc MatchConfig, g Game, seating []int, initial, final string) *game.Record {
	cfg := mc.Config
	opts, _ := json.Marshal(Options{
		Setup: cfg.Setup, MaxPlies: cfg.MaxPlies, Repetition: cfg.Repetition,
		PharaohRotation: cfg.Rules.PharaohRotation, SwapMoverOnly: cfg.Rules.SwapMoverOnly,
		Initial: initial, Final: final,
		TurnMs: mc.Clock.Turn.Milliseconds(), MatchMs: mc.Clock.Match.Milliseconds(),
		ToleranceMs: mc.Clock.Tolerance.Milliseconds(),
	})
	rec := &game.Record{ID: g.ID, Game: "khet", Options: opts, Seats: seating, Sandbox: mc.Sandbox.Layers()}
	for _, m := range g.Opening {
		rec.Opening = append(rec.Opening, m.String())
	}
	rec.Players = make([]game.PlayerRecord, len(g.Players))
	for pi, p := range g.Players {
		rec.Players[pi] = p.Record("tartu")
	}
	return rec
}

func effectOf(shot Shot, s *State) Effect {
	e := Effect{Shot: shot.String(), Path: shot.Squares(), State: s.String()}
	if shot.Removed.Piece.IsPiece() {
		e.Removed = shot.Removed.String()
	}
	return e
}

// Replay plays a record's opening and moves again with the rules and
// returns the state string before the first move (after the opening) and
// after each move. It fails when a move is refused or its laser differs
// from the record's effect.
func Replay(rec *game.Record) ([]string, error) {
	var opts Options
	if err := json.Unmarshal(rec.Options, &opts); err != nil {
		return nil, fmt.Errorf("record %s: options: %w", rec.ID, err)
	}
	opening := make([]Move, len(rec.Opening))
	for i, text := range rec.Opening {
		m, err := ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("record %s: opening move %d: %w", rec.ID, i+1, err)
		}
		opening[i] = m
	}
	s, err := openingState(opts.Config(), opening)
	if err != nil {
		return nil, fmt.Errorf("record %s: opening: %w", rec.ID, err)
	}
	states := []string{s.String()}
	for i, mr := range rec.Moves {
		m, err := ParseMove(mr.Move)
		if err != nil {
			return states, fmt.Errorf("record %s: move %d: %w", rec.ID, i+1, err)
		}
		shot, err := s.Play(m)
		if err != nil {
			return states, fmt.Errorf("record %s: move %d: %w", rec.ID, i+1, err)
		}
		if len(mr.Effect) > 0 {
			var e Effect
			if err := json.Unmarshal(mr.Effect, &e); err != nil {
				return states, fmt.Errorf("record %s: move %d: effect: %w", rec.ID, i+1, err)
			}
			if e.Shot != shot.String() {
				return states, fmt.Errorf("record %s: move %d: laser %s, record says %s", rec.ID, i+1, shot, e.Shot)
			}
		}
		states = append(states, s.String())
	}
	return states, nil
}

// WriteFiles writes the record as JSON and its state log (RecordLog) next
// to it in dir, as ID.json and ID.khet, and returns the path of the JSON
// record.
func WriteFiles(dir string, rec *game.Record) (string, error) {
	log, err := RecordLog(rec)
	if err != nil {
		return "", err
	}
	base := filepath.Join(dir, rec.ID)
	if err := game.WriteFileAtomic(base+".khet", log); err != nil {
		return "", err
	}
	path := base + ".json"
	return path, rec.WriteFile(path)
}
