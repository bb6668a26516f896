package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/dispatch"
	"arena/engine"
	"arena/web"
)

// dispatchFlags choose where the games of tournament, sprt and serve
// are played: the local pool (neither set), the workers of a NATS server
// (--nats), or local worker processes on an embedded server (--workers).
type dispatchFlags struct {
	nats       string
	workers    int
	listenNats string
	lease      time.Duration
}

// dispatchFlagNames are the flags of dispatchFlags: they change where a
// tournament's games are played, not which.
var dispatchFlagNames = []string{"nats", "workers", "listen-nats", "nats-lease"}

func (df *dispatchFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&df.nats, "nats", "", "send every game to the workers of this NATS server (nats://host:4222) instead of playing it here")
	fs.IntVar(&df.workers, "workers", 0, "start N local worker processes (without --nats, on an embedded NATS server kept under OUT/nats)")
	fs.StringVar(&df.listenNats, "listen-nats", "", "run the embedded NATS server on this address (host:port) for other machines' workers (default: a free port of 127.0.0.1)")
	fs.DurationVar(&df.lease, "nats-lease", dispatch.DefaultLease, "how long a silent worker keeps a game before it goes to another (running games renew it)")
}

// enabled says the games go to workers.
func (df *dispatchFlags) enabled() bool {
	return df.nats != "" || df.workers > 0 || df.listenNats != ""
}

func (df *dispatchFlags) check() error {
	switch {
	case df.workers < 0:
		return fmt.Errorf("--workers %d: must not be negative", df.workers)
	case df.listenNats != "" && df.nats != "":
		return errors.New("--listen-nats is the embedded server's address: give it without --nats")
	case df.lease <= 0:
		return fmt.Errorf("--nats-lease %v: must be positive", df.lease)
	}
	return nil
}

// dispatcher is the NATS side of a coordinator: the embedded server if
// it runs one, the connection, the local worker processes.
type dispatcher struct {
	srv    *dispatch.Server
	nc     *nats.Conn
	url    string
	lease  time.Duration
	log    *slog.Logger
	procs  []*exec.Cmd
	waited sync.WaitGroup
}

// start connects to the workers' NATS server, starting the embedded one
// under out when there is no --nats, and starts the local workers. It
// returns nil (play here) without --nats and --workers.
func (df *dispatchFlags) start(ctx context.Context, out string, stderr io.Writer) (*dispatcher, error) {
	if !df.enabled() {
		return nil, nil
	}
	if err := df.check(); err != nil {
		return nil, err
	}
	d := &dispatcher{url: df.nats, lease: df.lease, log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if d.url == "" {
		srv, err := dispatch.StartServer(dispatch.ServerConfig{StoreDir: filepath.Join(out, "nats"), Listen: df.listenNats})
		if err != nil {
			return nil, err
		}
		d.srv, d.url = srv, srv.URL()
		if df.listenNats != "" {
			fmt.Fprintf(stderr, "workers join with: arena worker --nats %s\n", d.url)
		}
	}
	nc, err := dispatch.Connect(d.url, "arena coordinator")
	if err != nil {
		d.stop()
		return nil, err
	}
	d.nc = nc
	if err := d.startWorkers(df.workers, filepath.Join(out, "workers.log")); err != nil {
		d.stop()
		return nil, err
	}
	return d, nil
}

// startWorkers starts n "arena worker" processes on the server, sharing
// the cores, which end with this process however it ends. They log to
// the file logPath.
func (d *dispatcher) startWorkers(n int, logPath string) error {
	if n == 0 {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("--workers: find arena itself: %w", err)
	}
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--workers: %w", err)
	}
	defer log.Close() // the workers have their own copies
	slots := max(1, runtime.NumCPU()/max(n, 1))
	for i := range n {
		name := fmt.Sprintf("%s-%d-w%d", hostName(), os.Getpid(), i+1)
		c := exec.Command(self, "worker", "--nats", d.url, "--slots", fmt.Sprint(slots), "--name", name)
		c.Stdout, c.Stderr = log, log
		c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := c.Start(); err != nil {
			return fmt.Errorf("--workers: %w", err)
		}
		d.procs = append(d.procs, c)
	}
	return nil
}

// runner is where an event's games are played: local when d is nil,
// else the workers. done stops following the event's results.
// withdraw takes the queued games of a cancelled Run back (an SPRT,
// which is not resumed).
func (d *dispatcher) runner(ctx context.Context, local engine.Runner, out, event string, withdraw bool) (engine.Runner, func(), error) {
	if d == nil {
		return local, func() {}, nil
	}
	r, err := dispatch.NewRunner(ctx, d.nc, dispatch.Config{Event: event, Out: out, Games: registryOf(games()), Local: local, Lease: d.lease, Log: d.log, Withdraw: withdraw})
	if err != nil {
		return nil, nil, err
	}
	return r, r.Close, nil
}

// stop ends the local workers (they give their games back), the
// connection and the embedded server.
func (d *dispatcher) stop() {
	if d == nil {
		return
	}
	for _, c := range d.procs {
		c.Process.Signal(syscall.SIGTERM)
	}
	for _, c := range d.procs {
		done := make(chan struct{})
		go func() { c.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			c.Process.Kill()
			<-done
		}
	}
	if d.nc != nil {
		d.nc.Close()
	}
	if d.srv != nil {
		d.srv.Shutdown()
	}
}

func hostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "worker"
	}
	return h
}

// newWorkersCmd is "arena workers": the workers a NATS server knows.
func newWorkersCmd() *cobra.Command {
	var url string
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "workers",
		Short: "List the match workers of a NATS server: slots, games running and done, last heartbeat",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if url == "" {
				return errors.New("--nats: give the server's URL (nats://host:4222)")
			}
			nc, err := nats.Connect(url, nats.Name("arena workers"), nats.Timeout(5*time.Second))
			if err != nil {
				return fmt.Errorf("--nats %s: %w", url, err)
			}
			defer nc.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
			defer cancel()
			ws, err := dispatch.Workers(ctx, nc)
			if err != nil {
				return err
			}
			return printWorkers(cmd.OutOrStdout(), ws, jsonOut, time.Now())
		},
	}
	cmd.Flags().StringVar(&url, "nats", "", "the NATS server the workers pull from")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print one JSON object per worker")
	return cmd
}

// workerLine is a JSON line of "arena workers --json", the object the
// page's GET /api/workers lists.
type workerLine = web.WorkerStatus

// workerLines are the workers as "arena workers --json" and the page
// show them, their heartbeats' age taken at now.
func workerLines(ws []dispatch.WorkerStatus, now time.Time) []workerLine {
	lines := make([]workerLine, len(ws))
	for i, s := range ws {
		lines[i] = workerLine{Type: "worker", Name: s.Name, Host: s.Host, Slots: s.Slots, Running: s.Running, Done: s.Done,
			Started: s.Started, Heartbeat: s.Heartbeat, Age: now.Sub(s.Heartbeat).Seconds()}
	}
	return lines
}

func printWorkers(w io.Writer, ws []dispatch.WorkerStatus, jsonOut bool, now time.Time) error {
	if jsonOut {
		for _, line := range workerLines(ws, now) {
			data, err := json.Marshal(line)
			if err != nil {
				return fmt.Errorf("encode JSON: %w", err)
			}
			if _, err := fmt.Fprintf(w, "%s\n", data); err != nil {
				return err
			}
		}
		return nil
	}
	if len(ws) == 0 {
		_, err := fmt.Fprintln(w, "no workers")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "worker\thost\tslots\trunning\tdone\tlast heartbeat")
	for _, s := range ws {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s ago\n", s.Name, s.Host, s.Slots, s.Running, s.Done, now.Sub(s.Heartbeat).Round(time.Second))
	}
	return tw.Flush()
}

// dispatchedGames is how many games a coordinator keeps queued for its
// workers by default: enough for every slot of many machines.
const dispatchedGames = 1024

// status lists the workers for the page (GET /api/workers); nil when
// the games are played here.
func (d *dispatcher) status() web.Workers {
	if d == nil {
		return nil
	}
	return func(ctx context.Context) ([]web.WorkerStatus, error) {
		ws, err := dispatch.Workers(ctx, d.nc)
		if err != nil {
			return nil, err
		}
		return workerLines(ws, time.Now()), nil
	}
}
