package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/engine"
	"arena/game"
	"arena/match"
)

// Config is a coordinator's side of dispatch.
type Config struct {
	// Event names the tournament or run: jobs and results of events of
	// other names never mix with its own.
	Event string
	// Out is the folder the records are written to, as local play
	// writes them.
	Out string
	// Games are the games this coordinator knows: a game's options are
	// read to ship the files they name (game.FileOptions).
	Games match.Games
	// Local plays what cannot travel (a person's seat) and counts a
	// match's openings.
	Local engine.Runner
	// Lease is the workers' lease on a job (DefaultLease when 0).
	Lease time.Duration
	// Replicas is how many nodes of a cluster keep the streams (1 when
	// 0).
	Replicas int
	// MaxAttempts is how often a game is sent again after a result that
	// is refused before Run gives up (5 when 0).
	MaxAttempts int
	// Withdraw takes a game's job out of the queue when its Run is
	// cancelled (an SPRT that has decided). Without it the job stays,
	// and a coordinator restarted on the same event takes its result.
	Withdraw bool
	// Log gets the results refused and the retries; nil: none.
	Log *slog.Logger
	// LookEvery is how long Run waits for the results consumer to bring
	// a game's result before it looks for it in the results stream
	// itself, and again as often (DefaultLookEvery when 0). It is the
	// safety net for a consumer that a cluster node's death left
	// without deliveries for longer than its heartbeats tell.
	LookEvery time.Duration
}

// DefaultLookEvery is Config.LookEvery's default.
const DefaultLookEvery = 5 * time.Second

// Runner is an engine.Runner that plays specs on workers: Run publishes
// the spec as a job and returns the record a worker sends back. A game
// already queued or played (a coordinator restarted with the same
// event) is not sent again: Run waits for its result, or takes the one
// already there. Safe for concurrent use.
type Runner struct {
	cfg     Config
	js      jetstream.JetStream
	jobs    jetstream.Stream
	results jetstream.Stream
	ship    *shipper
	cons    jetstream.ConsumeContext

	// queued and done are the event's jobs in the queue and results in
	// their stream when the runner started (a restarted coordinator),
	// by subject: only those games need a look into the streams.
	queued, done map[string]bool

	mu      sync.Mutex
	waiting map[string]chan []byte // by result subject: the next result of the game
	// early holds results that came before their game's Run (a game
	// queued by an earlier coordinator), by subject.
	early map[string][]byte
}

var _ engine.Runner = (*Runner)(nil)

// NewRunner sets up the streams on nc's server and starts following the
// results of cfg.Event. Close stops it.
func NewRunner(ctx context.Context, nc *nats.Conn, cfg Config) (*Runner, error) {
	if cfg.Local == nil || cfg.Out == "" || cfg.Games == nil {
		return nil, errors.New("dispatch: a runner needs its games, a local runner and an output folder")
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.LookEvery <= 0 {
		cfg.LookEvery = DefaultLookEvery
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 5
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("dispatch: %w", err)
	}
	if err := setup(ctx, js, cfg.Lease, cfg.Replicas); err != nil {
		return nil, fmt.Errorf("dispatch: %w", err)
	}
	r := &Runner{cfg: cfg, js: js, waiting: map[string]chan []byte{}, early: map[string][]byte{}}
	if r.jobs, err = js.Stream(ctx, JobsStream); err != nil {
		return nil, fmt.Errorf("dispatch: %w", err)
	}
	if r.results, err = js.Stream(ctx, ResultsStream); err != nil {
		return nil, fmt.Errorf("dispatch: %w", err)
	}
	obj, err := js.ObjectStore(ctx, BotsBucket)
	if err != nil {
		return nil, fmt.Errorf("dispatch: %w", err)
	}
	r.ship = newShipper(obj, cfg.Games)
	// Results published from now on come through the consumer; those
	// published before are found by Run in the stream itself.
	cons, err := r.results.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{resultsPrefix + token(cfg.Event) + ".>"},
		DeliverPolicy:  jetstream.DeliverNewPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("dispatch: results consumer: %w", err)
	}
	r.cons, err = cons.Consume(r.deliver)
	if err != nil {
		return nil, fmt.Errorf("dispatch: results consumer: %w", err)
	}
	// A job is acked only after its result is published: list the jobs
	// first, then the results, and no game falls between the two.
	if r.queued, err = subjects(ctx, r.jobs, jobsPrefix+token(cfg.Event)+".>"); err == nil {
		r.done, err = subjects(ctx, r.results, resultsPrefix+token(cfg.Event)+".>")
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Close stops following results.
func (r *Runner) Close() { r.cons.Stop() }

// Openings is the number of starting positions of the spec's match.
func (r *Runner) Openings(spec match.Spec) (int, error) { return r.cfg.Local.Openings(spec) }

// subjects lists the subjects of a stream's messages under filter.
func subjects(ctx context.Context, s jetstream.Stream, filter string) (map[string]bool, error) {
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(filter))
	if err != nil {
		return nil, fmt.Errorf("dispatch: list %s: %w", filter, err)
	}
	out := make(map[string]bool, len(info.State.Subjects))
	for subj := range info.State.Subjects {
		out[subj] = true
	}
	return out, nil
}

// deliver hands a result to the Run waiting for its game, which checks
// it. A result no Run waits for is kept for a Run to come (a game an
// earlier coordinator queued); a later one of the same game replaces it.
func (r *Runner) deliver(msg jetstream.Msg) {
	r.mu.Lock()
	ch := r.waiting[msg.Subject()]
	if ch == nil {
		r.early[msg.Subject()] = msg.Data()
	}
	r.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- msg.Data():
	default: // the Run has one to read already
	}
}

// Run plays spec on a worker and returns its record, written under
// Config.Out. A spec with a person's seat is played here. follow's
// hooks are not called for a game played elsewhere.
func (r *Runner) Run(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error) {
	for _, p := range spec.Players {
		if p.Human != nil {
			return r.cfg.Local.Run(ctx, spec, follow)
		}
	}
	sent, bots, files, err := r.ship.ship(ctx, spec)
	if err != nil {
		return nil, "", fmt.Errorf("dispatch %s: %w", spec.ID, err)
	}
	dg, err := digest(sent)
	if err != nil {
		return nil, "", err
	}
	job, err := json.Marshal(Job{Spec: sent, Bots: bots, Digest: dg, Live: follow.Listener != nil})
	if err != nil {
		return nil, "", fmt.Errorf("dispatch %s: %w", spec.ID, err)
	}
	jobSubj, resSubj := jobSubject(r.cfg.Event, spec.ID), resultSubject(r.cfg.Event, spec.ID)
	ch := make(chan []byte, 1)
	r.mu.Lock()
	if r.waiting[resSubj] != nil {
		r.mu.Unlock()
		return nil, "", fmt.Errorf("dispatch %s: the game is already running", spec.ID)
	}
	r.waiting[resSubj] = ch
	early, isEarly := r.early[resSubj]
	delete(r.early, resSubj)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.waiting, resSubj)
		r.mu.Unlock()
	}()

	stopLive, err := followLive(r.js.Conn(), liveSubject(r.cfg.Event, spec.ID), follow.Listener)
	if err != nil {
		return nil, "", fmt.Errorf("dispatch %s: live view: %w", spec.ID, err)
	}
	defer stopLive()

	// Only a game the streams held when the runner started needs a look
	// into them; any other is sent now, and its result comes through the
	// consumer.
	var data []byte
	switch {
	case isEarly:
		data = early
	case r.done[resSubj]:
		if data, err = r.last(ctx, r.results, resSubj); err != nil {
			return nil, "", err
		}
	}
	if data != nil {
		select {
		case ch <- data:
		default: // the consumer has just brought one
		}
	} else if !r.queued[jobSubj] {
		// The first sending has a fixed message ID: sent twice in the
		// stream's duplicate window, it is queued once.
		if err := r.publish(ctx, jobSubj, spec.ID+"#"+dg, job); err != nil {
			return nil, "", err
		}
	}
	look := time.NewTicker(r.cfg.LookEvery)
	defer look.Stop()
	var refused []byte // the last result refused: a look finds it again until a new one comes
	for attempt := 1; ; attempt++ {
		var data []byte
		for data == nil {
			select {
			case <-ctx.Done():
				if r.cfg.Withdraw {
					wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
					r.jobs.Purge(wctx, jetstream.WithPurgeSubject(jobSubj))
					cancel()
				}
				return nil, "", ctx.Err()
			case data = <-ch:
			case <-look.C:
				found, err := r.last(ctx, r.results, resSubj)
				if err == nil && !bytes.Equal(found, refused) {
					data = found
				}
			}
		}
		res, rec, err := DecodeResult(data, spec, dg)
		if err == nil && res.Error != "" {
			return nil, "", fmt.Errorf("game %s on worker %s: %s", spec.ID, res.Worker, res.Error)
		}
		if err == nil {
			return r.keep(res, rec, files)
		}
		refused = data
		r.cfg.Log.Warn("result refused", "game", spec.ID, "worker", res.Worker, "err", err, "attempt", attempt)
		if attempt >= r.cfg.MaxAttempts {
			return nil, "", fmt.Errorf("dispatch %s: %d results refused, the last: %w", spec.ID, attempt, err)
		}
		if err := r.publish(ctx, jobSubj, fmt.Sprintf("%s#%s#%d", spec.ID, dg, time.Now().UnixNano()), job); err != nil {
			return nil, "", err
		}
	}
}

// keep writes a worker's record and files under Out, as local play
// would, and returns it with the path of its JSON record.
func (r *Runner) keep(res Result, rec *game.Record, files map[string]string) (*game.Record, string, error) {
	rec.Worker = res.Worker
	opts, err := restoreFiles(rec.Options, files)
	if err != nil {
		return nil, "", fmt.Errorf("game %s: %w", rec.ID, err)
	}
	rec.Options = opts
	for name, data := range res.Files {
		if name == res.Path {
			continue
		}
		if err := game.WriteFileAtomic(filepath.Join(r.cfg.Out, name), data); err != nil {
			return nil, "", err
		}
	}
	path := filepath.Join(r.cfg.Out, res.Path)
	if err := rec.WriteFile(path); err != nil {
		return nil, "", err
	}
	return rec, path, nil
}

// last is the data of the last message on subject, nil if none,
// retrying while the server is away.
func (r *Runner) last(ctx context.Context, s jetstream.Stream, subject string) ([]byte, error) {
	for {
		msg, err := s.GetLastMsgForSubject(ctx, subject)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil, nil
		}
		if err == nil {
			return msg.Data, nil
		}
		if err := retryWait(ctx, err); err != nil {
			return nil, fmt.Errorf("dispatch: look up %s: %w", subject, err)
		}
	}
}

// publish sends a job, retrying while the server is away.
func (r *Runner) publish(ctx context.Context, subject, msgID string, data []byte) error {
	return publishRetry(ctx, r.js, subject, msgID, data)
}

// publishRetry publishes to a stream until the stream acknowledges it,
// waiting out a server restart; msgID ("" for none) lets the stream drop
// a second sending.
func publishRetry(ctx context.Context, js jetstream.JetStream, subject, msgID string, data []byte) error {
	var opts []jetstream.PublishOpt
	if msgID != "" {
		opts = append(opts, jetstream.WithMsgID(msgID))
	}
	for {
		_, err := js.Publish(ctx, subject, data, opts...)
		if err == nil {
			return nil
		}
		if err := retryWait(ctx, err); err != nil {
			return fmt.Errorf("dispatch: publish %s: %w", subject, err)
		}
	}
}

// retryWait waits a little before an operation is tried again after
// err, which it returns if ctx ends first.
func retryWait(ctx context.Context, err error) error {
	select {
	case <-ctx.Done():
		return errors.Join(err, ctx.Err())
	case <-time.After(200 * time.Millisecond):
		return nil
	}
}
