package bot

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/sandbox"
)

// TestSeatStartsThroughSpare: the second bot of a group shared by
// several starts (the file protocol's seat) is the init prestarted while
// the first ran, and runs as a freshly started one would: its folder,
// environment, pipes and exit status, and no way to the organiser's
// files; once the group is closed no spare is left.
func TestSeatStartsThroughSpare(t *testing.T) {
	r := sandbox.Probe(context.Background(), sandbox.NetNone)
	t.Run("auto", func(t *testing.T) { seatThroughSpare(t, r) })
	if r.On(sandbox.LayerMount) {
		// The machine without user namespaces: the same report with the
		// namespace layers off.
		var without sandbox.Report
		for _, st := range r.Layers {
			switch st.Layer {
			case sandbox.LayerUser, sandbox.LayerMount, sandbox.LayerPID, sandbox.LayerNet, sandbox.LayerIPC, sandbox.LayerUTS:
				st = sandbox.Status{Layer: st.Layer, Why: "left out by the test"}
			}
			without.Layers = append(without.Layers, st)
		}
		t.Run("auto-without-namespaces", func(t *testing.T) { seatThroughSpare(t, without) })
	}
}

func seatThroughSpare(t *testing.T, r sandbox.Report) {
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, r)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := ResolveProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	g := NewSandboxGroup(64<<20, sb)
	defer g.Close()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("organiser's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `if cat ` + secret + ` >/dev/null 2>&1; then echo LEAK; else echo sealed; fi; pwd; echo "$SEAT_MOVE"; read x; echo "got $x"; echo oops >&2; exit 3`
	for move, interactive := range []bool{true, true, false} {
		spare := g.spare.pid()
		if move > 0 && spare == 0 {
			for end := time.Now().Add(30 * time.Second); spare == 0 && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
				spare = g.spare.pid()
			}
			if spare == 0 {
				t.Fatalf("move %d: no init was prestarted", move)
			}
		}
		p, err := Start(Config{Args: []string{sh, "-c", script}, Dir: dir, Env: []string{"SEAT_MOVE=" + strconv.Itoa(move)},
			Group: g, Sandbox: sb, Interactive: interactive})
		if err != nil {
			t.Fatal(err)
		}
		if move > 0 && p.Pid() != spare {
			t.Errorf("move %d: the bot is process %d, not the prestarted init %d", move, p.Pid(), spare)
		}
		if interactive {
			deadline := time.Now().Add(30 * time.Second)
			var lines []string
			for _, send := range []string{"", "", "", "hello\n"} {
				if send != "" {
					if err := p.WriteString(send, deadline); err != nil {
						t.Fatal(err)
					}
				}
				line, err := p.ReadLine(deadline)
				if err != nil {
					t.Fatalf("move %d: %v (%s)", move, err, p.Stderr())
				}
				lines = append(lines, line)
			}
			want := []string{"sealed", dir, strconv.Itoa(move), "got hello"}
			if strings.Join(lines, "|") != strings.Join(want, "|") {
				t.Errorf("move %d: the bot said %q, want %q", move, lines, want)
			}
		}
		if !p.WaitExit(30 * time.Second) {
			t.Fatalf("move %d: the bot did not end", move)
		}
		if p.ExitCode() != 3 || !strings.Contains(p.FinalStderr(), "oops") {
			t.Errorf("move %d: exit %d, stderr %q", move, p.ExitCode(), p.FinalStderr())
		}
		if !interactive && !strings.Contains(p.FinalStderr(), dir) {
			t.Errorf("move %d: the output of a bot without pipes: %q", move, p.FinalStderr())
		}
		p.Close()
		g.KillAll()
	}
	var last int
	for end := time.Now().Add(30 * time.Second); last == 0 && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		last = g.spare.pid()
	}
	g.Close()
	if last == 0 {
		t.Fatal("no init was prestarted after the last move")
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(last)); err == nil {
		t.Errorf("the spare init %d is left after Close", last)
	}
}
