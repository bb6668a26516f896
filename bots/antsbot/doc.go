// Package antsbot is arena's built-in player for Ants (the AI Challenge
// 2011 game), plus the simple sample opponents used to measure it.
//
// Run speaks the engine's bot protocol (turn-0 settings and "ready", then
// "turn N", "w/f/h/a/d" lines and "go"; answers "o ROW COL DIR" and "go";
// "end" finishes) for any Player. Bot is the strong player; NewSample
// returns the sample strategies (hold, random, lefty, greedy, hunter,
// and phalanx, which fights in groups).
//
// How Bot plays one turn:
//
//   - Memory: water is kept forever; every square remembers when it was
//     last in view; food and hills out of view are remembered until seen
//     gone (food for 40 turns at most).
//   - Combat: our ants and enemy ants that could be in attack range
//     after one step each form battles (cut into 8x8 blocks of the map
//     beyond 48 ants, planned in turn: the moves chosen for one block
//     stand as support in the next). Each battle is searched over move-sets of the
//     whole group (search.go): starting from the simple group plans
//     (attack: every ant steps toward its nearest foe; hold; retreat;
//     proceed with the peaceful jobs), one ant's move at a time is
//     changed while the value improves, and the enemy's best reply to
//     the result, found the same way, joins a pool of replies; a
//     move-set's value is its worst score over that pool (plus a quarter
//     of the average). Scores count the dead under the referee's own
//     focus rule and collisions (kills worth 0.9 of a loss, 1.2 when we
//     have half as many ants again as we see enemies, 1.5 near our
//     hills; razing a hill, or letting an enemy stand on ours, 2.5), so
//     ants attack only where they win the local exchange whatever the
//     enemy does, keep their formation, and fall back otherwise. Small
//     terms break ties: closing in on the enemy wherever that costs
//     nothing in the worst case, outnumbered or not (tuning.press:
//     keeping away where weaker lost ground and food to the 2011
//     winner's bot; see defaultTuning), going on with the job where it
//     is safe.
//   - No rally: sending the exploring and idle ants within ten steps of
//     an enemy toward it (tuning.rally) lost to going on exploring, in
//     self-play in the simulator (TestSPRT against ten steps: +22 ± 13
//     Elo over 2000 games for six, +26 ± 16 over 1200 for three, +31 ±
//     17 over 1200 for none) and through the real referee on the four
//     official two-player maps (new against the last release, 500
//     turns: 400 games 213/16/171, +37 ± 34). Ants that meet enemies
//     fight as the combat search decides.
//   - Mass: an exploring, idle or marching ant with at least five of
//     ours within eight squares (itself too) goes for the nearest enemy
//     ant within twelve steps, as the 2011 winner's bot brings its
//     groups to bear: against that bot, fewer games lost and a larger
//     share of the ants alive at turn 300 over 300 games (see
//     defaultTuning); lone ants go on with their jobs.
//   - Defence: enemy ants within six steps of one of our hills each draw
//     the two nearest free ants (from ten: +22 ± 17 Elo through the real
//     referee over 1600 games; see defaultTuning).
//   - Food: a multi-source BFS from all known food gives every square its
//     nearest food; free ants are matched nearest first, one ant per
//     food, and the search repeats for food whose nearest ant was taken.
//     Food with an enemy ant within two steps is sent no ant: where both
//     sides reach for it, the combat search decides, and there a food
//     our surviving ants gather counts 0.6 of an ant (one the enemy's
//     gather costs as much). Against the 2011 winner's bot that won 45.7 %
//     of 576 games instead of 40.8 % (see defaultTuning).
//   - Then every free ant razes (walks down a BFS field from the known
//     enemy hills: always when within 20 steps, and once we have ten
//     ants the half of the free ants nearest to a hill), explores, or
//     hunts enemy ants. An explorer spreads out (spread.go): it steps
//     towards the squares eleven steps away (and ten) that have gone
//     unseen the longest and claims them, so that the next explorer of
//     the turn looks elsewhere; where all of them were seen this turn it
//     walks down a BFS field from the squares not seen for ten turns.
//     Walking to the nearest such square, explorers bunched up and saw
//     a quarter fewer squares than the 2011 winner's as many ants did;
//     spread out, they see as much, and against that bot won 50 games of
//     100 instead of 32 (see defaultTuning).
//   - Moves are resolved by role so that no two of our ants ever end on
//     one square and nobody walks into water or food; ants never idle on
//     our own hill, which would block spawning.
//   - Time: Run gives Turn half of turntime from the moment "turn N"
//     arrives; each planning stage checks the clock (the combat search
//     between moves, and at most 200,000 evaluations a turn), and ants
//     left unplanned hold still. BFS scratch space is reused between turns.
//
// With Bot.Status set (arena bot ants sets it to stderr), every turn ends
// in a status line (Bot.StatusLine): time used of the budget, ants, and
// what the combat search did, with its evaluations per second.
package antsbot
