// Package dispatch plays match specs on other processes and machines
// through NATS JetStream: it is where a tournament's games run when the
// local pool is not enough.
//
// The coordinator (Runner, an engine.Runner) publishes each game's spec
// as a job on a work-queue stream and waits for its record on a results
// stream. Workers (Worker, "arena worker") pull jobs from one shared
// durable consumer, play them through the same code path local play uses
// (engine.Local), keep their lease with progress acks while a game runs,
// publish the record and then ack the job. A worker that dies loses its
// lease and the job is delivered to another one; a result delivered
// twice is dropped, so the coordinator, which alone writes the store,
// stores every game once.
//
// Bots travel by content: a bot's folder or program goes once into a
// JetStream object store under its SHA-256, and workers fetch and cache
// it by that hash, never trusting a path of the coordinator's machine.
// Arena's built-in bots are the worker's own executable. The files a
// game's options name (game.FileOptions: Gomoku's --opening, Ants'
// --map) travel the same way: the job's options name them by hash, and
// the worker points them at its cached copies.
//
// Workers report a heartbeat to a key-value bucket (Workers lists them).
// Embedded starts a NATS server with JetStream inside the process, so
// one machine needs no setup; any NATS server or cluster with JetStream
// works as well.
package dispatch
