// Package nim is the arena's test game: Nim, small enough to read in one
// sitting, added to the arena the way docs/adding-a-game.md says a game
// is added, and used by tests to prove that the generic parts (a match
// from a spec, a tournament, its resume from the store, a replay in the
// web page) play a game that no other file names.
//
// Rules: a pile of stones; the players take turns, the first player
// first, each taking 1 to MaxTake stones; whoever takes the last stone
// wins. A bot that fails (crash, timeout, a line that is not a number, a
// number it may not take) loses.
//
// Options (Settings):
//
//	stones   int  stones in the pile at the start (default 15, 1..1000)
//	max_take int  most stones one move may take (default 3, 1..stones)
//
// Protocol, one line each way: arena sends "take N MAX" (N stones left,
// take 1 to MAX) and the bot answers with the number it takes; at the
// end arena sends "end". The record's moves are the numbers taken.
package nim
