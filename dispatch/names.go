package dispatch

import (
	"crypto/sha256"
	"encoding/hex"
)

// The names of what dispatch keeps in JetStream. Every coordinator and
// worker of one NATS system shares them; events are told apart by the
// subject token of their name (eventToken).
const (
	// JobsStream is the work-queue stream of jobs, subjects
	// "arena.jobs.EVENT.GAME".
	JobsStream = "ARENA_JOBS"
	// ResultsStream keeps the workers' results, subjects
	// "arena.results.EVENT.GAME", until they are old.
	ResultsStream = "ARENA_RESULTS"
	// WorkersConsumer is the durable consumer every worker pulls from.
	WorkersConsumer = "arena-workers"
	// BotsBucket is the object store of bots by content hash.
	BotsBucket = "arena-bots"
	// HeartbeatBucket is the key-value bucket of workers' heartbeats.
	HeartbeatBucket = "arena-workers"

	jobsPrefix    = "arena.jobs."
	resultsPrefix = "arena.results."
)

// token makes a subject token of any string: the first 16 bytes of its
// SHA-256 in hex, so game IDs and event names with dots, spaces or
// wildcards fit a subject.
func token(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// jobSubject is the subject of a game's job in an event.
func jobSubject(event, gameID string) string {
	return jobsPrefix + token(event) + "." + token(gameID)
}

// resultSubject is the subject of a game's result in an event.
func resultSubject(event, gameID string) string {
	return resultsPrefix + token(event) + "." + token(gameID)
}
