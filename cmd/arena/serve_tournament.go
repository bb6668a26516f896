package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
	"arena/store"
	"arena/tournament"
	"arena/web"
)

// playTournament runs a tournament the web page asked for through the
// same tournament code as "arena tournament" (tournamentSpec.run, over
// engine.Tournament), with the request's values as typed options: the
// schedule, game IDs, stored rows and ratings are those of the CLI. It
// stores the command line the CLI would have been given, so that "arena
// tournament --resume NAME" can continue it. bots are the server's
// registered bots by name and options the game's own flags (serve's
// --options); every game goes to its own listener from listen (nil:
// none). Games are stored in st, records written under out.
func playTournament(ctx context.Context, st *store.Store, req web.TournamentRequest, bots map[string]player,
	options []string, out string, sb *sandbox.Sandbox, sf sandboxFlags, listen func(gameID string) game.Listener) error {
	return playTournamentOn(ctx, nil, st, req, bots, options, out, sb, sf, listen)
}

// playTournamentOn is playTournament with its games played on disp's
// workers (nil: here).
func playTournamentOn(ctx context.Context, disp *dispatcher, st *store.Store, req web.TournamentRequest, bots map[string]player,
	options []string, out string, sb *sandbox.Sandbox, sf sandboxFlags, listen func(gameID string) game.Listener) error {
	d, ok := driverByName(req.Game)
	if !ok {
		return fmt.Errorf("tournament %s: unknown game %q", req.Name, req.Game)
	}
	if len(req.Bots) < max(2, d.info.Players[0]) {
		return fmt.Errorf("tournament %s: a %s tournament needs at least %d bots, got %d",
			req.Name, d.info.Name, max(2, d.info.Players[0]), len(req.Bots))
	}
	// The command line the CLI would be given, flag by flag.
	args := map[string][]string{}
	var players []player
	for _, name := range req.Bots {
		p, ok := bots[name]
		if !ok {
			return fmt.Errorf("tournament %s: no bot %q registered for %s", req.Name, name, d.info.Name)
		}
		if slices.ContainsFunc(players, func(q player) bool { return q.Name == name }) {
			return fmt.Errorf("tournament %s: bot %q entered twice", req.Name, name)
		}
		// The registered name is kept over whatever the command would
		// be named after: the page shows it, and a resume reads it back.
		p.Name = name
		players = append(players, p)
		args["bot"] = append(args["bot"], name+"="+p.Command)
	}
	tf := tournamentFlags{format: "round-robin", gamesPerPair: 2, rounds: req.Rounds}
	if req.Format != "" {
		tf.format = req.Format
		args["format"] = []string{req.Format}
	}
	format, err := tournament.ParseFormat(tf.format)
	if err != nil {
		return fmt.Errorf("tournament %s: --format: %w", req.Name, err)
	}
	if req.Games != 0 {
		tf.gamesPerPair = req.Games
		args["games-per-pair"] = []string{strconv.Itoa(req.Games)}
	}
	if tf.gamesPerPair < 1 {
		return fmt.Errorf("tournament %s: --games-per-pair %d: must be at least 1", req.Name, tf.gamesPerPair)
	}
	if req.Rounds != 0 {
		args["rounds"] = []string{strconv.Itoa(req.Rounds)}
	}
	clock := match.Clock{Turn: d.info.TurnTime, Match: d.info.MatchTime, Tolerance: time.Second, Startup: 30 * time.Second}
	for _, c := range []struct {
		flag  string
		value time.Duration
		dst   *time.Duration
	}{{"turn-time", req.TurnTime, &clock.Turn}, {"match-time", req.MatchTime, &clock.Match}} {
		if c.value < 0 {
			return fmt.Errorf("tournament %s: --%s %v: must not be negative", req.Name, c.flag, c.value)
		}
		if c.value != 0 {
			*c.dst = c.value
			args[c.flag] = []string{c.value.String()}
		}
	}
	// The game's own options, as serve's --options gave them.
	fs := pflag.NewFlagSet(d.info.Name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := d.flags(fs)
	if err := fs.Parse(options); err != nil {
		return fmt.Errorf("tournament %s: --options: %w", req.Name, err)
	}
	fs.Visit(func(fl *pflag.Flag) {
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			args[fl.Name] = sv.GetSlice()
			return
		}
		args[fl.Name] = []string{fl.Value.String()}
	})
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("tournament %s: --out: %w", req.Name, err)
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("tournament %s: --out: %w", req.Name, err)
	}
	args["out"] = []string{out}
	name := req.Name
	if name == "" {
		name = uniqueEventName(d.info.Name, time.Now())
	}
	args["name"] = []string{name}
	args["sandbox"], args["sandbox-net"] = []string{sf.modeOrDefault()}, []string{sf.netOrDefault()}
	work, err := bot.ScratchDir("", abs, bot.WorkPrefix())
	if err != nil {
		return fmt.Errorf("tournament %s: working folder: %w", name, err)
	}
	defer os.RemoveAll(work)
	env := runEnv{Players: players, Clock: clock, Out: abs, Work: work, Sandbox: sb}
	r, err := opts.build(env)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", name, err)
	}
	spec := &tournamentSpec{
		d: d, env: env, r: r, name: name, args: commandLine(d.info.Name, args), format: format, tf: tf,
		stdout: io.Discard, stderr: io.Discard, st: st, dsn: st.String(), listen: listen, disp: disp,
	}
	if _, err := spec.run(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("tournament %s: stopped: %w", spec.name, err)
		}
		return fmt.Errorf("tournament %s: %w", spec.name, err)
	}
	return nil
}

// commandLine writes flags as "arena tournament" stores its command
// line: the game, then "--NAME=VALUE" in the order of the flags' names,
// a repeated flag's values in their order.
func commandLine(gameName string, flags map[string][]string) []string {
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	slices.Sort(names)
	out := []string{gameName}
	for _, n := range names {
		for _, v := range flags[n] {
			out = append(out, "--"+n+"="+v)
		}
	}
	return out
}
