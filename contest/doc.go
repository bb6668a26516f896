// Package contest runs a contest on arena: participants upload bots
// (a folder, zip, tar.gz or one source file), which are unpacked with
// limits and safety checks, their language detected, compiled inside the
// sandbox with fixed commands and tested against the game's built-in bot
// before they are accepted; a ladder then plays accepted bots against
// each other without end, matchmaking by OpenSkill rating, on any
// engine.Runner (this machine's pool or remote workers).
package contest
