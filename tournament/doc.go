// Package tournament schedules and runs the games of an event between
// bots, independent of any one game: who meets whom, on which opening,
// in which seats, and a worker pool that plays the games.
//
// Formats: round robin (every pair, or every group of seats for N-player
// games), gauntlet (the first bot against every other), Swiss (pairs by
// score, no rematches, colour balance, byes) and knockout (a seeded
// bracket with byes and tie-breaks).
//
// A match between two bots is GamesPerPair games on each opening, the
// colours (seats) alternating, so each opening is played twice with
// colours swapped when GamesPerPair is even. N-player games rotate every
// bot of a group through every seat on every opening (map).
//
// Every game has a stable ID built from the tournament's name, the
// round, the pairing, the opening and the game's seat order
// ("T-r03-p02-o05-s1"). A schedule is a pure function of the results
// stored so far: given the IDs already played, it returns only the
// games still missing, and Swiss and knockout rounds are rebuilt from
// the stored results deterministically. That is what makes resuming an
// interrupted tournament exact.
package tournament
