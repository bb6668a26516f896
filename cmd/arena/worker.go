package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/spf13/cobra"

	"arena/dispatch"
	"arena/engine"
	"arena/match"
	"arena/sandbox"
)

// newWorkerCmd is "arena worker": plays the games a coordinator queues
// on a NATS server, each through the same code path local play uses.
func newWorkerCmd() *cobra.Command {
	var url, name, workDir, cacheDir string
	var slots int
	var sf sandboxFlags
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Play the games of tournaments, SPRTs and the web page queued on a NATS server",
		Long: `Pull games from the queue of a NATS server with JetStream (a coordinator's
--nats, or the embedded server of one started with --workers and
--listen-nats) and play them on this machine, at most --slots at once. Bots
and the files a game's options name (--opening, --map) come from the
coordinator by content hash and are cached in --cache, never read at a
path of the coordinator's machine; records go back to the coordinator, which stores them. Workers join and
leave at any time: a game of a worker that stops or dies goes to another.`,
		Example: `  arena worker --nats nats://coordinator:4222 --slots 8`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if url == "" {
				return errors.New("--nats: give the coordinator's NATS server (nats://host:4222)")
			}
			if slots < 1 {
				return fmt.Errorf("--slots %d: must be at least 1", slots)
			}
			if name == "" {
				name = fmt.Sprintf("%s-%d", hostName(), os.Getpid())
			}
			if cacheDir == "" {
				base, err := os.UserCacheDir()
				if err != nil {
					base = os.TempDir()
				}
				cacheDir = filepath.Join(base, "arena", "bots")
			}
			sb, err := sf.open(cmd.Context(), slots)
			if err != nil {
				return err
			}
			defer sb.Close()
			return runWorker(cmd.Context(), url, name, slots, workDir, cacheDir, sb, slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil)))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&url, "nats", "", "the NATS server to pull games from")
	sf.register(fl)
	fl.IntVar(&slots, "slots", runtime.NumCPU(), "games at once (default: one per core)")
	fl.StringVar(&name, "name", "", "this worker's name in records and in arena workers (default: host and process id)")
	fl.StringVar(&workDir, "work-dir", "", "folder for the bots' working folders and the records on their way (default: the system's temporary folder)")
	fl.StringVar(&cacheDir, "cache", "", "folder of the bots and option files (--opening, --map) fetched by hash (default: the user's cache folder)")
	return cmd
}

func runWorker(ctx context.Context, url, name string, slots int, workDir, cacheDir string, sb *sandbox.Sandbox, log *slog.Logger) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find arena itself: %w", err)
	}
	scratch, release, err := workerScratch(workDir, name)
	if err != nil {
		return err
	}
	defer release()
	out, work := filepath.Join(scratch, "records"), filepath.Join(scratch, "work")
	for _, d := range []string{out, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return fmt.Errorf("--work-dir: %w", err)
		}
	}
	nc, err := dispatch.Connect(url, "arena worker "+name)
	if err != nil {
		return err
	}
	defer nc.Close()
	reg := registryOf(games())
	local := engine.NewLocal(reg, match.Local{Out: out, Work: work, Sandbox: sb})
	w, err := dispatch.NewWorker(ctx, nc, dispatch.WorkerConfig{
		Name: name, Slots: slots, Games: reg, Out: out, Cache: cacheDir, Self: self, Log: log,
		Play: local.Run,
	})
	if err != nil {
		return err
	}
	log.Info("worker ready", "name", name, "slots", slots, "nats", url)
	return w.Run(ctx)
}

// workerScratch is the worker's own folder under workDir (the system's
// temporary folder when ""), WORKDIR/arena-worker-NAME, held under a lock
// while the worker runs: a worker that was killed left its half-played
// games there, and the next worker of that name clears them before it
// starts. release removes the folder.
func workerScratch(workDir, name string) (dir string, release func(), err error) {
	if workDir == "" {
		workDir = os.TempDir()
	}
	dir = filepath.Join(workDir, "arena-worker-"+safeName(name))
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return "", nil, fmt.Errorf("worker %s: %w", name, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		unlock()
		return "", nil, fmt.Errorf("worker %s: clear what a killed worker left: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		unlock()
		return "", nil, fmt.Errorf("--work-dir: %w", err)
	}
	return dir, func() { os.RemoveAll(dir); unlock() }, nil
}

// lockFile holds an exclusive lock on path until unlock; the kernel
// drops it when the process ends however it ends. unlock removes the
// file while still holding it, so that workers named after their
// process leave nothing behind; a rival that opened the file just
// before may then lock the removed file, so a lock counts only when the
// file locked is still the one at path.
func lockFile(path string) (unlock func(), err error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, errors.New("another worker of this name runs on this machine: give each its own --name")
			}
			return nil, err
		}
		held, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if now, err := os.Stat(path); err != nil || !os.SameFile(held, now) {
			f.Close() // removed by the worker that held it: try the new one
			continue
		}
		return func() { os.Remove(path); f.Close() }, nil
	}
}
