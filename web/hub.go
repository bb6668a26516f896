package web

import (
	"encoding/json"
	"slices"
	"sort"
	"sync"
	"time"

	"arena/game"
	"arena/match"
)

const (
	// finishedKept is how many finished games /api/live keeps showing.
	finishedKept = 50
	// clientBuffer is how many messages a websocket client may fall
	// behind before it is dropped: a game never waits for a reader.
	clientBuffer = 256
	// lobbyDebounce groups the lobby's changes (every move changes a
	// count) into one message per interval.
	lobbyDebounce = 250 * time.Millisecond
	// finishedBytes bounds the moves the finished games keep: an Ants
	// game's frames can take tens of megabytes, and fifty of them would
	// not fit a small server.
	finishedBytes = 256 << 20
)

// client is one websocket connection as the hub sees it: a queue of
// encoded messages that a writer goroutine drains.
type client struct {
	send chan []byte
	gone chan struct{} // closed when the client is dropped
	once sync.Once
}

func newClient() *client {
	return &client{send: make(chan []byte, clientBuffer), gone: make(chan struct{})}
}

// offer queues msg without waiting; a client whose queue is full is
// dropped, since waiting for it would stall the game that sends.
func (c *client) offer(msg []byte) bool {
	select {
	case <-c.gone:
		return false
	default:
	}
	select {
	case c.send <- msg:
		return true
	default:
		c.drop()
		return false
	}
}

func (c *client) drop() { c.once.Do(func() { close(c.gone) }) }

// hub is the registry of the games this server plays or follows, and of
// who watches them.
type hub struct {
	mu       sync.Mutex
	games    map[string]*liveGame
	finished []string // IDs of finished games still kept, oldest first
	lobby    map[*client]struct{}
	timer    *time.Timer // a pending lobby message
	closed   bool
	debounce time.Duration
	maxBytes int // finishedBytes, but for tests
}

func newHub() *hub {
	return &hub{games: map[string]*liveGame{}, lobby: map[*client]struct{}{}, debounce: lobbyDebounce,
		maxBytes: finishedBytes}
}

// gameClock is the time control a live game is played with, for the
// clocks shown while it runs.
type gameClock struct {
	turn, match time.Duration
}

// add registers a game of the game info that is about to be played. It
// returns nil if the ID is taken.
func (h *hub) add(id string, info GameInfo, players []string, clock gameClock) *liveGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, dup := h.games[id]; dup {
		return nil
	}
	g := &liveGame{hub: h, id: id, game: info.Name, simultaneous: info.Simultaneous, players: players, clock: clock,
		subs: map[*client]int{}, tokens: map[string]int{}, added: time.Now(), absentSince: time.Now()}
	h.games[id] = g
	h.changedLocked()
	return g
}

// all returns the games kept, running or finished.
func (h *hub) all() []*liveGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*liveGame, 0, len(h.games))
	for _, g := range h.games {
		out = append(out, g)
	}
	return out
}

func (h *hub) get(id string) *liveGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.games[id]
}

// ended moves a game to the finished ones, forgetting the oldest beyond
// finishedKept.
func (h *hub) ended(g *liveGame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finished = append(h.finished, g.id)
	total := 0
	for _, id := range h.finished {
		total += h.games[id].bytes()
	}
	for len(h.finished) > finishedKept || (len(h.finished) > 1 && total > h.maxBytes) {
		old := h.games[h.finished[0]]
		h.finished = h.finished[1:]
		total -= old.bytes()
		delete(h.games, old.id)
	}
	h.changedLocked()
}

// liveEntry is one game of /api/live and of the lobby message.
type liveEntry struct {
	ID      string     `json:"id"`
	Game    string     `json:"game"`
	Players []string   `json:"players"`
	Moves   int        `json:"moves"`
	Done    bool       `json:"done"`
	Winner  *int       `json:"winner"`
	Reason  string     `json:"reason"`
	Start   *time.Time `json:"start"`
}

// list is every kept game: running ones first, then finished ones, the
// newest first within each.
func (h *hub) list() []liveEntry {
	h.mu.Lock()
	games := make([]*liveGame, 0, len(h.games))
	for _, g := range h.games {
		games = append(games, g)
	}
	h.mu.Unlock()
	out := make([]liveEntry, 0, len(games))
	for _, g := range games {
		out = append(out, g.entry())
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Done != b.Done {
			return !a.Done
		}
		ta, tb := time.Time{}, time.Time{}
		if a.Start != nil {
			ta = *a.Start
		}
		if b.Start != nil {
			tb = *b.Start
		}
		if !ta.Equal(tb) {
			return ta.After(tb)
		}
		return a.ID > b.ID
	})
	return out
}

func (h *hub) subscribeLobby(c *client) {
	msg := encode(map[string]any{"type": "lobby", "games": h.list()})
	h.mu.Lock()
	h.lobby[c] = struct{}{}
	h.mu.Unlock()
	c.offer(msg)
}

func (h *hub) unsubscribeLobby(c *client) {
	h.mu.Lock()
	delete(h.lobby, c)
	h.mu.Unlock()
}

func (h *hub) changed() {
	h.mu.Lock()
	h.changedLocked()
	h.mu.Unlock()
}

// changedLocked schedules a lobby message unless one is pending.
func (h *hub) changedLocked() {
	if h.closed || h.timer != nil || len(h.lobby) == 0 {
		return
	}
	h.timer = time.AfterFunc(h.debounce, h.flushLobby)
}

func (h *hub) flushLobby() {
	h.mu.Lock()
	h.timer = nil
	if h.closed || len(h.lobby) == 0 {
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	msg := encode(map[string]any{"type": "lobby", "games": h.list()})
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.lobby {
		if !c.offer(msg) {
			delete(h.lobby, c)
		}
	}
}

func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.timer != nil {
		h.timer.Stop()
		h.timer = nil
	}
}

// liveGame is one game being played (or recently finished): what a
// watcher joining late needs, and who watches. It is the game's
// game.Listener.
type liveGame struct {
	hub   *hub
	id    string
	clock gameClock
	// simultaneous: every seat moves at once, every turn (GameInfo).
	simultaneous bool

	mu      sync.Mutex
	game    string   // known before the header
	players []string // likewise
	header  *game.Record
	moves   []game.MoveRecord
	size    int // roughly the bytes the moves take
	start   time.Time
	lastAt  time.Time       // the start or the last move: the running clock counts from it
	used    []time.Duration // thinking time per side
	// asked is each side's clock as the match last asked it to move
	// (exact, where the launcher reports it: game.ClockListener); nil
	// until then, and the clocks are worked out from the time control.
	asked   []askedClock
	done    bool
	record  *game.Record
	failure string // why the game could not be played, if it could not
	// subs are the watchers, each with the number of seats its token
	// opens (0 or 1).
	subs map[*client]int

	// A person's game: the seats people hold, by side, and the tokens
	// that open them.
	humans []*match.Human
	tokens map[string]int
	// holders counts the watchers holding a seat; absentSince is when
	// the last of them left (or the game was added): a game nobody
	// holds a seat of for long is abandoned (see Server.reapIdle).
	holders     int
	absentSince time.Time
	added       time.Time // when the server registered it
	reaped      bool      // its people were resigned (away, or too long a game)
}

// Started implements game.Listener.
func (g *liveGame) Started(header *game.Record) {
	h := *header
	h.Moves = nil
	g.mu.Lock()
	g.header = &h
	if h.Game != "" {
		g.game = h.Game
	}
	if len(h.Players) > 0 {
		g.players = g.players[:0:0]
		for _, p := range h.Players {
			g.players = append(g.players, p.Name)
		}
	}
	g.start = time.Now()
	if !h.Start.IsZero() {
		g.start = h.Start
	}
	g.lastAt = time.Now()
	g.used = make([]time.Duration, max(len(h.Seats), len(g.humans), 2))
	g.asked = nil
	msg := encode(g.snapshotLocked(nil))
	g.broadcastLocked(msg)
	g.mu.Unlock()
	g.hub.changed()
}

// Moved implements game.Listener.
func (g *liveGame) Moved(ply int, m game.MoveRecord) {
	g.mu.Lock()
	g.moves = append(g.moves, m)
	g.size += 64 + len(m.Move) + len(m.Effect)
	for _, o := range m.Output {
		g.size += 16 + len(o)
	}
	took := time.Duration(m.TimeMs * float64(time.Millisecond))
	if m.Side >= 0 && m.Side < len(g.used) {
		g.used[m.Side] += took
	}
	if m.Side >= 0 && m.Side < len(g.asked) {
		a := &g.asked[m.Side]
		a.thinking, a.deadline = false, time.Time{}
		if a.left >= 0 {
			a.left = max(a.left-took, 0)
		}
	}
	g.lastAt = time.Now()
	msg := encode(moveMessage{Type: "move", ID: g.id, Ply: ply, Move: m, Clocks: g.clocksLocked()})
	g.broadcastLocked(msg)
	g.mu.Unlock()
	g.hub.changed()
}

// askedClock is a side's clock as the match told it.
type askedClock struct {
	known    bool
	thinking bool          // asked and not answered yet
	at       time.Time     // when it was asked
	left     time.Duration // match time left then; negative: none
	deadline time.Time     // of its answer; zero: none
}

// Asked implements game.ClockListener: the exact clock of the side asked
// to move, which the watchers' clocks count down from.
func (g *liveGame) Asked(side int, left time.Duration, deadline time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if side < 0 || side >= len(g.used) || g.done {
		return
	}
	if g.asked == nil {
		g.asked = make([]askedClock, len(g.used))
	}
	g.asked[side] = askedClock{known: true, thinking: true, at: time.Now(), left: left, deadline: deadline}
	g.broadcastLocked(encode(map[string]any{"type": "clocks", "id": g.id, "clocks": g.clocksLocked()}))
}

// turnChanged tells watchers that a person's seat started or stopped
// waiting (their deadline is exact, unlike the one guessed for a bot).
func (g *liveGame) turnChanged() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		return
	}
	g.broadcastLocked(encode(map[string]any{"type": "clocks", "id": g.id, "clocks": g.clocksLocked()}))
}

// finish ends the game with its record, or with the error that kept it
// from being played.
func (g *liveGame) finish(rec *game.Record, err error) {
	g.mu.Lock()
	if g.done {
		g.mu.Unlock()
		return
	}
	g.done = true
	g.record = rec
	end := map[string]any{"type": "end", "id": g.id, "record": rec}
	if err != nil {
		g.failure = oneLine(err.Error())
		end["error"] = g.failure
	}
	g.broadcastLocked(encode(end))
	g.mu.Unlock()
	g.hub.ended(g)
}

func (g *liveGame) broadcastLocked(msg []byte) {
	for c := range g.subs {
		if !c.offer(msg) {
			g.unsubscribeLocked(c)
		}
	}
}

// unsubscribeLocked forgets a watcher, and notes when the last one
// holding a seat left.
func (g *liveGame) unsubscribeLocked(c *client) {
	seats, ok := g.subs[c]
	if !ok {
		return
	}
	delete(g.subs, c)
	g.holders -= seats
	if seats > 0 && g.holders == 0 {
		g.absentSince = time.Now()
	}
}

// abandoned returns the people's seats of a running game none of whose
// seats a watcher has held since before idle, or that was added before
// old; nil for any other game (and for one already returned).
func (g *liveGame) abandoned(idle, old time.Time) []*match.Human {
	g.mu.Lock()
	defer g.mu.Unlock()
	away := g.holders == 0 && g.absentSince.Before(idle)
	if g.done || g.reaped || len(g.humans) == 0 || !(away || g.added.Before(old)) {
		return nil
	}
	g.reaped = true
	var hs []*match.Human
	for _, h := range g.humans {
		if h != nil {
			hs = append(hs, h)
		}
	}
	return hs
}

// watch subscribes c and sends it the game so far: under the game's
// lock, so that no move falls between the snapshot and the feed.
func (g *liveGame) watch(c *client, seats []int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	msg := encode(g.snapshotLocked(seats))
	if g.done {
		c.offer(msg)
		return
	}
	g.unsubscribeLocked(c) // a watcher watching again, maybe with a seat now
	g.subs[c] = len(seats)
	g.holders += len(seats)
	c.offer(msg)
}

func (g *liveGame) bytes() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.size
}

func (g *liveGame) unwatch(c *client) {
	g.mu.Lock()
	g.unsubscribeLocked(c)
	g.mu.Unlock()
}

// snapshot is GET /api/live/{id} and the websocket's "game" message.
type snapshot struct {
	Type   string            `json:"type,omitempty"`
	ID     string            `json:"id,omitempty"`
	Header *game.Record      `json:"header"`
	Moves  []game.MoveRecord `json:"moves"`
	Done   bool              `json:"done"`
	Record *game.Record      `json:"record"`
	Clocks clocks            `json:"clocks"`
	Error  string            `json:"error,omitempty"`
	// Seats are the sides the watcher's seat token opens.
	Seats []int `json:"seats,omitempty"`
}

func (g *liveGame) snapshot() snapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.snapshotLocked(nil)
	s.Type, s.ID = "", ""
	return s
}

func (g *liveGame) snapshotLocked(seats []int) snapshot {
	moves := g.moves
	if moves == nil {
		moves = []game.MoveRecord{}
	}
	return snapshot{Type: "game", ID: g.id, Header: g.header, Moves: slices.Clip(moves), Done: g.done,
		Record: g.record, Clocks: g.clocksLocked(), Error: g.failure, Seats: seats}
}

func (g *liveGame) entry() liveEntry {
	g.mu.Lock()
	defer g.mu.Unlock()
	e := liveEntry{ID: g.id, Game: g.game, Players: g.players, Moves: len(g.moves), Done: g.done}
	if e.Players == nil {
		e.Players = []string{}
	}
	if g.header != nil && g.header.Turns > 0 {
		e.Moves = g.header.Turns
	}
	if !g.start.IsZero() {
		t := g.start
		e.Start = &t
	}
	if r := g.record; r != nil {
		e.Winner, e.Reason = r.Winner, string(r.Reason)
		e.Moves = r.Length()
	} else if g.failure != "" {
		e.Reason = "not played: " + g.failure
	}
	return e
}

// clocks is the state of the clocks as a watcher shows them.
type clocks struct {
	ToMove []int `json:"to_move"`
	// LeftMs is each side's match time left (null: no match limit).
	LeftMs []*int64 `json:"left_ms"`
	// DeadlineMs is how long the side to move has left for this move
	// (null: no limit).
	DeadlineMs *int64 `json:"deadline_ms"`
	// TurnMs is each side's time for one move (null: no limit), what a
	// side without a match clock shows while the other moves: a bot
	// against a person plays on its own clock, not the person's.
	TurnMs []*int64 `json:"turn_ms"`
	// Seats is the turn state of the seats people hold, by side (null
	// for a bot's side); absent when no person plays.
	Seats []*seatTurn `json:"seats,omitempty"`
}

type seatTurn struct {
	Waiting    bool   `json:"waiting"`
	DeadlineMs *int64 `json:"deadline_ms"`
}

// clocksLocked works out the clocks from the moves' times: the referee
// is not at hand, so the side to move is the next in turn (everybody in
// games of simultaneous turns), unless a person's seat says it waits.
func (g *liveGame) clocksLocked() clocks {
	c := clocks{ToMove: []int{}}
	sides := len(g.used)
	c.TurnMs = make([]*int64, sides)
	if g.header == nil || g.done {
		c.LeftMs = make([]*int64, sides)
		return c
	}
	for s := range sides {
		if turn := g.sideClockLocked(s).turn; turn > 0 {
			c.TurnMs[s] = msPtr(turn)
		}
	}
	now := time.Now()
	for side, hu := range g.humans {
		if c.Seats == nil {
			c.Seats = make([]*seatTurn, max(sides, len(g.humans)))
		}
		if hu == nil {
			continue
		}
		waiting, deadline := hu.Turn()
		st := &seatTurn{Waiting: waiting}
		if waiting && !deadline.IsZero() {
			st.DeadlineMs = msPtr(deadline.Sub(now))
		}
		c.Seats[side] = st
		if waiting {
			c.ToMove = append(c.ToMove, side)
			if st.DeadlineMs != nil {
				c.DeadlineMs = st.DeadlineMs
			}
		}
	}
	if len(c.ToMove) == 0 {
		for side, a := range g.asked {
			if a.thinking {
				c.ToMove = append(c.ToMove, side)
			}
		}
	}
	if len(c.ToMove) == 0 {
		switch {
		case sides > 2 || g.simultaneous:
			for s := range sides {
				c.ToMove = append(c.ToMove, s)
			}
		case len(g.moves) == 0:
			c.ToMove = []int{0}
		default:
			c.ToMove = []int{(g.moves[len(g.moves)-1].Side + 1) % sides}
		}
	}
	if g.asked != nil {
		g.exactClocksLocked(&c, now)
		return c
	}
	thinking := now.Sub(g.lastAt)
	c.LeftMs = make([]*int64, sides)
	for s := range sides {
		if match := g.sideClockLocked(s).match; match > 0 {
			left := match - g.used[s]
			if slices.Contains(c.ToMove, s) {
				left -= thinking
			}
			c.LeftMs[s] = msPtr(max(left, 0))
		}
	}
	if c.DeadlineMs == nil && len(c.ToMove) > 0 {
		s := c.ToMove[0]
		clock := g.sideClockLocked(s)
		limit := clock.turn
		if clock.match > 0 {
			left := clock.match - g.used[s]
			if limit == 0 || left < limit {
				limit = left
			}
		}
		if limit > 0 {
			c.DeadlineMs = msPtr(max(limit-thinking, 0))
		}
	}
	return c
}

// exactClocksLocked fills in the clocks from what the match told each
// side as it was asked to move; a side not asked yet shows the time
// control's match time.
func (g *liveGame) exactClocksLocked(c *clocks, now time.Time) {
	c.LeftMs = make([]*int64, len(g.used))
	for s, a := range g.asked {
		switch {
		case !a.known:
			if match := g.sideClockLocked(s).match; match > 0 {
				c.LeftMs[s] = msPtr(match)
			}
		case a.left >= 0 && a.thinking:
			c.LeftMs[s] = msPtr(max(a.left-now.Sub(a.at), 0))
		case a.left >= 0:
			c.LeftMs[s] = msPtr(a.left)
		}
		if c.DeadlineMs == nil && a.thinking && !a.deadline.IsZero() && slices.Contains(c.ToMove, s) {
			c.DeadlineMs = msPtr(max(a.deadline.Sub(now), 0))
		}
	}
}

// sideClockLocked is the time control side plays on: the player's own
// clock where the header gives it one (a person's, or a bot's quicker
// one), else the game's.
func (g *liveGame) sideClockLocked(side int) gameClock {
	if h := g.header; h != nil {
		p := side
		if side < len(h.Seats) {
			p = h.Seats[side]
		}
		if p >= 0 && p < len(h.Players) && (h.Players[p].TurnMs > 0 || h.Players[p].MatchMs > 0) {
			pl := h.Players[p]
			return gameClock{turn: time.Duration(pl.TurnMs) * time.Millisecond, match: time.Duration(pl.MatchMs) * time.Millisecond}
		}
	}
	return g.clock
}

func msPtr(d time.Duration) *int64 {
	ms := d.Milliseconds()
	return &ms
}

// seatOf returns the side a seat token opens, or -1.
func (g *liveGame) seatOf(token string) int {
	if token == "" {
		return -1
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if side, ok := g.tokens[token]; ok {
		return side
	}
	return -1
}

func (g *liveGame) human(side int) *match.Human {
	g.mu.Lock()
	defer g.mu.Unlock()
	if side < 0 || side >= len(g.humans) {
		return nil
	}
	return g.humans[side]
}

type moveMessage struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Ply    int             `json:"ply"`
	Move   game.MoveRecord `json:"move"`
	Clocks clocks          `json:"clocks"`
}

// encode marshals a message; the server's own messages always encode
// (a record's raw JSON was checked when it was made), so a failure is
// reported as an error message rather than dropped silently.
func encode(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"type": "error", "error": "encode: " + oneLine(err.Error())})
	}
	return data
}
