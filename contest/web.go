package contest

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"arena/internal/names"
	"arena/store"
	"arena/web"
)

// Web is the contests' side of the web server (web.Contests): the
// service and its ladder.
type Web struct {
	svc    *Service
	ladder *Ladder
}

var _ web.Contests = (*Web)(nil)

// NewWeb serves the contests of svc, whose ladder is l.
func NewWeb(svc *Service, l *Ladder) *Web { return &Web{svc: svc, ladder: l} }

// LanguageInfo is a language as the contest's page lists it: its fixed
// commands and whether this server can build it.
type LanguageInfo struct {
	Name      string     `json:"name"`
	Title     string     `json:"title"`
	Compile   [][]string `json:"compile"`
	Run       []string   `json:"run"`
	Available bool       `json:"available"`
	Why       string     `json:"why,omitempty"`
}

// LanguageList lists the languages with their commands and whether this
// machine has their tools.
func LanguageList() []LanguageInfo {
	var out []LanguageInfo
	for _, l := range Languages() {
		li := LanguageInfo{Name: l.Name, Title: l.Title, Compile: l.Compile, Run: l.Run, Available: true}
		if li.Compile == nil {
			li.Compile = [][]string{}
		}
		if err := l.Available(); err != nil {
			li.Available, li.Why = false, err.Error()
		}
		out = append(out, li)
	}
	return out
}

// GameView is a ladder game on the pages: its players (participants),
// result and, on a participant's own page, its own bot's stderr.
type GameView struct {
	ID      string   `json:"id"`
	Users   []string `json:"users"`
	Winner  *int     `json:"winner"`
	Reason  string   `json:"reason"`
	Scores  []int    `json:"scores,omitempty"`
	Moves   int      `json:"moves"`
	End     string   `json:"end"`
	Stderr  string   `json:"stderr,omitempty"`
	Replay  string   `json:"replay"`
	Outcome string   `json:"outcome,omitempty"` // on a participant's page: won, lost, draw
}

func gameView(g store.ContestGameSummary) GameView {
	return GameView{ID: g.ID, Users: g.Users, Winner: g.Winner, Reason: g.Reason, Scores: g.Scores, Moves: g.Moves,
		End: g.End.Format(time.RFC3339), Replay: "#/replay/" + g.ID}
}

// List gives every contest's status.
func (w *Web) List(ctx context.Context) (any, error) {
	cs, err := w.svc.cfg.Store.Contests(ctx)
	if err != nil {
		return nil, err
	}
	type item struct {
		Name   string `json:"name"`
		Game   string `json:"game"`
		Paused bool   `json:"paused"`
		Open   bool   `json:"open_registration"`
	}
	out := []item{}
	for _, c := range cs {
		out = append(out, item{c.Name, c.Game, c.Paused, c.Open})
	}
	return out, nil
}

// Board is a contest's public page: leaderboard, languages, games.
func (w *Web) Board(ctx context.Context, name string) (any, error) {
	s, err := LoadStatus(ctx, w.svc.cfg.Store, name)
	if err != nil {
		return nil, err
	}
	gs, err := w.svc.cfg.Store.ContestGames(ctx, name, "", 50)
	if err != nil {
		return nil, err
	}
	games := []GameView{}
	for _, g := range gs {
		games = append(games, gameView(g))
	}
	return struct {
		Status
		Languages []LanguageInfo `json:"languages"`
		Recent    []GameView     `json:"recent"`
	}{s, LanguageList(), games}, nil
}

// Register adds a participant when registration is open.
func (w *Web) Register(ctx context.Context, name, user string) (string, error) {
	c, err := w.svc.cfg.Store.Contest(ctx, name)
	if err != nil {
		return "", err
	}
	if !c.Open {
		return "", web.ErrRegistrationClosed
	}
	if err := names.Check(user); err != nil {
		return "", fmt.Errorf("name %q: %w", user, err)
	}
	if !w.svc.allow("register\x00"+name, time.Now()) {
		return "", web.ErrRateLimited
	}
	return AddParticipant(ctx, w.svc.cfg.Store, name, user)
}

// Participant finds the participant of a token.
func (w *Web) Participant(ctx context.Context, name, token string) (string, error) {
	p, err := w.svc.Authenticate(ctx, name, token)
	if errors.Is(err, ErrAuth) {
		return "", web.ErrContestAuth
	}
	if err != nil {
		return "", err
	}
	return p.Name, nil
}

// SubmissionView is a participant's own submission, with its log.
type SubmissionView struct {
	ID       string `json:"id"`
	Language string `json:"language"`
	State    string `json:"state"`
	Reason   string `json:"reason,omitempty"`
	Log      string `json:"log"`
	Created  string `json:"created"`
}

func submissionView(s store.Submission) SubmissionView {
	return SubmissionView{ID: s.ID, Language: s.Language, State: s.State, Reason: s.Reason, Log: s.Log,
		Created: s.Created.Format(time.RFC3339)}
}

// Submit takes an upload.
func (w *Web) Submit(ctx context.Context, name, user, filename string, data []byte) (any, error) {
	sub, err := w.svc.Submit(ctx, name, user, filename, data)
	if errors.Is(err, ErrRateLimited) {
		return nil, fmt.Errorf("%w (%v)", web.ErrRateLimited, err)
	}
	if errors.Is(err, ErrDisqualified) {
		return nil, fmt.Errorf("%w: %v", web.ErrRegistrationClosed, err)
	}
	if err != nil {
		return nil, err
	}
	return submissionView(sub), nil
}

// Submission is one of user's own submissions.
func (w *Web) Submission(ctx context.Context, name, user, id string) (any, error) {
	sub, err := w.svc.Submission(ctx, name, user, id)
	if err != nil {
		return nil, err
	}
	return submissionView(sub), nil
}

// Mine is a participant's own page: its submissions with their logs
// and its games, each with its own bot's stderr and never another's.
func (w *Web) Mine(ctx context.Context, name, user string) (any, error) {
	subs, err := w.svc.cfg.Store.Submissions(ctx, name, user)
	if err != nil {
		return nil, err
	}
	views := []SubmissionView{}
	for i := len(subs) - 1; i >= 0; i-- {
		views = append(views, submissionView(subs[i]))
	}
	gs, err := w.svc.cfg.Store.ContestGames(ctx, name, user, 100)
	if err != nil {
		return nil, err
	}
	games := []GameView{}
	for _, g := range gs {
		v := gameView(g)
		k := slices.Index(g.Users, user)
		if cg, err := w.svc.cfg.Store.ContestOfGame(ctx, g.ID); err == nil && k >= 0 && k < len(cg.Stderr) {
			v.Stderr = cg.Stderr[k]
		}
		switch {
		case g.Winner == nil:
			v.Outcome = "draw"
		case *g.Winner == k:
			v.Outcome = "won"
		default:
			v.Outcome = "lost"
		}
		games = append(games, v)
	}
	return struct {
		User        string           `json:"user"`
		Contest     string           `json:"contest"`
		Submissions []SubmissionView `json:"submissions"`
		Games       []GameView       `json:"games"`
	}{user, name, views, games}, nil
}

// Organise runs an organiser's action.
func (w *Web) Organise(ctx context.Context, name string, a web.OrganiserAction) error {
	if _, err := w.svc.cfg.Store.Contest(ctx, name); err != nil {
		return err
	}
	switch a.Action {
	case "pause", "resume":
		return w.ladder.SetPaused(ctx, name, a.Action == "pause")
	case "disqualify":
		return w.ladder.Disqualify(ctx, name, a.User)
	case "rerun":
		return w.ladder.Rerun(ctx, a.Game)
	}
	return fmt.Errorf("unknown action %q: want pause, resume, disqualify or rerun", a.Action)
}

// UploadLimit is the largest upload.
func (w *Web) UploadLimit() int64 { return w.svc.UploadLimit() }

// Export writes everything of a contest as a zip: status.json, each
// submission's files and log, each ladder game's record and stderr.
func (w *Web) Export(ctx context.Context, name string, out io.Writer) error {
	st := w.svc.cfg.Store
	s, err := LoadStatus(ctx, st, name)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(out)
	put := func(path string, data []byte) error {
		f, err := zw.Create(path)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	data, _ := json.MarshalIndent(s, "", "  ")
	if err := put("status.json", data); err != nil {
		return err
	}
	subs, err := st.Submissions(ctx, name, "")
	if err != nil {
		return err
	}
	for _, sub := range subs {
		base := "submissions/" + sub.User + "/" + sub.ID + "/"
		if err := put(base+"log.txt", []byte(sub.Log)); err != nil {
			return err
		}
		if sub.Dir == "" {
			continue
		}
		root := os.DirFS(sub.Dir)
		fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			if data, err := fs.ReadFile(root, p); err == nil {
				put(base+"files/"+p, data)
			}
			return nil
		})
	}
	gs, err := st.ContestGames(ctx, name, "", 1<<30)
	if err != nil {
		return err
	}
	for _, g := range gs {
		rec, err := st.Game(ctx, g.ID)
		if err != nil {
			return err
		}
		if err := put("games/"+g.ID+".json", rec.Record); err != nil {
			return err
		}
		if cg, err := st.ContestOfGame(ctx, g.ID); err == nil {
			for k, u := range cg.Users {
				if k < len(cg.Stderr) && strings.TrimSpace(cg.Stderr[k]) != "" {
					put("games/"+g.ID+".stderr/"+filepath.Base(u)+".txt", []byte(cg.Stderr[k]))
				}
			}
		}
	}
	return zw.Close()
}
