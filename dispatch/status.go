package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WorkerStatus is a worker as its last heartbeat describes it.
type WorkerStatus struct {
	Name      string    `json:"name"`
	Host      string    `json:"host"`
	Slots     int       `json:"slots"`
	Running   int       `json:"running"`   // games in progress
	Done      int       `json:"done"`      // games finished since it started
	Started   time.Time `json:"started"`   // when it started
	Heartbeat time.Time `json:"heartbeat"` // its last report
}

// status is the worker's status now.
func (w *Worker) status() WorkerStatus {
	host, _ := os.Hostname()
	return WorkerStatus{
		Name: w.cfg.Name, Host: host, Slots: w.cfg.Slots,
		Running: int(w.running.Load()), Done: int(w.done.Load()),
		Started: w.started, Heartbeat: time.Now(),
	}
}

// heartbeat reports the worker's status every Heartbeat until ctx ends.
func (w *Worker) heartbeat(ctx context.Context) {
	var kv jetstream.KeyValue
	t := time.NewTicker(w.cfg.Heartbeat)
	defer t.Stop()
	for {
		if kv == nil {
			var err error
			if kv, err = w.js.KeyValue(ctx, HeartbeatBucket); err != nil {
				w.cfg.Log.Debug("heartbeat bucket", "err", err)
			}
		}
		if kv != nil {
			data, _ := json.Marshal(w.status())
			if _, err := kv.Put(ctx, heartbeatKey(w.cfg.Name), data); err != nil {
				w.cfg.Log.Debug("heartbeat", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// forget removes the worker from the list as it stops.
func (w *Worker) forget() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if kv, err := w.js.KeyValue(ctx, HeartbeatBucket); err == nil {
		kv.Delete(ctx, heartbeatKey(w.cfg.Name))
	}
}

// heartbeatKey keeps a worker's name a valid key.
func heartbeatKey(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
}

// Workers lists the workers that reported to nc's server, by name: a
// worker that stopped cleanly is gone, one that died stays with its
// last heartbeat until the bucket forgets it (a day).
func Workers(ctx context.Context, nc *nats.Conn) ([]WorkerStatus, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	kv, err := js.KeyValue(ctx, HeartbeatBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	var out []WorkerStatus
	for key := range keys.Keys() {
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("workers: %s: %w", key, err)
		}
		var s WorkerStatus
		if err := json.Unmarshal(e.Value(), &s); err != nil {
			continue // not a worker's report
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b WorkerStatus) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
