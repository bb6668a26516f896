package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/game"
	"arena/match"
)

// WorkerConfig is one worker: a process that plays jobs from the queue.
type WorkerConfig struct {
	Name  string // unique among the workers; it goes into every record
	Slots int    // games at once, at least 1
	// Play plays a job's spec here: engine.Local's Run in arena worker,
	// records written under a folder the worker empties after each game.
	// follow's Listener, set when the coordinator follows the game live,
	// sends the game's moves there as they are made.
	Play func(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error)
	// Games are the games this worker plays: a job's options are read
	// to fetch the files they name (game.FileOptions).
	Games match.Games
	// Out is the folder Play writes records into; the worker sends a
	// game's files from there and removes them.
	Out string
	// Cache is the folder of bots fetched by hash.
	Cache string
	// Self is this executable, which runs arena's own bots.
	Self string
	// Heartbeat is how often the worker reports (2s when 0).
	Heartbeat time.Duration
	Log       *slog.Logger
}

// Worker plays jobs until its context ends.
type Worker struct {
	cfg     WorkerConfig
	js      jetstream.JetStream
	cons    jetstream.Consumer
	lease   time.Duration
	cache   *cache
	started time.Time
	running atomic.Int64
	done    atomic.Int64
}

// NewWorker prepares a worker on nc's server.
func NewWorker(ctx context.Context, nc *nats.Conn, cfg WorkerConfig) (*Worker, error) {
	if cfg.Name == "" || cfg.Play == nil || cfg.Games == nil || cfg.Out == "" || cfg.Cache == "" {
		return nil, errors.New("dispatch: a worker needs a name, a player, its games, an output and a cache folder")
	}
	cfg.Slots = max(cfg.Slots, 1)
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 2 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("dispatch: %w", err)
	}
	return &Worker{cfg: cfg, js: js, started: time.Now()}, nil
}

// join waits until a coordinator has set up the queue and opens it.
func (w *Worker) join(ctx context.Context) error {
	for {
		cons, err := w.js.Consumer(ctx, JobsStream, WorkersConsumer)
		if err == nil {
			w.cons, w.lease = cons, cons.CachedInfo().Config.AckWait
			break
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			w.cfg.Log.Warn("waiting for the queue", "err", err)
		}
		if err := retryWait(ctx, err); err != nil {
			return fmt.Errorf("dispatch: the queue: %w", err)
		}
	}
	for {
		obj, err := w.js.ObjectStore(ctx, BotsBucket)
		if err == nil {
			w.cache = &cache{dir: w.cfg.Cache, obj: obj}
			return nil
		}
		if err := retryWait(ctx, err); err != nil {
			return fmt.Errorf("dispatch: the bots' store: %w", err)
		}
	}
}

// Run waits for the queue, then plays jobs in Slots goroutines until
// ctx ends, and returns once the games in progress have been given back
// to the queue. It reports to the workers' list once it has joined.
func (w *Worker) Run(ctx context.Context) error {
	if err := w.join(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	hbCtx, stopHB := context.WithCancel(context.WithoutCancel(ctx))
	defer w.forget()
	defer stopHB()
	go w.heartbeat(hbCtx)
	var wg sync.WaitGroup
	free := make(chan struct{}, w.cfg.Slots) // a token per free slot
	for range w.cfg.Slots {
		free <- struct{}{}
	}
	for ctx.Err() == nil {
		// Wait for a free slot, then ask for as many jobs as there are
		// free slots: a job is pulled only when it can start at once,
		// so no lease runs out in a buffer.
		select {
		case <-ctx.Done():
			continue
		case <-free:
		}
		n := 1
		for more := true; more; {
			select {
			case <-free:
				n++
			default:
				more = false
			}
		}
		// What is there now, up to n; if nothing, wait for one job.
		got, err := w.take(ctx, &wg, free, func() (jetstream.MessageBatch, error) { return w.cons.FetchNoWait(n) })
		if err == nil && got == 0 {
			var one int
			one, err = w.take(ctx, &wg, free, func() (jetstream.MessageBatch, error) {
				return w.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
			})
			got += one
		}
		for range n - got {
			free <- struct{}{}
		}
		if err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, jetstream.ErrNoMessages) && ctx.Err() == nil {
			w.cfg.Log.Debug("pull", "err", err)
			retryWait(ctx, err)
		}
	}
	wg.Wait()
	return nil
}

// take pulls a batch with fetch and starts a game of each job in it,
// each giving its slot back to free when it ends; it returns how many
// it started.
func (w *Worker) take(ctx context.Context, wg *sync.WaitGroup, free chan<- struct{}, fetch func() (jetstream.MessageBatch, error)) (int, error) {
	batch, err := fetch()
	if err != nil {
		return 0, err
	}
	got := 0
	for msg := range batch.Messages() {
		got++
		wg.Go(func() {
			defer func() { free <- struct{}{} }()
			w.handle(ctx, msg)
		})
	}
	return got, batch.Error()
}

// handle plays one job: it keeps the lease while the game runs, sends
// the result and acks the job once the result is in its stream.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) {
	j, err := DecodeJob(msg.Data())
	if err != nil {
		w.cfg.Log.Error("job refused", "subject", msg.Subject(), "err", err)
		msg.TermWithReason(err.Error())
		return
	}
	w.running.Add(1)
	defer w.running.Add(-1)
	stop := w.keepLease(msg)
	data, err := w.play(ctx, j, msg.Subject())
	stop()
	if err != nil {
		// Not the spec's fault (cancelled, a bot not fetched): another
		// worker, or this one later, plays it.
		w.cfg.Log.Warn("job given back", "game", j.Spec.ID, "err", err)
		msg.NakWithDelay(time.Second)
		return
	}
	subject := resultsPrefix + strings.TrimPrefix(msg.Subject(), jobsPrefix)
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.lease)
	defer cancel()
	if err := publishRetry(pctx, w.js, subject, "", data); err != nil {
		w.cfg.Log.Warn("result not sent", "game", j.Spec.ID, "err", err)
		msg.Nak()
		return
	}
	if err := msg.DoubleAck(pctx); err != nil {
		// The job comes back; its second result is dropped.
		w.cfg.Log.Warn("ack", "game", j.Spec.ID, "err", err)
	}
	w.done.Add(1)
}

// keepLease renews the job's lease every third of it until stop.
func (w *Worker) keepLease(msg jetstream.Msg) (stop func()) {
	done := make(chan struct{})
	every := max(w.lease/3, 10*time.Millisecond)
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	return func() { close(done) }
}

// play plays a job and returns its result, encoded. An error is the
// worker's own trouble; a spec that cannot be played is a result that
// says so.
func (w *Worker) play(ctx context.Context, j Job, jobSubj string) ([]byte, error) {
	res := Result{ID: j.Spec.ID, Digest: j.Digest, Worker: w.cfg.Name}
	if got, err := digest(j.Spec); err != nil || got != j.Digest {
		res.Error = "the job's digest is not its spec's"
		return json.Marshal(res)
	}
	players, err := w.cache.players(ctx, j, w.cfg.Self)
	if err != nil {
		return nil, err
	}
	spec := j.Spec
	spec.Players = players
	if spec.Options, err = w.cache.options(ctx, w.cfg.Games, j.Spec); errors.Is(err, errNotPlayable) {
		res.Error = err.Error()
		return json.Marshal(res)
	} else if err != nil {
		return nil, err
	}
	var follow match.Local
	if live, ok := liveSubjectOfJob(jobSubj); ok && j.Live {
		follow.Listener = &livePublisher{nc: w.js.Conn(), subject: live,
			attempt: w.cfg.Name + "/" + strconv.FormatInt(time.Now().UnixNano(), 36)}
	}
	rec, path, err := w.cfg.Play(ctx, spec, follow)
	files, ferr := w.takeFiles(j.Spec.ID)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		res.Error = err.Error()
		return json.Marshal(res)
	case ferr != nil:
		return nil, ferr
	}
	rec.Worker = w.cfg.Name
	if res.Record, err = json.Marshal(rec); err != nil {
		return nil, fmt.Errorf("encode record %s: %w", rec.ID, err)
	}
	res.Path, res.Files = filepath.Base(path), files
	delete(res.Files, res.Path) // it travels as Record
	return json.Marshal(res)
}

// takeFiles reads and removes the files Play wrote for a game: those in
// Out named ID.EXT.
func (w *Worker) takeFiles(id string) (map[string][]byte, error) {
	entries, err := os.ReadDir(w.cfg.Out)
	if err != nil {
		return nil, fmt.Errorf("records folder: %w", err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), id+".") {
			continue
		}
		path := filepath.Join(w.cfg.Out, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("records folder: %w", err)
		}
		files[e.Name()] = data
		os.Remove(path)
	}
	return files, nil
}
