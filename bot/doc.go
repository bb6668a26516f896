// Package bot runs bot programs the arena does not trust.
//
// A Process is one running bot: it lives in its own process group (and,
// where the machine allows, its own cgroup, which also enforces the memory
// limit and catches children that leave the group), talks over pipes with
// deadlines on every read and write, reads lines with a byte cap so a
// flood cannot exhaust memory, keeps the tail of stderr for the record
// (and quotes its last lines when the bot ends), can be paused while the
// opponent thinks (once it has blocked after its answer), and is killed
// with everything it started. Nothing here knows about games or
// protocols.
package bot
