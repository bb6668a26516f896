package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/game"
	"arena/internal/names"
	"arena/standings"
	"arena/store"
)

func (s *Server) handleLive(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.hub.list())
}

func (s *Server) handleLiveGame(w http.ResponseWriter, r *http.Request) {
	g := s.hub.get(r.PathValue("id"))
	if g == nil {
		writeError(w, http.StatusNotFound, "no live game "+strconv.Quote(r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, g.snapshot())
}

// recordEntry is one game of /api/records.
type recordEntry struct {
	ID         string    `json:"id"`
	Game       string    `json:"game"`
	Tournament string    `json:"tournament"`
	Players    []string  `json:"players"`
	Winner     *int      `json:"winner"`
	Reason     string    `json:"reason"`
	Moves      int       `json:"moves"`
	End        time.Time `json:"end"`
}

// maxRecords caps one page of /api/records.
const maxRecords = 500

func (s *Server) handleRecords(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.GameFilter{Tournament: q.Get("tournament"), Game: q.Get("game"), Limit: store.DefaultLimit}
	for _, p := range []struct {
		name     string
		v        *int
		min, max int
	}{{"limit", &f.Limit, 1, maxRecords}, {"offset", &f.Offset, 0, 1 << 30}} {
		v := q.Get(p.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < p.min || n > p.max {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("%s: %q is not a number from %d to %d", p.name, v, p.min, p.max))
			return
		}
		*p.v = n
	}
	games, err := s.cfg.Store.RecentGames(r.Context(), f)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	out := make([]recordEntry, 0, len(games))
	for _, g := range games {
		players := g.Players
		if players == nil {
			players = []string{}
		}
		out = append(out, recordEntry{ID: g.ID, Game: g.Game, Tournament: g.Tournament, Players: players,
			Winner: g.Winner, Reason: g.Reason, Moves: g.Moves, End: g.End})
	}
	writeJSON(w, http.StatusOK, out)
}

// storedGame finds the stored game a request's path names, answering 404
// or 500 itself when it cannot (ok false). The path may end in suffix
// ("/replay", "/download"): then the game is the one the path names
// without it, and withSuffix is true — unless a game's ID itself ends in
// the suffix, as IDs may hold slashes.
func (s *Server) storedGame(w http.ResponseWriter, r *http.Request, path, suffix string) (g store.Game, withSuffix, ok bool) {
	id := path
	if rest, cut := strings.CutSuffix(path, suffix); cut {
		if _, err := s.cfg.Store.Game(r.Context(), path); err != nil {
			id, withSuffix = rest, true
		}
	}
	g, err := s.cfg.Store.Game(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no stored game "+strconv.Quote(id))
		return store.Game{}, false, false
	}
	if err != nil {
		s.internalError(w, r, err)
		return store.Game{}, false, false
	}
	return g, withSuffix, true
}

// handleRecord serves a stored record, or with the suffix /replay an Ants
// game's official replay file. IDs may hold slashes (a tournament's
// games do), hence one catch-all route.
func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	g, wantReplay, ok := s.storedGame(w, r, r.PathValue("id"), "/replay")
	if !ok {
		return
	}
	id := g.ID
	if !wantReplay {
		if len(g.Record) == 0 {
			writeError(w, http.StatusNotFound, "game "+strconv.Quote(id)+" has no record")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(g.Record)
		return
	}
	var head struct {
		Game string `json:"game"`
	}
	json.Unmarshal(g.Record, &head)
	f, ok := s.replayFormat(head.Game)
	if !ok || g.RecordPath == "" {
		writeError(w, http.StatusNotFound, "game "+strconv.Quote(id)+" has no replay file ("+s.replayGames()+" games only)")
		return
	}
	// The files of a game sit beside its record: ID.json, ID.replay, ...
	replay := strings.TrimSuffix(g.RecordPath, filepath.Ext(g.RecordPath)) + f.Ext
	data, err := os.ReadFile(replay)
	if errors.Is(err, os.ErrNotExist) {
		writeError(w, http.StatusNotFound, "the replay file of game "+strconv.Quote(id)+" is gone")
		return
	}
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}

// replayFormat is the replay file of a game's records: its format named
// "replay" that is written beside the record by the game (no Write), as
// the official visualizer of Ants reads it.
func (s *Server) replayFormat(gameName string) (game.Format, bool) {
	for _, f := range s.cfg.Formats[gameName] {
		if f.Name == "replay" && f.Write == nil {
			return f, true
		}
	}
	return game.Format{}, false
}

// replayGames names the games whose records have a replay file, for
// people: "Ants", "Ants or Foo".
func (s *Server) replayGames() string {
	var names []string
	for name := range s.cfg.Formats {
		if _, ok := s.replayFormat(name); ok && name != "" {
			names = append(names, strings.ToUpper(name[:1])+name[1:])
		}
	}
	if len(names) == 0 {
		return "no"
	}
	slices.Sort(names)
	return strings.Join(names, " or ")
}

type tournamentEntry struct {
	Name    string    `json:"name"`
	Game    string    `json:"game"`
	Status  string    `json:"status"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Games   int       `json:"games"`
}

func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	ts, err := s.cfg.Store.Tournaments(r.Context())
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	counts, err := s.cfg.Store.GameCounts(r.Context())
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	out := make([]tournamentEntry, 0, len(ts))
	for i := len(ts) - 1; i >= 0; i-- { // the newest first
		t := ts[i]
		out = append(out, tournamentEntry{Name: t.Name, Game: t.Game, Status: t.Status, Created: t.Created,
			Updated: t.Updated, Games: counts[t.Name]})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleStandings(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	rep, err := standings.Of(r.Context(), s.cfg.Store, name)
	if errors.Is(err, store.ErrNotFound) {
		s.mu.Lock()
		gameName, starting := s.tournaments[name]
		s.mu.Unlock()
		if !starting {
			writeError(w, http.StatusNotFound, "no tournament "+strconv.Quote(name))
			return
		}
		// Started from the page but not stored yet: an empty table, so
		// the page can open it at once.
		rep = standings.Report{Tournament: name, Game: gameName,
			Standings: []standings.Row{}, History: []standings.Point{}, Results: []standings.Result{}}
		err = nil
	}
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// matchRequest is POST /api/matches.
type matchRequest struct {
	Game      string   `json:"game"`
	Bots      []string `json:"bots"`
	Games     int      `json:"games"`
	TurnTime  string   `json:"turn_time"`
	MatchTime string   `json:"match_time"`
}

// maxMatchGames caps one request's games.
const maxMatchGames = 100

// checkBots checks a game's players against what the server registered:
// the page names bots, never commands.
func checkBots(info GameInfo, bots []string) error {
	if n := len(bots); n < info.Players[0] || n > info.Players[1] {
		if info.Players[0] == info.Players[1] {
			return fmt.Errorf("%s needs %d bots, got %d", info.Name, info.Players[0], n)
		}
		return fmt.Errorf("%s needs %d to %d bots, got %d", info.Name, info.Players[0], info.Players[1], n)
	}
	for _, b := range bots {
		if !slices.Contains(info.Bots, b) {
			return fmt.Errorf("unknown bot %q for %s (registered: %s)", b, info.Name, strings.Join(info.Bots, ", "))
		}
	}
	return nil
}

// clocksOf reads a request's clocks.
func clocksOf(turn, match string) (time.Duration, time.Duration, error) {
	t, err := parseDuration("turn_time", turn)
	if err != nil {
		return 0, 0, err
	}
	m, err := parseDuration("match_time", match)
	if err != nil {
		return 0, 0, err
	}
	return t, m, nil
}

// shownClock is the clock a live game shows: the request's, else the
// game's default.
func shownClock(info GameInfo, turn, match time.Duration) gameClock {
	if turn == 0 {
		turn, _ = time.ParseDuration(info.TurnTime)
	}
	if match == 0 {
		match, _ = time.ParseDuration(info.MatchTime)
	}
	return gameClock{turn: turn, match: match}
}

func (s *Server) handleMatches(w http.ResponseWriter, r *http.Request) {
	var req matchRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	info, ok := s.knownGame(w, req.Game)
	if !ok {
		return
	}
	if err := checkBots(info, req.Bots); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Games == 0 {
		req.Games = 1
	}
	if req.Games < 0 || req.Games > maxMatchGames {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("games: %d is not from 1 to %d", req.Games, maxMatchGames))
		return
	}
	turn, match, err := clocksOf(req.TurnTime, req.MatchTime)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	now := time.Now()
	plays := make([]PlayRequest, req.Games)
	lives := make([]*liveGame, req.Games)
	ids := make([]string, req.Games)
	for i := range plays {
		// Seats rotate from game to game so that each bot moves first
		// in turn.
		bots := slices.Clone(req.Bots)
		if len(bots) > 0 {
			k := i % len(bots)
			bots = append(bots[k:], bots[:k]...)
		}
		p := PlayRequest{ID: s.newID(now), Game: info.Name, TurnTime: turn, MatchTime: match}
		for _, b := range bots {
			p.Players = append(p.Players, Entrant{Bot: b, Name: b})
		}
		g := s.hub.add(p.ID, info, bots, shownClock(info, turn, match))
		if g == nil {
			s.internalError(w, r, fmt.Errorf("game ID %s taken", p.ID))
			return
		}
		plays[i], lives[i], ids[i] = p, g, p.ID
	}
	ok = s.start(func() {
		for i, p := range plays {
			if s.ctx.Err() != nil {
				lives[i].finish(nil, s.ctx.Err())
				continue
			}
			rec, err := s.cfg.Launcher.Play(s.ctx, p, lives[i])
			if err != nil {
				s.log.Warn("web: match game failed", "id", p.ID, "err", err)
			}
			lives[i].finish(rec, err)
		}
	})
	if !ok {
		for _, g := range lives {
			g.finish(nil, errClosing)
		}
		writeError(w, http.StatusServiceUnavailable, errClosing.Error())
		return
	}
	s.log.Info("web: match started", "game", info.Name, "bots", req.Bots, "games", req.Games)
	writeJSON(w, http.StatusCreated, map[string]any{"ids": ids})
}

var errClosing = errors.New("the server is shutting down")

// tournamentRequest is POST /api/tournaments.
type tournamentRequest struct {
	Name      string   `json:"name"`
	Game      string   `json:"game"`
	Bots      []string `json:"bots"`
	Format    string   `json:"format"`
	Rounds    int      `json:"rounds"`
	Games     int      `json:"games"`
	TurnTime  string   `json:"turn_time"`
	MatchTime string   `json:"match_time"`
}

var formats = []string{"round-robin", "gauntlet", "swiss", "knockout"}

func (s *Server) handleNewTournament(w http.ResponseWriter, r *http.Request) {
	var req tournamentRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	req.Name = strings.TrimSpace(req.Name)
	// The name becomes file names in --out: one plain file name.
	if err := names.Check(req.Name); err != nil {
		writeError(w, http.StatusBadRequest, "name "+strconv.Quote(req.Name)+": "+err.Error())
		return
	}
	info, ok := s.knownGame(w, req.Game)
	if !ok {
		return
	}
	if len(req.Bots) < 2 {
		writeError(w, http.StatusBadRequest, "a tournament needs at least 2 bots")
		return
	}
	seen := map[string]bool{}
	for _, b := range req.Bots {
		if !slices.Contains(info.Bots, b) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown bot %q for %s", b, info.Name))
			return
		}
		if seen[b] {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("bot %q listed twice", b))
			return
		}
		seen[b] = true
	}
	if req.Format == "" {
		req.Format = "round-robin"
	}
	if !slices.Contains(formats, req.Format) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("format: %q is not one of %s", req.Format, strings.Join(formats, ", ")))
		return
	}
	if req.Rounds < 0 || req.Rounds > 1000 || req.Games < 0 || req.Games > 1000 {
		writeError(w, http.StatusBadRequest, "rounds and games: want 0 (the default) to 1000")
		return
	}
	turn, match, err := clocksOf(req.TurnTime, req.MatchTime)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if _, err := s.cfg.Store.Tournament(r.Context(), req.Name); err == nil {
		writeError(w, http.StatusConflict, "tournament "+strconv.Quote(req.Name)+" exists")
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		s.internalError(w, r, err)
		return
	}
	s.mu.Lock()
	_, running := s.tournaments[req.Name]
	if !running {
		s.tournaments[req.Name] = info.Name
	}
	s.mu.Unlock()
	if running {
		writeError(w, http.StatusConflict, "tournament "+strconv.Quote(req.Name)+" is starting")
		return
	}
	treq := TournamentRequest{Name: req.Name, Game: info.Name, Bots: req.Bots, Format: req.Format,
		Rounds: req.Rounds, Games: req.Games, TurnTime: turn, MatchTime: match}
	clock := shownClock(info, turn, match)
	ok = s.start(func() {
		defer func() {
			s.mu.Lock()
			delete(s.tournaments, req.Name)
			s.mu.Unlock()
		}()
		var mu sync.Mutex // listen may be called from the tournament's pool
		var listened []*liveGame
		listen := func(id string) game.Listener {
			g := s.hub.add(id, info, nil, clock)
			if g == nil {
				return nil
			}
			mu.Lock()
			listened = append(listened, g)
			mu.Unlock()
			return &tournamentListener{g}
		}
		err := s.cfg.Launcher.Tournament(s.ctx, treq, listen)
		if err != nil {
			s.log.Warn("web: tournament failed", "name", req.Name, "err", err)
		}
		// Games whose end the launcher did not report get their stored
		// record, or the tournament's error.
		for _, g := range listened {
			s.finishFromStore(g, err)
		}
	})
	if !ok {
		writeError(w, http.StatusServiceUnavailable, errClosing.Error())
		return
	}
	s.log.Info("web: tournament started", "name", req.Name, "game", info.Name, "bots", req.Bots)
	writeJSON(w, http.StatusCreated, map[string]string{"name": req.Name})
}

// tournamentListener is the listener of one tournament game; the
// launcher reports the game's end through Finished.
type tournamentListener struct{ *liveGame }

// Finished implements Finisher.
func (l *tournamentListener) Finished(rec *game.Record) { l.finish(rec, nil) }

func (s *Server) finishFromStore(g *liveGame, cause error) {
	g.mu.Lock()
	done := g.done
	g.mu.Unlock()
	if done {
		return
	}
	sg, err := s.cfg.Store.Game(s.ctx, g.id)
	if err == nil && len(sg.Record) > 0 {
		var rec game.Record
		if json.Unmarshal(sg.Record, &rec) == nil {
			g.finish(&rec, nil)
			return
		}
	}
	if cause == nil {
		cause = errors.New("the tournament ended without storing this game")
	}
	g.finish(nil, cause)
}
