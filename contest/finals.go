package contest

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"arena/engine"
	"arena/game"
	"arena/match"
	"arena/standings"
	"arena/tournament"
)

// Finals is the final tournament of a contest: its latest accepted bots
// (not disqualified), seeded by the ladder's ranking, in a tournament of
// the existing engine.
type Finals struct {
	Contest      string
	Name         string // the tournament's name; "": CONTEST-finals
	Format       tournament.Format
	GamesPerPair int // 0: 2
	Rounds       int // Swiss rounds; 0: enough to find a winner
	Out          string
	Concurrency  int
	// Stored is told each game once it is stored (progress); optional.
	Stored func(gameID string)
}

// RunFinals plays the finals; a run stopped midway resumes where it
// stopped when run again with the same settings.
func (s *Service) RunFinals(ctx context.Context, f Finals) (engine.Result, error) {
	st := s.cfg.Store
	c, err := st.Contest(ctx, f.Contest)
	if err != nil {
		return engine.Result{}, err
	}
	status, err := LoadStatus(ctx, st, f.Contest)
	if err != nil {
		return engine.Result{}, err
	}
	var players []match.Player
	for _, r := range status.Standings { // in the ladder's order: the seeds
		if r.Accepted == "" || r.Disqualified {
			continue
		}
		sub, err := st.Submission(ctx, r.Accepted)
		if err != nil {
			return engine.Result{}, err
		}
		players = append(players, Player(r.User, sub))
	}
	if len(players) < 2 {
		return engine.Result{}, fmt.Errorf("finals of %s: %d participants have an accepted bot, need 2", f.Contest, len(players))
	}
	spec, info, err := s.matchSpec(c, players)
	if err != nil {
		return engine.Result{}, err
	}
	if f.Name == "" {
		f.Name = f.Contest + "-finals"
	}
	if f.GamesPerPair <= 0 {
		f.GamesPerPair = 2
	}
	t := &engine.Tournament{
		Name: f.Name,
		Args: []string{"contest", "finals", f.Contest, "--format", string(f.Format), "--games-per-pair", strconv.Itoa(f.GamesPerPair),
			"--rounds", strconv.Itoa(f.Rounds)},
		Schedule: tournament.Config{Format: f.Format, Players: len(players), Seats: info.Players[0],
			GamesPerPair: f.GamesPerPair, Rounds: f.Rounds},
		Match: spec, Runner: s.cfg.Runner, Store: st, Out: f.Out, Concurrency: max(f.Concurrency, 1),
	}
	if f.Stored != nil {
		t.Stored = func(g tournament.Game, _ *game.Record, _ string, _ *standings.Table) error {
			f.Stored(g.ID)
			return nil
		}
	}
	res, err := t.Run(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		return res, fmt.Errorf("finals of %s: %w", f.Contest, err)
	}
	return res, err
}
