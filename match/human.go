package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"arena/bot"
	"arena/game"
)

// Errors a person's move can be refused with, besides the game's own.
var (
	ErrNotYourTurn = errors.New("it is not your turn")
	ErrGameOver    = errors.New("the game is over")
)

// Human is a person's seat as the web page holds it: moves arrive as
// text from another goroutine (a click), are judged against the current
// position before the match sees them, and a refused one leaves the
// person to try again. The clock treats a person exactly like a bot: one
// who lets the deadline pass loses by timeout.
type Human struct {
	mu       sync.Mutex
	waiting  bool
	deadline time.Time
	offer    func(text string) error // set while waiting
	resigned bool
	over     bool
	resign   chan struct{} // closed by Resign
	onTurn   func(waiting bool, deadline time.Time)
}

// NewHuman returns a person's seat, not yet in a game.
func NewHuman() *Human {
	return &Human{resign: make(chan struct{})}
}

// OnTurn sets a function told whenever the seat starts or stops waiting
// for a move (with the deadline, zero for none). Set it before the game
// starts; it is called from the game's goroutine and must not block.
func (h *Human) OnTurn(f func(waiting bool, deadline time.Time)) {
	h.mu.Lock()
	h.onTurn = f
	h.mu.Unlock()
}

// Turn reports whether the seat is asked to move now and its deadline
// (zero: none).
func (h *Human) Turn() (waiting bool, deadline time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.waiting, h.deadline
}

// Submit offers a move. It returns an error, meant for the person, when
// it is not this seat's turn or the game refuses the move; the seat then
// goes on waiting. An accepted move is played.
func (h *Human) Submit(text string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.over:
		return ErrGameOver
	case !h.waiting:
		return ErrNotYourTurn
	}
	return h.offer(text)
}

// Resign gives the game up at once, even during the opponent's turn: the
// seat fails with game.ReasonResign, and the game's rule decides the
// result (in two-player games it loses).
func (h *Human) Resign() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.resigned {
		h.resigned = true
		close(h.resign)
	}
}

// wait opens the seat for a move checked by offer and tells the watcher.
func (h *Human) wait(deadline time.Time, offer func(string) error) (resigned bool) {
	h.mu.Lock()
	if h.resigned {
		h.mu.Unlock()
		return true
	}
	h.waiting, h.deadline, h.offer = true, deadline, offer
	f := h.onTurn
	h.mu.Unlock()
	if f != nil {
		f(true, deadline)
	}
	return false
}

// close ends the wait: no move is accepted until the next one opens.
func (h *Human) close() {
	h.mu.Lock()
	h.waiting, h.deadline, h.offer = false, time.Time{}, nil
	f := h.onTurn
	h.mu.Unlock()
	if f != nil {
		f(false, time.Time{})
	}
}

func (h *Human) finish() {
	h.close()
	h.mu.Lock()
	h.over = true
	h.mu.Unlock()
}

// HumanSeat makes a match seat of a person. check parses a move's text
// and judges it against the current position; the match calls it only
// while it waits for this seat, so the position does not change under it.
func HumanSeat[M any](h *Human, check func(text string) (M, error)) Seat[M] {
	return &humanSeat[M]{h: h, check: check}
}

type humanSeat[M any] struct {
	h     *Human
	check func(string) (M, error)
}

func (s *humanSeat[M]) Start(context.Context, Request) (Greeting, error) {
	return Greeting{About: "a person"}, nil
}

var errResigned = game.Fault{Reason: game.ReasonResign, Detail: "resigned"}

// Quit makes a person's resignation end the game at once, even during
// the opponent's turn.
func (s *humanSeat[M]) Quit() <-chan struct{} { return s.h.resign }

func (s *humanSeat[M]) Move(ctx context.Context, req Request) (Reply[M], error) {
	moves := make(chan M, 1)
	offer := func(text string) error { // called with h.mu held
		m, err := s.check(text)
		if err != nil {
			return err
		}
		moves <- m
		s.h.waiting, s.h.offer = false, nil
		return nil
	}
	if s.h.wait(req.Deadline, offer) {
		return Reply[M]{}, errResigned
	}
	defer s.h.close()
	var timeout <-chan time.Time
	if !req.Deadline.IsZero() {
		t := time.NewTimer(time.Until(req.Deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case m := <-moves:
		return Reply[M]{Move: m}, nil
	case <-s.h.resign:
		return Reply[M]{}, errResigned
	case <-ctx.Done():
		return Reply[M]{}, ctx.Err()
	case <-timeout:
		s.h.close()
		select {
		case m := <-moves: // accepted just as time ran out: the clock judges it
			return Reply[M]{Move: m}, nil
		default:
		}
		return Reply[M]{}, fmt.Errorf("%w: no move before the deadline", bot.ErrTimeout)
	}
}

func (s *humanSeat[M]) Finish(context.Context, game.Result, time.Duration) Farewell {
	s.h.finish()
	return Farewell{}
}
