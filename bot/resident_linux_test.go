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

// TestSeatStartsThroughResident: the bots of a group with a resident init
// (the file protocol's seat) are started by it, and run as a freshly
// started one would: folder, environment, output, exit status, CPU time,
// and no way to the organiser's files; a bot killed at its deadline and
// what it left die; once the resident is gone (a bot ended it) the seat
// goes on without it; once the group is closed nothing is left.
func TestSeatStartsThroughResident(t *testing.T) {
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, sandbox.Probe(context.Background(), sandbox.NetNone))
	if err != nil {
		t.Fatal(err)
	}
	if !sb.Resides() {
		t.Skip("this machine's sandbox cannot have a resident init (no namespaces, or arena is not root)")
	}
	sh, err := ResolveProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("organiser's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := NewSandboxGroup(1<<30, sb) // the init of a test binary built with -race needs hundreds of MB
	script := `if cat ` + secret + ` >/dev/null 2>&1; then echo LEAK; else echo sealed; fi; pwd; echo "$SEAT_MOVE"
i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done
(trap '' HUP; sleep 100) & echo oops >&2; exit 3`
	cfg := Config{Args: []string{sh, "-c", script}, Dir: dir, Group: g, Sandbox: sb}
	resident, err := g.Reside(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for move := range 3 {
		cfg.Env = []string{"SEAT_MOVE=" + strconv.Itoa(move)}
		p, err := Start(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if parent := parentOf(t, p.Pid()); parent != resident {
			t.Errorf("move %d: the bot's parent is %d, not the resident init %d", move, parent, resident)
		}
		if !p.WaitExit(30 * time.Second) {
			t.Fatalf("move %d: the bot did not end", move)
		}
		out := p.FinalStderr()
		if p.ExitCode() != 3 || !strings.Contains(out, "oops") || !strings.Contains(out, "sealed\n"+dir+"\n"+strconv.Itoa(move)+"\n") {
			t.Errorf("move %d: exit %d (%v), output %q", move, p.ExitCode(), p.Exit(), out)
		}
		if p.CPUTime() <= 0 {
			t.Errorf("move %d: no CPU time", move)
		}
		p.Kill()
		g.KillAll()
		if pids := g.cgroupPids(); len(pids) > 0 {
			t.Errorf("move %d: processes %v left in the group", move, pids)
		}
	}
	// A bot that outlives its deadline is killed, with what it started.
	cfg.Args = []string{sh, "-c", "sleep 100 & sleep 100"}
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if parentOf(t, p.Pid()) != resident {
		t.Error("the sleeping bot was not started by the resident init")
	}
	if g.residentAlone() {
		t.Error("the init is alone in the group while its bot sleeps")
	}
	p.Kill()
	alone := g.residentAlone()
	for end := time.Now().Add(10 * time.Second); !alone && time.Now().Before(end); time.Sleep(time.Millisecond) {
		alone = g.residentAlone() // the init reaps what the bot left right after its end
	}
	if !alone && sb.Report().On(sandbox.LayerPids) {
		t.Error("the init is not alone in the group once its bot is killed")
	}
	g.KillAll()
	if p.Exit() == nil || !strings.Contains(p.Exit().Status, "killed") {
		t.Errorf("the killed bot: %v", p.Exit())
	}
	// A bot that ends its resident init (once it is surely started by it:
	// told to on its input): its own end is unknown; the next bots are
	// started without it.
	cfg.Args, cfg.Interactive = []string{sh, "-c", "read go; kill -TERM 1; sleep 100"}, true
	p, err = Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if parentOf(t, p.Pid()) != resident {
		t.Error("the bot to end its init was not started by it")
	}
	if err := p.WriteString("go\n", time.Now().Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if !p.WaitExit(30 * time.Second) {
		t.Fatal("the bot that ended its init did not end")
	}
	if p.Exit() == nil || p.Exit().Status != "unknown exit" {
		t.Errorf("the bot that ended its init: %v, want an unknown exit", p.Exit())
	}
	p.Kill()
	g.KillAll()
	cfg.Args, cfg.Interactive = []string{sh, "-c", "exit 4"}, false
	p, err = Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if parentOf(t, p.Pid()) == resident {
		t.Error("a bot was started by a resident init that is gone")
	}
	if !p.WaitExit(30*time.Second) || p.ExitCode() != 4 {
		t.Errorf("the bot after the resident: %v", p.Exit())
	}
	p.Kill()
	g.Close()
	if _, err := os.Stat("/proc/" + strconv.Itoa(resident)); err == nil {
		t.Errorf("the resident init %d is left after Close", resident)
	}
}

// parentOf is the parent process id of pid (0 if it is gone).
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := statAfterComm(data)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(string(f[1]))
	return ppid
}
