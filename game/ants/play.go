package ants

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/bot"
	"arena/game"
	"arena/sandbox"
)

// MatchConfig is everything one game needs besides its players.
type MatchConfig struct {
	Options Options
	MapText string
	MapName string // for the record
	// WorkDir gets one working folder per bot (bot0, bot1, ...).
	WorkDir     string
	MemoryLimit int64
	// Sandbox, when set, puts every bot in its layers (nil: off).
	Sandbox *sandbox.Sandbox
	// OnTurn, if set, is called after every turn.
	OnTurn func(TurnInfo)
	// Listener, if set, follows the game for a live view: Started at
	// turn 0 with the header (its options carry the map and turn 0's
	// frame, see mapView), then Moved once per turn with Side -1, Move
	// "turn N" and the turn's frame (frame.go) as Effect. Nothing of this
	// is computed when it is nil.
	Listener game.Listener
	// Transcripts, if set, gives a debug transcript per player index.
	Transcripts func(player int) *bot.Transcript
	// Stream, Input, Output, Error keep the texts of playgame.py's -S,
	// -I, -O and -E in the Game's buffers for WriteFiles.
	Stream, Input, Output, Error bool
	// FoodCache, if set, is shared by the games of a runner: the
	// symmetric food sets of a map are worked out once (State.UseFoodCache).
	FoodCache *FoodCache
}

// Game is one game to play: the players (in the record's order) and which
// of them sits at each engine seat (player index of the map).
type Game struct {
	ID      string
	Players []Player
	Seats   []int // seat -> index into Players
}

// Played is a finished game: the record, the replay file and the optional
// logs.
type Played struct {
	Record *game.Record
	Result *Result
	Replay []byte
	Stream []byte
	Input  [][]byte // per seat
	Output [][]byte
	Error  [][]byte
}

// recordOptions is what the record keeps of the options.
type recordOptions struct {
	Map           string  `json:"map,omitempty"`
	Turns         int     `json:"turns"`
	LoadTime      int     `json:"loadtime"`
	TurnTime      int     `json:"turntime"`
	ViewRadius2   int     `json:"viewradius2"`
	AttackRadius2 int     `json:"attackradius2"`
	SpawnRadius2  int     `json:"spawnradius2"`
	EngineSeed    int64   `json:"engine_seed"`
	PlayerSeed    int64   `json:"player_seed"`
	FoodRate      [2]int  `json:"food_rate"`
	FoodTurn      [2]int  `json:"food_turn"`
	FoodStart     [2]int  `json:"food_start"`
	FoodVisible   [2]int  `json:"food_visible"`
	Food          string  `json:"food"`
	Attack        string  `json:"attack"`
	CutoffTurn    int     `json:"cutoff_turn"`
	CutoffPercent float64 `json:"cutoff_percent"`
	Scenario      bool    `json:"scenario,omitempty"`
	Strict        bool    `json:"strict,omitempty"`
	Serial        int     `json:"serial,omitempty"`
	mapView
}

// mapView is what a viewer needs besides the frames: the map, and turn
// 0's frame (the state before any move, which no Moved call carries).
type mapView struct {
	Rows  int             `json:"rows"`
	Cols  int             `json:"cols"`
	Water []string        `json:"water"` // a string per row: '%' water, '.' land
	Start json.RawMessage `json:"start,omitempty"`
}

// listenTurns reports each turn to mc.Listener (and still calls
// mc.OnTurn): the header at turn 0, a frame per turn after it.
func listenTurns(mc MatchConfig, g Game, st *State, start time.Time) func(TurnInfo) {
	var view mapView
	return func(ti TurnInfo) {
		if ti.Turn == 0 {
			view = mapView{Rows: st.Rows, Cols: st.Cols, Water: st.waterRows(), Start: st.appendFrame(nil)}
			mc.Listener.Started(headerRecord(mc, g, st, view, start))
		} else {
			mc.Listener.Moved(ti.Turn, game.MoveRecord{Side: -1, Move: "turn " + strconv.Itoa(ti.Turn), Effect: st.appendFrame(nil)})
		}
		if mc.OnTurn != nil {
			mc.OnTurn(ti)
		}
	}
}

// headerRecord is the part of the record known before the first turn.
func headerRecord(mc MatchConfig, g Game, st *State, view mapView, start time.Time) *game.Record {
	o := st.opt
	opts, _ := json.Marshal(recordOptions{
		Map: mc.MapName, Turns: o.Turns, LoadTime: o.LoadTime, TurnTime: o.TurnTime,
		ViewRadius2: o.ViewRadius2, AttackRadius2: o.AttackRadius2, SpawnRadius2: o.SpawnRadius2,
		EngineSeed: st.EngineSeed, PlayerSeed: st.PlayerSeed,
		FoodRate: o.FoodRate, FoodTurn: o.FoodTurn, FoodStart: o.FoodStart, FoodVisible: o.FoodVisible,
		Food: o.Food, Attack: o.Attack, CutoffTurn: o.CutoffTurn, CutoffPercent: o.CutoffPercent,
		Scenario: o.Scenario, Strict: o.Strict, Serial: o.Serial, mapView: view,
	})
	rec := &game.Record{
		ID: g.ID, Game: "ants", Options: opts, Seats: append([]int(nil), g.Seats...),
		Start: start, Seed: st.EngineSeed, Sandbox: mc.Sandbox.Layers(),
	}
	rec.Players = make([]game.PlayerRecord, len(g.Players))
	for pi, p := range g.Players {
		rec.Players[pi] = game.PlayerRecord{Name: p.Name, Command: p.Command, Protocol: "ants"}
	}
	return rec
}

// PlayGame plays one game with real bot processes. It returns an error
// only when the game cannot be played (bad map, cancelled); what bots do
// wrong is judged by the rules and shows in the statuses.
func PlayGame(ctx context.Context, mc MatchConfig, g Game) (*Played, error) {
	m, err := ParseMap(mc.MapText)
	if err != nil {
		return nil, err
	}
	if len(g.Seats) != m.Players {
		return nil, fmt.Errorf("the map is for %d players, got %d bots", m.Players, len(g.Seats))
	}
	st, err := NewState(m, mc.Options)
	if err != nil {
		return nil, err
	}
	st.UseFoodCache(mc.FoodCache)
	n := m.Players
	cfg := ProcessConfig{MemoryLimit: mc.MemoryLimit, Sandbox: mc.Sandbox}
	for seat, pi := range g.Seats {
		cfg.Players = append(cfg.Players, g.Players[pi])
		dir := filepath.Join(mc.WorkDir, fmt.Sprintf("bot%d", seat))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("working folder: %w", err)
		}
		cfg.Dirs = append(cfg.Dirs, dir)
		if mc.Transcripts != nil {
			cfg.Transcripts = append(cfg.Transcripts, mc.Transcripts(pi))
		}
	}
	start := time.Now()
	bots := StartProcesses(cfg)
	defer bots.Close()

	var stream bytes.Buffer
	in, out, errl := make([]*bytes.Buffer, n), make([]*bytes.Buffer, n), make([]*bytes.Buffer, n)
	logs := Logs{}
	if mc.Stream {
		logs.Stream = &stream
	}
	for b := 0; b < n; b++ {
		in[b], out[b], errl[b] = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
		if mc.Input {
			logs.Input = append(logs.Input, in[b])
		}
		if mc.Output {
			logs.Output = append(logs.Output, out[b])
		}
		if mc.Error {
			logs.Error = append(logs.Error, errl[b])
		}
	}
	e := &Engine{State: st, Bots: bots, Logs: logs, OnTurn: mc.OnTurn}
	if mc.Listener != nil {
		e.OnTurn = listenTurns(mc, g, st, start)
	}
	res, err := e.Run(ctx)
	if err != nil {
		return nil, err
	}
	// The error logs hold what the engine read during the turns; what a
	// bot wrote after its last answer stays in the record only.
	for b := 0; b < n; b++ {
		if msg := bots.StartError(b); msg != "" && mc.Error {
			errl[b].WriteString("bot did not start: " + msg + "\n")
		}
	}
	// playgame.py names each bot it was given once, in order: seats that
	// --fill gives the last bot again add no name.
	var names []string
	named := map[int]bool{}
	for _, pi := range g.Seats {
		if !named[pi] {
			named[pi] = true
			names = append(names, ReplayName(g.Players[pi]))
		}
	}
	played := &Played{Result: res, Replay: ReplayJSON(res, names)}
	if mc.Stream {
		played.Stream = stream.Bytes()
	}
	for b := 0; b < n; b++ {
		if mc.Input {
			played.Input = append(played.Input, in[b].Bytes())
		}
		if mc.Output {
			played.Output = append(played.Output, out[b].Bytes())
		}
		if mc.Error {
			played.Error = append(played.Error, errl[b].Bytes())
		}
	}
	played.Record = makeRecord(mc, g, st, res, bots, start)
	return played, nil
}

// statusFault names the fault behind an engine status, "" for a bot that
// survived or was merely beaten.
func statusFault(status string) game.Reason {
	switch {
	case strings.HasPrefix(status, "crashed"):
		return game.ReasonCrash
	case status == "timeout":
		return game.ReasonTimeout
	case status == "invalid":
		return game.ReasonIllegal
	}
	return ""
}

func makeRecord(mc MatchConfig, g Game, st *State, res *Result, bots *ProcessBots, start time.Time) *game.Record {
	// The map goes into every record (not only live ones) so that a record
	// alone can draw its board; turn 0's frame is for live viewers only.
	rec := headerRecord(mc, g, st, mapView{Rows: st.Rows, Cols: st.Cols, Water: st.waterRows()}, start)
	rec.Moves, rec.Turns, rec.Reason, rec.End = bots.MoveRecords(), res.GameLength, game.Reason(res.Cutoff), time.Now()
	rec.Scores = make([]int, len(g.Players))
	var details []string
	for seat, pi := range g.Seats {
		rec.Scores[pi] = res.Score[seat]
		pr := &rec.Players[pi]
		pr.Exit = res.Status[seat]
		pr.Fault = statusFault(res.Status[seat])
		pr.TimeMs = float64(bots.Thought(seat).Microseconds()) / 1000
		if p := bots.Process(seat); p != nil {
			pr.Stderr = p.Stderr()
			pr.CPUMs = float64(p.CPUTime().Microseconds()) / 1000
			pr.PeakMemory = p.Group().PeakMemory()
		} else if msg := bots.StartError(seat); msg != "" {
			pr.Exit = "crashed 0: " + msg
		}
		d := fmt.Sprintf("%s %s", g.Players[pi].Name, res.Status[seat])
		if why := bots.Late(seat); why != "" && pr.Fault == game.ReasonTimeout {
			d += " (" + why + ")"
		}
		details = append(details, d)
	}
	rec.Detail = strings.Join(details, ", ")
	if w := Winner(res.Score); w >= 0 {
		wp := g.Seats[w]
		rec.Winner = &wp
	}
	return rec
}

// Winner is the seat with the best score, or -1 when the best is shared:
// a shared top score is a draw between those seats, whatever the others
// scored.
func Winner(scores []int) int {
	best := -1
	for seat, s := range scores {
		if best < 0 || s > scores[best] {
			best = seat
		}
	}
	for seat, s := range scores {
		if seat != best && s == scores[best] {
			return -1
		}
	}
	return best
}

// WriteFiles writes the game's files into dir as playgame.py names them
// under --log_dir, prefixed with the game id: ID.replay, ID.stream,
// ID.bot<i>.input/.output/.error, and the arena record ID.json, whose
// path it returns.
func WriteFiles(dir string, p *Played) (string, error) {
	id := p.Record.ID
	write := func(name string, data []byte) error {
		return game.WriteFileAtomic(filepath.Join(dir, name), data)
	}
	if err := write(id+".replay", p.Replay); err != nil {
		return "", err
	}
	if p.Stream != nil {
		if err := write(id+".stream", p.Stream); err != nil {
			return "", err
		}
	}
	for kind, logs := range map[string][][]byte{"input": p.Input, "output": p.Output, "error": p.Error} {
		for b, data := range logs {
			if err := write(fmt.Sprintf("%s.bot%d.%s", id, b, kind), data); err != nil {
				return "", err
			}
		}
	}
	path := filepath.Join(dir, id+".json")
	return path, p.Record.WriteFile(path)
}
