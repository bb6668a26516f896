package match

import (
	"fmt"
	"os"
	"path/filepath"

	"arena/game"
)

// Player is what every two-player game package knows of a player before
// its own protocol options: who it is and how it plays, a bot's command
// or a person's seat, and a clock of its own if it has one.
type Player struct {
	Name    string
	Command string   // as the user wrote it
	Args    []string // resolved command (Args[0] absolute)
	// Human, when set, seats a person playing in the web page instead of
	// a process (Command and Args are then unused).
	Human *Human
	// Clock, when set, is this player's own clock instead of the
	// match's (a person may have minutes a move while the bot keeps
	// seconds).
	Clock Clock
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
