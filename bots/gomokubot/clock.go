package gomokubot

import "time"

// Time-control constants.
const (
	// unlimitedMs is how the protocols write "no match limit".
	unlimitedMs = 2147483647
	// defaultTurnMs is assumed when the manager never sends timeout_turn.
	defaultTurnMs = 2000
	// hardShare of timeout_turn is the latest the search may run; the
	// search itself stops starting iterations at softShare of that.
	hardShare = 0.7
)

// clock holds the limits a manager announced, in milliseconds.
type clock struct {
	turnMs  int64 // timeout_turn; 0 = play at once, negative = not announced
	matchMs int64 // timeout_match; 0 = no limit, negative = not announced
	leftMs  int64 // time_left (may be negative after an overrun)
	hasLeft bool  // time_left was announced
}

// newClock returns a clock with nothing announced.
func newClock() clock { return clock{turnMs: -1, matchMs: -1} }

// setLeft records time_left.
func (c *clock) setLeft(ms int64) {
	c.leftMs = ms
	c.hasLeft = true
}

// budget returns the hard time limit for the next move: at most 70 % of
// the turn limit, a share of the match time left, minus overhead (time
// already spent since the move was requested, e.g. process start-up).
// empty is the number of empty squares, used to guess how many moves
// remain.
func (c clock) budget(overhead time.Duration, empty int) time.Duration {
	turn := c.turnMs
	if turn < 0 {
		turn = defaultTurnMs
	}
	if turn == 0 {
		return 0
	}
	b := time.Duration(float64(turn)*hardShare) * time.Millisecond
	if c.hasLeft && c.leftMs < unlimitedMs && c.matchMs != 0 {
		if c.leftMs <= 0 {
			return 0
		}
		// Assume the game goes on for a while yet: spread what is left
		// over 12 to 30 more moves (half the empty squares), and never
		// plan to use more than half of it.
		moves := int64(max(min(empty/2, 30), 12))
		share := time.Duration(c.leftMs/moves) * time.Millisecond
		b = min(b, share, time.Duration(c.leftMs/2)*time.Millisecond)
	}
	b -= overhead
	return max(b, 0)
}
