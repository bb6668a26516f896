package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"arena/game"
	"arena/match"
	"arena/store"
)

// Runner plays specs: the one interface between what to play and where
// it is played. Run plays one spec to its end and returns its record
// and the path of its JSON record; follow's hooks (progress, live
// listener, transcripts) follow the game where the runner can. An error
// means the game could not be played, never a player's fault (that is
// the record's result).
type Runner interface {
	Run(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error)
	// Openings is the number of starting positions the spec's match
	// cycles through (at least 1); it fails when the spec's match cannot
	// be played (bad options, a missing map).
	Openings(spec match.Spec) (int, error)
}

// Local is a Runner that plays specs on this machine, writing the
// records and the bots' working folders under its place's folders, the
// bots in its sandbox.
type Local struct {
	rs *match.Runners
}

var _ Runner = (*Local)(nil)

// NewLocal plays specs of games on this machine.
func NewLocal(games match.Games, place match.Local) *Local {
	return &Local{rs: match.NewRunners(games, place)}
}

// Run plays one spec.
func (l *Local) Run(ctx context.Context, spec match.Spec, follow match.Local) (*game.Record, string, error) {
	return l.rs.Play(ctx, spec, follow)
}

// Openings is the number of starting positions of the spec's match.
func (l *Local) Openings(spec match.Spec) (int, error) { return l.rs.Openings(spec) }

// StoredGame is a finished game as the store keeps it: its result, its
// players by name and its whole record. tournament is "" for a game of
// no tournament; path is where its JSON record was written.
func StoredGame(rec *game.Record, path, tournament string, round int) (store.Game, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return store.Game{}, fmt.Errorf("encode record %s: %w", rec.ID, err)
	}
	g := store.Game{
		ID: rec.ID, Tournament: tournament, Round: round, Seats: rec.Seats, Winner: rec.Winner,
		Reason: string(rec.Reason), Detail: rec.Detail, Scores: rec.Scores, Moves: rec.Length(),
		Record: data, RecordPath: path, Start: rec.Start, End: rec.End,
	}
	for _, p := range rec.Players {
		g.Players = append(g.Players, p.Name)
	}
	return g, nil
}

// Save stores a finished game that belongs to no tournament, in one
// transaction, even when ctx has ended: the game is over all the same.
func Save(ctx context.Context, st *store.Store, rec *game.Record, path string) error {
	g, err := StoredGame(rec, path, "", 0)
	if err != nil {
		return err
	}
	if err := st.SaveGame(context.WithoutCancel(ctx), g); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// saveOnce stores a tournament's game; a game already stored is the
// same game played again by a run that raced this one, and the stored
// copy stands.
func saveOnce(st *store.Store, g store.Game) error {
	if err := st.SaveGame(context.Background(), g); err != nil && !errors.Is(err, store.ErrExists) {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}
