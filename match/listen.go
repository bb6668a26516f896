package match

import "arena/game"

// Listen returns the move hook of a match that calls onMove and then
// tells l about the move (either may be nil; nil when both are). The
// games' PlayGame functions use it to feed a game.Listener from the
// match loop, which fills in each move's effect before calling it.
func Listen(onMove func(MoveEvent), l game.Listener) func(MoveEvent) {
	switch {
	case l == nil:
		return onMove
	case onMove == nil:
		return func(ev MoveEvent) { l.Moved(ev.Ply, ev.Move) }
	}
	return func(ev MoveEvent) {
		onMove(ev)
		l.Moved(ev.Ply, ev.Move)
	}
}

// Asks returns the hook of a match that tells l each side's clock as it
// is asked to move, or nil when l does not follow clocks.
func Asks(l game.Listener) func(side int, req Request) {
	cl, ok := l.(game.ClockListener)
	if !ok {
		return nil
	}
	return func(side int, req Request) {
		left := req.TimeLeft
		if req.Unlimited {
			left = -1
		}
		cl.Asked(side, left, req.Deadline)
	}
}
