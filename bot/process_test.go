package bot

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/sandbox"
)

func startSh(t testing.TB, script string, cfg Config) *Process {
	t.Helper()
	sh, err := ResolveProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cfg.Args = []string{sh, "-c", script}
	cfg.Interactive = true
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func soon() time.Time { return time.Now().Add(5 * time.Second) }

func TestReadLineEndings(t *testing.T) {
	p := startSh(t, `printf 'a\r\nb\nc\rd\r\n\ne'`, Config{})
	var got []string
	for {
		line, err := p.ReadLine(soon())
		if err != nil {
			var exit *ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("want exit, got %v", err)
			}
			break
		}
		got = append(got, line)
	}
	want := "a|b|c|d|"
	if strings.Join(got, "|") != want {
		t.Fatalf("lines %q, want %q (an unterminated last line is not a line)", strings.Join(got, "|"), want)
	}
}

func TestEcho(t *testing.T) {
	p := startSh(t, `while read l; do echo "got $l"; done`, Config{})
	for i := 0; i < 3; i++ {
		if err := p.WriteString("x"+strconv.Itoa(i)+"\n", soon()); err != nil {
			t.Fatal(err)
		}
		line, err := p.ReadLine(soon())
		if err != nil || line != "got x"+strconv.Itoa(i) {
			t.Fatalf("got %q %v", line, err)
		}
	}
}

func TestReadTimeout(t *testing.T) {
	p := startSh(t, `sleep 30`, Config{})
	_, err := p.ReadLine(time.Now().Add(50 * time.Millisecond))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("want timeout, got %v", err)
	}
}

func TestLineCap(t *testing.T) {
	p := startSh(t, `head -c 100000 /dev/zero | tr '\0' a; echo; echo ok`, Config{MaxLine: 1000})
	_, err := p.ReadLine(soon())
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("want line too long, got %v", err)
	}
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		script, want string
	}{
		{"exit 3", "exit status 3"},
		{"kill -SEGV $$", "killed by signal segmentation fault"},
		{"exec 1>&-; sleep 30", "closed its output"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			p := startSh(t, tc.script, Config{})
			_, err := p.ReadLine(soon())
			var exit *ExitError
			if !errors.As(err, &exit) || exit.Status != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestWriteToDeadBot(t *testing.T) {
	p := startSh(t, `exit 0`, Config{})
	p.WaitExit(5 * time.Second)
	err := p.WriteString("hello\n", soon())
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("want exit error, got %v", err)
	}
}

func TestWriteDoesNotBlock(t *testing.T) {
	p := startSh(t, `sleep 30`, Config{})
	big := strings.Repeat("x", 1<<20)
	err := p.WriteString(big, time.Now().Add(100*time.Millisecond))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("want timeout writing to a bot that never reads, got %v", err)
	}
}

func TestStderrTail(t *testing.T) {
	p := startSh(t, `head -c 100000 /dev/zero | tr '\0' e >&2; echo end >&2; echo done`, Config{StderrTail: 100})
	if _, err := p.ReadLine(soon()); err != nil {
		t.Fatal(err)
	}
	p.WaitExit(5 * time.Second)
	time.Sleep(50 * time.Millisecond)
	s := p.Stderr()
	if !strings.HasPrefix(s, "[...]") || !strings.HasSuffix(s, "eeend\n") || len(s) != 105 {
		t.Fatalf("stderr tail %q", s)
	}
}

// TestExitQuotesStderr checks that the end of a bot that fails carries
// the last lines it wrote to stderr, and that a script whose interpreter
// is missing is named as such.
func TestExitQuotesStderr(t *testing.T) {
	p := startSh(t, `for i in 1 2 3 4 5 6 7; do echo "line $i" >&2; done; echo >&2; exit 3`, Config{})
	_, err := p.ReadLine(soon())
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("ReadLine: %v, want an ExitError", err)
	}
	if want := "line 3 | line 4 | line 5 | line 6 | line 7"; exit.Stderr != want || exit.Status != "exit status 3" {
		t.Errorf("exit %q with stderr %q, want exit status 3 with %q", exit.Status, exit.Stderr, want)
	}

	script := filepath.Join(t.TempDir(), "brain")
	if err := os.WriteFile(script, []byte("#!/no/such/interpreter -u\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(Config{Args: []string{script}, Interactive: true}); err == nil || !strings.Contains(err.Error(), `bad interpreter "/no/such/interpreter -u"`) {
		t.Errorf("Start of a script with a missing interpreter: %v", err)
	}
}

func TestLastLines(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"nothing", "", ""},
		{"blank lines dropped", "\n  \r\na\r\n\nb\n", "a | b"},
		{"last three", "1\n2\n3\n4\n", "2 | 3 | 4"},
		{"long line loses its middle", "head" + strings.Repeat("x", 20) + "tail", "hea ... xxxtail"},
		{"a long path keeps the error after it", "can't open '/a/" + strings.Repeat("d/", 40) + "x.py': No such file", "can ... ch file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := lastLines(tc.text, 3, 10); got != tc.want {
				t.Errorf("lastLines(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// alive reports whether any process is left in process group pgid.
func alive(pgid int) bool { return len(Survivors(pgid)) > 0 }

func TestKillWholeGroup(t *testing.T) {
	p := startSh(t, `sleep 60 & sleep 60 & echo started; wait`, Config{})
	if _, err := p.ReadLine(soon()); err != nil {
		t.Fatal(err)
	}
	pgid := p.Pid()
	p.Kill()
	if alive(pgid) {
		t.Fatal("processes of the group survive Kill")
	}
}

func TestKillEscapedChild(t *testing.T) {
	g := NewGroup(0)
	defer g.Close()
	if !strings.HasPrefix(g.Enforcement(), "cgroup") {
		t.Skip("no cgroup: a child in a new session cannot be tracked")
	}
	p := startSh(t, `setsid sleep 60 & echo $!; wait`, Config{Group: g})
	line, err := p.ReadLine(soon())
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(strings.TrimSpace(line))
	p.Kill()
	g.KillAll()
	time.Sleep(10 * time.Millisecond)
	if err := syscall.Kill(child, 0); err == nil {
		// a zombie is not a survivor; check its state
		data, _ := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat")
		if !strings.Contains(string(data), ") Z") {
			t.Fatalf("escaped child %d survives: %s", child, data)
		}
	}
}

func TestPauseResume(t *testing.T) {
	p := startSh(t, `while read l; do echo "$l"; done`, Config{})
	p.Pause()
	if err := p.WriteString("ping\n", soon()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadLine(time.Now().Add(100 * time.Millisecond)); !errors.Is(err, ErrTimeout) {
		t.Fatalf("a paused bot answered: %v", err)
	}
	p.Resume()
	if line, err := p.ReadLine(soon()); err != nil || line != "ping" {
		t.Fatalf("after resume: %q %v", line, err)
	}
}

func TestMemoryLimit(t *testing.T) {
	py, err := ResolveProgram("python3")
	if err != nil {
		t.Skip("no python3")
	}
	for _, cgroup := range []bool{true, false} {
		g := newGroup(64<<20, cgroup, sandbox.Cgroup{})
		t.Run(g.Enforcement(), func(t *testing.T) {
			defer g.Close()
			// The bot grows slowly enough for the sampler to see it.
			p, err := Start(Config{
				Args:        []string{py, "-c", "import time\nx = []\nfor i in range(30):\n    x.append(bytearray(10 << 20)); time.sleep(0.02)\nprint('survived', flush=True)"},
				Group:       g,
				Interactive: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			line, err := p.ReadLine(soon())
			var exit *ExitError
			if !errors.As(err, &exit) || !exit.OOM {
				t.Fatalf("want memory kill, got %q %v", line, err)
			}
		})
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"a b  c", []string{"a", "b", "c"}, false},
		{`python3 -u "my bot.py"`, []string{"python3", "-u", "my bot.py"}, false},
		{`a 'it''s' "x\"y" z\ w`, []string{"a", "its", `x"y`, "z w"}, false},
		{`''`, []string{""}, false},
		{`"open`, nil, true},
		{`end\`, nil, true},
		{"   ", nil, true},
	}
	for _, tc := range tests {
		got, err := SplitCommand(tc.in)
		if (err != nil) != tc.err || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("SplitCommand(%q) = %q, %v", tc.in, got, err)
		}
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"a b", `"x y"`, `'a'\ b`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := SplitCommand(s)
		if err == nil && len(args) == 0 {
			t.Fatal("no error and no args")
		}
	})
}

// TestPauseDuringFork pauses and resumes bots while they fork: a child
// born while its group stops and continues must not stay stopped, or the
// bot hangs waiting for it (seen with pyenv's shell shims under load).
func TestPauseDuringFork(t *testing.T) {
	const script = `i=0; while [ $i -lt 30 ]; do x=$(echo $i); i=$((i+1)); done; while read l; do x=$(echo "$l"); echo "$x"; done`
	for round := range 60 {
		t.Run(strconv.Itoa(round), func(t *testing.T) {
			t.Parallel()
			p := startSh(t, script, Config{})
			for i := range 10 {
				p.Pause()
				time.Sleep(time.Duration(round%5) * 100 * time.Microsecond)
				p.Resume()
				time.Sleep(time.Duration(i) * 100 * time.Microsecond)
			}
			if err := p.WriteString("ping\n", soon()); err != nil {
				t.Fatal(err)
			}
			if line, err := p.ReadLine(soon()); err != nil || line != "ping" {
				t.Fatalf("%q %v", line, err)
			}
		})
	}
}

// BenchmarkPauseResume measures the stop and continue around each move:
// by default (the bot is stopped once it is blocked, which costs a look
// at its threads) and stopping at once, as arena did before.
func BenchmarkPauseResume(b *testing.B) {
	for _, bc := range []struct {
		name    string
		grace   time.Duration
		sandbox bool // through the freezer, the CPU time noted at each continue
	}{{"once-blocked", 0, false}, {"at-once", -1, false}, {"sandboxed-at-once", -1, true}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := Config{PauseGrace: bc.grace}
			if bc.sandbox {
				cfg.Sandbox, cfg.Dir = sandboxWithFilter(b), b.TempDir()
			}
			p := startSh(b, "read l", cfg)
			for b.Loop() {
				p.Pause()
				p.Resume()
			}
		})
	}
}

// busyAfterAnswer is a bot that, after each answer, works for 100 ms of
// CPU time before it reads again, and says "early" instead of "move" for a
// line that was already waiting when it finished: it was stopped before
// it got back to reading.
const busyAfterAnswer = `
import os, select, sys, time
early = False
while True:
    line = sys.stdin.readline()
    if not line:
        break
    print("early" if early else "move", flush=True)
    start = time.process_time()
    while time.process_time() - start < 0.1:
        pass
    early = bool(select.select([sys.stdin], [], [], 0)[0])
`

// TestPauseWaitsForBlock pauses a bot right after each answer, as the
// match loop does, and sends the next line as soon as it is continued:
// with the grace, the bot is stopped only once it is back to reading, so
// the line never comes early; stopped at once, it does.
func TestPauseWaitsForBlock(t *testing.T) {
	py, err := ResolveProgram("python3")
	if err != nil {
		t.Skip("no python3")
	}
	tests := []struct {
		name  string
		grace time.Duration
		want  string
	}{
		{"paused once blocked", 10 * time.Second, "move"},
		{"stopped at once", -1, "early"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Start(Config{Args: []string{py, "-c", busyAfterAnswer}, Interactive: true, PauseGrace: tc.grace})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var got []string
			for range 3 {
				if err := p.WriteString("go\n", soon()); err != nil {
					t.Fatal(err)
				}
				line, err := p.ReadLine(soon())
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, line)
				p.Pause()
				p.Resume()
			}
			if got[1] != tc.want || got[2] != tc.want {
				t.Errorf("answers %q, want %q after the first", got, tc.want)
			}
		})
	}
}

// TestPauseGraceEnds pauses a bot that never blocks (it computes on after
// its answer): Pause gives up waiting after the grace and stops it.
func TestPauseGraceEnds(t *testing.T) {
	p := startSh(t, `read l; echo move; while :; do :; done`, Config{PauseGrace: 20 * time.Millisecond})
	if err := p.WriteString("go\n", soon()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadLine(soon()); err != nil {
		t.Fatal(err)
	}
	p.Pause()
	defer p.Resume()
	for range 1000 {
		if threadState("/proc/"+strconv.Itoa(p.Pid())+"/stat") == 'T' {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the busy bot was not stopped")
}

// StderrSince hands out each part of stderr once, marks a part the tail
// no longer keeps, and WaitStderr sees the stream end with the bot.
func TestStderrSince(t *testing.T) {
	tl := newTail(8)
	steps := []struct {
		write string
		from  int64
		want  string
		next  int64
	}{
		{"", 0, "", 0},
		{"ab\n", 0, "ab\n", 3},
		{"cd", 3, "cd", 5},
		{"", 5, "", 5},
		{"efghijklmn", 5, "[...]ghijklmn", 15},
		{"o", 14, "no", 16},
	}
	for i, s := range steps {
		tl.Write([]byte(s.write))
		got, next := tl.since(s.from)
		if got != s.want || next != s.next {
			t.Errorf("step %d: since(%d) = %q, %d; want %q, %d", i, s.from, got, next, s.want, s.next)
		}
	}
	p, err := Start(Config{Args: []string{"/bin/sh", "-c", "echo last words >&2"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.WaitStderr(time.Minute) {
		t.Fatal("stderr did not end with the bot")
	}
	if got, _ := p.StderrSince(0); got != "last words\n" {
		t.Errorf("stderr %q", got)
	}
}
