package gomoku

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// Player is a brain (or a person) entered in a match: who it is and
// the protocol options it speaks (a person speaks none).
type Player struct {
	match.Player
	Protocol Protocol
	// Info are extra "key value" pairs the brain is told as INFO lines
	// after the standard ones.
	Info []string
}

// MatchConfig holds everything that is the same for every game of a
// match.
type MatchConfig struct {
	Config      Config
	Clock       match.Clock
	Ponder      bool
	MemoryLimit int64  // bytes per brain, 0 = none
	Folder      string // persistent folder for INFO folder
	Strict      bool   // pipe protocol: stray ERROR lines are faults
	CRLF        bool   // file protocol: CRLF line ends
	// PauseGrace is the longest a pipe brain is given to block after its
	// move before it is paused (0 = bot.DefaultPauseGrace).
	PauseGrace time.Duration
	// WorkDir holds one working folder per player (the brains may keep a
	// sub-folder named after themselves there for the whole match).
	WorkDir string
	// Sandbox, when set, puts every brain in its layers (nil: off).
	Sandbox *sandbox.Sandbox
	OnMove  func(match.MoveEvent)
	// Listener, if set, is told the game's header before the first move
	// and every move as it is played.
	Listener game.Listener
	// Transcripts, if set, gives the transcript for a player of a game
	// (nil: none).
	Transcripts func(gameID string, player int) *bot.Transcript
}

// Options is the part of a record that describes the game's parameters.
type Options struct {
	Width       int     `json:"width"`
	Height      int     `json:"height"`
	Rule        Rule    `json:"rule"`
	EndEmpty    int     `json:"end_empty,omitempty"`
	MaxMoves    int     `json:"max_moves,omitempty"`
	TurnMs      int64   `json:"turn_ms"`
	MatchMs     int64   `json:"match_ms"`
	ToleranceMs int64   `json:"tolerance_ms"`
	Opening     []Point `json:"-"`
}

// Game is one game to play: the players in the order the user gave them,
// which of them plays Black, and the opening stones.
type Game struct {
	ID      string
	Players []Player // two
	Black   int      // index into Players of the player with Black
	Opening []Point
}

// PlayGame plays one game and returns its record. It returns an error only
// when the game could not be played at all (bad opening, cancelled).
func PlayGame(ctx context.Context, mc MatchConfig, g Game) (*game.Record, error) {
	state, err := NewState(mc.Config)
	if err != nil {
		return nil, err
	}
	for i, p := range g.Opening {
		if _, err := state.Play(p); err != nil {
			return nil, fmt.Errorf("opening stone %d (%v): %w", i+1, p, err)
		}
		if state.Over() {
			return nil, fmt.Errorf("opening ends the game at stone %d", i+1)
		}
	}
	seating := []int{g.Black, 1 - g.Black} // side -> player
	return match.Table[Point]{
		ID: g.ID, Referee: Referee{state}, Players: basePlayers(g.Players), Seating: seating,
		Clock: mc.Clock, Ponder: mc.Ponder, Memory: mc.MemoryLimit, WorkDir: mc.WorkDir,
		Seat: func(side, pi int, dir string, memory int64, tr *bot.Transcript) match.Seat[Point] {
			pl := g.Players[pi]
			opts := SeatOptions{
				Args: pl.Args, Env: pl.Env, Dir: dir, MemoryLimit: memory, Folder: mc.Folder,
				Strict: mc.Strict, CRLF: mc.CRLF, Info: pl.Info, PauseGrace: mc.PauseGrace, Transcript: tr,
				Sandbox: mc.Sandbox,
			}
			if pl.Protocol == ProtoFile {
				return NewFileSeat(state, StoneOf(side), opts)
			}
			return NewPipeSeat(state, StoneOf(side), opts)
		},
		Human:       func(_ int, h *match.Human) match.Seat[Point] { return humanSeat(h, state) },
		Header:      func() *game.Record { return header(mc, g, seating) },
		OnMove:      mc.OnMove,
		Listener:    mc.Listener,
		Transcripts: mc.Transcripts,
	}.Play(ctx)
}

// basePlayers returns what every game knows of the players.
func basePlayers(ps []Player) []match.Player {
	out := make([]match.Player, len(ps))
	for i, p := range ps {
		out[i] = p.Player
	}
	return out
}

// header is the part of a game's record known before its first move:
// what a listener is told at the start. The opening stones are in
// Opening, placed before Moves (Black first).
func header(mc MatchConfig, g Game, seating []int) *game.Record {
	cfg := mc.Config
	opts, _ := json.Marshal(Options{
		Width: cfg.Width, Height: cfg.Height, Rule: cfg.Rule, EndEmpty: cfg.EndEmpty, MaxMoves: cfg.MaxMoves,
		TurnMs: mc.Clock.Turn.Milliseconds(), MatchMs: mc.Clock.Match.Milliseconds(),
		ToleranceMs: mc.Clock.Tolerance.Milliseconds(),
	})
	rec := &game.Record{ID: g.ID, Game: "gomoku", Options: opts, Seats: seating, Sandbox: mc.Sandbox.Layers()}
	for _, p := range g.Opening {
		rec.Opening = append(rec.Opening, p.String())
	}
	rec.Players = make([]game.PlayerRecord, len(g.Players))
	for pi, p := range g.Players {
		rec.Players[pi] = p.Record(string(p.Protocol))
	}
	return rec
}

// WriteFiles writes the record's Piskvork .psq and SGF files next to its
// JSON record in dir, and the JSON record itself; it returns the path of
// the JSON record.
func WriteFiles(dir string, rec *game.Record, turn time.Duration) (string, error) {
	var opts Options
	if err := json.Unmarshal(rec.Options, &opts); err != nil {
		return "", fmt.Errorf("record %s: options: %w", rec.ID, err)
	}
	base := filepath.Join(dir, rec.ID)
	if err := writeWith(base+".psq", func(f *os.File) error { return WritePSQ(f, psqOf(rec, opts, turn)) }); err != nil {
		return "", err
	}
	if err := writeWith(base+".sgf", func(f *os.File) error { return WriteSGF(f, sgfOf(rec, opts)) }); err != nil {
		return "", err
	}
	path := base + ".json"
	return path, rec.WriteFile(path)
}

func writeWith(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// recordMoves returns every stone of a record in order, with its time in
// ms (opening stones take 0).
func recordMoves(rec *game.Record) ([]Point, []int) {
	var pts []Point
	var times []int
	for _, s := range rec.Opening {
		p, _ := ParsePoint(s)
		pts = append(pts, p)
		times = append(times, 0)
	}
	for _, m := range rec.Moves {
		p, _ := ParsePoint(m.Move)
		pts = append(pts, p)
		times = append(times, int(m.TimeMs+0.5))
	}
	return pts, times
}

func psqOf(rec *game.Record, opts Options, turn time.Duration) PSQ {
	level := PSQLevel(int(turn.Milliseconds()))
	pts, times := recordMoves(rec)
	g := PSQ{Width: opts.Width, Height: opts.Height, Level1: level, Level2: level, First: rec.FirstPlayer()}
	for i, p := range pts {
		g.Moves = append(g.Moves, PSQMove{P: p, Ms: times[i]})
	}
	for _, p := range rec.Players {
		g.Names = append(g.Names, p.Name)
	}
	switch rec.Reason {
	case game.ReasonTimeout:
		g.ErrorCode = 15
	case game.ReasonCrash, game.ReasonIllegal, game.ReasonProtocol, game.ReasonMemory:
		g.ErrorCode = -2
	}
	return g
}

func sgfOf(rec *game.Record, opts Options) SGF {
	pts, _ := recordMoves(rec)
	black, white := rec.Players[rec.Seats[0]].Name, rec.Players[rec.Seats[1]].Name
	o := Outcome{Reason: string(rec.Reason)}
	if rec.Winner != nil {
		o.Winner = White
		if *rec.Winner == rec.Seats[0] {
			o.Winner = Black
		}
	}
	return SGF{
		Width: opts.Width, Height: opts.Height, Rule: opts.Rule, Black: black, White: white,
		Event: strings.Join([]string{black, white}, " vs "), Date: rec.Start.Format("2006-01-02"),
		Result: SGFResult(o), Termination: string(rec.Reason), Moves: pts,
	}
}
