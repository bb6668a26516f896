// Package engine runs the arena's games and tournaments as a library:
// the command line (cmd/arena) and the web page call it, and print or
// show what it reports.
//
// A game to play is a match.Spec; a Runner plays specs. Local plays them
// on this machine (bots as processes here); the next step backs Runner
// with remote workers, and nothing above Runner changes. A Tournament
// schedules its games (package tournament), runs them on a pool, stores
// each finished game in one transaction (StoredGame is the one
// conversion of a record to a stored game), resumes from the store what
// an earlier run finished, and keeps the standings.
package engine
