package main

import (
	"cmp"
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"arena/bot"
	"arena/sandbox"
)

// sandboxFlags are --sandbox and --sandbox-net, shared by match,
// tournament, sprt and serve.
type sandboxFlags struct {
	mode string
	net  string
}

func (s *sandboxFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&s.mode, "sandbox", string(sandbox.Auto), "the sandbox around each bot: auto (every layer this machine offers), strict (refuse to start when a layer is missing), off (none; see arena doctor)")
	fl.StringVar(&s.net, "sandbox-net", string(sandbox.NetNone), "network of a sandboxed bot: none, or loopback (a private loopback of its own)")
}

// modeOrDefault and netOrDefault are the values of --sandbox and
// --sandbox-net, defaults filled in, as a stored command line repeats them.
func (s sandboxFlags) modeOrDefault() string { return cmp.Or(s.mode, string(sandbox.Auto)) }
func (s sandboxFlags) netOrDefault() string  { return cmp.Or(s.net, string(sandbox.NetNone)) }

// open checks the flags, finds out what this machine offers and makes
// the sandbox (nil when off). The sandbox keeps groups ready for the
// one-shot starts of up to games games at once (see poolSize), until ctx
// ends or the caller, which owns it, calls its Close.
func (s sandboxFlags) open(ctx context.Context, games int) (*sandbox.Sandbox, error) {
	p, err := s.policy()
	if err != nil {
		return nil, err
	}
	if p.Mode == sandbox.Off {
		return nil, nil
	}
	sb, err := sandbox.New(p, sandbox.Probe(ctx, p.Net))
	if err != nil {
		return nil, fmt.Errorf("%w (arena doctor tells more; --sandbox auto uses what there is)", err)
	}
	if _, err := bot.OpenPool(ctx, sb, poolSize(games, 2)); err != nil {
		return nil, err
	}
	return sb, nil
}

// keepReady has sb (made by open) keep groups ready for games games of
// seats seats each at once, once a run knows how many it plays.
func keepReady(sb *sandbox.Sandbox, games, seats int) {
	if pool, ok := sb.Kept().(*bot.Pool); ok {
		pool.Grow(poolSize(games, seats))
	}
}

// poolSize is how many groups the sandbox keeps ready for games games of
// seats seats each at once, up to maxPool. A start beyond them makes its
// own group, as without a pool.
func poolSize(games, seats int) int { return min(max(games, 1)*max(seats, 1), maxPool) }

// maxPool caps the groups kept ready: each waits with an init of its own
// (a few MB of memory).
const maxPool = 16

func (s sandboxFlags) policy() (sandbox.Policy, error) {
	if s.mode == "" {
		s.mode = string(sandbox.Auto)
	}
	mode, err := sandbox.ParseMode(s.mode)
	if err != nil {
		return sandbox.Policy{}, fmt.Errorf("--sandbox: %w", err)
	}
	net, err := sandbox.ParseNet(s.net)
	if err != nil {
		return sandbox.Policy{}, fmt.Errorf("--sandbox-net: %w", err)
	}
	return sandbox.Policy{Mode: mode, Net: net}, nil
}
