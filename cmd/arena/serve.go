package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/engine"
	"arena/game"
	"arena/internal/version"
	"arena/match"
	"arena/sandbox"
	"arena/store"
	"arena/web"
)

// serveFlags are the options of "arena serve".
type serveFlags struct {
	addr, db, token, out string
	tokenFile            string
	bots, options        []string
	allowedHosts         []string
	concurrency          int
	ladderSlots          int
	sandbox              sandboxFlags
	dispatch             dispatchFlags // where the page's tournaments are played
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web page: watch live games, replay stored ones, play against bots, follow tournaments",
		Long: `Serve the web page and its API on --addr. Watching and replaying are open to
anyone who reaches the address; starting matches, tournaments and games
against a bot needs the token, which the printed address carries (#token=...):
a random one, or your own from --token-file PATH or the environment variable
ARENA_TOKEN (never the command line, which every process can read).
Bots are registered here with --bot GAME:NAME=CMD (arena's own bot of every
game is registered as "builtin"); the page can only choose among them, never
run a command of its own. Finished games go to the store (--db) and their
files to --out.`,
		Example: `  arena serve
  arena serve --addr 127.0.0.1:0 --db arena.db --bot gomoku:mine=./pbrain-mine --bot "khet:py=python3 -u bot.py"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
	fl.StringVar(&f.db, "db", "", "the store: a SQLite file or postgres://... (default OUT/arena.db, where arena tournament keeps its games)")
	fl.StringVar(&f.tokenFile, "token-file", "", "file holding the token that opens starting matches and tournaments (default: $"+tokenEnv+", else a random one)")
	fl.StringVar(&f.token, "token", "", "refused: a token on the command line is visible to every process; give --token-file or $"+tokenEnv)
	fl.StringArrayVar(&f.allowedHosts, "allowed-host", nil, `a name the page is reached by, besides loopback names and IP addresses (e.g. "arena.example.org"; repeat; "*" takes any, only behind a proxy that checks): other Host headers are refused, as a DNS-rebinding page would send`)
	fl.StringArrayVar(&f.bots, "bot", nil, `register a bot: "GAME:NAME=CMD" (repeat; "builtin" is registered for every game)`)
	fl.StringArrayVar(&f.options, "options", nil, `"GAME:FLAGS": GAME's own options of "arena match GAME" (not --bot, the clocks or the other shared ones, which the page sets) for every game and tournament of GAME the page starts, e.g. "points:--size 15x15 --max-moves 60" (repeat per game)`)
	fl.StringVar(&f.out, "out", "arena-out", "folder for the games' record files")
	fl.IntVar(&f.concurrency, "concurrency", runtime.NumCPU(), "games with bots played at once (more wait)")
	fl.IntVar(&f.ladderSlots, "ladder-slots", 1, "games the contests' ladder plays at once (see arena contest)")
	f.sandbox.register(fl)
	f.dispatch.register(fl)
	return cmd
}

func (f *serveFlags) run(cmd *cobra.Command) error {
	ctx := cmd.Context()
	if f.concurrency < 1 {
		return fmt.Errorf("--concurrency %d: must be at least 1", f.concurrency)
	}
	if cmd.Flags().Changed("token") {
		return errTokenFlag
	}
	token, err := serveToken(f.tokenFile, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	bots, err := registerBots(f.bots)
	if err != nil {
		return err
	}
	options, err := gameOptions(f.options)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	out, err := filepath.Abs(f.out)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	work, err := workFolder("", out, cmd.ErrOrStderr())
	if err != nil {
		return fmt.Errorf("working folder: %w", err)
	}
	defer os.RemoveAll(work)
	if f.db == "" {
		f.db = filepath.Join(out, "arena.db")
	}
	st, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	sb, err := f.sandbox.open(ctx, f.concurrency)
	if err != nil {
		return err
	}
	defer sb.Close()
	disp, err := f.dispatch.start(ctx, out, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer disp.stop()
	l := newLauncher(st, bots, out, work, f.concurrency, sb)
	l.disp = disp
	l.options = options
	l.sandboxFlags = f.sandbox
	logger := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	contestCtx, stopContests := context.WithCancel(ctx)
	contests, waitContests, err := startContests(contestCtx, disp, st, out, work, sb, f.ladderSlots, cmd.ErrOrStderr())
	if err != nil {
		stopContests()
		return err
	}
	defer func() { stopContests(); waitContests() }()
	srv, err := web.New(web.Config{Launcher: l, Store: st, Token: token, Logger: logger, Version: version.String(),
		Formats: games().Formats(), AllowedHosts: f.allowedHosts, Contests: contests, Workers: disp.status()})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	hs := srv.HTTPServer() // with its timeouts
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(cmd.OutOrStdout(), "arena: serving on %s/#token=%s\n", pageURL(ln.Addr()), token)

	select {
	case err = <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Stop taking requests, then end the games (killing their bots) and
	// the websockets, which Shutdown does not wait for.
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = hs.Shutdown(shut)
	srv.Close()
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// pageURL is the address a browser on this machine opens: an unspecified
// host (":0", "0.0.0.0") is reached through the loopback address.
func pageURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// registerBots reads the --bot flags of serve: GAME:NAME=CMD, or GAME:CMD
// (named after the program). Every game that seats bots gets arena's own
// as "builtin", first. Names are unique within a game.
func registerBots(specs []string) (map[string][]player, error) {
	out := map[string][]player{}
	for _, d := range drivers() {
		ps, err := parsePlayers([]string{"builtin"}, d.info.Name)
		if err != nil {
			return nil, err
		}
		out[d.info.Name] = ps
	}
	for _, spec := range specs {
		name, rest, ok := strings.Cut(spec, ":")
		if _, known := out[name]; !ok || !known {
			return nil, fmt.Errorf("--bot %q: want GAME:NAME=CMD with GAME one of %s", spec, strings.Join(gameNames(), ", "))
		}
		ps, err := parsePlayers([]string{rest}, name)
		if err != nil {
			return nil, err
		}
		p := ps[0]
		if slices.ContainsFunc(out[name], func(q player) bool { return q.Name == p.Name }) {
			return nil, fmt.Errorf("--bot %q: %s already has a bot named %q", spec, name, p.Name)
		}
		out[name] = append(out[name], p)
	}
	return out, nil
}

// gameOptions reads the --options flags of serve: GAME:FLAGS, the game's
// own flags of "arena match GAME" (not the shared ones such as --bot or
// --turn-time: the page sets the bots and clocks). Each is checked here,
// once, so that a mistake stops the server at start rather than failing
// every game; the error lists the flags the game takes.
func gameOptions(specs []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, spec := range specs {
		name, flags, ok := strings.Cut(spec, ":")
		d, known := driverByName(name)
		if !ok || !known {
			return nil, fmt.Errorf("--options %q: want GAME:FLAGS with GAME one of %s", spec, strings.Join(gameNames(), ", "))
		}
		args, err := bot.SplitCommand(flags)
		if err != nil {
			return nil, fmt.Errorf("--options %q: %w", spec, err)
		}
		out[name] = append(out[name], args...)
		fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		d.flags(fs)
		if err := fs.Parse(out[name]); err != nil {
			var own []string
			fs.VisitAll(func(fl *pflag.Flag) { own = append(own, "--"+fl.Name) })
			return nil, fmt.Errorf("--options %q: %w (%s's own options: %s)", spec, err, name, strings.Join(own, " "))
		}
		if fs.NArg() > 0 {
			return nil, fmt.Errorf("--options %q: unexpected %q", spec, fs.Arg(0))
		}
	}
	return out, nil
}

// launcher is the server's engine.Launcher with the command line's
// parts: the registered bots and serve's --options, as flags, which give
// the games their typed options and are stored with the page's
// tournaments (to resume them from the command line).
type launcher struct {
	*engine.Launcher
	bots    map[string][]player // per game, "builtin" first
	st      *store.Store
	options map[string][]string // per game, its flags (--options)
	out     string              // absolute folder for record files
	// sandbox is around every bot (nil: off); sandboxFlags give the
	// page's tournaments the same, stored to resume them.
	sandbox      *sandbox.Sandbox
	sandboxFlags sandboxFlags
	disp         *dispatcher // plays the tournaments' games on workers; nil: here
}

func newLauncher(st *store.Store, bots map[string][]player, out, work string, concurrency int, sb *sandbox.Sandbox) *launcher {
	l := &launcher{bots: bots, st: st, out: out, sandbox: sb}
	var gs []match.Game
	for _, d := range drivers() {
		gs = append(gs, d)
	}
	el, err := engine.NewLauncher(engine.LauncherConfig{
		Games: gs, Bots: bots, Store: st, Options: l.gameOptions, Out: out, Work: work,
		Concurrency: concurrency, Tournament: l.tournament, Sandbox: sb,
	})
	if err != nil {
		panic(err) // the games are the registry's, whose names are unique
	}
	l.Launcher = el
	return l
}

// gameOptions are a game's options as serve's --options set them, as
// the JSON a spec carries.
func (l *launcher) gameOptions(name string) (json.RawMessage, error) {
	d, ok := driverByName(name)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", name)
	}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := d.flags(fs)
	if err := fs.Parse(l.options[name]); err != nil {
		return nil, err
	}
	spec, err := opts.spec(runEnv{})
	if err != nil {
		return nil, err
	}
	return spec.Options, nil
}

// tournament runs a tournament among registered bots.
func (l *launcher) tournament(ctx context.Context, req web.TournamentRequest, listen func(gameID string) game.Listener) error {
	bots := map[string]player{}
	for _, p := range l.bots[req.Game] {
		bots[p.Name] = p
	}
	return playTournamentOn(ctx, l.disp, l.st, req, bots, l.options[req.Game], l.out, l.sandbox, l.sandboxFlags, listen)
}
