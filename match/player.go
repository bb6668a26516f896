package match

import (
	"fmt"
	"os"
	"path/filepath"

	"arena/game"
)

// Player is one player as every game takes it, whether it came from a
// --bot flag, a bots file or the web page: who it is and how it plays, a
// bot's command or a person's seat, a clock of its own if it has one,
// and the protocol settings of its own a game may read. It is the one
// description of a player from the flag to bot.Start, and part of a
// Spec's JSON (a person's seat is not: it lives in this process).
type Player struct {
	Name    string   `json:"name"`
	Command string   `json:"command,omitempty"` // as the user wrote it
	Args    []string `json:"args,omitempty"`    // resolved command (Args[0] absolute)
	// Builtin says the command is arena's own bot for the game ("arena
	// bot GAME", Args[1:3]), which a game may tell what its protocol
	// does not (Khet's turn time).
	Builtin bool `json:"builtin,omitempty"`
	// Proto is the bot's own protocol setting from a bots file (the
	// value --proto takes for one bot); "" leaves it to the game's.
	Proto string `json:"proto,omitempty"`
	// Options are a bots file's extra settings, as key and value, in
	// order of key: Gomoku's extra INFO lines, Points' protocol options.
	Options [][2]string `json:"options,omitempty"`
	// BotsFile is the bots file the bot comes from; "" otherwise.
	BotsFile string `json:"bots_file,omitempty"`
	// Human, when set, seats a person playing in the web page instead of
	// a process (Command and Args are then unused).
	Human *Human `json:"-"`
	// Clock, when set, is this player's own clock instead of the
	// match's (a person may have minutes a move while the bot keeps
	// seconds).
	Clock Clock `json:"clock,omitzero"`
	// Env is added to the bot's environment, as "KEY=VALUE".
	Env []string `json:"env,omitempty"`
	// MemoryLimit, when set, is this bot's own limit in bytes instead
	// of the match's.
	MemoryLimit int64 `json:"memory,omitempty"`
	// Files, when set, is a folder whose contents are copied into the
	// bot's fresh working folder before every game: the bot finds its
	// data files beside it and cannot change the originals.
	Files string `json:"files,omitempty"`
}

// Memory is the player's memory limit: its own, or else matchLimit.
func (p Player) Memory(matchLimit int64) int64 {
	if p.MemoryLimit > 0 {
		return p.MemoryLimit
	}
	return matchLimit
}

// WorkDir creates the working folder of the player at index pi under
// root (see PlayerDir) and copies the player's Files into it.
func (p Player) WorkDir(root string, pi int) (string, error) {
	dir, err := PlayerDir(root, pi)
	if err != nil || p.Files == "" {
		return dir, err
	}
	if err := os.CopyFS(dir, os.DirFS(p.Files)); err != nil {
		return "", fmt.Errorf("copy %s into the working folder: %w", p.Files, err)
	}
	return dir, nil
}

// Record is the player's entry in a game record; protocol names what the
// bot speaks (a person's entry says "human"), and a clock of its own is
// noted.
func (p Player) Record(protocol string) game.PlayerRecord {
	pr := game.PlayerRecord{Name: p.Name, Command: p.Command, Protocol: protocol}
	if p.Human != nil {
		pr.Protocol = "human"
	}
	if p.Clock != (Clock{}) {
		pr.TurnMs, pr.MatchMs = p.Clock.Turn.Milliseconds(), p.Clock.Match.Milliseconds()
	}
	return pr
}

// PlayerDir creates the working folder of the player at index pi under
// root ("player1", "player2", ...) and returns its path.
func PlayerDir(root string, pi int) (string, error) {
	dir := filepath.Join(root, fmt.Sprintf("player%d", pi+1))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("working folder: %w", err)
	}
	return dir, nil
}
