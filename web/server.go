// Package web is the arena's web page and its server: live games over a
// websocket, stored records and replays, tournament standings, and games
// a person plays in the browser. The page is embedded in the binary (no
// build step); its JSON API and websocket messages are what the page and
// the tests use.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arena/game"
	"arena/internal/version"
	"arena/store"
)

//go:embed static
var staticFS embed.FS

// Config is what a Server needs.
type Config struct {
	Launcher Launcher     // plays games; required
	Store    *store.Store // the stored games and tournaments; required
	// Token opens the calls that start processes (matches, tournaments,
	// games against a bot). Empty: those calls are always refused.
	Token  string
	Logger *slog.Logger // nil: discard
	// Version is shown by /api/info; empty: version.String(), what
	// "arena --version" prints.
	Version string
	// MaxPersonGames caps the person-only games ("local", "remote") that
	// may run at once, since anyone may start one; 0: 64.
	MaxPersonGames int
	// Formats are each game's own file formats (by game name) a stored
	// record can be downloaded as, besides its JSON.
	Formats map[string][]game.Format
	// AllowedHosts are the names, besides loopback names and IP
	// addresses, that requests may give as their Host: the names of a
	// real deployment. "*" takes any (only behind a proxy that checks).
	AllowedHosts []string
	// Limits are the timeouts and caps; zero fields take DefaultLimits().
	Limits Limits
	// Contests, when set, serves the contests' API (web/contest.go).
	Contests Contests
	// Workers, when set, lists the match workers the games are played
	// on: GET /api/workers, and the page's workers view.
	Workers Workers
}

// Server serves the page, the API and the websocket.
type Server struct {
	cfg    Config
	log    *slog.Logger
	hub    *hub
	static map[string]staticFile
	ctx    context.Context // ends when the server closes: cancels its games
	cancel context.CancelFunc
	seq    atomic.Int64

	mu          sync.Mutex
	closed      bool
	wg          sync.WaitGroup    // games, tournaments and websocket connections
	tournaments map[string]string // started from the page and running: name -> game
	personGames counter           // games between people, per client address
	sockets     counter           // open websockets, per client address
}

type staticFile struct {
	data  []byte
	etag  string
	ctype string
}

// New makes a server; call Close when done with it.
func New(cfg Config) (*Server, error) {
	if cfg.Launcher == nil {
		return nil, errors.New("web: no launcher")
	}
	if cfg.Store == nil {
		return nil, errors.New("web: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Version == "" {
		cfg.Version = version.String()
	}
	if cfg.MaxPersonGames <= 0 {
		cfg.MaxPersonGames = 64
	}
	cfg.Limits = cfg.Limits.withDefaults()
	hosts, err := hostNames(cfg.AllowedHosts)
	if err != nil {
		return nil, err
	}
	cfg.AllowedHosts = hosts
	files, err := loadStatic()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, log: cfg.Logger, hub: newHub(), static: files, ctx: ctx, cancel: cancel,
		tournaments: map[string]string{}}
	s.start(s.reapIdle)
	return s, nil
}

// loadStatic reads the embedded page once, with a content hash per file
// for revalidation: the embedded files carry no modification time.
func loadStatic() (map[string]staticFile, error) {
	files := map[string]staticFile{}
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		files[strings.TrimPrefix(p, "static/")] = staticFile{data: data,
			etag: `"` + hex.EncodeToString(sum[:12]) + `"`, ctype: contentType(p)}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("web: embedded page: %w", err)
	}
	return files, nil
}

// contentType does not trust the system's MIME tables for the types the
// page depends on: a module script served as anything but JavaScript is
// refused by the browser.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json", ".map":
		return "application/json"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Handler returns the server's routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.HandleFunc("GET /static/{file...}", s.serveStatic)
	mux.HandleFunc("GET /api/info", s.handleInfo)
	mux.HandleFunc("GET /api/live", s.handleLive)
	mux.HandleFunc("GET /api/live/{id...}", s.handleLiveGame)
	mux.HandleFunc("GET /api/records", s.handleRecords)
	mux.HandleFunc("GET /api/records/{id...}", s.handleRecord)
	mux.HandleFunc("GET /api/tournaments", s.handleTournaments)
	mux.HandleFunc("GET /api/tournaments/{name...}", s.handleStandings)
	mux.HandleFunc("POST /api/matches", s.requireToken(s.handleMatches))
	mux.HandleFunc("POST /api/tournaments", s.requireToken(s.handleNewTournament))
	mux.HandleFunc("POST /api/play", s.handlePlay)
	mux.HandleFunc("GET /ws", s.handleWS)
	s.downloadRoutes(mux)
	s.contestRoutes(mux)
	s.workerRoutes(mux)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API call: "+r.Method+" "+r.URL.Path)
	})
	return s.guard(securityHeaders(mux))
}

// securityHeaders keeps the page to its own scripts and server: no
// inline script, no framing, no sniffing.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// Older browsers do not count ws: as 'self', hence the host.
		csp := "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
			"img-src 'self' data: blob:; connect-src 'self' ws://" + r.Host + " wss://" + r.Host + "; " +
			"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
		if strings.ContainsAny(r.Host, " ;,'\"\r\n") {
			csp = "default-src 'none'"
		}
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	s.serveFile(w, r, "index.html")
}

func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	s.serveFile(w, r, r.PathValue("file"))
}

// serveFile serves an embedded file revalidated on every load (no-cache
// with an ETag): a new binary's page is seen on the next reload.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := s.static[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", f.ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", f.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.data))
}

// Close cancels the running games and tournaments, closes the
// websockets and waits for all of their goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.hub.close()
}

// start runs f in a goroutine the server waits for on Close; it fails
// once the server is closing.
func (s *Server) start(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
	return true
}

// track counts a websocket connection as one of the server's goroutines
// (the handler's own); it fails once the server is closing.
func (s *Server) track() (done func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	s.wg.Add(1)
	return s.wg.Done, true
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	games := s.cfg.Launcher.Games()
	if games == nil {
		games = []GameInfo{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games, "version": s.cfg.Version, "workers": s.cfg.Workers != nil})
}

func (s *Server) gameInfo(name string) (GameInfo, bool) {
	for _, g := range s.cfg.Launcher.Games() {
		if g.Name == name {
			return g, true
		}
	}
	return GameInfo{}, false
}

// knownGame finds the game a request names, or answers 400.
func (s *Server) knownGame(w http.ResponseWriter, name string) (GameInfo, bool) {
	info, ok := s.gameInfo(name)
	if !ok {
		writeError(w, http.StatusBadRequest, "unknown game "+strconv.Quote(name))
	}
	return info, ok
}

// newID names a game started from the page.
func (s *Server) newID(now time.Time) string {
	return fmt.Sprintf("web-%s-%d", now.UTC().Format("20060102T150405"), s.seq.Add(1))
}

// maxBody caps a request's JSON: the API's bodies are a few hundred bytes.
const maxBody = 64 << 10

// decodeBody reads a JSON request body into v.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("empty request body: want a JSON object")
		}
		return fmt.Errorf("request body: %s", oneLine(err.Error()))
	}
	if dec.More() {
		return errors.New("request body: more than one JSON value")
	}
	return nil
}

// parseDuration reads an optional Go duration ("" or "0s": none).
func parseDuration(field, v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration like 1s or 300ms", field, v)
	}
	if d > 24*time.Hour {
		return 0, fmt.Errorf("%s: %v is longer than a day", field, d)
	}
	return d, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = json.Marshal(map[string]string{"error": "encode: " + oneLine(err.Error())})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": oneLine(msg)})
}

// internalError logs the cause and tells the client only that it failed.
func (s *Server) internalError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("web: request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	writeError(w, http.StatusInternalServerError, "internal error")
}

func oneLine(msg string) string {
	if !strings.ContainsAny(msg, "\r\n") {
		return msg
	}
	return strings.Join(strings.Fields(msg), " ")
}
