package dispatch

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"arena/game"
)

// A game played on a worker is followed move by move where the
// coordinator has a listener for it (the web page's live view): the
// worker publishes each event of the game on the game's live subject
// ("arena.live.EVENT.GAME", plain NATS, outside every stream), and the
// coordinator's Run hands them to its listener. Live events are a view,
// not the result: one lost on the way costs a frame of the view, never
// the game, whose record still comes through the results stream.
const livePrefix = "arena.live."

// liveSubject is the subject of a game's live events in an event.
func liveSubject(event, gameID string) string {
	return livePrefix + token(event) + "." + token(gameID)
}

// liveSubjectOfJob is the live subject of the job published on
// jobSubj (the worker knows the job's subject, not its event's name).
func liveSubjectOfJob(jobSubj string) (string, bool) {
	rest, ok := strings.CutPrefix(jobSubj, jobsPrefix)
	return livePrefix + rest, ok
}

// liveEvent is one event of a game on its live subject. Attempt tells
// the playings of a game apart: a job redelivered after a lost worker
// starts again from its first move, and the listener follows the newest
// playing only.
type liveEvent struct {
	Attempt  string           `json:"attempt"`
	Kind     string           `json:"kind"` // "started", "moved" or "asked"
	Header   *game.Record     `json:"header,omitempty"`
	Ply      int              `json:"ply,omitempty"`
	Move     *game.MoveRecord `json:"move,omitempty"`
	Side     int              `json:"side,omitempty"`
	Left     time.Duration    `json:"left,omitempty"`
	Deadline time.Time        `json:"deadline,omitzero"`
}

// livePublisher is the worker's listener of a game it plays: it sends
// every event to the coordinator.
type livePublisher struct {
	nc      *nats.Conn
	subject string
	attempt string
}

var _ game.ClockListener = (*livePublisher)(nil)

func (p *livePublisher) send(e liveEvent) {
	e.Attempt = p.attempt
	if data, err := json.Marshal(e); err == nil {
		p.nc.Publish(p.subject, data) // best effort: see livePrefix
	}
}

func (p *livePublisher) Started(header *game.Record) {
	p.send(liveEvent{Kind: "started", Header: header})
}

func (p *livePublisher) Moved(ply int, m game.MoveRecord) {
	p.send(liveEvent{Kind: "moved", Ply: ply, Move: &m})
}

func (p *livePublisher) Asked(side int, left time.Duration, deadline time.Time) {
	p.send(liveEvent{Kind: "asked", Side: side, Left: left, Deadline: deadline})
}

// liveFollower hands a game's live events to the coordinator's listener,
// in the order they were sent (one subscription delivers them in order),
// from the newest playing only, until it is stopped.
type liveFollower struct {
	to  game.Listener
	sub *nats.Subscription

	mu      sync.Mutex
	attempt string // the playing followed, "" before the first start
	stopped bool
}

// followLive subscribes to the game's live events for l; stop ends it.
// Without a listener it follows nothing.
func followLive(nc *nats.Conn, subject string, l game.Listener) (stop func(), err error) {
	if l == nil {
		return func() {}, nil
	}
	f := &liveFollower{to: l}
	if f.sub, err = nc.Subscribe(subject, f.deliver); err != nil {
		return nil, err
	}
	// The subscription must reach the server before the job goes out,
	// or the first events could pass by unseen.
	if err := nc.Flush(); err != nil {
		f.sub.Unsubscribe()
		return nil, err
	}
	return f.stop, nil
}

func (f *liveFollower) deliver(msg *nats.Msg) {
	var e liveEvent
	if err := json.Unmarshal(msg.Data, &e); err != nil || e.Attempt == "" {
		return // not ours to show
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	switch {
	case e.Kind == "started" && e.Header != nil:
		f.attempt = e.Attempt
		f.to.Started(e.Header)
	case e.Attempt != f.attempt:
		// A playing that was given up, or one whose start was lost.
	case e.Kind == "moved" && e.Move != nil:
		f.to.Moved(e.Ply, *e.Move)
	case e.Kind == "asked":
		if cl, ok := f.to.(game.ClockListener); ok {
			cl.Asked(e.Side, e.Left, e.Deadline)
		}
	}
}

// liveDrainWait bounds how long stop hands over the events still queued,
// so that a stuck listener cannot hold up the game's result for long.
const liveDrainWait = 5 * time.Second

// stop ends the following; no event reaches the listener after it
// returns (the game's end is the caller's to announce). The worker sends a
// game's events and then its result on one connection, so they reach this
// one in that order; but each subscription has its queue, and a slow
// listener can still have moves waiting when Run has the record. Draining
// the subscription hands those over before stop returns.
func (f *liveFollower) stop() {
	closed := f.sub.StatusChanged(nats.SubscriptionClosed)
	if err := f.sub.Drain(); err == nil {
		select {
		case <-closed:
		case <-time.After(liveDrainWait):
		}
	}
	f.sub.Unsubscribe() // a no-op once drained; ends a drain that timed out
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
}
