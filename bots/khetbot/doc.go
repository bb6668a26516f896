// Package khetbot is arena's own Khet player ("arena bot khet"): it
// speaks the Tartu line protocol (game/khet) and searches with alpha-beta
// (principal variation search), iterative deepening, a Zobrist
// transposition table and move ordering (table move, laser captures,
// killers, history), null-move pruning and, below the horizon, a
// quiescence search of the moves whose laser takes an enemy piece (three
// plies), over an evaluation that knows what each laser hits now, how
// close each beam passes to the enemy Pharaoh and which mirrors could
// turn a beam onto each Pharaoh. It reports
// depth, nodes per second and the time it took on stderr after every move.
// Its moves come from the referee's own move generator, so it never plays
// an illegal move.
//
// Strength is measured by in-process SPRTs at fixed node budgets
// (sprt_test.go: versions of the search named by their switches or
// weights, on balanced openings with colours swapped), which the
// machine's load cannot change, and against a stand-in for the simplest
// published engines (khetai): the same search scoring leaves by material
// alone, without the quiescence search (strength_test.go). The results
// that chose each switch and weight are in their doc comments.
//
// Against khetai itself (jkugs/khetai's C search, unchanged, behind a
// small Tartu adapter kept outside arena; it reaches depth 4 in a
// second on this machine, this bot depth 6 to 7), through arena sprt
// khet with 16 openings of testdata/khet/openings.txt (--seed 7), colours
// swapped, --turn-time 1s and khetai given 900 ms a move (it used a
// median 907 ms, this bot 850 ms): 32 games won of 32, every one by a
// laser on khetai's Pharaoh (2026-11-27, one game at a time).
//
// Time: the Tartu protocol never tells a bot its clock, so the match's
// per-move limit comes from Options.TurnTime (--turn-time). The search
// may run until the limit less a reserve for the pipe and a loaded
// machine (15 % of the turn, 60 ms to 1.5 s; see Budget), counted from the
// moment the R line arrives. Time a move leaves unused is lost, so
// iterative deepening starts depths until that limit (the best move is
// searched first, so a depth cut off by the clock can only improve the
// move); a forced win or loss ends the thinking at once. (Until it did,
// a depth not expected to finish started only in the first half: at
// 200 ms a move the bot used 85 % of its limit on average and under
// 90 % on 41 % of its moves; now 97 % and 3 %. Against that version,
// real processes, 400 games: 208/20/172, +31 ± 33 Elo.) A move that
// still comes out late makes the bot keep twice that lateness back on the
// next moves.
package khetbot
