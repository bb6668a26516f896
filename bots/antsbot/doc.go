// Package antsbot is arena's built-in player for Ants (the AI Challenge
// 2011 game), plus the simple sample opponents used to measure it.
//
// Run speaks the engine's bot protocol (turn-0 settings and "ready", then
// "turn N", "w/f/h/a/d" lines and "go"; answers "o ROW COL DIR" and "go";
// "end" finishes) for any Player. Bot is the strong player; NewSample
// returns the sample strategies (hold, random, lefty, greedy, hunter).
//
// How Bot plays one turn:
//
//   - Memory: water is kept forever; every square remembers when it was
//     last in view; food and hills out of view are remembered until seen
//     gone (food for 40 turns at most).
//   - Combat first: our ants and enemy ants that could be in attack range
//     after one step each form battles. For each battle the bot builds
//     three group plans per side (attack: every ant steps toward its
//     nearest foe; hold; retreat), simulates the focus rule for all nine
//     pairs, and plays the plan whose worst case (enemy kills minus our
//     losses, plus a quarter of the average over the enemy's plans to
//     break ties) is best. An even trade counts as a small loss, except
//     near our hills (defence) and when we have half as many ants again
//     as we can see enemies (attrition then wins); standing on an enemy
//     hill alive is worth a bonus. So ants attack where they win the
//     local exchange and back off otherwise. Battles of more than 48 ants
//     are cut into 8x8 blocks of the map.
//   - Defence: enemy ants within ten steps of one of our hills each draw
//     the two nearest free ants.
//   - Food: a multi-source BFS from all known food gives every square its
//     nearest food; free ants are matched nearest first, one ant per
//     food, and the search repeats for food whose nearest ant was taken.
//   - Then every free ant razes (walks down a BFS field from the known
//     enemy hills: always when within 20 steps, and once we have ten
//     ants the two thirds of the free ants nearest to a hill), explores
//     (while no enemy hill is known or we have fewer than ten ants, one
//     ant to each of a lattice of squares not seen for ten turns; then
//     down a BFS field from all such squares), or hunts
//     enemy ants.
//   - Moves are resolved by role so that no two of our ants ever end on
//     one square and nobody walks into water or food; ants never idle on
//     our own hill, which would block spawning.
//   - Time: Run gives Turn half of turntime from the moment "turn N"
//     arrives; each planning stage checks the clock, and ants left
//     unplanned hold still. BFS scratch space is reused between turns.
package antsbot
