package web

import (
	"context"
	"time"

	"arena/game"
	"arena/match"
)

// Launcher plays games for the server. "arena serve" implements it over
// the games the arena knows; tests use a fake. Its methods are safe for
// concurrent use.
type Launcher interface {
	// Games lists the games the server offers, with their registered bots.
	Games() []GameInfo
	// Play plays one game to its end, telling l about its start and every
	// move, and returns its record once it is stored. An error means the
	// game could not be played (unknown game or bot, cancelled), never a
	// player's fault: that is the record's result.
	Play(ctx context.Context, req PlayRequest, l game.Listener) (*game.Record, error)
	// Tournament runs a tournament to its end, storing every game, and
	// reports each game it starts through listen (which returns the
	// game's listener, or nil).
	Tournament(ctx context.Context, req TournamentRequest, listen func(gameID string) game.Listener) error
}

// GameInfo describes one game the server offers.
type GameInfo struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Players [2]int   `json:"players"` // fewest and most players
	Bots    []string `json:"bots"`    // registered bot names, built-in ones first
	// Human says whether a person can play it in the page.
	Human bool `json:"human"`
	// TurnTime and MatchTime are the default clocks, as Go durations.
	TurnTime  string `json:"turn_time,omitempty"`
	MatchTime string `json:"match_time,omitempty"`
	// BotTime says whether a person may choose how long the bot opposite
	// thinks (Entrant.TurnTime): the game's protocol tells bots their clock.
	BotTime bool `json:"bot_time"`
	// Simultaneous says the players move at once, every turn: a game's
	// length counts turns and every seat is to move at once.
	Simultaneous bool `json:"simultaneous,omitempty"`
	// Replay says a stored game has a replay file beside its record
	// (/api/records/ID/replay), as the game's own viewer reads it.
	Replay bool `json:"replay,omitempty"`
}

// PlayRequest is one game to play.
type PlayRequest struct {
	ID   string
	Game string
	// Players in seat order: seat 0 moves first.
	Players []Entrant
	// TurnTime and MatchTime override the game's default clocks when not
	// zero.
	TurnTime, MatchTime time.Duration
}

// Entrant is one seat of a game: a registered bot or a person.
type Entrant struct {
	Bot   string       // a registered bot's name; "" for a person
	Human *match.Human // the person's seat when Bot is ""
	Name  string       // the person's display name
	// TurnTime, for a bot against a person, is the bot's own time a move
	// (0: the game's clock); only for games whose GameInfo.BotTime is set.
	TurnTime time.Duration
}

// TournamentRequest is one tournament to run.
type TournamentRequest struct {
	Name                string
	Game                string
	Bots                []string // registered bot names
	Format              string   // "round-robin", "gauntlet", "swiss", "knockout"
	Rounds              int      // 0: the format's default
	Games               int      // games per pairing; 0: the default
	TurnTime, MatchTime time.Duration
}

// Finisher is implemented by the listeners a Tournament's listen
// returns: the launcher calls Finished with a game's record once it is
// stored, so that the page shows the end at once. Games it does not
// report are looked up in the store when the tournament ends.
type Finisher interface {
	Finished(rec *game.Record)
}
