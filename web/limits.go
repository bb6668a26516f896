package web

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Limits are what keeps one client from holding the server: timeouts on
// every connection, caps on websockets and on the games people may
// start without the token. The zero value of each field takes its
// default (DefaultLimits()).
type Limits struct {
	// ReadHeader, Read, Write and Idle are the http.Server's timeouts:
	// for a request's header, for the whole request with its body, for
	// writing the response, and for a kept-alive connection between
	// requests. Websockets, once open, are exempt; they are pinged.
	ReadHeader, Read, Write, Idle time.Duration
	// Sockets caps the websockets open at once; SocketsPerClient those
	// of one client address.
	Sockets, SocketsPerClient int
	// PersonGamesPerClient caps the games between people one client
	// address runs at once (Config.MaxPersonGames caps them all).
	PersonGamesPerClient int
	// PersonIdle ends a game with people's seats once no browser has
	// held any of its seats for this long: its people resign.
	PersonIdle time.Duration
	// PersonGame is the longest a game with people's seats may last
	// (their clocks allow a day a move): then its people resign.
	PersonGame time.Duration
	// Ping is how often an open websocket is pinged; one that does not
	// answer within Ping is closed.
	Ping time.Duration
}

// DefaultLimits are the limits of a Server whose Config leaves them zero.
func DefaultLimits() Limits {
	return Limits{
		ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 2 * time.Minute, Idle: 2 * time.Minute,
		Sockets: 1000, SocketsPerClient: 32, PersonGamesPerClient: 4, PersonIdle: 5 * time.Minute,
		PersonGame: 6 * time.Hour, Ping: 30 * time.Second,
	}
}

// withDefaults fills l's zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range []struct{ v, def *time.Duration }{
		{&l.ReadHeader, &d.ReadHeader}, {&l.Read, &d.Read}, {&l.Write, &d.Write}, {&l.Idle, &d.Idle},
		{&l.PersonIdle, &d.PersonIdle}, {&l.PersonGame, &d.PersonGame}, {&l.Ping, &d.Ping},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	for _, f := range []struct{ v, def *int }{
		{&l.Sockets, &d.Sockets}, {&l.SocketsPerClient, &d.SocketsPerClient},
		{&l.PersonGamesPerClient, &d.PersonGamesPerClient},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	return l
}

// maxHeader caps a request's header.
const maxHeader = 64 << 10

// HTTPServer is an http.Server for the server's handler with its
// timeouts (Config.Limits): serve it with Serve on a listener, and
// Shutdown it before Close.
func (s *Server) HTTPServer() *http.Server {
	l := s.cfg.Limits
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// guard is the first handler of every request: it refuses a Host this
// server does not answer to, and caps every request's body.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf(
				"host %q is not this server's: arena serve answers to loopback names and IP addresses, and to the names given with --allowed-host",
				truncate(r.Host, 100)))
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, s.bodyLimit(r))
		}
		next.ServeHTTP(w, r)
	})
}

// hostNames checks and normalizes the allowed host names: lower case,
// without a port or a final dot ("*" stays).
func hostNames(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		h := n
		if hh, _, err := net.SplitHostPort(n); err == nil {
			h = hh
		}
		h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
		if h == "" || strings.ContainsAny(n, "/@ \t") || strings.Contains(h, ":") && net.ParseIP(h) == nil {
			return nil, fmt.Errorf("--allowed-host %q: want a host name such as arena.example.org", n)
		}
		out = append(out, h)
	}
	return out, nil
}

// hostAllowed says whether a request's Host header names this server.
// A page of another site whose name was made to resolve to this address
// (DNS rebinding) sends its own name, so only names that cannot be
// rebound are taken: IP addresses, "localhost" and its subdomains (which
// browsers resolve to loopback themselves), and Config.AllowedHosts
// ("*" takes any).
func (s *Server) hostAllowed(hostport string) bool {
	if hostport == "" {
		return true // HTTP/1.0 without a Host: not a browser
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	for _, a := range s.cfg.AllowedHosts {
		if a == "*" || a == host {
			return true
		}
	}
	return false
}

// clientAddr is the address a request came from, without its port: the
// unit of the per-client caps. An IPv6 client counts by its /64, the
// block one machine is given.
func clientAddr(r *http.Request) string {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		return (&net.IPNet{IP: ip.Mask(net.CIDRMask(64, 128)), Mask: net.CIDRMask(64, 128)}).String()
	}
	return host
}

// counter counts what each client holds against a cap per client and
// one overall. Its methods are called with the server's mutex held.
type counter struct {
	total    int
	byClient map[string]int
}

// take counts one more for client unless a cap is reached, and then
// says which, with the HTTP status that tells it (503 for the server's,
// 429 for the client's); "" when counted.
func (c *counter) take(client string, max, perClient int) (full string, status int) {
	switch {
	case c.byClient[client] >= perClient:
		return strconv.Itoa(perClient) + " from " + client, http.StatusTooManyRequests
	case c.total >= max:
		return "the server's " + strconv.Itoa(max), http.StatusServiceUnavailable
	}
	if c.byClient == nil {
		c.byClient = map[string]int{}
	}
	c.total++
	c.byClient[client]++
	return "", 0
}

func (c *counter) release(client string) {
	c.total--
	if c.byClient[client]--; c.byClient[client] <= 0 {
		delete(c.byClient, client)
	}
}

// reapIdle ends the games whose people have all left, or that last too
// long: every PersonIdle/4 it resigns the people's seats of any running
// game none of whose seats a browser has held for PersonIdle, or that
// started more than PersonGame ago. It returns when the server closes.
func (s *Server) reapIdle() {
	idle, longest := s.cfg.Limits.PersonIdle, s.cfg.Limits.PersonGame
	tick := time.NewTicker(max(min(idle, longest)/4, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-tick.C:
			for _, g := range s.hub.all() {
				hs := g.abandoned(now.Add(-idle), now.Add(-longest))
				for _, h := range hs {
					h.Resign()
				}
				if len(hs) > 0 {
					s.log.Info("web: person's game ended: its people left, or it lasted too long", "id", g.id,
						"idle", idle, "longest", longest)
				}
			}
		}
	}
}
