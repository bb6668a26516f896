package gomokubot

import "time"

// Time-control constants.
const (
	// unlimitedMs is how the protocols write "no match limit".
	unlimitedMs = 2147483647
	// defaultTurnMs is assumed when the manager never sends timeout_turn.
	defaultTurnMs = 2000
	// reserveShare of timeout_turn (at least minReserve, at most
	// maxReserve) is kept back for the pipe or files, process scheduling
	// and a loaded machine; the search may use the rest.
	reserveShare = 0.15
	minReserve   = 60 * time.Millisecond
	maxReserve   = 1500 * time.Millisecond
)

// clock holds the limits a manager announced, in milliseconds.
type clock struct {
	turnMs  int64 // timeout_turn; 0 = play at once, negative = not announced
	matchMs int64 // timeout_match; 0 = no limit, negative = not announced
	leftMs  int64 // time_left (may be negative after an overrun)
	hasLeft bool  // time_left was announced
	// slack is how far past its budget a recent move went (a loaded
	// machine stalls a process between two looks at the clock); twice
	// that is kept back as well. It fades by a tenth a move.
	slack time.Duration
}

// observe records that a move whose search budget was budget took took
// from the request to the answer, overhead included.
func (c *clock) observe(took, budget time.Duration) {
	c.slack = c.slack * 9 / 10
	if over := took - budget; over > c.slack {
		c.slack = over
	}
}

// newClock returns a clock with nothing announced.
func newClock() clock { return clock{turnMs: -1, matchMs: -1} }

// setLeft records time_left.
func (c *clock) setLeft(ms int64) {
	c.leftMs = ms
	c.hasLeft = true
}

// matchBinds reports whether a match limit applies to the next move, so
// that time a move does not use is kept for later ones.
func (c clock) matchBinds() bool {
	return c.hasLeft && c.leftMs < unlimitedMs && c.matchMs != 0
}

// budget returns the hard time limit for the next move: the turn limit
// less a reserve (15 %, at least 60 ms and at most 1.5 s; a third of a
// turn under 180 ms) and twice the recent lateness (but at least a
// quarter of the turn), a share of the match time left, minus overhead
// (time already spent since the move was requested, e.g. process
// start-up). empty is the number of empty squares, used to guess how many
// moves remain. Inside it the search starts a new iteration only when it
// expects to finish it.
func (c clock) budget(overhead time.Duration, empty int) time.Duration {
	turn := c.turnMs
	if turn < 0 {
		turn = defaultTurnMs
	}
	if turn == 0 {
		return 0
	}
	t := time.Duration(turn) * time.Millisecond
	reserve := min(max(time.Duration(float64(t)*reserveShare), minReserve), maxReserve)
	if t < 180*time.Millisecond {
		reserve = t / 3
	}
	b := max(t-reserve-2*c.slack, t/4)
	if c.matchBinds() {
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
