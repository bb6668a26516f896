package dispatch

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"arena/game"
	"arena/match"
)

// Job is one game as it travels to a worker: the spec, with every path
// of the coordinator's machine taken out of its players and replaced by
// Bots, which say where each piece of a bot comes from.
type Job struct {
	Spec match.Spec `json:"spec"`
	// Bots has one entry per player of Spec.Players.
	Bots []Bot `json:"bots"`
	// Digest identifies the job's spec (SHA-256 of its JSON): a result
	// must name it to be taken for this game.
	Digest string `json:"digest"`
	// Live asks the worker to send the game's moves as they are made:
	// someone follows it (see livePrefix). Without it the worker spares
	// the game its live view (Ants computes a frame a turn for one).
	Live bool `json:"live,omitempty"`
}

// Bot is how a worker rebuilds a player's command.
type Bot struct {
	// Builtin: the command is arena's own bot, run as the worker's own
	// executable with Args[1:].
	Builtin bool `json:"builtin,omitempty"`
	// Folder is the content hash of the player's folder (Player.Files),
	// "" when it has none.
	Folder string `json:"folder,omitempty"`
	// Args are the command's words.
	Args []Arg `json:"args,omitempty"`
}

// Arg is one word of a bot's command: a literal, a file shipped on its
// own (by content hash), or a path inside the bot's folder.
type Arg struct {
	Value  string `json:"value,omitempty"`
	Object string `json:"object,omitempty"`
	// Name is a shipped file's own name, which it keeps on the worker
	// (a game may choose a bot's protocol by its program's name).
	Name     string `json:"name,omitempty"`
	InFolder string `json:"in_folder,omitempty"`
}

// Result is what a worker sends back for a job.
type Result struct {
	ID     string `json:"id"`
	Digest string `json:"digest"`
	Worker string `json:"worker"`
	// Record is the game's record; Error, when set instead, says why the
	// spec could not be played (an unknown game, bad options).
	Record json.RawMessage `json:"record,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Path is the file name of the JSON record; Files are the record's
	// files in the game's own formats, by file name.
	Path  string            `json:"path,omitempty"`
	Files map[string][]byte `json:"files,omitempty"`
}

// digest identifies a spec by the SHA-256 of its JSON.
func digest(spec match.Spec) (string, error) {
	data, err := json.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("spec %s: %w", spec.ID, err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// decodeStrict decodes one JSON value, refusing unknown fields and
// anything after it.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the value")
	}
	return nil
}

// DecodeJob reads a job as a worker receives it.
func DecodeJob(data []byte) (Job, error) {
	var j Job
	if err := decodeStrict(data, &j); err != nil {
		return Job{}, fmt.Errorf("decode job: %w", err)
	}
	if j.Spec.ID == "" || j.Spec.Game == "" || j.Digest == "" {
		return Job{}, errors.New("decode job: no id, game or digest")
	}
	if len(j.Bots) != len(j.Spec.Players) {
		return Job{}, fmt.Errorf("decode job %s: %d bots for %d players", j.Spec.ID, len(j.Bots), len(j.Spec.Players))
	}
	return j, nil
}

// DecodeResult reads a worker's result and checks it is the result of
// spec, sent as the job of that digest: a record for another game, with
// other players, or garbage is refused with the reason.
func DecodeResult(data []byte, spec match.Spec, digest string) (Result, *game.Record, error) {
	var res Result
	if err := decodeStrict(data, &res); err != nil {
		return Result{}, nil, fmt.Errorf("decode result: %w", err)
	}
	if res.ID != spec.ID {
		return res, nil, fmt.Errorf("result for game %q, not %q", res.ID, spec.ID)
	}
	if res.Digest != digest {
		return res, nil, fmt.Errorf("result of game %s for another spec (digest %.12s, sent %.12s)", spec.ID, res.Digest, digest)
	}
	if res.Error != "" {
		if len(res.Record) > 0 {
			return res, nil, fmt.Errorf("result of game %s: both a record and an error", spec.ID)
		}
		return res, nil, nil
	}
	for _, name := range append(slices.Collect(maps.Keys(res.Files)), res.Path) {
		if err := plainFileName(name); err != nil {
			return res, nil, fmt.Errorf("result of game %s: %w", spec.ID, err)
		}
	}
	var rec game.Record
	if err := json.Unmarshal(res.Record, &rec); err != nil {
		return res, nil, fmt.Errorf("result of game %s: record: %w", spec.ID, err)
	}
	if err := checkRecord(&rec, spec); err != nil {
		return res, nil, fmt.Errorf("result of game %s: %w", spec.ID, err)
	}
	return res, &rec, nil
}

// checkRecord checks a record is one of spec's game: its ID, its game,
// its players in the order the seating gives them.
func checkRecord(rec *game.Record, spec match.Spec) error {
	if rec.ID != spec.ID || rec.Game != spec.Game {
		return fmt.Errorf("record of %s game %q", rec.Game, rec.ID)
	}
	order, _ := match.Participants(spec.Seats)
	if len(rec.Players) != len(order) || len(rec.Seats) != len(spec.Seats) {
		return fmt.Errorf("record of %d players on %d seats, spec seats %d", len(rec.Players), len(rec.Seats), len(spec.Seats))
	}
	for i, pi := range order {
		if pi < 0 || pi >= len(spec.Players) || rec.Players[i].Name != spec.Players[pi].Name {
			return fmt.Errorf("record's player %d is %q, not the spec's", i+1, rec.Players[i].Name)
		}
	}
	for _, s := range rec.Seats {
		if s < 0 || s >= len(rec.Players) {
			return fmt.Errorf("record seats player %d of %d", s, len(rec.Players))
		}
	}
	if rec.Winner != nil && (*rec.Winner < 0 || *rec.Winner >= len(rec.Players)) {
		return fmt.Errorf("record's winner %d of %d players", *rec.Winner, len(rec.Players))
	}
	return nil
}

// plainFileName refuses a name that is not one file of a folder.
func plainFileName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || filepath.Base(name) != name {
		return fmt.Errorf("file name %q is not a plain name", name)
	}
	return nil
}
