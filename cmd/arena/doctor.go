package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"arena/bot"
	"arena/sandbox"
)

// doctorStarts is how many bots arena doctor starts, bare and sandboxed,
// to measure what the sandbox adds to a start.
const doctorStarts = 20

// doctorReport is what arena doctor found (its --json output).
type doctorReport struct {
	Layers []sandbox.Status `json:"layers"`
	// Limits are those a sandboxed bot gets where their layer is on.
	Limits limits `json:"limits"`
	// Start is the measured start of a bot (a program that exits at once),
	// as the median of doctorStarts starts.
	Start startCost `json:"start"`
	// PauseLook says how the look before pausing an idle sandboxed bot
	// is made: "kernel" (the eBPF record of its pipe sleeps) or "proc"
	// (its /proc files), with PauseLookWhy saying why not the kernel.
	PauseLook    string `json:"pause_look"`
	PauseLookWhy string `json:"pause_look_why,omitempty"`
}

type limits struct {
	Processes int     `json:"processes"`
	FileSize  int64   `json:"file_size"`
	OpenFiles int     `json:"open_files"`
	TmpSize   int64   `json:"tmp_size"`
	CPUs      float64 `json:"cpus"`
}

type startCost struct {
	BareMs      float64 `json:"bare_ms"`
	SandboxedMs float64 `json:"sandboxed_ms"`
	ExtraMs     float64 `json:"extra_ms"`
	// PooledMs is a sandboxed start in a group kept ready (bot.Pool), as
	// the pipe bots of a run start; PooledExtraMs what it adds to bare.
	PooledMs      float64 `json:"pooled_ms"`
	PooledExtraMs float64 `json:"pooled_extra_ms"`
	// ResidentMs is a start by a seat's resident init (bot.Group.Reside),
	// as the file protocol starts its brain every move; ResidentExtraMs
	// what it adds to bare. Both 0, with ResidentWhy, where the sandbox
	// cannot have one.
	ResidentMs      float64 `json:"resident_ms"`
	ResidentExtraMs float64 `json:"resident_extra_ms"`
	ResidentWhy     string  `json:"resident_why,omitempty"`
	Error           string  `json:"error,omitempty"`
}

func newDoctorCmd() *cobra.Command {
	var jsonOut bool
	var sf sandboxFlags
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Say which sandbox layers this machine offers, why any is off, and what the sandbox adds to a bot's start",
		Long: `Probe the layers of the sandbox that --sandbox auto puts around every bot
(namespaces, cgroups, rlimits, no_new_privs, seccomp, landlock), print each
as on, or off with the reason, say how the look before pausing an idle bot
is made (the kernel's record of its pipe sleeps, or /proc), and measure the
start of a bot with and without the sandbox (the median of ` + fmt.Sprint(doctorStarts) + ` starts each).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := sf.policy()
			if err != nil {
				return err
			}
			r := sandbox.Probe(cmd.Context(), p.Net)
			rep := doctorReport{Layers: r.Layers, Start: measureStart(cmd.Context(), p, r),
				Limits: limits{Processes: sandbox.DefaultPids, FileSize: sandbox.DefaultFileSize, OpenFiles: sandbox.DefaultOpenFiles,
					TmpSize: sandbox.DefaultTmpSize, CPUs: sandbox.DefaultCPU}, PauseLook: "kernel"}
			if err := sandbox.CheckPipeSleeps(); err != nil {
				rep.PauseLook, rep.PauseLookWhy = "proc", err.Error()
			}
			if jsonOut {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(rep)
			}
			return printDoctor(cmd.OutOrStdout(), rep)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the report as one JSON object")
	cmd.Flags().StringVar(&sf.net, "sandbox-net", string(sandbox.NetNone), "probe for this network of a bot: none or loopback")
	return cmd
}

func printDoctor(w io.Writer, rep doctorReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LAYER\tSTATE\tWHY OFF")
	for _, s := range rep.Layers {
		state := "on"
		if !s.On {
			state = "off"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Layer, state, s.Why)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	l := rep.Limits
	fmt.Fprintf(w, "\nlimits per bot: %d processes and threads, files up to %d MiB, %d open files, %d MiB of /tmp, %g core(s)\n",
		l.Processes, l.FileSize>>20, l.OpenFiles, l.TmpSize>>20, l.CPUs)
	if rep.PauseLook == "kernel" {
		fmt.Fprintln(w, "look before pausing an idle bot: the kernel's record of its pipe sleeps (eBPF)")
	} else {
		fmt.Fprintf(w, "look before pausing an idle bot: its /proc files (no kernel record: %s)\n", rep.PauseLookWhy)
	}
	if rep.Start.Error != "" {
		_, err := fmt.Fprintf(w, "start of a bot: not measured: %s\n", rep.Start.Error)
		return err
	}
	_, err := fmt.Fprintf(w, "start of a bot (median of %d): bare %.2f ms, sandboxed %.2f ms: the sandbox adds %.2f ms; "+
		"in a group kept ready (a run's pipe bots) %.2f ms: it adds %.2f ms\n",
		doctorStarts, rep.Start.BareMs, rep.Start.SandboxedMs, rep.Start.ExtraMs, rep.Start.PooledMs, rep.Start.PooledExtraMs)
	if err != nil {
		return err
	}
	if rep.Start.ResidentWhy != "" {
		_, err = fmt.Fprintf(w, "start of a file-protocol brain by its seat's resident init: none here (%s)\n", rep.Start.ResidentWhy)
		return err
	}
	_, err = fmt.Fprintf(w, "start of a file-protocol brain by its seat's resident init (every move): %.2f ms (bare %.2f ms)\n",
		rep.Start.ResidentMs, rep.Start.BareMs)
	return err
}

// measureStart times starts of a program that exits at once, bare and in
// the sandbox that --sandbox auto makes from r, through a new init and in
// a group kept ready.
func measureStart(ctx context.Context, p sandbox.Policy, r sandbox.Report) startCost {
	p.Mode = sandbox.Auto
	sb, err := sandbox.New(p, r)
	if err != nil {
		return startCost{Error: err.Error()}
	}
	pooled, err := sandbox.New(p, r)
	if err != nil {
		return startCost{Error: err.Error()}
	}
	pool, err := bot.OpenPool(ctx, pooled, 1)
	if err != nil {
		return startCost{Error: err.Error()}
	}
	defer pool.Close()
	prog, err := bot.ResolveProgram("true")
	if err != nil {
		return startCost{Error: err.Error()}
	}
	dir, err := os.MkdirTemp("", "arena-doctor-")
	if err != nil {
		return startCost{Error: err.Error()}
	}
	defer os.RemoveAll(dir)
	var c startCost
	for _, run := range []struct {
		sb   *sandbox.Sandbox
		pool *bot.Pool
		out  *float64
	}{{nil, nil, &c.BareMs}, {sb, nil, &c.SandboxedMs}, {pooled, pool, &c.PooledMs}} {
		ms, err := medianStart(ctx, prog, dir, run.sb, run.pool, nil)
		if err != nil {
			return startCost{Error: err.Error()}
		}
		*run.out = ms
	}
	c.ExtraMs = c.SandboxedMs - c.BareMs
	c.PooledExtraMs = c.PooledMs - c.BareMs
	if !sb.Resides() {
		c.ResidentWhy = "it needs arena to run as root and bots to get namespaces"
		return c
	}
	seat := bot.NewSandboxGroup(0, sb)
	defer seat.Close()
	if _, err := seat.Reside(bot.Config{Args: []string{prog}, Dir: dir, Sandbox: sb}); err != nil {
		c.ResidentWhy = err.Error()
		return c
	}
	ms, err := medianStart(ctx, prog, dir, sb, nil, seat)
	if err != nil {
		c.ResidentWhy = err.Error()
		return c
	}
	c.ResidentMs, c.ResidentExtraMs = ms, ms-c.BareMs
	return c
}

// medianStart starts prog doctorStarts times and returns the median time
// from the start to its end, in milliseconds. With a pool (kept by sb),
// each start waits (not timed) until the pool is full, as between games;
// with a seat's group, every start is the seat's, as moves are.
func medianStart(ctx context.Context, prog, dir string, sb *sandbox.Sandbox, pool *bot.Pool, seat *bot.Group) (float64, error) {
	var times []time.Duration
	for i := 0; i < doctorStarts && ctx.Err() == nil; i++ {
		if pool != nil {
			if _, err := pool.Ready(ctx); err != nil {
				return 0, err
			}
		}
		t0 := time.Now()
		p, err := bot.Start(bot.Config{Args: []string{prog}, Dir: dir, Sandbox: sb, Group: seat})
		if err != nil {
			return 0, err
		}
		<-p.Done()
		times = append(times, time.Since(t0))
		code := p.ExitCode()
		stderr := p.Stderr()
		p.Close()
		if seat != nil {
			seat.KillAll()
		}
		if code != 0 {
			return 0, fmt.Errorf("%s exited %d: %s", prog, code, stderr)
		}
	}
	if len(times) == 0 {
		return 0, ctx.Err()
	}
	slices.Sort(times)
	return float64(times[len(times)/2].Microseconds()) / 1000, nil
}
