// Package engine runs the arena's games as a library: the command line
// (cmd/arena) and the web page call it, and print or show what it
// reports through its hooks.
//
// A game to play is a match.Spec; a Runner plays specs. Local plays them
// on this machine (bots as processes here); the next step backs Runner
// with remote workers, and nothing above Runner changes. On top of it:
//
//   - Series plays the games of one match ("arena match"), several at
//     once.
//   - Tournament schedules its games (package tournament), runs them on
//     a pool, stores each finished game in one transaction, resumes from
//     the store what an earlier run finished, and keeps the standings.
//   - SPRT plays pairs of games until the sequential test decides.
//   - Launcher plays the web page's games and starts its tournaments
//     (it is the server's web.Launcher).
//
// StoredGame is the one conversion of a record to a stored game.
package engine
