package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"arena/game"
	"arena/store"
	"arena/web"
)

// playTournament runs a tournament the web page asked for, as "arena
// tournament" runs the same command line: it fills the command's flags
// from req and goes through prepareTournament and run, so the schedule,
// game IDs, stored rows and ratings are those of the CLI, and "arena
// tournament --resume NAME" can continue it. bots are the server's
// registered bots by name and options the game's own flags (serve's
// --options); every game goes to its own listener from listen (nil:
// none). Games are stored in st, records written under out.
func playTournament(ctx context.Context, st *store.Store, req web.TournamentRequest, bots map[string]player,
	options []string, out string, listen func(gameID string) game.Listener) error {
	d, ok := driverByName(req.Game)
	if !ok {
		return fmt.Errorf("tournament %s: unknown game %q", req.Name, req.Game)
	}
	if len(req.Bots) < max(2, d.info.Players[0]) {
		return fmt.Errorf("tournament %s: a %s tournament needs at least %d bots, got %d",
			req.Name, d.info.Name, max(2, d.info.Players[0]), len(req.Bots))
	}
	cmd := &cobra.Command{Use: d.info.Name}
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	tc := registerTournamentFlags(cmd, d)
	fl := cmd.Flags()
	if err := fl.Parse(options); err != nil {
		return fmt.Errorf("tournament %s: --options: %w", req.Name, err)
	}
	var players []player
	seen := map[string]bool{}
	set := func(name, value string) error {
		if err := fl.Set(name, value); err != nil {
			return fmt.Errorf("tournament %s: --%s %s: %w", req.Name, name, value, err)
		}
		return nil
	}
	for _, name := range req.Bots {
		p, ok := bots[name]
		if !ok {
			return fmt.Errorf("tournament %s: no bot %q registered for %s", req.Name, name, d.info.Name)
		}
		if seen[name] {
			return fmt.Errorf("tournament %s: bot %q entered twice", req.Name, name)
		}
		seen[name] = true
		// The registered name is kept over whatever the command would
		// be named after: the page shows it, and a resume reads it back.
		p.Name = name
		players = append(players, p)
		if err := set("bot", name+"="+p.Command); err != nil {
			return err
		}
	}
	if req.Format != "" {
		if err := set("format", req.Format); err != nil {
			return err
		}
	}
	if req.Games != 0 {
		if err := set("games-per-pair", strconv.Itoa(req.Games)); err != nil {
			return err
		}
	}
	if req.Rounds != 0 {
		if err := set("rounds", strconv.Itoa(req.Rounds)); err != nil {
			return err
		}
	}
	if req.TurnTime != 0 {
		if err := set("turn-time", req.TurnTime.String()); err != nil {
			return err
		}
	}
	if req.MatchTime != 0 {
		if err := set("match-time", req.MatchTime.String()); err != nil {
			return err
		}
	}
	if req.Name != "" {
		if err := set("name", req.Name); err != nil {
			return err
		}
	}
	if err := set("out", out); err != nil {
		return err
	}
	spec, cleanup, err := prepareTournament(cmd, tc, players)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", req.Name, err)
	}
	defer cleanup()
	spec.st, spec.dsn, spec.listen = st, st.String(), listen
	if _, err := spec.run(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("tournament %s: stopped: %w", spec.name, err)
		}
		return fmt.Errorf("tournament %s: %w", spec.name, err)
	}
	return nil
}
