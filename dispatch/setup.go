package dispatch

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultLease is how long a worker holds a job without a sign of life
// before JetStream gives it to another worker (the consumer's AckWait);
// a running game renews it every third of that.
const DefaultLease = 30 * time.Second

// Connect connects to a NATS server for dispatch, reconnecting for ever
// when the server goes away (a restart): name names the connection in
// the server's monitoring.
func Connect(url, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond), nats.RetryOnFailedConnect(true))
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", url, err)
	}
	return nc, nil
}

// setup creates (or updates) the streams, the workers' consumer and the
// buckets: a coordinator calls it, and it sets the lease. replicas is
// how many cluster nodes keep each (1 on a single server).
func setup(ctx context.Context, js jetstream.JetStream, lease time.Duration, replicas int) error {
	replicas = max(replicas, 1)
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: JobsStream, Subjects: []string{jobsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Replicas: replicas, Duplicates: 10 * time.Minute,
		Description: "arena: match specs waiting for a worker",
	})
	if err != nil {
		return fmt.Errorf("stream %s: %w", JobsStream, err)
	}
	_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: ResultsStream, Subjects: []string{resultsPrefix + ">"}, Retention: jetstream.LimitsPolicy,
		Storage: jetstream.FileStorage, Replicas: replicas, MaxAge: 7 * 24 * time.Hour,
		MaxMsgsPerSubject: 1, AllowDirect: true,
		Description: "arena: workers' records, until their coordinator stores them",
	})
	if err != nil {
		return fmt.Errorf("stream %s: %w", ResultsStream, err)
	}
	_, err = js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
		Durable: WorkersConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: lease,
		MaxDeliver: -1, MaxAckPending: -1, FilterSubject: jobsPrefix + ">", Replicas: replicas,
		MaxWaiting: 100000,
	})
	if err != nil {
		return fmt.Errorf("consumer %s: %w", WorkersConsumer, err)
	}
	if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: BotsBucket, Storage: jetstream.FileStorage, Replicas: replicas,
		Description: "arena: bots by the SHA-256 of their content",
	}); err != nil {
		return fmt.Errorf("object store %s: %w", BotsBucket, err)
	}
	if _, err := heartbeats(ctx, js, replicas); err != nil {
		return err
	}
	return nil
}

// heartbeats opens the workers' heartbeat bucket, creating it.
func heartbeats(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.KeyValue, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: HeartbeatBucket, Storage: jetstream.FileStorage, Replicas: max(replicas, 1), TTL: 24 * time.Hour,
		Description: "arena: workers and their last heartbeat",
	})
	if err != nil {
		return nil, fmt.Errorf("bucket %s: %w", HeartbeatBucket, err)
	}
	return kv, nil
}
