package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/match"
)

// playRequest is POST /api/play: a person's game.
type playRequest struct {
	Game string `json:"game"`
	// Opponent is "builtin" (the game's built-in bot), a registered
	// bot's name, "local" (two people at one screen) or "remote" (two
	// people, two browsers).
	Opponent  string `json:"opponent"`
	Side      *int   `json:"side"` // 0, 1 or -1 (or absent): random
	TurnTime  string `json:"turn_time"`
	MatchTime string `json:"match_time"`
	// BotTime is the bot opponent's own time a move ("" or "0s": the
	// game's clock), where GameInfo.BotTime allows it.
	BotTime string `json:"bot_time"`
	Name    string `json:"name"` // the person's name; "" for a default
}

type seatToken struct {
	Side  int    `json:"side"`
	Token string `json:"token"`
}

// newToken is a seat's secret: 128 random bits, in hex.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func randomSide() int {
	n, err := rand.Int(rand.Reader, big.NewInt(2))
	if err != nil {
		return 0
	}
	return int(n.Int64())
}

// cleanName keeps a display name short and printable.
func cleanName(name, def string) string {
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f || r == ' ' }), " ")
	if len(name) > 40 {
		name = strings.ToValidUTF8(name[:40], "")
	}
	if name == "" {
		return def
	}
	return name
}

func (s *Server) handlePlay(w http.ResponseWriter, r *http.Request) {
	var req playRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	info, ok := s.knownGame(w, req.Game)
	if !ok {
		return
	}
	if !info.Human || info.Players[0] > 2 || info.Players[1] < 2 {
		writeError(w, http.StatusBadRequest, info.Name+" cannot be played by a person here")
		return
	}
	side := -1
	if req.Side != nil {
		side = *req.Side
	}
	if side < -1 || side > 1 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("side: %d is not 0, 1 or -1 (random)", side))
		return
	}
	if side == -1 {
		side = randomSide()
	}
	turn, matchTime, err := clocksOf(req.TurnTime, req.MatchTime)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	botTime, err := parseDuration("bot_time", req.BotTime)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}

	person := cleanName(req.Name, "person")
	players := make([]Entrant, 2)
	humans := make([]*match.Human, 2)
	var bot string
	switch req.Opponent {
	case "local", "remote":
		if botTime != 0 {
			writeError(w, http.StatusBadRequest, "bot_time: only for a game against a bot")
			return
		}
		for sd := range players {
			humans[sd] = match.NewHuman()
			players[sd] = Entrant{Human: humans[sd], Name: fmt.Sprintf("%s %d", person, sd+1)}
		}
		if req.Opponent == "remote" {
			players[side].Name = person
			players[1-side].Name = "guest"
		}
	case "":
		writeError(w, http.StatusBadRequest, "opponent: want builtin, a bot's name, local or remote")
		return
	default:
		bot = req.Opponent
		if bot == "builtin" && !slices.Contains(info.Bots, "builtin") {
			if len(info.Bots) == 0 {
				writeError(w, http.StatusBadRequest, info.Name+" has no built-in bot")
				return
			}
			bot = info.Bots[0] // built-in ones come first
		}
		if !slices.Contains(info.Bots, bot) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown bot %q for %s", req.Opponent, info.Name))
			return
		}
		if botTime != 0 && !info.BotTime {
			writeError(w, http.StatusBadRequest, "bot_time: "+info.Name+" bots are not told their clock, so their time cannot be chosen (register a quicker bot instead)")
			return
		}
		// A bot is a process on this machine: only the token holder
		// may start one.
		if !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="arena"`)
			writeError(w, http.StatusUnauthorized, errToken)
			return
		}
		humans[side] = match.NewHuman()
		players[side] = Entrant{Human: humans[side], Name: person}
		players[1-side] = Entrant{Bot: bot, Name: bot, TurnTime: botTime}
	}

	// Anyone may start a game between people: they are capped, overall
	// and per client address, and end when their people leave.
	personOnly, addr := bot == "", clientAddr(r)
	if personOnly {
		s.mu.Lock()
		full, status := s.personGames.take(addr, s.cfg.MaxPersonGames, s.cfg.Limits.PersonGamesPerClient)
		s.mu.Unlock()
		if full != "" {
			writeError(w, status, "too many games between people are running ("+full+"); try again later")
			return
		}
	}
	var once sync.Once
	release := func() {
		if personOnly {
			once.Do(func() {
				s.mu.Lock()
				s.personGames.release(addr)
				s.mu.Unlock()
			})
		}
	}

	preq := PlayRequest{ID: s.newID(time.Now()), Game: info.Name, Players: players, TurnTime: turn, MatchTime: matchTime}
	names := []string{players[0].Name, players[1].Name}
	// (The match reports each side's exact clock as it asks it to move;
	// this is what is shown until then.) People play on their own
	// clocks, which the game's header gives; the game's clock is the
	// bot's, the game's own unless the person chose another for it.
	clock := shownClock(info, turn, matchTime)
	if bot != "" {
		clock = shownClock(info, 0, 0)
	}
	g := s.hub.add(preq.ID, info, names, clock)
	if g == nil {
		release()
		s.internalError(w, r, fmt.Errorf("game ID %s taken", preq.ID))
		return
	}
	var mine []seatToken
	invite := ""
	g.mu.Lock()
	g.humans = humans
	for sd, h := range humans {
		if h == nil {
			continue
		}
		tok := newToken()
		g.tokens[tok] = sd
		switch {
		case req.Opponent == "remote" && sd != side:
			invite = "#/play/" + preq.ID + "?seat=" + tok
		default:
			mine = append(mine, seatToken{Side: sd, Token: tok})
		}
		h.OnTurn(func(bool, time.Time) { g.turnChanged() })
	}
	g.mu.Unlock()

	ok = s.start(func() {
		defer release()
		rec, err := s.cfg.Launcher.Play(s.ctx, preq, g)
		if err != nil {
			s.log.Warn("web: person's game failed", "id", preq.ID, "err", err)
		}
		g.finish(rec, err)
	})
	if !ok {
		release()
		g.finish(nil, errClosing)
		writeError(w, http.StatusServiceUnavailable, errClosing.Error())
		return
	}
	s.log.Info("web: person's game started", "id", preq.ID, "game", info.Name, "opponent", req.Opponent)
	resp := map[string]any{"id": preq.ID, "seats": mine}
	if invite != "" {
		resp["invite"] = invite
	}
	writeJSON(w, http.StatusCreated, resp)
}
