package contest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"arena/bot"
	"arena/sandbox"
)

// BuildLimits bound one submission's compilation.
type BuildLimits struct {
	Time   time.Duration // for all the compile commands together
	Memory int64         // bytes, per command
	Disk   int64         // bytes the bot's folder and the build's scratch folder may hold; 0: no check
}

// DefaultBuildLimits are two minutes, 2 GB of memory and 1 GB of disk.
func DefaultBuildLimits() BuildLimits {
	return BuildLimits{Time: 2 * time.Minute, Memory: 2 << 30, Disk: 1 << 30}
}

// ErrBuild is wrapped by a build that failed through the submission's
// fault: a compile error, a compiler stopped at its time or memory limit.
var ErrBuild = errors.New("build failed")

// Build compiles the bot in dir with its language's fixed commands,
// each inside sb (nil: no sandbox) with no network, the limits and a
// scratch folder of its own (cache, writable besides dir, removed
// afterwards). It returns the compile log and the bot's command (its
// first word absolute). A failure of the submission wraps ErrBuild.
func Build(ctx context.Context, dir string, d Detected, sb *sandbox.Sandbox, lim BuildLimits) (log string, run []string, err error) {
	if err := d.Available(); err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrBuild, err)
	}
	cache, err := os.MkdirTemp(filepath.Dir(dir), ".build-")
	if err != nil {
		return "", nil, fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(cache)
	if err := os.Chmod(cache, 0o755); err != nil {
		return "", nil, fmt.Errorf("build: %w", err)
	}
	env := []string{"HOME=" + cache, "GOCACHE=" + filepath.Join(cache, "go-build"), "GOPATH=" + filepath.Join(cache, "gopath"),
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=0", "GO111MODULE=auto",
		"PYTHONDONTWRITEBYTECODE=", "TMPDIR=" + cache}
	deadline := time.Now().Add(lim.Time)
	var b strings.Builder
	for _, c := range d.Compile {
		args := d.expand(c)
		fmt.Fprintf(&b, "$ %s\n", strings.Join(args, " "))
		if len(c) > 0 && c[0] == "go" && !exists(filepath.Join(dir, "go.mod")) {
			// A Go bot without a module: make it one, as "go build" needs.
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module bot\n\ngo 1.21\n"), 0o644); err != nil {
				return b.String(), nil, fmt.Errorf("build: %w", err)
			}
		}
		out, err := runStep(ctx, dir, args, env, cache, sb, lim, time.Until(deadline))
		b.WriteString(out)
		if err != nil {
			fmt.Fprintf(&b, "%v\n", err)
			return b.String(), nil, err
		}
	}
	run = d.expand(d.Run)
	if strings.HasPrefix(run[0], "./") {
		run[0] = filepath.Join(dir, run[0][2:])
		if !exists(run[0]) {
			return b.String(), nil, fmt.Errorf("%w: the build made no %s", ErrBuild, filepath.Base(run[0]))
		}
		if err := os.Chmod(run[0], 0o755); err != nil {
			return b.String(), nil, fmt.Errorf("build: %w", err)
		}
	} else {
		p, err := Tool(run[0])
		if err != nil {
			return b.String(), nil, fmt.Errorf("%w: %w", ErrBuild, err)
		}
		run[0] = p
	}
	b.WriteString("built: " + strings.Join(run, " ") + "\n")
	return b.String(), run, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// buildLogMax is how much of a compiler's output the log keeps.
const buildLogMax = 64 << 10

// runStep runs one compile command to its end, or stops it at the time
// left.
func runStep(ctx context.Context, dir string, args, env []string, cache string, sb *sandbox.Sandbox, lim BuildLimits, left time.Duration) (string, error) {
	if left <= 0 {
		return "", fmt.Errorf("%w: out of build time", ErrBuild)
	}
	prog, err := Tool(args[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBuild, err)
	}
	args = append([]string{prog}, args[1:]...)
	p, err := bot.Start(bot.Config{Args: args, Dir: dir, Env: env, MemoryLimit: lim.Memory, StderrTail: buildLogMax,
		Sandbox: sb, Writable: []string{cache}})
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	defer p.Close()
	timer := time.NewTimer(left)
	defer timer.Stop()
	// A build that fills the disk is stopped: its folders are measured
	// every quarter second.
	var disk <-chan time.Time
	if lim.Disk > 0 {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		disk = t.C
	}
wait:
	select {
	case <-disk:
		if used := du(dir) + du(cache); used > lim.Disk {
			p.Kill()
			<-p.Done()
			return p.FinalStderr(), fmt.Errorf("%w: the build wrote more than %d MB and was stopped", ErrBuild, lim.Disk>>20)
		}
		goto wait
	case <-p.Done():
	case <-timer.C:
		p.Kill()
		<-p.Done()
		return p.FinalStderr(), fmt.Errorf("%w: the compiler ran out of its time (%v) and was stopped", ErrBuild, left.Round(time.Second))
	case <-ctx.Done():
		p.Kill()
		<-p.Done()
		return p.FinalStderr(), fmt.Errorf("build: %w", ctx.Err())
	}
	out := p.FinalStderr()
	if e := p.Exit(); e != nil && p.ExitCode() != 0 {
		if e.OOM {
			return out, fmt.Errorf("%w: the compiler exceeded its memory limit", ErrBuild)
		}
		name := filepath.Base(args[0])
		if name == "sh" && len(args) > 2 {
			name = strings.Fields(args[2] + " x")[0] // the compiler the shell ran
		}
		return out, fmt.Errorf("%w: compilation failed: %s exited with %s", ErrBuild, name, e.Status)
	}
	return out, nil
}

// du is the bytes the files under dir hold (what can be read of them).
func du(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
