package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/bot"
	"arena/match"
)

// A bots file (--bots FILE) lists bots with settings of their own, as
// cutechess-cli's engine options do:
//
//	[
//	  {"name": "mine", "cmd": "./pbrain-mine", "dir": "engines/mine",
//	   "turn_time": "2s", "match_time": "2m", "memory": "350MB",
//	   "env": {"OMP_NUM_THREADS": "1"}, "options": {"hash_size": 64}},
//	  {"name": "ref", "cmd": "builtin"}
//	]
//
// name and cmd are required; every other field is optional and applies
// only to the games whose runners honour it (game.Info.PlayerSettings).

// Optional fields of a bots file entry, as spelled in the file.
const (
	fieldDir       = "dir"
	fieldProto     = "proto"
	fieldEnv       = "env"
	fieldMemory    = "memory"
	fieldTurnTime  = "turn_time"
	fieldMatchTime = "match_time"
	fieldOptions   = "options"
)

// botEntry is one bot of a bots file as written.
type botEntry struct {
	Name      string            `json:"name"`
	Cmd       string            `json:"cmd"`
	Dir       string            `json:"dir,omitempty"`
	Proto     string            `json:"proto,omitempty"`
	Env       map[string]scalar `json:"env,omitempty"`
	Memory    scalar            `json:"memory,omitempty"`
	TurnTime  scalar            `json:"turn_time,omitempty"`
	MatchTime scalar            `json:"match_time,omitempty"`
	Options   map[string]scalar `json:"options,omitempty"`
}

// scalar is a JSON string, number or boolean read as its text, so that
// "options": {"hash": 64} and {"hash": "64"} mean the same.
type scalar string

func (s *scalar) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case string:
		*s = scalar(v)
	case float64, bool:
		*s = scalar(bytes.TrimSpace(data))
	default:
		return fmt.Errorf("want a string, number or true/false, got %s", bytes.TrimSpace(data))
	}
	return nil
}

// given lists the optional fields the entry sets.
func (e botEntry) given() []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{fieldDir, e.Dir != ""}, {fieldProto, e.Proto != ""}, {fieldEnv, len(e.Env) > 0},
		{fieldMemory, e.Memory != ""}, {fieldTurnTime, e.TurnTime != ""}, {fieldMatchTime, e.MatchTime != ""},
		{fieldOptions, len(e.Options) > 0},
	} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// parseBotsFile reads the JSON list of a bots file and checks what can be
// checked without the game: required fields, unknown fields, duplicate
// names, durations, sizes and environment names. Errors name the bot by
// its position and, once known, its name.
func parseBotsFile(data []byte) ([]botEntry, error) {
	var raw []json.RawMessage
	if err := strictDecode(data, &raw); err != nil {
		return nil, jsonError(data, err, "want a JSON list of bots")
	}
	if len(raw) == 0 {
		return nil, errors.New("the list of bots is empty")
	}
	entries := make([]botEntry, len(raw))
	seen := map[string]int{}
	for i, r := range raw {
		e := &entries[i]
		if err := strictDecode(r, e); err != nil {
			return nil, fmt.Errorf("bot %d: %w", i+1, jsonError(r, err, "want an object with name and cmd"))
		}
		e.Name = strings.TrimSpace(e.Name)
		if e.Name == "" {
			return nil, fmt.Errorf("bot %d: no name", i+1)
		}
		where := fmt.Sprintf("bot %d (%q)", i+1, e.Name)
		if strings.ContainsAny(e.Name, "/\\\x00\n") {
			return nil, fmt.Errorf("%s: a name may not hold a slash, backslash or line break", where)
		}
		if j, dup := seen[e.Name]; dup {
			return nil, fmt.Errorf("%s: the name is also bot %d's", where, j)
		}
		seen[e.Name] = i + 1
		if strings.TrimSpace(e.Cmd) == "" {
			return nil, fmt.Errorf("%s: no cmd", where)
		}
		if _, err := bot.SplitCommand(e.Cmd); err != nil {
			return nil, fmt.Errorf("%s: cmd: %w", where, err)
		}
		for _, d := range []struct {
			field string
			v     scalar
		}{{fieldTurnTime, e.TurnTime}, {fieldMatchTime, e.MatchTime}} {
			if _, err := parseBotDuration(d.v); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", where, d.field, err)
			}
		}
		if e.Memory != "" {
			if _, err := parseSize(string(e.Memory)); err != nil {
				return nil, fmt.Errorf("%s: memory: %w", where, err)
			}
		}
		for k := range e.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return nil, fmt.Errorf("%s: env: %q is not a variable name", where, k)
			}
		}
		for k, v := range e.Options {
			if k == "" || strings.ContainsAny(k, " \t\r\n\x00") || strings.ContainsAny(string(v), "\r\n\x00") {
				return nil, fmt.Errorf("%s: options: %q: keys are one word, values one line", where, k)
			}
		}
	}
	return entries, nil
}

// strictDecode decodes exactly one JSON value, refusing unknown fields
// and anything after the value.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more after the list of bots")
	}
	return nil
}

// jsonError says in one line what is wrong with data: where a syntax
// error is, which field is unknown, or what was expected instead.
func jsonError(data []byte, err error, want string) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line := 1 + bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("line %d: %s", line, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Errorf("%s: want %s, got a JSON %s", typ.Field, typ.Type, typ.Value)
		}
		return fmt.Errorf("%s, got a JSON %s", want, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s, got the end of the file", want)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// parseBotDuration reads a time odds field: a Go duration such as "300ms"
// or "2m", or a whole number of milliseconds; "" is unset.
func parseBotDuration(v scalar) (time.Duration, error) {
	s := string(v)
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		ms, errMs := strconv.ParseInt(s, 10, 64)
		if errMs != nil {
			return 0, fmt.Errorf("%q: want a duration such as 300ms or 2m", s)
		}
		d = time.Duration(ms) * time.Millisecond
	}
	if d < 0 {
		return 0, fmt.Errorf("%q: must not be negative", s)
	}
	return d, nil
}

// readBotsFile reads the bots file at path and turns its entries into
// players of gameName, whose runner honours the optional fields in
// fields. clock is the match's clock, from which a bot's time odds start.
// Every error is one line naming the file.
func readBotsFile(path, gameName string, fields []string, clock match.Clock) ([]player, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--bots: %w", err)
	}
	entries, err := parseBotsFile(data)
	if err != nil {
		return nil, fmt.Errorf("--bots %s: %w", path, err)
	}
	players := make([]player, len(entries))
	for i, e := range entries {
		p, err := e.player(filepath.Dir(path), gameName, fields, clock)
		if err != nil {
			return nil, fmt.Errorf("--bots %s: bot %q: %w", path, e.Name, err)
		}
		p.BotsFile = path
		players[i] = p
	}
	return players, nil
}

// player makes the entry a player of gameName. A relative dir is taken
// from base, the bots file's folder.
func (e botEntry) player(base, gameName string, fields []string, clock match.Clock) (player, error) {
	for _, f := range e.given() {
		if !slices.Contains(fields, f) {
			return player{}, fmt.Errorf("%s does not apply to %s", f, gameName)
		}
	}
	dir := ""
	if e.Dir != "" {
		dir = e.Dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(base, dir)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return player{}, fmt.Errorf("dir: %w", err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return player{}, fmt.Errorf("dir %s: not a folder", e.Dir)
		}
		dir = abs
	}
	p, err := parseBot(e.Name, e.Cmd, gameName, dir)
	if err != nil {
		return player{}, err
	}
	p.Files = dir
	p.Proto = e.Proto
	for _, k := range sortedKeys(e.Env) {
		p.Env = append(p.Env, k+"="+string(e.Env[k]))
	}
	for _, k := range sortedKeys(e.Options) {
		p.Options = append(p.Options, [2]string{k, string(e.Options[k])})
	}
	if e.Memory != "" {
		if p.MemoryLimit, err = parseSize(string(e.Memory)); err != nil {
			return player{}, fmt.Errorf("memory: %w", err)
		}
	}
	turn, _ := parseBotDuration(e.TurnTime)
	matchTime, _ := parseBotDuration(e.MatchTime)
	if e.TurnTime != "" || e.MatchTime != "" {
		p.Clock = clock
		if e.TurnTime != "" {
			p.Clock.Turn = turn
		}
		if e.MatchTime != "" {
			p.Clock.Match = matchTime
		}
	}
	return p, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// botsFlag is the help of --bots, shared by every command that takes it.
const botsFlag = `JSON file listing bots with settings of their own: [{"name", "cmd", "dir", "proto", "env", "memory", "turn_time", "match_time", "options"}, ...]; ` +
	`"dir" is copied into the bot's fresh working folder before every game (cmd's program is looked for there first); its bots come after the --bot ones`

// players reads the bots of the --bot flags, then those of the --bots
// file, or takes the game's default bots when neither is given, and
// checks that the game takes that many.
func (f *matchFlags) players(d driver, clock match.Clock) ([]player, error) {
	if len(f.bots) == 0 && f.botsFile == "" {
		f.bots = d.info.DefaultBots
	}
	players, err := parsePlayers(f.bots, d.info.Name)
	if err != nil {
		return nil, err
	}
	if f.botsFile != "" {
		listed, err := readBotsFile(f.botsFile, d.info.Name, d.info.PlayerSettings, clock)
		if err != nil {
			return nil, err
		}
		for _, p := range listed {
			if slices.ContainsFunc(players, func(q player) bool { return q.Name == p.Name }) {
				return nil, fmt.Errorf("--bots %s: bot %q: a --bot has that name too", f.botsFile, p.Name)
			}
		}
		players = append(players, listed...)
	}
	if n, lo, hi := len(players), d.info.Players[0], d.info.Players[1]; n < lo || n > hi {
		flag := "--bot"
		if f.botsFile != "" {
			flag = "--bot/--bots"
		}
		if lo == hi {
			return nil, fmt.Errorf("%s: %s needs exactly %d bots, got %d", flag, d.info.Name, lo, n)
		}
		return nil, fmt.Errorf("%s: %s needs %d to %d bots, got %d", flag, d.info.Name, lo, hi, n)
	}
	return players, nil
}

// appendBotsFileNames appends to names the names of the bots in the
// --bots file of a stored command line, in the order the tournament
// took them; ok is false when the file cannot be read any more.
func appendBotsFileNames(names, args []string) (_ []string, ok bool) {
	for _, a := range args {
		path, found := strings.CutPrefix(a, "--bots=")
		if !found {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, false
		}
		entries, err := parseBotsFile(data)
		if err != nil {
			return nil, false
		}
		for _, e := range entries {
			names = append(names, e.Name)
		}
	}
	return names, true
}
