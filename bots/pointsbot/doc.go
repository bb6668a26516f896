// Package pointsbot is the arena's built-in Points player ("arena bot
// points"). It speaks the Points Battle protocol (RunPipe) or, with
// --proto v6, Points AI Protocol v6 (RunV6), and can be used
// in-process (Engine).
//
// How it thinks: Monte Carlo tree search over points.Field, the referee's
// own incremental field: a dot that cannot close a ring (most of them: a
// look at its neighbours and a union-find of each player's walls tell)
// costs a few nanoseconds, and a ring costs time in proportion to the area
// it touches, so a random playout to the end of the fight costs well under
// a microsecond per dot.
//
//   - Candidate moves are the free points within two lines of a dot.
//   - Each simulation descends the tree by UCT blended with RAVE (all
//     moves as first: a dot can be played only once, so "first" is exact;
//     RAVE's weight falls to a half at 1000 visits, and UCT explores
//     little), grows a node after eight visits, then plays the remaining
//     candidates in random order to the end and scores the captured-dot
//     difference as win, draw or loss.
//   - In the playouts, every other move on average answers the dot just
//     played: a free point next to it where the side to move could close
//     a ring (Field.MayClose), else one where the other side could (a
//     block). It slows the playouts by a third or more and is worth more
//     than that (defaultTuning has the measurements).
//   - The root's children start with virtual wins for points that capture
//     now or where the opponent would capture next (defence).
//   - Time: most of the increment plus a twentieth of the time saved, never
//     more than a third of the clock, less a margin; the clock is read
//     every 32 playouts, so it never loses on time. The search stops
//     sooner once its choice can no longer change (the leader's lead in
//     visits is more than the playouts the time left allows), and the
//     clock keeps what that saves; where the choice is unstable at the
//     budget (the move visited most is not the one scoring best), it
//     goes on to twice the budget, within a quarter of the clock, until
//     the two agree. Against the release before it, at an equal clock
//     (real processes, 20x20, random crosses, 1 s plus 30 ms a move, one
//     core each in arena's sandbox, one game at a time): 200 games
//     114/4/82, +56 ± 49 Elo (SPRT elo1 10: LLR 0.75, undecided at the
//     cap). Both used 30.2 ms a move on average; the new one stopped
//     early on 6.6 % of its moves and went past 1.5 times its budget on
//     27 %.
//   - Threads (Limits.Threads, arena bot points --threads): root
//     parallelism, one tree a thread, their root visits summed; by default
//     as many as the cores the bot may use, which in arena's sandbox is
//     one. Two trees on two cores against one tree, at 30 ms a move
//     (real processes without the sandbox, 20x20, random crosses): 100
//     games 66/0/34, +115 ± 73 Elo.
//
// With Options.Status set (arena bot points sets it to stderr), every move
// comes with a status line (StatusLine): playouts and their rate, the
// tree's size and depth, the chosen move's visits and win rate, the time
// used of the budget. Points Battle takes it as status text before the
// move; under v6 it goes to Status.
package pointsbot
