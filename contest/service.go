package contest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"arena/engine"
	"arena/game"
	"arena/internal/names"
	"arena/match"
	"arena/rating"
	"arena/sandbox"
	"arena/store"
)

// Config is what a Service runs contests with.
type Config struct {
	Store  *store.Store
	Runner engine.Runner // plays the test games and the ladder: this machine's pool or workers
	Games  match.Games   // the games, for their players and clocks
	// Builtin is a game's built-in bot, the test games' opponent.
	Builtin func(gameName string) (match.Player, error)
	Dir     string           // absolute folder for the submissions' files
	Sandbox *sandbox.Sandbox // around every build (nil: none)
	Limits  Limits           // uploads; zero: DefaultLimits()
	Build   BuildLimits      // zero: DefaultBuildLimits()
	// TestGames is how many test games a submission plays against the
	// built-in bot before it is accepted (seats alternate); 0: 2.
	TestGames int
	// Uploads is how many uploads a participant may make per UploadEvery
	// (a token bucket); 0: 5 per minute.
	Uploads     int
	UploadEvery time.Duration
	// Builds is how many submissions are built and tested at once; 0: 1.
	Builds int
}

// Service runs the contests of a store: uploads, builds, test games
// (and, with a Ladder, the ladder). Safe for concurrent use.
type Service struct {
	cfg    Config
	builds chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	bucket map[string]*bucket // per contest/user
	// accepted is called with a contest's name whenever a submission is
	// accepted (the ladder takes the new bot).
	accepted func(contest string)
	seq      int
}

type bucket struct {
	tokens float64
	at     time.Time
}

// NewService makes the service of cfg.
func NewService(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Runner == nil || cfg.Games == nil || cfg.Builtin == nil || !filepath.IsAbs(cfg.Dir) {
		return nil, errors.New("contest: the service needs a store, a runner, games, a built-in bot and an absolute folder")
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits()
	}
	if cfg.Build == (BuildLimits{}) {
		cfg.Build = DefaultBuildLimits()
	}
	if cfg.TestGames <= 0 {
		cfg.TestGames = 2
	}
	if cfg.Uploads <= 0 {
		cfg.Uploads = 5
	}
	if cfg.UploadEvery <= 0 {
		cfg.UploadEvery = time.Minute
	}
	if cfg.Builds <= 0 {
		cfg.Builds = 1
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("contest: %w", err)
	}
	return &Service{cfg: cfg, builds: make(chan struct{}, cfg.Builds), bucket: map[string]*bucket{}}, nil
}

// Store is the service's store.
func (s *Service) Store() *store.Store { return s.cfg.Store }

// UploadLimit is the largest upload the service takes, in bytes.
func (s *Service) UploadLimit() int64 { return s.cfg.Limits.Archive }

// Wait waits for the builds in progress (after their context ended).
func (s *Service) Wait() { s.wg.Wait() }

// ErrAuth is returned for a missing or wrong token.
var ErrAuth = errors.New("missing or wrong token")

// ErrDisqualified is returned for an upload of a disqualified participant.
var ErrDisqualified = errors.New("disqualified: uploads are closed to you")

// ErrRateLimited is returned for an upload over the participant's rate.
var ErrRateLimited = errors.New("too many uploads: wait a little")

// Authenticate finds the participant a token belongs to.
func (s *Service) Authenticate(ctx context.Context, contestName, token string) (store.Participant, error) {
	if strings.TrimSpace(token) == "" {
		return store.Participant{}, ErrAuth
	}
	p, err := s.cfg.Store.ParticipantByToken(ctx, contestName, HashToken(strings.TrimSpace(token)))
	if errors.Is(err, store.ErrNotFound) {
		return p, ErrAuth
	}
	return p, err
}

// allow takes one upload off a participant's bucket.
func (s *Service) allow(key string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bucket[key]
	rate := float64(s.cfg.Uploads) / s.cfg.UploadEvery.Seconds()
	if !ok {
		b = &bucket{tokens: float64(s.cfg.Uploads), at: now}
		s.bucket[key] = b
	}
	b.tokens = min(float64(s.cfg.Uploads), b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Submit takes a participant's upload: it unpacks it at once (a refused
// upload is a rejected submission, with the reason) and then builds and
// tests it in the background; the returned submission is "compiling"
// until Submission says otherwise. ctx bounds the background work too.
func (s *Service) Submit(ctx context.Context, contestName, user, filename string, data []byte) (store.Submission, error) {
	c, err := s.cfg.Store.Contest(ctx, contestName)
	if err != nil {
		return store.Submission{}, err
	}
	ps, err := s.cfg.Store.Participants(ctx, contestName)
	if err != nil {
		return store.Submission{}, err
	}
	for _, p := range ps {
		if p.Name == user && p.Disqualified {
			return store.Submission{}, ErrDisqualified
		}
	}
	if !s.allow(contestName+"\x00"+user, time.Now()) {
		return store.Submission{}, ErrRateLimited
	}
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("%s-%s-%s-%d", c.Name, user, time.Now().UTC().Format("20060102-150405.000"), s.seq)
	s.mu.Unlock()
	id = strings.NewReplacer(".", "-", " ", "_").Replace(id)
	if err := names.CheckID(id); err != nil {
		return store.Submission{}, fmt.Errorf("submission ID %q: %w", id, err)
	}
	dir := filepath.Join(s.cfg.Dir, id, "bot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return store.Submission{}, fmt.Errorf("submit: %w", err)
	}
	sub := store.Submission{ID: id, Contest: c.Name, User: user, State: store.SubmissionCompiling, Dir: dir}
	if err := s.cfg.Store.AddSubmission(ctx, sub); err != nil {
		return sub, err
	}
	if err := Unpack(data, filename, dir, s.cfg.Limits); err != nil {
		os.RemoveAll(filepath.Dir(dir))
		sub.State, sub.Reason, sub.Log = store.SubmissionRejected, err.Error(), err.Error()+"\n"
		if !errors.Is(err, ErrRefused) {
			sub.Reason = "the server could not unpack it"
		}
		return sub, s.cfg.Store.FinishSubmission(context.WithoutCancel(ctx), sub)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.process(ctx, c, sub)
	}()
	return sub, nil
}

// process builds and tests one submission and records its verdict.
func (s *Service) process(ctx context.Context, c store.Contest, sub store.Submission) {
	select {
	case s.builds <- struct{}{}:
		defer func() { <-s.builds }()
	case <-ctx.Done():
		return
	}
	sub = s.buildAndTest(ctx, c, sub)
	if ctx.Err() != nil && sub.State != store.SubmissionAccepted {
		sub.State, sub.Reason = store.SubmissionRejected, "the server stopped before its verdict: submit again"
	}
	if err := s.cfg.Store.FinishSubmission(context.WithoutCancel(ctx), sub); err != nil {
		return
	}
	if sub.State == store.SubmissionAccepted {
		s.carryRating(context.WithoutCancel(ctx), c.Name, sub.User)
		s.mu.Lock()
		f := s.accepted
		s.mu.Unlock()
		if f != nil {
			f(c.Name)
		}
	}
}

// widen is how much a new submission's uncertainty grows over its
// predecessor's: halfway back to a new player's.
const widen = 0.5

// carryRating starts a participant's new bot from the old one's rating
// with its uncertainty widened (a first bot keeps the default).
func (s *Service) carryRating(ctx context.Context, contestName, user string) {
	ps, err := s.cfg.Store.Participants(ctx, contestName)
	if err != nil {
		return
	}
	for _, p := range ps {
		if p.Name == user && p.Games > 0 {
			sigma := p.Sigma + widen*(rating.DefaultSkill().Sigma-p.Sigma)
			s.cfg.Store.SetRating(ctx, contestName, user, p.Mu, sigma)
		}
	}
}

func (s *Service) buildAndTest(ctx context.Context, c store.Contest, sub store.Submission) store.Submission {
	reject := func(reason, log string) store.Submission {
		sub.State, sub.Reason, sub.Log = store.SubmissionRejected, reason, log
		return sub
	}
	d, err := Detect(sub.Dir)
	if err != nil {
		return reject(err.Error(), "detect language: "+err.Error()+"\n")
	}
	sub.Language = d.Name
	log, run, err := Build(ctx, sub.Dir, d, s.cfg.Sandbox, s.cfg.Build)
	if err != nil {
		reason := err.Error()
		if !errors.Is(err, ErrBuild) {
			reason = "the server could not build it: " + reason
		}
		return reject(reason, log)
	}
	sub.Command = run
	testLog, err := s.testGames(ctx, c, sub)
	log += testLog
	if err != nil {
		return reject(err.Error(), log)
	}
	sub.State, sub.Log = store.SubmissionAccepted, log
	return sub
}

// Player is a submission as a game's player: its command run in a fresh
// copy of its folder.
func Player(name string, sub store.Submission) match.Player {
	return match.Player{Name: name, Command: strings.Join(sub.Command, " "), Args: sub.Command, Files: sub.Dir}
}

// matchSpec is the match part of a contest's games among players.
func (s *Service) matchSpec(c store.Contest, players []match.Player) (match.Spec, game.Info, error) {
	g, ok := s.cfg.Games.Lookup(c.Game)
	if !ok {
		return match.Spec{}, game.Info{}, fmt.Errorf("contest %s: unknown game %q", c.Name, c.Game)
	}
	info := g.Info()
	return match.Spec{Game: c.Game, Options: c.Options, Players: players,
		Clock: match.Clock{Turn: info.TurnTime, Match: info.MatchTime, Tolerance: time.Second, Startup: 10 * time.Second}}, info, nil
}

// testGames plays the submission against the built-in bot, each side
// in turn; any fault of the submission (crash, timeout, illegal move,
// protocol, memory) rejects it.
func (s *Service) testGames(ctx context.Context, c store.Contest, sub store.Submission) (string, error) {
	builtin, err := s.cfg.Builtin(c.Game)
	if err != nil {
		return "", fmt.Errorf("the server has no built-in bot for %s: %w", c.Game, err)
	}
	builtin.Name = "builtin"
	spec, info, err := s.matchSpec(c, []match.Player{Player(sub.User, sub), builtin})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := range s.cfg.TestGames {
		n := info.Players[0]
		spec.ID = fmt.Sprintf("%s-test%d", sub.ID, i+1)
		spec.Seats = make([]int, n)
		for k := range n {
			// The submission on seat i mod n, the built-in bot elsewhere
			// (an N-player game seats it on every other seat).
			spec.Seats[k] = 1
			if k == i%n {
				spec.Seats[k] = 0
			}
		}
		spec.Opening = i
		if n > 2 {
			return b.String(), fmt.Errorf("test games of %d-player games need as many players: not supported", n)
		}
		rec, _, err := s.cfg.Runner.Run(ctx, spec, match.Local{})
		if err != nil {
			return b.String(), fmt.Errorf("test game %d could not be played: %w", i+1, err)
		}
		me := rec.Players[0]
		fmt.Fprintf(&b, "test game %d against the built-in bot: %s (%s, %d moves)\n", i+1, outcome(rec, 0), rec.Reason, rec.Length())
		if me.Stderr != "" {
			fmt.Fprintf(&b, "your bot's stderr:\n%s\n", me.Stderr)
		}
		if me.Fault != "" {
			return b.String(), fmt.Errorf("test game %d against the built-in bot: your bot's %s: %s", i+1, me.Fault, rec.Detail)
		}
	}
	return b.String(), nil
}

// outcome says how player p fared in a record.
func outcome(rec *game.Record, p int) string {
	switch {
	case rec.Winner == nil:
		return "draw"
	case *rec.Winner == p:
		return "won"
	}
	return "lost"
}

// Submission returns one of a participant's submissions (ErrNotFound for
// another's).
func (s *Service) Submission(ctx context.Context, contestName, user, id string) (store.Submission, error) {
	sub, err := s.cfg.Store.Submission(ctx, id)
	if err != nil {
		return sub, err
	}
	if sub.Contest != contestName || sub.User != user {
		return store.Submission{}, fmt.Errorf("submission %s: %w", id, store.ErrNotFound)
	}
	return sub, nil
}
