package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"arena/store"
)

// Contests runs the contests of the server's store (package contest
// implements it): uploads, the ladder, the participants' own pages. Each
// method's errors may wrap ErrContestAuth, ErrRateLimited,
// ErrRegistrationClosed or store.ErrNotFound, which the API turns into
// their HTTP statuses.
type Contests interface {
	// List gives every contest's summary; Board one contest's public
	// page: its leaderboard, its games, the languages and their commands.
	List(ctx context.Context) (any, error)
	Board(ctx context.Context, contest string) (any, error)
	// Register adds a participant when the contest's registration is
	// open and returns its token.
	Register(ctx context.Context, contest, user string) (string, error)
	// Participant is the participant a token belongs to.
	Participant(ctx context.Context, contest, token string) (string, error)
	// Submit takes an upload (the submission is built in the
	// background); Submission is one of user's own; Mine is user's own
	// page: submissions with their logs, games with its own stderr.
	Submit(ctx context.Context, contest, user, filename string, data []byte) (any, error)
	Submission(ctx context.Context, contest, user, id string) (any, error)
	Mine(ctx context.Context, contest, user string) (any, error)
	// Organise is the organiser's action: "pause", "resume",
	// "disqualify" (User), "rerun" (Game).
	Organise(ctx context.Context, contest string, a OrganiserAction) error
	// Export writes everything of a contest as a zip archive.
	Export(ctx context.Context, contest string, w io.Writer) error
	// UploadLimit is the largest upload in bytes.
	UploadLimit() int64
}

// OrganiserAction is what the organiser's view asks.
type OrganiserAction struct {
	Action string `json:"action"`
	User   string `json:"user,omitempty"`
	Game   string `json:"game,omitempty"`
}

// The errors a Contests implementation wraps.
var (
	ErrContestAuth        = errors.New("missing or wrong participant token")
	ErrRateLimited        = errors.New("too many uploads: wait a minute")
	ErrRegistrationClosed = errors.New("registration is closed in this contest")
)

// contestRoutes adds the contests' API when the server runs contests.
func (s *Server) contestRoutes(mux *http.ServeMux) {
	if s.cfg.Contests == nil {
		return
	}
	mux.HandleFunc("GET /api/contests", s.handleContests)
	mux.HandleFunc("GET /api/contests/{name}", s.handleContest)
	mux.HandleFunc("POST /api/contests/{name}/register", s.handleRegister)
	mux.HandleFunc("POST /api/contests/{name}/submissions", s.participant(s.handleSubmit))
	mux.HandleFunc("GET /api/contests/{name}/submissions/{id}", s.participant(s.handleSubmission))
	mux.HandleFunc("GET /api/contests/{name}/me", s.participant(s.handleMine))
	mux.HandleFunc("POST /api/contests/{name}/admin", s.requireToken(s.handleOrganise))
	mux.HandleFunc("GET /api/contests/{name}/export", s.requireToken(s.handleExport))
}

// isUpload tells the one request whose body may exceed maxBody.
func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/contests/") &&
		strings.HasSuffix(r.URL.Path, "/submissions")
}

// bodyLimit is the largest body a request may send.
func (s *Server) bodyLimit(r *http.Request) int64 {
	if s.cfg.Contests != nil && isUpload(r) {
		return s.cfg.Contests.UploadLimit()
	}
	return maxBody
}

// contestError answers an error of the contests with its status.
func contestError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrContestAuth):
		w.Header().Set("WWW-Authenticate", `Bearer realm="arena contest"`)
		status = http.StatusUnauthorized
	case errors.Is(err, ErrRateLimited):
		status = http.StatusTooManyRequests
	case errors.Is(err, ErrRegistrationClosed):
		status = http.StatusForbidden
	case errors.Is(err, store.ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, store.ErrExists):
		status = http.StatusConflict
	}
	writeError(w, status, oneLine(err.Error()))
}

// participant resolves the request's participant token (Authorization:
// Bearer) before its handler, which gets the participant's name.
func (s *Server) participant(next func(w http.ResponseWriter, r *http.Request, user string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			contestError(w, ErrContestAuth)
			return
		}
		user, err := s.cfg.Contests.Participant(r.Context(), r.PathValue("name"), strings.TrimSpace(token))
		if err != nil {
			contestError(w, err)
			return
		}
		next(w, r, user)
	}
}

func (s *Server) handleContests(w http.ResponseWriter, r *http.Request) {
	v, err := s.cfg.Contests.List(r.Context())
	if err != nil {
		contestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleContest(w http.ResponseWriter, r *http.Request) {
	v, err := s.cfg.Contests.Board(r.Context(), r.PathValue("name"))
	if err != nil {
		contestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	token, err := s.cfg.Contests.Register(r.Context(), r.PathValue("name"), req.Name)
	if err != nil {
		if !errors.Is(err, ErrRegistrationClosed) && !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrExists) {
			writeError(w, http.StatusBadRequest, oneLine(err.Error()))
			return
		}
		contestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"name": req.Name, "token": token})
}

func (s *Server) handleSubmit(w http.ResponseWriter, r *http.Request, user string) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the upload is over the limit of %d bytes", tooBig.Limit))
			return
		}
		writeError(w, http.StatusBadRequest, "read the upload: "+oneLine(err.Error()))
		return
	}
	name := r.Header.Get("X-Filename")
	if name == "" {
		name = "bot"
	}
	// The build outlives the request: it belongs to the server.
	v, err := s.cfg.Contests.Submit(s.ctx, r.PathValue("name"), user, name, data)
	if err != nil {
		contestError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, v)
}

func (s *Server) handleSubmission(w http.ResponseWriter, r *http.Request, user string) {
	v, err := s.cfg.Contests.Submission(r.Context(), r.PathValue("name"), user, r.PathValue("id"))
	if err != nil {
		contestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleMine(w http.ResponseWriter, r *http.Request, user string) {
	v, err := s.cfg.Contests.Mine(r.Context(), r.PathValue("name"), user)
	if err != nil {
		contestError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleOrganise(w http.ResponseWriter, r *http.Request) {
	var a OrganiserAction
	if err := decodeBody(w, r, &a); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := s.cfg.Contests.Organise(r.Context(), r.PathValue("name"), a); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			contestError(w, err)
			return
		}
		writeError(w, http.StatusBadRequest, oneLine(err.Error()))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"done": a.Action})
}

func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "contest-"+name+".zip"))
	if err := s.cfg.Contests.Export(r.Context(), name, w); err != nil {
		s.log.Error("export contest", "contest", name, "err", err)
	}
}
