package sandbox

import "errors"

// A one-shot start (a pipe bot, started once per game) pays for what a
// sandboxed bot needs besides its program: its cgroups, and an init
// born inside them in new namespaces, whose start costs milliseconds.
// Package bot keeps groups made ahead of time, each with an init
// prestarted in it (see Prestart without a plan), so that such a start
// only has to take one. The Sandbox carries that reserve, because every
// seat that starts a bot is handed the Sandbox: Keep attaches it, the
// starts find it with Kept, and Close ends it with the Sandbox's use.

// Reserve is what a Sandbox keeps ready for the bots it starts (package
// bot's Pool of ready groups). Close ends everything it holds, and waits
// for what it is making.
type Reserve interface {
	Close()
}

// ErrKept is Keep's answer when the Sandbox keeps a reserve already.
var ErrKept = errors.New("sandbox: a reserve is kept already")

// Keep attaches r to s: the bots started through s may take from it,
// and s.Close closes it. A Sandbox keeps one reserve at a time; a nil
// Sandbox (the sandbox off) keeps none.
func (s *Sandbox) Keep(r Reserve) error {
	if s == nil {
		return errors.New("sandbox: the sandbox is off: nothing to keep ready")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reserve != nil {
		return ErrKept
	}
	s.reserve = r
	return nil
}

// Kept returns the reserve attached to s (nil: none).
func (s *Sandbox) Kept() Reserve {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reserve
}

// Release detaches r from s, if it is the reserve s keeps: the reserve
// calls it as it closes. s.Close, after, closes nothing.
func (s *Sandbox) Release(r Reserve) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reserve == r {
		s.reserve = nil
	}
}

// Close ends what s keeps ready (see Keep), waiting for it; bots started
// through s after it start as without a reserve, through new inits. Whoever
// made s calls it once its bots are started, usually as the run ends. It
// may be called more than once, and on a nil Sandbox.
func (s *Sandbox) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	r := s.reserve
	s.reserve = nil
	s.mu.Unlock()
	if r != nil {
		r.Close()
	}
	s.pipes.Close()
}
