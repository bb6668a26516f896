package ants

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A recorded game folder (testdata/conformance/ants/* in the repository) holds a game of
// the official engine: map.map, game.json (options and seeds), each bot's
// answers (bot<i>.moves), what the engine sent it (bot<i>.input), its
// judged orders (bot<i>.output), the stream (stream.txt) and the replay
// (replay.json). Replaying the answers through this referee must give
// the same bytes and the same replay.

// Recorded is one recorded game, loaded.
type Recorded struct {
	Dir     string
	MapText string
	Options Options
	Names   []string
	Answers []map[int]Answer // per bot, per turn
}

type recordedOptions struct {
	Turns         *int     `json:"turns"`
	TurnTime      *int     `json:"turntime"`
	LoadTime      *int     `json:"loadtime"`
	EngineSeed    *int64   `json:"engine_seed"`
	PlayerSeed    *int64   `json:"player_seed"`
	Food          string   `json:"food"`
	Attack        string   `json:"attack"`
	ViewRadius2   *int     `json:"viewradius2"`
	AttackRadius2 *int     `json:"attackradius2"`
	SpawnRadius2  *int     `json:"spawnradius2"`
	FoodRate      *[2]int  `json:"food_rate"`
	FoodTurn      *[2]int  `json:"food_turn"`
	FoodStart     *[2]int  `json:"food_start"`
	FoodVisible   *[2]int  `json:"food_visible"`
	CutoffTurn    *int     `json:"cutoff_turn"`
	CutoffPercent *float64 `json:"cutoff_percent"`
	Strict        bool     `json:"strict"`
	Scenario      bool     `json:"scenario"`
	Serial        *int     `json:"serial"`
	EndWait       *float64 `json:"end_wait"`
}

var (
	turnHeader   = regexp.MustCompile(`^# turn (\d+)$`)
	statusHeader = regexp.MustCompile(`^# status (timeout|crashed)$`)
)

// LoadRecorded reads a recorded game folder.
func LoadRecorded(dir string) (*Recorded, error) {
	gameJSON, err := os.ReadFile(filepath.Join(dir, "game.json"))
	if err != nil {
		return nil, fmt.Errorf("recorded game: %w", err)
	}
	var meta struct {
		Map         string          `json:"map"`
		Players     int             `json:"players"`
		BotCommands []string        `json:"bot_commands"`
		Options     recordedOptions `json:"options"`
	}
	if err := json.Unmarshal(gameJSON, &meta); err != nil {
		return nil, fmt.Errorf("recorded game %s: %w", filepath.Join(dir, "game.json"), err)
	}
	mapName := meta.Map
	if mapName == "" {
		mapName = "map.map"
	}
	mapText, err := os.ReadFile(filepath.Join(dir, mapName))
	if err != nil {
		return nil, fmt.Errorf("recorded game: %w", err)
	}
	r := &Recorded{Dir: dir, MapText: string(mapText), Options: meta.Options.options()}
	for b := 0; b < meta.Players; b++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.moves", b)))
		if err != nil {
			return nil, fmt.Errorf("recorded game: %w", err)
		}
		r.Answers = append(r.Answers, parseMovesFile(string(data)))
		// The engine split the command at white space and named the bot
		// after the last word that was an existing path in its folder.
		name := fmt.Sprintf("bot%d", b)
		if b < len(meta.BotCommands) {
			if n := CommandName(strings.Fields(meta.BotCommands[b]), looksLikeFile); n != "" {
				name = n
			}
		}
		r.Names = append(r.Names, name)
	}
	return r, nil
}

func (o recordedOptions) options() Options {
	opt := DefaultOptions()
	setInt := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	setInt(&opt.Turns, o.Turns)
	setInt(&opt.TurnTime, o.TurnTime)
	setInt(&opt.LoadTime, o.LoadTime)
	setInt(&opt.ViewRadius2, o.ViewRadius2)
	setInt(&opt.AttackRadius2, o.AttackRadius2)
	setInt(&opt.SpawnRadius2, o.SpawnRadius2)
	setInt(&opt.CutoffTurn, o.CutoffTurn)
	setInt(&opt.Serial, o.Serial)
	if o.EngineSeed != nil {
		opt.EngineSeed = *o.EngineSeed
	}
	if o.PlayerSeed != nil {
		opt.PlayerSeed = *o.PlayerSeed
	}
	for _, p := range []struct {
		dst *[2]int
		v   *[2]int
	}{{&opt.FoodRate, o.FoodRate}, {&opt.FoodTurn, o.FoodTurn}, {&opt.FoodStart, o.FoodStart}, {&opt.FoodVisible, o.FoodVisible}} {
		if p.v != nil {
			*p.dst = *p.v
		}
	}
	if o.Food != "" {
		opt.Food = o.Food
	}
	if o.Attack != "" {
		opt.Attack = o.Attack
	}
	if o.CutoffPercent != nil {
		opt.CutoffPercent = *o.CutoffPercent
	}
	opt.Strict, opt.Scenario = o.Strict, o.Scenario
	if o.EndWait != nil {
		opt.EndWait = time.Duration(*o.EndWait * float64(time.Second))
	}
	return opt
}

// parseMovesFile reads bot<i>.moves: "# turn N" opens a turn, "# status
// timeout|crashed" marks the bot's fate in it, other lines are answers.
func parseMovesFile(text string) map[int]Answer {
	out := map[int]Answer{}
	turn := -1
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if m := turnHeader.FindStringSubmatch(line); m != nil {
			turn, _ = strconv.Atoi(m[1])
			out[turn] = Answer{}
			continue
		}
		if turn < 0 {
			continue
		}
		a := out[turn]
		if m := statusHeader.FindStringSubmatch(line); m != nil {
			a.Status = m[1]
		} else {
			a.Lines = append(a.Lines, line)
		}
		out[turn] = a
	}
	return out
}

// recordedBots answers with the recorded lines.
type recordedBots struct {
	answers [][]recordedAnswer // per bot, indexed by turn
	missing string             // the first turn the engine asked for and the record lacks
	out     []Answer           // Moves' result, reused: the engine reads it before asking again
}

type recordedAnswer struct {
	Answer
	ok bool
}

func newRecordedBots(answers []map[int]Answer) *recordedBots {
	r := &recordedBots{answers: make([][]recordedAnswer, len(answers))}
	for b, m := range answers {
		last := -1
		for t := range m {
			last = max(last, t)
		}
		r.answers[b] = make([]recordedAnswer, last+1)
		for t, a := range m {
			if t >= 0 {
				r.answers[b][t] = recordedAnswer{Answer{Lines: a.Lines, Status: a.Status}, true}
			}
		}
	}
	return r
}

func (r *recordedBots) Started(int) bool { return true }
func (r *recordedBots) Send(int, []byte) {}
func (r *recordedBots) Resume(int)       {}
func (r *recordedBots) Kill(int)         {}
func (r *recordedBots) Moves(turn int, group []int, _ time.Duration) []Answer {
	out := r.out[:0]
	for _, b := range group {
		var a recordedAnswer
		if turn >= 0 && turn < len(r.answers[b]) {
			a = r.answers[b][turn]
		}
		if !a.ok && r.missing == "" {
			r.missing = fmt.Sprintf("bot %d was asked for turn %d, which the record does not have", b, turn)
		}
		out = append(out, a.Answer)
	}
	r.out = out
	return out
}

// Replay runs the recorded game through the referee and returns the
// result with the texts the engine produced.
func (r *Recorded) Replay(ctx context.Context) (*Result, *ReplayLogs, error) {
	m, err := ParseMap(r.MapText)
	if err != nil {
		return nil, nil, err
	}
	st, err := NewState(m, r.Options)
	if err != nil {
		return nil, nil, err
	}
	logs := newReplayLogs(m.Players)
	bots := newRecordedBots(r.Answers)
	e := &Engine{State: st, Bots: bots, Logs: logs.logs(), Sleep: func(time.Duration) {}}
	res, err := e.Run(ctx)
	if err != nil {
		return nil, nil, err
	}
	logs.missing = bots.missing
	return res, logs, nil
}

// ReplayLogs are the texts of one replayed game.
type ReplayLogs struct {
	Stream               TextLog
	Input, Output, Error []*TextLog
	missing              string
}

func newReplayLogs(n int) *ReplayLogs {
	l := &ReplayLogs{}
	for i := 0; i < n; i++ {
		l.Input = append(l.Input, &TextLog{})
		l.Output = append(l.Output, &TextLog{})
		l.Error = append(l.Error, &TextLog{})
	}
	return l
}

// TextLog collects a text written piece by piece, in chunks that are
// never copied while it grows (a bytes.Buffer doubles and copies: for the
// stream of a long game that is most of what a replay allocates). Bytes
// joins the chunks once.
type TextLog struct {
	chunks [][]byte
	n      int
}

// textLogChunk is the largest chunk; the first are smaller, for the short
// logs.
const textLogChunk = 64 << 10

func (t *TextLog) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		c := t.room()
		k := min(len(rest), cap(*c)-len(*c))
		*c = append(*c, rest[:k]...)
		rest = rest[k:]
	}
	t.n += len(p)
	return len(p), nil
}

// WriteString is Write for a string (io.WriteString calls it).
func (t *TextLog) WriteString(s string) (int, error) {
	for rest := s; len(rest) > 0; {
		c := t.room()
		k := min(len(rest), cap(*c)-len(*c))
		*c = append(*c, rest[:k]...)
		rest = rest[k:]
	}
	t.n += len(s)
	return len(s), nil
}

// room returns the last chunk, with room for at least one byte.
func (t *TextLog) room() *[]byte {
	last := len(t.chunks) - 1
	if last >= 0 && len(t.chunks[last]) < cap(t.chunks[last]) {
		return &t.chunks[last]
	}
	size := 1 << 10
	if last >= 0 {
		size = min(max(2*cap(t.chunks[last]), size), textLogChunk)
	}
	t.chunks = append(t.chunks, make([]byte, 0, size))
	return &t.chunks[last+1]
}

// Len is the number of bytes written.
func (t *TextLog) Len() int { return t.n }

// Bytes returns the text; it stays valid until the next write.
func (t *TextLog) Bytes() []byte {
	if len(t.chunks) > 1 {
		all := make([]byte, 0, t.n)
		for _, c := range t.chunks {
			all = append(all, c...)
		}
		t.chunks = [][]byte{all}
	}
	if len(t.chunks) == 0 {
		return nil
	}
	return t.chunks[0]
}

// String returns the text.
func (t *TextLog) String() string { return string(t.Bytes()) }

func (l *ReplayLogs) logs() Logs {
	lg := Logs{Stream: &l.Stream}
	for i := range l.Input {
		lg.Input = append(lg.Input, l.Input[i])
		lg.Output = append(lg.Output, l.Output[i])
		lg.Error = append(lg.Error, l.Error[i])
	}
	return lg
}

// Conform replays a recorded folder and returns the first difference from
// the official engine's files, or "" when everything matches: every byte
// sent to every bot, the replay as JSON values (statuses, scores, food,
// ants, hills, ...), the judged orders, the engine's lines in the error
// logs (crashes, timeouts, ignored and invalid orders) and the stream.
func Conform(ctx context.Context, dir string) (string, error) {
	rec, err := LoadRecorded(dir)
	if err != nil {
		return "", err
	}
	res, logs, err := rec.Replay(ctx)
	if err != nil {
		return "", err
	}
	for b := range rec.Answers {
		want, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.input", b)))
		if err != nil {
			return "", err
		}
		if d := firstLineDiff(logs.Input[b].Bytes(), want); d != "" {
			return fmt.Sprintf("bot%d.input: %s", b, d), nil
		}
	}
	if logs.missing != "" {
		return logs.missing, nil
	}
	want, err := os.ReadFile(filepath.Join(dir, "replay.json"))
	if err != nil {
		return "", err
	}
	// The same bytes are the same values; parsing both is for telling
	// where they differ.
	if got := ReplayJSON(res, rec.Names); !bytes.Equal(got, want) {
		if d := FirstJSONDifference(got, want); d != "" {
			return "replay.json: " + d, nil
		}
	}
	for b := range rec.Answers {
		want, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.output", b)))
		if err != nil {
			continue // optional
		}
		if d := firstLineDiff(logs.Output[b].Bytes(), want); d != "" {
			return fmt.Sprintf("bot%d.output: %s", b, d), nil
		}
	}
	for b := range rec.Answers {
		want, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("bot%d.error", b)))
		if err != nil {
			continue // optional
		}
		// Only the engine's own lines count: the bots' stderr is theirs.
		if d := firstLineDiff(engineErrorLines(logs.Error[b].String()), engineErrorLines(string(want))); d != "" {
			return fmt.Sprintf("bot%d.error: %s", b, d), nil
		}
	}
	if want, err := os.ReadFile(filepath.Join(dir, "stream.txt")); err == nil {
		if d := firstLineDiff(logs.Stream.Bytes(), want); d != "" {
			return "stream.txt: " + d, nil
		}
	}
	return "", nil
}

// firstLineDiff names the first line where got and want differ.
func firstLineDiff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g := strings.SplitAfter(string(got), "\n")
	w := strings.SplitAfter(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d: ours %q, recorded %q", i+1, a, b)
		}
	}
	return "differs"
}

var engineHeader = regexp.MustCompile(`^turn +\d+ bot \d+ (crashed|timed out|ignored actions:|invalid actions:)$`)

// engineErrorLines keeps the lines of an error log that the engine wrote:
// its "turn N bot B ..." notes and the judged orders after them.
func engineErrorLines(text string) []byte {
	var out []byte
	judged := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case engineHeader.MatchString(line):
			out = append(out, line+"\n"...)
			judged = strings.HasSuffix(line, "actions:")
		case judged && strings.Contains(line, " # "):
			out = append(out, line+"\n"...)
		default:
			judged = false
		}
	}
	return out
}
