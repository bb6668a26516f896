package game

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Record is everything known about one finished game: who played, every
// move with its time and what the bot printed while thinking, and the
// verdict with its reason. It is written as JSON beside the game's own
// file formats and is enough to replay the game move by move.
type Record struct {
	ID      string          `json:"id"`
	Game    string          `json:"game"`
	Options json.RawMessage `json:"options,omitempty"` // the game's parameters
	Players []PlayerRecord  `json:"players"`           // in the order of the --bot flags
	// Seats maps sides to players: Seats[side] is the index into Players
	// of the player on that side. Side 0 moves first.
	Seats   []int        `json:"seats"`
	Opening []string     `json:"opening,omitempty"` // moves placed before the bots play
	Moves   []MoveRecord `json:"moves"`
	// Turns is the number of turns of a game whose players move at
	// once (Ants), where Moves holds one entry per player per turn.
	Turns int `json:"turns,omitempty"`
	// Winner is the index into Players of the winner, nil for a draw.
	Winner *int      `json:"winner"`
	Reason Reason    `json:"reason"`
	Detail string    `json:"detail,omitempty"`
	Scores []int     `json:"scores,omitempty"` // per player
	Start  time.Time `json:"start"`
	End    time.Time `json:"end"`
	Seed   int64     `json:"seed,omitempty"`
	// Sandbox lists the sandbox layers the bots ran in ([] with the
	// sandbox off; see package sandbox and arena doctor).
	Sandbox []string `json:"sandbox"`
	// Worker names the worker that played the game on another
	// machine or process (arena worker); "" when played here.
	Worker string `json:"worker,omitempty"`
}

// PlayerRecord describes one player of a game and what it printed outside
// its moves (start-up, stray lines, the end) and on stderr.
type PlayerRecord struct {
	Name     string   `json:"name"`
	Command  string   `json:"command,omitempty"`
	Protocol string   `json:"protocol,omitempty"`
	About    string   `json:"about,omitempty"` // what the bot says about itself
	Output   []string `json:"output,omitempty"`
	Stderr   string   `json:"stderr,omitempty"` // the last part of it
	// TimeMs is the time the player spent thinking over the whole game.
	TimeMs float64 `json:"time_ms"`
	Exit   string  `json:"exit,omitempty"` // how the process ended
	// PeakMemory is the most memory the player's processes used, in
	// bytes, where the machine measures it.
	PeakMemory int64 `json:"peak_memory,omitempty"`
	// CPUMs is the processor time the player's processes used.
	CPUMs float64 `json:"cpu_ms,omitempty"`
	// Fault is how the player failed (timeout, crash, illegal, protocol,
	// memory), if it did: in games of more than two players the game's
	// Reason cannot say who.
	Fault Reason `json:"fault,omitempty"`
	// TurnMs and MatchMs are the player's own clock where it had one (a
	// person in the web page plays on a longer clock than the bot);
	// zero: the game's clock.
	TurnMs  int64 `json:"turn_ms,omitempty"`
	MatchMs int64 `json:"match_ms,omitempty"`
}

// MoveRecord is one move: who made it, in the game's notation, how long
// it took and every line the bot printed while thinking.
type MoveRecord struct {
	Side   int      `json:"side"`
	Move   string   `json:"move"`
	TimeMs float64  `json:"ms"`
	Output []string `json:"output,omitempty"`
	// Effect is what the move did by the game's rules, in the game's own
	// JSON (a laser's path, captured areas, the score after it), for
	// replaying without re-running the referee.
	Effect json.RawMessage `json:"effect,omitempty"`
}

// Length is how long the game was: its turns where players move at
// once, else its moves.
func (r *Record) Length() int {
	if r.Turns > 0 {
		return r.Turns
	}
	return len(r.Moves)
}

// FirstPlayer returns the index of the player who moved first.
func (r *Record) FirstPlayer() int {
	if len(r.Seats) == 0 {
		return 0
	}
	return r.Seats[0]
}

// WriteFile writes the record as indented JSON, atomically: a reader never
// sees half a record, and a crash never leaves one.
func (r *Record) WriteFile(path string) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode record %s: %w", r.ID, err)
	}
	return WriteFileAtomic(path, append(data, '\n'))
}

// ReadRecord loads a record written by WriteFile.
func ReadRecord(path string) (*Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read record: %w", err)
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("read record %s: %w", path, err)
	}
	return &r, nil
}

// WriteFileAtomic writes data to a temporary file beside path, syncs it and
// renames it into place.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
