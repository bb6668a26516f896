package sandbox_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/bot"
	"arena/sandbox"
)

// probed is this machine's report, found once for all the tests.
var probed = sync.OnceValue(func() sandbox.Report { return sandbox.Probe(context.Background(), sandbox.NetNone) })

// noNamespaces is a pseudo-mode: auto on this machine as if it had no
// user namespaces, so that the layers a machine without them gets
// (landlock for the file system and signals, cgroups, rlimits, seccomp)
// face every hostile bot as well.
const noNamespaces sandbox.Mode = "auto-without-namespaces"

// prepared is another: auto, with the bot started through an init
// prestarted for it in its group (bot.Group.Prepare), which has set
// every layer up before the bot is known, as a seat's next move is.
const prepared sandbox.Mode = "auto-prepared"

// pooled is a third: auto, with the sandbox keeping a bot.Pool, so that
// the bot (and its opponent) start in groups made ahead of them, each
// with an init that set up what is the same for every bot before its
// bot was known, as a pipe bot's one start per game does in a run.
const pooled sandbox.Mode = "auto-pooled"

// resident is a fourth: auto, with the bot started by its group's
// resident init (bot.Group.Reside), as every move of a file-protocol
// seat is, where the machine allows one.
const resident sandbox.Mode = "auto-resident"

// modes are the sandbox modes every hostile bot runs in: auto always,
// strict where the machine has every layer, auto without namespaces
// where it has landlock, and off (today's behaviour).
func modes(t *testing.T) []sandbox.Mode {
	m := []sandbox.Mode{sandbox.Auto, sandbox.Off, prepared, pooled}
	if probed().On(sandbox.LayerMount) && os.Geteuid() == 0 {
		m = append(m, resident)
	}
	if len(probed().Missing()) == 0 {
		m = append(m, sandbox.Strict)
	} else {
		t.Logf("strict left out, this machine lacks: %v", probed().Missing())
	}
	if probed().On(sandbox.LayerLandlock) && probed().On(sandbox.LayerMount) {
		m = append(m, noNamespaces)
	}
	return m
}

// report is what the sandbox of mode is made from.
func report(mode sandbox.Mode) sandbox.Report {
	r := probed()
	if mode != noNamespaces {
		return r
	}
	var out sandbox.Report
	for _, st := range r.Layers {
		switch st.Layer {
		case sandbox.LayerUser, sandbox.LayerMount, sandbox.LayerPID, sandbox.LayerNet, sandbox.LayerIPC, sandbox.LayerUTS:
			st = sandbox.Status{Layer: st.Layer, Why: "left out by the test"}
		}
		out.Layers = append(out.Layers, st)
	}
	return out
}

// testPolicy keeps the limits small so that the hostile bots reach them
// fast.
func testPolicy(mode sandbox.Mode) sandbox.Policy {
	if mode == noNamespaces || mode == prepared || mode == pooled || mode == resident {
		mode = sandbox.Auto
	}
	return sandbox.Policy{Mode: mode, Pids: 64, FileSize: 8 << 20, OpenFiles: 256}
}

// newSandbox makes the sandbox of mode; in mode pooled it keeps a pool
// of two groups (a game's two seats), closed when the test ends.
func newSandbox(t *testing.T, mode sandbox.Mode, p sandbox.Policy) *sandbox.Sandbox {
	t.Helper()
	sb, err := sandbox.New(p, report(mode))
	if err != nil {
		t.Fatal(err)
	}
	if mode == pooled {
		if _, err := bot.OpenPool(t.Context(), sb, 2); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sb.Close)
	}
	return sb
}

// readyInits waits until the pool of sb (mode pooled) is full and lists
// its waiting inits, the next to be taken first.
func readyInits(t *testing.T, sb *sandbox.Sandbox) []int {
	t.Helper()
	pool, ok := sb.Kept().(*bot.Pool)
	if !ok {
		t.Fatal("the sandbox keeps no pool")
	}
	pids, err := pool.Ready(t.Context())
	if err != nil || len(pids) == 0 {
		t.Fatalf("the pool is not ready: %v %v", pids, err)
	}
	return pids
}

// world is what a hostile bot attacks: the organiser's home, the
// repository, the store, the machine's /tmp, an opponent bot with its
// folder, and a loopback listener; each with a secret it must not read.
type world struct {
	token      string
	home       string
	repo       string
	store      string
	botDir     string // the hostile bot's working folder
	otherDir   string // the opponent's
	src        string // the hostile bot's own files (read-only to it)
	opp        *bot.Process
	listener   net.Listener
	snapshots  map[string]string
	mode       sandbox.Mode
	sb         *sandbox.Sandbox
	secretFile string
}

func randomToken(t *testing.T) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// newWorld sets the scene up for one hostile bot in mode.
func newWorld(t *testing.T, mode sandbox.Mode) *world {
	t.Helper()
	w := &world{token: randomToken(t), mode: mode}
	w.sb = newSandbox(t, mode, testPolicy(mode))
	root := t.TempDir()
	for _, d := range []*string{&w.home, &w.store, &w.src} {
		var err error
		if *d, err = os.MkdirTemp(root, "d"); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(w.src, 0o755)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	w.repo = filepath.Dir(wd)
	scratch, err := bot.ScratchDir("", root, "arena-work-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(scratch) })
	w.botDir, w.otherDir = filepath.Join(scratch, "player1"), filepath.Join(scratch, "player2")
	for _, d := range []string{w.botDir, w.otherDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.secretFile = filepath.Join(w.otherDir, "secret.txt")
	for _, f := range []string{filepath.Join(w.home, "notes"), filepath.Join(w.store, "arena.db"), w.secretFile} {
		if err := os.WriteFile(f, []byte("secret-file-"+w.token+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.listener, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.listener.Close() })

	sh := lookPath(t, "sh")
	w.opp, err = bot.Start(bot.Config{
		Args:        []string{sh, "-c", "echo ready; sleep 600; exit 0", "secret-argv-" + w.token},
		Dir:         w.otherDir,
		Env:         []string{"OPP_SECRET=secret-env-" + w.token},
		Interactive: true,
		Sandbox:     w.sb,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.opp.Close)
	if line, err := w.opp.ReadLine(time.Now().Add(10 * time.Second)); err != nil || line != "ready" {
		t.Fatalf("opponent did not start: %q %v %s", line, err, w.opp.Stderr())
	}
	// Whatever happens, nothing the bots started outlives the test.
	t.Cleanup(func() {
		for _, pid := range marked(w.token) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	w.snapshots = map[string]string{}
	for _, d := range []string{w.home, w.store, w.otherDir} {
		w.snapshots[d] = snapshot(t, d)
	}
	return w
}

// env is what the hostile bot is told about its targets.
func (w *world) env() []string {
	port := w.listener.Addr().(*net.TCPAddr).Port
	return []string{
		"T_HOME=" + w.home, "T_REPO=" + w.repo, "T_STORE=" + w.store, "T_OTHER=" + w.otherDir,
		"T_OPP=" + strconv.Itoa(w.opp.Pid()), "T_ARENA=" + strconv.Itoa(os.Getpid()),
		"T_PORT=" + strconv.Itoa(port), "T_TOKEN=" + w.token, "HOSTILE_MARK=" + w.token,
	}
}

// start runs the hostile bot's command in the world.
func (w *world) start(t *testing.T, args []string, memory int64) *bot.Process {
	t.Helper()
	cfg := bot.Config{Args: args, Dir: w.botDir, Env: w.env(), Interactive: true, Sandbox: w.sb,
		MemoryLimit: memory, StderrTail: 64 << 10}
	init := 0
	if w.mode == pooled {
		init = readyInits(t, w.sb)[0]
	}
	if w.mode == prepared || w.mode == resident {
		cfg.Group = bot.NewSandboxGroup(memory, w.sb)
		t.Cleanup(cfg.Group.Close)
		ahead := cfg.Group.Prepare
		if w.mode == resident {
			ahead = cfg.Group.Reside
		}
		var err error
		if init, err = ahead(cfg); err != nil {
			t.Fatal(err)
		}
	}
	p, err := bot.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	switch {
	case w.mode == resident:
		// A quick bot may be gone already (its parent then reads as 0).
		if parent := parentPid(p.Pid()); parent != init && (parent != 0 || !p.WaitExit(10*time.Second)) {
			t.Fatalf("the bot's parent is %d, not the resident init %d", parent, init)
		}
	case init != 0 && p.Pid() != init:
		t.Fatalf("the bot is process %d, not the init %d prepared (or kept ready) for it", p.Pid(), init)
	}
	return p
}

// parentPid is the parent of process pid (0 if it is gone).
func parentPid(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	_, rest, _ := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// output reads the bot's lines until it ends (or a minute passes).
func output(t *testing.T, p *bot.Process) string {
	t.Helper()
	var b strings.Builder
	deadline := time.Now().Add(time.Minute)
	for {
		line, err := p.ReadLine(deadline)
		if err != nil {
			break
		}
		b.WriteString(line + "\n")
	}
	p.WaitExit(10 * time.Second)
	return b.String()
}

// untouched asserts that nothing outside the bot's folder changed: no
// file named after the token anywhere the bot was pointed at, the
// folders of others as they were, and no process of the bot left once it
// is closed. Mode off expects the changes today's arena allows.
func (w *world) untouched(t *testing.T, p *bot.Process) {
	t.Helper()
	p.Close()
	if pids := marked(w.token); len(pids) > 0 {
		if tracked(w.mode) {
			t.Errorf("processes of the bot left running: %v", pids)
		} else {
			t.Logf("without a pid namespace or a cgroup, processes that left the bot's process group outlive it: %v", pids)
		}
	}
	if w.mode == sandbox.Off {
		return
	}
	for _, d := range []string{w.home, w.repo, w.store, w.otherDir, "/tmp", "/dev/shm"} {
		if _, err := os.Lstat(filepath.Join(d, "pwned-"+w.token)); err == nil {
			os.Remove(filepath.Join(d, "pwned-"+w.token))
			t.Errorf("the bot wrote into %s", d)
		}
	}
	for d, before := range w.snapshots {
		if after := snapshot(t, d); after != before {
			t.Errorf("%s changed:\nbefore %s\nafter  %s", d, before, after)
		}
	}
	if _, err := os.Stat(filepath.Join(w.otherDir, "secret.txt")); err != nil {
		t.Errorf("the opponent's file is gone: %v", err)
	}
}

// tracked reports whether arena can find every process of a bot in mode
// on this machine: through its pid namespace or its cgroup.
func tracked(mode sandbox.Mode) bool {
	r := report(mode)
	return (mode != sandbox.Off && r.On(sandbox.LayerPID)) || r.On(sandbox.LayerMemory) || r.On(sandbox.LayerPids)
}

// snapshot lists the names, sizes and times of what is in dir.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		fmt.Fprintf(&b, "%s:%d:%d ", path, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	return b.String()
}

// marked lists the live processes whose environment holds the token.
func marked(token string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	needle := []byte("HOSTILE_MARK=" + token)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, needle) {
			continue
		}
		if st := procState(pid); st != 0 && st != 'Z' && st != 'X' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procState is the state letter of a process (0 if gone).
func procState(pid int) byte {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return 0
	}
	return data[i+2]
}

// cpuTicks is the user+system time of a process in clock ticks.
func cpuTicks(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("no %s", name)
	}
	return p
}

// writeScript puts a bot's script among its own files.
func (w *world) writeScript(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(w.src, name)
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// eachMode runs f once per mode in a subtest of its own.
func eachMode(t *testing.T, f func(t *testing.T, w *world)) {
	for _, m := range modes(t) {
		t.Run(string(m), func(t *testing.T) { f(t, newWorld(t, m)) })
	}
}

func TestHostileWritesOutsideItsFolder(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		p := w.start(t, []string{sh, "-c", `
for d in "$T_HOME" "$T_REPO" "$T_STORE" "$T_OTHER" /tmp /dev/shm; do
  if echo x > "$d/pwned-$T_TOKEN" 2>/dev/null; then echo "wrote $d"; fi
done
echo y >> "$T_STORE/arena.db" 2>/dev/null && echo "appended store"
rm -f "$T_OTHER/secret.txt" 2>/dev/null
echo mine > own.txt && echo "wrote own"`}, 0)
		out := output(t, p)
		if !strings.Contains(out, "wrote own") {
			t.Fatalf("the bot could not write its own folder: %q %s", out, p.Stderr())
		}
		if w.mode == sandbox.Off {
			// Today's arena stops none of it.
			if !strings.Contains(out, "wrote /tmp") || !strings.Contains(out, "wrote "+w.otherDir) {
				t.Errorf("off: want the writes of today, got %q", out)
			}
			for _, d := range []string{w.home, w.repo, w.store, w.otherDir, "/tmp", "/dev/shm"} {
				os.Remove(filepath.Join(d, "pwned-"+w.token))
			}
			return
		}
		// /tmp and /dev/shm are the bot's own private ones: writing there
		// is allowed, and untouched checks the machine's stayed clean.
		if strings.Contains(out, "wrote "+w.home) || strings.Contains(out, "wrote "+w.repo) ||
			strings.Contains(out, "wrote "+w.store) || strings.Contains(out, "wrote "+w.otherDir) || strings.Contains(out, "appended") {
			t.Errorf("the bot wrote outside its folder: %q", out)
		}
		if p.ExitCode() != 0 {
			t.Errorf("exit %d, want 0: %s", p.ExitCode(), p.Stderr())
		}
		w.untouched(t, p)
	})
}

func TestHostileReadsTheOpponent(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		p := w.start(t, []string{sh, "-c", `
cat "$T_OTHER/secret.txt" "$T_HOME/notes" "$T_STORE/arena.db" 2>/dev/null
tr '\0' ' ' < /proc/$T_OPP/cmdline 2>/dev/null; echo
tr '\0' '\n' < /proc/$T_OPP/environ 2>/dev/null | grep OPP_SECRET
dd if=/proc/$T_OPP/mem bs=1 count=16 skip=4194304 2>/dev/null | od -c | head -1
for p in /proc/[0-9]*; do tr '\0' ' ' < $p/cmdline 2>/dev/null; echo; done
echo done`}, 0)
		out := output(t, p)
		if !strings.Contains(out, "done") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		leaked := strings.Contains(out, "secret-file-"+w.token) || strings.Contains(out, "secret-env-"+w.token)
		if w.mode != noNamespaces {
			// Without a pid namespace the command lines of the machine's
			// processes stay readable (SECURITY.md).
			leaked = leaked || strings.Contains(out, "secret-argv-"+w.token)
		} else if !strings.Contains(out, "secret-argv-"+w.token) {
			t.Errorf("without namespaces the opponent's command line is known to be readable; the test no longer sees it: %q", out)
		}
		if w.mode == sandbox.Off {
			if !leaked {
				t.Errorf("off: want today's leaks (the opponent's folder and command line), got %q", out)
			}
			return
		}
		if leaked {
			t.Errorf("the bot read the opponent's or the organiser's secrets: %q", out)
		}
		w.untouched(t, p)
	})
}

func TestHostileSignalsTheOpponentAndArena(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		script := `kill -KILL $T_OPP 2>/dev/null && echo "killed opponent"; `
		if w.mode != sandbox.Off {
			// Stopping the test itself would hang it if the sandbox failed
			// open; off is known to let it through.
			script += `kill -STOP $T_OPP 2>/dev/null && echo "stopped opponent"; kill -STOP $T_ARENA 2>/dev/null && echo "stopped arena"; kill -KILL $T_ARENA 2>/dev/null && echo "killed arena"; `
		}
		p := w.start(t, []string{sh, "-c", script + "echo done"}, 0)
		out := output(t, p)
		if w.mode == sandbox.Off {
			if !strings.Contains(out, "killed opponent") {
				t.Errorf("off: want today's kill of the opponent to work, got %q", out)
			}
			return
		}
		if strings.Contains(out, "killed") || strings.Contains(out, "stopped") {
			t.Errorf("the bot signalled others: %q", out)
		}
		if st := procState(w.opp.Pid()); st == 0 || st == 'T' || st == 'Z' {
			t.Errorf("opponent state %q after the attack", st)
		}
		w.untouched(t, p)
	})
}

func TestHostileConnectsToLoopback(t *testing.T) {
	for _, net := range []sandbox.Net{sandbox.NetNone, sandbox.NetLoopback} {
		for _, m := range modes(t) {
			if net == sandbox.NetLoopback && m == sandbox.Off {
				continue
			}
			t.Run(string(m)+"-"+string(net), func(t *testing.T) {
				w := newWorld(t, m)
				pol := testPolicy(m)
				pol.Net = net
				w.sb = newSandbox(t, m, pol)
				bash := lookPath(t, "bash")
				p := w.start(t, []string{bash, "-c", `echo hello > /dev/tcp/127.0.0.1/$T_PORT 2>/dev/null && echo connected; echo done`}, 0)
				out := output(t, p)
				if !strings.Contains(out, "done") {
					t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
				}
				got := accepted(w.listener)
				if m == sandbox.Off {
					if !got {
						t.Errorf("off: want today's connection, got none (%q)", out)
					}
					return
				}
				if got || strings.Contains(out, "connected") {
					t.Errorf("the bot reached the machine's loopback: %q", out)
				}
				w.untouched(t, p)
			})
		}
	}
}

// accepted reports whether a connection is waiting on l (the bot that
// made it has ended, so it is queued already).
func accepted(l net.Listener) bool {
	l.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
	c, err := l.Accept()
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func TestHostilePtrace(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		py := lookPath(t, "python3")
		script := w.writeScript(t, "ptrace.py", `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
opp = int(os.environ["T_OPP"])
r = libc.ptrace(16, opp, 0, 0)  # PTRACE_ATTACH
print("attach opponent", r, ctypes.get_errno(), flush=True)
pid = os.fork()
if pid == 0:
    import time; time.sleep(5); os._exit(0)
r = libc.ptrace(16, pid, 0, 0)
print("attach child", r, ctypes.get_errno(), flush=True)
os.kill(pid, 9)
print("done", flush=True)
`)
		p := w.start(t, []string{py, script}, 0)
		out := output(t, p)
		if !strings.Contains(out, "done") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		if w.mode == sandbox.Off {
			if !strings.Contains(out, "attach child 0") {
				t.Errorf("off: want ptrace of its own child to work as today, got %q", out)
			}
			return
		}
		if strings.Contains(out, "attach opponent 0") || strings.Contains(out, "attach child 0") {
			t.Errorf("ptrace was allowed: %q", out)
		}
		if tracer := tracerPid(w.opp.Pid()); tracer != "0" {
			t.Errorf("the opponent is traced by %s", tracer)
		}
		w.untouched(t, p)
	})
}

func tracerPid(pid int) string {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "TracerPid:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func TestHostileDaemon(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		// A double-forked daemon in a session of its own, busy forever.
		p := w.start(t, []string{sh, "-c", `setsid sh -c '(while :; do :; done) & exit 0' </dev/null >/dev/null 2>&1; sleep 0.2; echo started`}, 0)
		out := output(t, p)
		if !strings.Contains(out, "started") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		if w.mode != sandbox.Off {
			// The pid namespace dies with the bot: nothing waits for Close.
			if w.mode != noNamespaces && !eventually(func() bool { return len(marked(w.token)) == 0 }) {
				t.Errorf("the daemon outlived the bot: %v", marked(w.token))
			}
		} else if len(marked(w.token)) == 0 {
			t.Errorf("off: want today's daemon alive until Close")
		}
		w.untouched(t, p)
	})
}

// eventually polls cond for up to five seconds.
func eventually(cond func() bool) bool {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func TestHostileForkBomb(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		py := lookPath(t, "python3")
		script := w.writeScript(t, "bomb.py", `import os, time
n = 0
try:
    for i in range(300):
        if os.fork() == 0:
            time.sleep(60); os._exit(0)
        n += 1
    print("forked", n, flush=True)
except OSError as e:
    print("fork failed after", n, e.errno, flush=True)
print("done", flush=True)
time.sleep(60)
`)
		p := w.start(t, []string{py, script}, 0)
		deadline := time.Now().Add(time.Minute)
		var out string
		for !strings.Contains(out, "done") {
			line, err := p.ReadLine(deadline)
			if err != nil {
				t.Fatalf("%v %q %s", err, out, p.Stderr())
			}
			out += line + "\n"
		}
		if w.mode == sandbox.Off {
			if !strings.Contains(out, "forked 300") {
				t.Errorf("off: want today's unbounded forks, got %q", out)
			}
		} else if r := report(w.mode); !r.On(sandbox.LayerPids) && !(r.On(sandbox.LayerUser) && r.On(sandbox.LayerRlimits)) {
			t.Logf("without pids.max or a user namespace of its own nothing limits a bot's processes: %q", out)
		} else if !strings.Contains(out, "fork failed after") {
			t.Errorf("the fork bomb was not stopped: %q", out)
		}
		w.untouched(t, p)
	})
}

func TestHostileMemoryHog(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		py := lookPath(t, "python3")
		p := w.start(t, []string{py, "-c", "x = []\nwhile True: x.append(bytearray(16 << 20))"}, 64<<20)
		output(t, p)
		e := p.Exit()
		if e == nil || !e.OOM {
			t.Errorf("want the memory limit to end the bot, got %v (%s)", e, p.Group().Enforcement())
		}
		w.untouched(t, p)
	})
}

func TestHostileBigFile(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		// 10 GB, were nothing to stop it; off is not tried.
		if w.mode == sandbox.Off {
			t.Skip("off has no file-size limit: the write would fill the disk")
		}
		p := w.start(t, []string{sh, "-c", `dd if=/dev/zero of=big bs=1M count=10240 2>&1; echo "dd ended $?"`}, 0)
		out := output(t, p)
		if !strings.Contains(out, "dd ended") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		info, err := os.Stat(filepath.Join(w.botDir, "big"))
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > testPolicy(w.mode).FileSize {
			t.Errorf("the file grew to %d bytes, over the limit %d", info.Size(), testPolicy(w.mode).FileSize)
		}
		if strings.Contains(out, "dd ended 0") {
			t.Errorf("dd succeeded: %q", out)
		}
		w.untouched(t, p)
	})
}

func TestHostileOpenFiles(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		py := lookPath(t, "python3")
		script := w.writeScript(t, "files.py", `import os
fds = []
try:
    for i in range(100000):
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    print("failed", e.errno, flush=True)
print("opened", len(fds), flush=True)
`)
		p := w.start(t, []string{py, script}, 0)
		out := output(t, p)
		if !strings.Contains(out, "opened") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		if w.mode != sandbox.Off && !strings.Contains(out, "failed 24") {
			t.Errorf("want EMFILE before 100000 files, got %q", out)
		}
		w.untouched(t, p)
	})
}

func TestHostileSetuidBinary(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a setuid-root binary needs root")
	}
	eachMode(t, func(t *testing.T, w *world) {
		// A copy of id that is setuid root among the bot's own files.
		id := lookPath(t, "id")
		data, err := os.ReadFile(id)
		if err != nil {
			t.Fatal(err)
		}
		suid := filepath.Join(w.src, "suid-id")
		if err := os.WriteFile(suid, data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(suid, 0o4755); err != nil {
			t.Fatal(err)
		}
		sh := lookPath(t, "sh")
		p := w.start(t, []string{sh, "-c", `"$0" -u; echo done`, suid}, 0)
		out := output(t, p)
		if !strings.Contains(out, "done") {
			t.Fatalf("the bot did not run: %q %s", out, p.Stderr())
		}
		if w.mode != sandbox.Off && strings.HasPrefix(out, "0\n") {
			t.Errorf("the setuid binary ran as root: %q", out)
		}
		w.untouched(t, p)
	})
}

func TestHostileBusyChildWhilePaused(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		p := w.start(t, []string{sh, "-c", `setsid sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo ready; while read x; do echo "$x"; done`}, 0)
		if line, err := p.ReadLine(time.Now().Add(10 * time.Second)); err != nil || line != "ready" {
			t.Fatalf("%q %v %s", line, err, p.Stderr())
		}
		var busy []int
		if !eventually(func() bool { busy = marked(w.token); return len(busy) >= 2 }) {
			t.Fatalf("the busy child did not start: %v", busy)
		}
		p.Pause()
		// Wait until the stop has reached every process, then make sure
		// none of them runs.
		settled := w.mode == sandbox.Off || eventually(func() bool {
			for _, pid := range busy {
				if st := procState(pid); st == 'R' {
					return false
				}
			}
			return true
		})
		before := map[int]int64{}
		for _, pid := range busy {
			before[pid] = cpuTicks(pid)
		}
		time.Sleep(300 * time.Millisecond)
		running := 0
		for _, pid := range busy {
			if cpuTicks(pid) > before[pid] {
				running++
			}
		}
		p.Resume()
		if w.mode == sandbox.Off {
			if running == 0 {
				t.Errorf("off: want today's busy child running while paused")
			}
		} else if running > 0 || !settled {
			t.Errorf("%d process(es) of the paused bot kept running", running)
		}
		if err := p.WriteString("echo\n", time.Now().Add(5*time.Second)); err != nil {
			t.Fatal(err)
		}
		if line, err := p.ReadLine(time.Now().Add(10 * time.Second)); err != nil || line != "echo" {
			t.Fatalf("after resuming: %q %v %s", line, err, p.Stderr())
		}
		w.untouched(t, p)
	})
}

// TestStrictRefusesMissingLayers checks that strict names what is
// missing on a machine that lacks layers (a made-up report).
func TestStrictRefusesMissingLayers(t *testing.T) {
	r := sandbox.Report{Layers: []sandbox.Status{{Layer: sandbox.LayerUser, On: false, Why: "no user namespaces"}, {Layer: sandbox.LayerSeccomp, On: true}}}
	_, err := sandbox.New(sandbox.Policy{Mode: sandbox.Strict}, r)
	if err == nil || !strings.Contains(err.Error(), "user: no user namespaces") {
		t.Fatalf("want an error naming the user layer, got %v", err)
	}
	sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, r)
	if err != nil || strings.Join(sb.Layers(), ",") != sandbox.LayerSeccomp {
		t.Fatalf("auto: %v %v", sb.Layers(), err)
	}
	if sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Off}, r); sb != nil || err != nil || sb.Layers() == nil || len(sb.Layers()) != 0 {
		t.Fatalf("off: %v %v", sb, err)
	}
}

// TestPrivateLoopback checks that --sandbox-net loopback gives a bot a
// loopback of its own that works, and that none gives it no network.
func TestPrivateLoopback(t *testing.T) {
	if !probed().On(sandbox.LayerNet) {
		t.Skip("no network namespace here")
	}
	py := lookPath(t, "python3")
	for _, c := range []struct {
		net  sandbox.Net
		want string
	}{{sandbox.NetLoopback, "ok"}, {sandbox.NetNone, "failed"}} {
		t.Run(string(c.net), func(t *testing.T) {
			pol := testPolicy(sandbox.Auto)
			pol.Net = c.net
			sb := newSandbox(t, sandbox.Auto, pol)
			p, err := bot.Start(bot.Config{Args: []string{py, "-c", `import socket
try:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
    c = socket.create_connection(s.getsockname(), timeout=5); a, _ = s.accept()
    c.sendall(b"x"); print("ok" if a.recv(1) == b"x" else "wrong", flush=True)
except OSError as e:
    print("failed", e, flush=True)
`}, Dir: t.TempDir(), Interactive: true, Sandbox: sb})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			line, err := p.ReadLine(time.Now().Add(time.Minute))
			if err != nil || !strings.HasPrefix(line, c.want) {
				t.Errorf("got %q %v, want %s; stderr %s", line, err, c.want, p.Stderr())
			}
		})
	}
}

// TestSecretsLeftOutOfTheEnvironment checks that a sandboxed bot does not
// inherit what looks like the organiser's secrets, but gets the
// variables given to it.
func TestSecretsLeftOutOfTheEnvironment(t *testing.T) {
	token := randomToken(t)
	t.Setenv("ARENA_TOKEN", "leak-"+token)
	t.Setenv("GITHUB_TOKEN", "leak-"+token)
	t.Setenv("SOME_API_KEY", "leak-"+token)
	t.Setenv("PGPASSWORD", "leak-"+token)
	sh := lookPath(t, "sh")
	for _, m := range modes(t) {
		t.Run(string(m), func(t *testing.T) {
			dir := t.TempDir()
			p, err := bot.Start(bot.Config{Args: []string{sh, "-c", "env; echo HOME=$HOME"}, Dir: dir, Env: []string{"BOT_OWN_KEY=mine"},
				Sandbox: newSandbox(t, m, testPolicy(m))})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			p.WaitExit(time.Minute)
			env := p.FinalStderr()
			if !strings.Contains(env, "BOT_OWN_KEY=mine") {
				t.Errorf("the bot lost its own variable:\n%s", env)
			}
			leaked := strings.Contains(env, "leak-"+token)
			if m == sandbox.Off {
				if !leaked {
					t.Errorf("off: want today's environment, secrets included")
				}
				return
			}
			if leaked {
				t.Errorf("secrets reached the bot:\n%s", env)
			}
			if !strings.Contains(env, "HOME="+dir) {
				t.Errorf("HOME is not the working folder:\n%s", env)
			}
		})
	}
}

// TestHostileChildCPUIsCharged: a bot that leaves a busy child in a
// session of its own is charged the child's CPU time, not only its own.
func TestHostileChildCPUIsCharged(t *testing.T) {
	eachMode(t, func(t *testing.T, w *world) {
		sh := lookPath(t, "sh")
		p := w.start(t, []string{sh, "-c", `setsid sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo ready; read x`}, 0)
		if line, err := p.ReadLine(time.Now().Add(10 * time.Second)); err != nil || line != "ready" {
			t.Fatalf("%q %v %s", line, err, p.Stderr())
		}
		// The child has burnt a tenth of a second at least.
		var child int64
		if !eventually(func() bool {
			child = 0
			for _, pid := range marked(w.token) {
				child = max(child, cpuTicks(pid))
			}
			return child >= 10
		}) {
			t.Fatalf("the busy child did not run: %v", marked(w.token))
		}
		p.Close()
		burnt := time.Duration(child) * time.Second / 100 // clock ticks (USER_HZ)
		switch {
		case w.mode == sandbox.Off || !report(w.mode).On(sandbox.LayerPids) && !report(w.mode).On(sandbox.LayerMemory):
			t.Logf("without a cgroup the child's %v are not charged: the bot's CPU is %v", burnt, p.CPUTime())
		case p.CPUTime() < burnt:
			t.Errorf("the bot was charged %v of CPU, its child alone burnt %v", p.CPUTime(), burnt)
		}
		w.untouched(t, p)
	})
}
