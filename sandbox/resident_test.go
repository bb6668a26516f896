package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/sandbox"
)

// residentFor starts a resident init planned for bots working in dir.
func residentFor(t *testing.T, sb *sandbox.Sandbox, dir string) *sandbox.Resident {
	t.Helper()
	if !sb.Resides() {
		t.Skip("this machine's sandbox cannot have a resident init (no namespaces, or arena is not root)")
	}
	sh := lookPath(t, "sh")
	plan := sb.Plan(&exec.Cmd{Path: sh, Args: []string{sh}, Dir: dir}, nil)
	if plan == nil {
		t.Fatal("no plan for a bot whose folder is there")
	}
	r, err := sb.StartResident(nil, plan)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// runResident launches script (sh -c) in r and waits for its end; it
// returns the wait status and what it wrote.
func runResident(t *testing.T, sb *sandbox.Sandbox, r *sandbox.Resident, dir, script string) (syscall.WaitStatus, string, error) {
	t.Helper()
	sh := lookPath(t, "sh")
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := &exec.Cmd{Path: sh, Args: []string{sh, "-c", script}, Dir: dir, Stdout: out, Stderr: out}
	run, err := sb.LaunchResident(r, cmd, []string{"MOVE=" + strconv.Itoa(1)}, nil)
	if err != nil {
		return 0, "", err
	}
	ws, _, err := run.Wait()
	text, _ := os.ReadFile(out.Name())
	return ws, string(text), err
}

// TestResidentStartsEachBot: a resident init starts one bot after
// another in the layers it set up once: each in the planned folder, as
// the bot's user, with the arena's environment less its secrets, its
// exit status told; whatever a bot leaves running dies before its end is
// told; a bot that cannot be executed leaves the init ready for the next.
func TestResidentStartsEachBot(t *testing.T) {
	sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
	dir := t.TempDir()
	r := residentFor(t, sb, dir)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("organiser's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for move := range 3 {
		script := `pwd; id -u; echo "$MOVE"; if cat ` + secret + ` >/dev/null 2>&1; then echo LEAK; else echo sealed; fi
(trap '' HUP; while :; do sleep 1; done) & exit ` + strconv.Itoa(3+move)
		ws, out, err := runResident(t, sb, r, dir, script)
		if err != nil {
			t.Fatalf("move %d: %v", move, err)
		}
		if !ws.Exited() || ws.ExitStatus() != 3+move {
			t.Errorf("move %d: wait status %v, want exit %d", move, ws, 3+move)
		}
		want := dir + "\n1000\n1\nsealed\n"
		if out != want {
			t.Errorf("move %d: the bot wrote %q, want %q", move, out, want)
		}
		if kids := children(t, r.Pid()); len(kids) > 0 {
			t.Errorf("move %d: the init still has children %v after telling the bot's end", move, kids)
		}
	}
	if _, _, err := runResident(t, sb, r, dir, "exit 0"); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(filepath.Dir(lookPath(t, "sh")), "arena-missing-program")
	missing := &exec.Cmd{Path: gone, Args: []string{gone}, Dir: dir}
	if _, err := sb.LaunchResident(r, missing, nil, nil); err == nil || errors.Is(err, sandbox.ErrResidentGone) ||
		!strings.Contains(err.Error(), "no such file") {
		t.Errorf("launch of a missing program: %v, want its exec error", err)
	}
	if ws, out, err := runResident(t, sb, r, dir, "echo after; exit 5"); err != nil || ws.ExitStatus() != 5 || out != "after\n" {
		t.Errorf("the launch after a failed one: %v %v %q", ws, err, out)
	}
}

// TestResidentHandsOverNewFiles: a file the arena creates in the bot's
// folder between two launches (as a seat may) is the bot's to write at
// the next launch, however long the folder sat unchanged before.
func TestResidentHandsOverNewFiles(t *testing.T) {
	sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
	dir := t.TempDir()
	r := residentFor(t, sb, dir)
	for move := range 4 {
		if move == 2 {
			time.Sleep(100 * time.Millisecond) // the folder's time settles: the launch may trust it
		}
		if move == 3 {
			if err := os.WriteFile(filepath.Join(dir, "NEW.DAT"), []byte("arena's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ws, out, err := runResident(t, sb, r, dir, `if [ -e NEW.DAT ]; then echo bot > NEW.DAT && cat NEW.DAT; fi; echo ok`)
		if err != nil || ws.ExitStatus() != 0 {
			t.Fatalf("move %d: %v %v %q", move, ws, err, out)
		}
		if want := map[bool]string{false: "ok\n", true: "bot\nok\n"}[move == 3]; out != want {
			t.Errorf("move %d: the bot wrote %q, want %q", move, out, want)
		}
	}
}

// TestResidentIsConfined: every thread of a resident init runs as the
// bots' user under the bots' seccomp filter, not dumpable: its bot can
// read nothing of it through /proc. A bot that kills its init ends only
// its own seat's resident: the end is unknown, and the init launches
// nothing more.
func TestResidentIsConfined(t *testing.T) {
	sb := newSandbox(t, sandbox.Auto, testPolicy(sandbox.Auto))
	dir := t.TempDir()
	r := residentFor(t, sb, dir)
	if _, _, err := runResident(t, sb, r, dir, "exit 0"); err != nil {
		t.Fatal(err)
	}
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(r.Pid()) + "/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		status, err := os.ReadFile("/proc/" + strconv.Itoa(r.Pid()) + "/task/" + task.Name() + "/status")
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{"Uid", "Gid", "Seccomp", "NoNewPrivs", "CapEff", "CapPrm"} {
			v := statusField(string(status), field)
			ok := map[string]bool{
				"Uid":        v == "65534\t65534\t65534\t65534",
				"Gid":        v == "65534\t65534\t65534\t65534",
				"Seccomp":    v == "2",
				"NoNewPrivs": v == "1",
				"CapEff":     v == "0000000000000000",
				"CapPrm":     v == "0000000000000000",
			}[field]
			if !ok {
				t.Errorf("thread %s of the init: %s %q", task.Name(), field, v)
			}
		}
	}
	_, out, err := runResident(t, sb, r, dir, `for f in /proc/1/environ /proc/1/mem /proc/1/fd/3; do
  if cat "$f" >/dev/null 2>&1; then echo "read $f"; fi
done; echo done`)
	if err != nil || out != "done\n" {
		t.Errorf("the bot looked into its init: %q (%v)", out, err)
	}
	_, _, err = runResident(t, sb, r, dir, "kill -TERM 1; sleep 5")
	if !errors.Is(err, sandbox.ErrResidentGone) {
		t.Errorf("a bot that ended its init: %v, want ErrResidentGone", err)
	}
	if _, _, err := runResident(t, sb, r, dir, "exit 0"); !errors.Is(err, sandbox.ErrResidentGone) {
		t.Errorf("a launch in an init that is gone: %v, want ErrResidentGone", err)
	}
}

// children lists the children of every thread of pid.
func children(t *testing.T, pid int) []string {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, task := range tasks {
		data, _ := os.ReadFile(filepath.Join(dir, task.Name(), "children"))
		kids = append(kids, strings.Fields(string(data))...)
	}
	return kids
}

// statusField is the value of one field of a /proc status file.
func statusField(status, field string) string {
	for _, line := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
