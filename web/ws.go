package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

const (
	// maxMessage caps a client's message; a longer one closes the
	// connection with status 1009.
	maxMessage = 64 << 10
	// writeTimeout drops a client whose connection takes this long to
	// accept one message.
	writeTimeout = 10 * time.Second
	// maxWatched caps the games one connection follows.
	maxWatched = 64
	// maxMoveText caps a move's text: every game's notation is short.
	maxMoveText = 256
)

// clientMessage is one message from the page.
type clientMessage struct {
	Type  string `json:"type"`
	ID    string `json:"id,omitempty"`
	Token string `json:"token,omitempty"`
	Move  string `json:"move,omitempty"`
}

// decodeClientMessage parses and checks a client's message: a JSON
// object of a known type with the fields that type needs.
func decodeClientMessage(data []byte) (clientMessage, error) {
	var m clientMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("not a JSON message: %s", oneLine(err.Error()))
	}
	if dec.More() {
		return m, errors.New("more than one JSON value in a message")
	}
	// need names every missing field, on one line: the page shows it.
	need := func(fields ...string) error {
		var missing []string
		for i := 0; i < len(fields); i += 2 {
			if fields[i+1] == "" {
				missing = append(missing, strconv.Quote(fields[i]))
			}
		}
		if len(missing) == 0 {
			return nil
		}
		return fmt.Errorf("%q message without %s", m.Type, strings.Join(missing, ", "))
	}
	switch m.Type {
	case "lobby":
		return m, nil
	case "watch", "unwatch":
		return m, need("id", m.ID)
	case "move":
		if len(m.Move) > maxMoveText {
			return m, fmt.Errorf("move text longer than %d bytes", maxMoveText)
		}
		return m, need("id", m.ID, "token", m.Token, "move", m.Move)
	case "resign":
		return m, need("id", m.ID, "token", m.Token)
	case "":
		return m, errors.New("message without a type")
	}
	return m, fmt.Errorf("unknown message type %q", truncate(m.Type, 40))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// handleWS serves one websocket connection: the lobby, watched games and
// a person's moves. Origins other than the page's own host are refused
// (the library's default), so another site cannot act with a visitor's
// seat tokens.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	done, ok := s.track()
	if !ok {
		writeError(w, http.StatusServiceUnavailable, errClosing.Error())
		return
	}
	defer done()
	addr := clientAddr(r)
	s.mu.Lock()
	full, status := s.sockets.take(addr, s.cfg.Limits.Sockets, s.cfg.Limits.SocketsPerClient)
	s.mu.Unlock()
	if full != "" {
		w.Header().Set("Retry-After", "10")
		writeError(w, status, "too many live connections ("+full+"); close a tab or try again later")
		return
	}
	defer func() {
		s.mu.Lock()
		s.sockets.release(addr)
		s.mu.Unlock()
	}()
	// The server's read and write timeouts are for requests: an open
	// websocket lives on, and is pinged instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the request
	}
	defer conn.CloseNow()
	conn.SetReadLimit(maxMessage)

	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	c := newClient()
	writerDone, pingerDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(writerDone)
		s.writeLoop(ctx, conn, c)
	}()
	go func() {
		defer close(pingerDone)
		s.pingLoop(ctx, conn)
	}()
	sess := &wsSession{s: s, c: c, watched: map[string]*liveGame{}}
	defer func() {
		cancel()
		<-writerDone
		<-pingerDone
		sess.leave()
	}()
	for {
		typ, data, err := conn.Read(ctx)
		if errors.Is(err, websocket.ErrMessageTooBig) {
			// The library has sent the 1009 close frame; finishing the
			// handshake reads the rest of the message, so the client gets
			// that frame instead of a reset (closing a socket with unread
			// bytes in it resets the connection).
			conn.Close(websocket.StatusMessageTooBig, "")
			return
		}
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			sess.reply(map[string]any{"type": "error", "error": "binary messages are not accepted: send JSON text"})
			continue
		}
		sess.handle(data)
	}
}

// writeLoop sends a client's queued messages until the connection ends
// or the client is dropped for falling behind.
func (s *Server) writeLoop(ctx context.Context, conn *websocket.Conn, c *client) {
	for {
		select {
		case <-ctx.Done():
			if s.ctx.Err() != nil {
				conn.CloseNow()
			}
			return
		case <-c.gone:
			conn.Close(websocket.StatusPolicyViolation, "too slow: messages were dropped")
			return
		case msg := <-c.send:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				c.drop()
				conn.CloseNow()
				return
			}
		}
	}
}

// pingLoop pings the client every Limits.Ping and closes a connection
// whose pong does not come back within as long: a browser that went
// away without closing frees its place.
func (s *Server) pingLoop(ctx context.Context, conn *websocket.Conn) {
	every := s.cfg.Limits.Ping
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, every)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				conn.CloseNow()
				return
			}
		}
	}
}

// wsSession is what one connection follows.
type wsSession struct {
	s       *Server
	c       *client
	lobby   bool
	watched map[string]*liveGame
}

func (ss *wsSession) reply(v any) { ss.c.offer(encode(v)) }

func (ss *wsSession) fail(id, msg string) {
	m := map[string]any{"type": "error", "error": msg}
	if id != "" {
		m["id"] = id
	}
	ss.reply(m)
}

func (ss *wsSession) handle(data []byte) {
	m, err := decodeClientMessage(data)
	if err != nil {
		ss.fail(m.ID, err.Error())
		return
	}
	if m.Type == "lobby" {
		if !ss.lobby {
			ss.lobby = true
			ss.s.hub.subscribeLobby(ss.c)
		}
		return
	}
	g := ss.s.hub.get(m.ID)
	if g == nil {
		ss.fail(m.ID, "unknown game id "+truncate(m.ID, 80))
		return
	}
	switch m.Type {
	case "watch":
		if _, ok := ss.watched[m.ID]; !ok && len(ss.watched) >= maxWatched {
			ss.fail(m.ID, fmt.Sprintf("watching more than %d games at once", maxWatched))
			return
		}
		var seats []int
		if side := g.seatOf(m.Token); side >= 0 {
			seats = []int{side}
		}
		ss.watched[m.ID] = g
		g.watch(ss.c, seats)
	case "unwatch":
		delete(ss.watched, m.ID)
		g.unwatch(ss.c)
	case "move", "resign":
		side := g.seatOf(m.Token)
		h := g.human(side)
		if h == nil {
			ss.reply(map[string]any{"type": "refused", "id": m.ID, "error": "this seat token does not play this game"})
			return
		}
		if m.Type == "resign" {
			h.Resign()
			return
		}
		if err := h.Submit(m.Move); err != nil {
			ss.reply(map[string]any{"type": "refused", "id": m.ID, "error": oneLine(err.Error())})
		}
	}
}

func (ss *wsSession) leave() {
	if ss.lobby {
		ss.s.hub.unsubscribeLobby(ss.c)
	}
	for _, g := range ss.watched {
		g.unwatch(ss.c)
	}
	ss.c.drop()
}
