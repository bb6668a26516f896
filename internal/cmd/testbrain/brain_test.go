package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/internal/testbrain"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		argv0 string
		args  []string
		proto string
	}{
		{"/x/pbrain-tb", nil, "pipe"},
		{"PBRAIN-TB.exe", nil, "pipe"},
		{"/x/tb", nil, "file"},
		{"/x/pbrain-tb", []string{"--proto=file"}, "file"},
		{"tb", []string{"--proto=pipe"}, "pipe"},
		{"tb", []string{"-proto", "auto"}, "file"},
	} {
		c, err := parseArgs(tc.argv0, tc.args, io.Discard)
		if err != nil || c.proto != tc.proto {
			t.Errorf("parseArgs(%q, %q) = %q, %v; want %q", tc.argv0, tc.args, c.proto, err, tc.proto)
		}
	}
	c, err := parseArgs("tb", []string{"--misbehave=crlf", "--at=3", "--delay=5ms", "--name=N", "--policy=greedy", "--seed=4"}, io.Discard)
	if err != nil || c.eol != "\r\n" || c.at != 3 || c.delay != 5*time.Millisecond || c.name != "N" {
		t.Errorf("parseArgs: %+v, %v", c, err)
	}
	if c.misbehaves(2) || !c.misbehaves(3) || !c.misbehaves(4) {
		t.Error("misbehaves ignores --at")
	}
	for _, bad := range [][]string{
		{"--proto=tcp"}, {"--policy=smart"}, {"--misbehave=explode"}, {"--delay=-1s"}, {"--busy=-1ms"}, {"extra"}, {"--nope"},
	} {
		if _, err := parseArgs("tb", bad, io.Discard); err == nil {
			t.Errorf("parseArgs(%q) succeeded", bad)
		}
	}
}

// TestBinary builds the brain once and drives it over real pipes and files.
func TestBinary(t *testing.T) {
	pbrain, tb := buildBrain(t)

	t.Run("PipeNormal", func(t *testing.T) {
		in := "START 15\r\nINFO timeout_turn 1000\r\nABOUT\r\nBEGIN\r\nINFO time_left 5000\r\nTURN 7,7\r\n" +
			"BOARD\r\n0,0,1\r\n1,1,2\r\n2,2,3\r\nDONE\r\nRECTSTART 20,10\r\nBEGIN\r\nRESTART\r\nFOO bar\r\nEND\r\nBEGIN\r\n"
		r := run(t, pbrain, "", in, nil, "--name=tb-test", "--seed=1")
		if r.code != 0 {
			t.Fatalf("exit %d; stderr %s", r.code, r.stderr)
		}
		m := coords(t, matchOut(t, r.stdout, `OK\n`+
			`name="tb-test", version="1\.0", author="arena", country="CZ"\n`+
			`MESSAGE testbrain move 1\n(\d+),(\d+)\n`+
			`MESSAGE testbrain move 2\n(\d+),(\d+)\n`+
			`MESSAGE testbrain move 3\n(\d+),(\d+)\n`+
			`OK\n`+
			`MESSAGE testbrain move 4\n(\d+),(\d+)\n`+
			`OK\nUNKNOWN FOO\n`)...)
		for i := 0; i < 6; i += 2 {
			if m[i] >= 15 || m[i+1] >= 15 {
				t.Errorf("move %v off the 15x15 board", m[i:i+2])
			}
		}
		if (m[2] == 7 && m[3] == 7) || (m[2] == m[0] && m[3] == m[1]) {
			t.Errorf("move 2 %v on an occupied square", m[2:4])
		}
		if m[4] == m[5] && m[4] <= 2 {
			t.Errorf("move 3 %v on a square given by BOARD", m[4:6])
		}
		if m[6] >= 20 || m[7] >= 10 {
			t.Errorf("move 4 %v off the 20x10 board", m[6:8])
		}
	})

	t.Run("PipeBusyAfter", func(t *testing.T) {
		// All input is there at once, so each command after a move finds
		// the brain still busy with that move: it refuses and drops it.
		in := "START 10\r\nBEGIN\r\nINFO time_left 1000\r\nTURN 0,0\r\nEND\r\n"
		r := run(t, pbrain, "", in, nil, "--misbehave=busyafter", "--busy=5ms", "--at=2")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\n`+
			`MESSAGE testbrain move 2\n\d,\d\nERROR Unknown command: END\n`)
		r = run(t, pbrain, "", in, nil, "--misbehave=busyafter", "--busy=5ms")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\nERROR Unknown command: INFO\n`+
			`MESSAGE testbrain move 2\n\d,\d\nERROR Unknown command: END\n`)
	})

	t.Run("PipeEOF", func(t *testing.T) {
		r := run(t, tb, "", "START 10\nBEGIN", nil, "--proto=pipe")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\n`)
		if r.code != 0 {
			t.Fatalf("exit %d", r.code)
		}
	})

	t.Run("PipeLineEnds", func(t *testing.T) {
		// A lone CR must end a command at once, without waiting for an LF.
		s := start(t, pbrain, "", nil)
		s.send("START 10\r")
		s.expect(`OK\n`, 5*time.Second)
		s.send("BEGIN\n")
		s.expect(`MESSAGE testbrain move 1\n\d,\d\n`, 5*time.Second)
		s.send("\r\n\r\nTURN 0,0\r")
		s.expect(`MESSAGE testbrain move 2\n\d,\d\n`, 5*time.Second)
		s.send("ABOUT\r\n")
		s.expect(`name="testbrain".*\n`, 5*time.Second)
		if code := s.wait(); code != 0 {
			t.Fatalf("exit %d", code)
		}
	})

	t.Run("PipeGreedyWins", func(t *testing.T) {
		in := "START 10\r\nBOARD\r\n1,1,1\r\n2,1,1\r\n3,1,1\r\n4,1,1\r\n0,1,2\r\n0,2,2\r\nDONE\r\nEND\r\n"
		r := run(t, pbrain, "", in, nil, "--policy=greedy")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n5,1\n`)
	})

	t.Run("FileNormal", func(t *testing.T) {
		rows := []string{
			"##########",
			"#xo------#",
			"#--------#",
			"----x-----",
			"----o-----",
			"----------",
			"----------",
			"----------",
			"----------",
			"----------",
		}
		for _, eol := range []string{"\n", "\r\n"} {
			dir := writeFiles(t, rows, eol, "o")
			r := run(t, tb, dir, "", nil)
			if r.code != 0 || len(r.stdout) != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
			}
			m := coords(t, matchOut(t, readFile(t, dir, "TAH.DAT"), `(\d+),(\d+)\n`)...)
			b, _ := testbrain.ParseBoard(rows)
			if !b.In(m[0], m[1]) || b.At(m[0], m[1]) != '-' {
				t.Fatalf("move %v is not an empty square", m)
			}
			if got := readFile(t, dir, "MSG.DAT"); len(got) != 0 {
				t.Fatalf("MSG.DAT = %q", got)
			}
		}
	})

	t.Run("FileGreedy", func(t *testing.T) {
		rows := []string{"-----", "-oooo", "-----", "xxxx#", "-----"}
		dir := writeFiles(t, rows, "\n", "o")
		if r := run(t, pbrain, dir, "", nil, "--proto=file", "--policy=greedy"); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		matchOut(t, readFile(t, dir, "TAH.DAT"), `0,1\n`)
		// x cannot win (the '#'), so it blocks o's four.
		dir = writeFiles(t, rows, "\n", "x")
		run(t, tb, dir, "", nil, "--policy=greedy")
		matchOut(t, readFile(t, dir, "TAH.DAT"), `0,1\n`)
	})

	t.Run("PipeCrash", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nTURN 0,0\r\nTURN 0,1\r\n", nil, "--misbehave=crash", "--at=2")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\nMESSAGE testbrain move 2\n`)
		if r.code != 3 {
			t.Fatalf("exit %d, want 3", r.code)
		}
	})

	t.Run("PipeSegv", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\n", nil, "--misbehave=segv")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n`)
		if r.signal != syscall.SIGSEGV {
			t.Fatalf("exit %d signal %v, want SIGSEGV", r.code, r.signal)
		}
	})

	t.Run("PipeExit0", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nBEGIN\r\n", nil, "--misbehave=exit0")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n`)
		if r.code != 0 {
			t.Fatalf("exit %d", r.code)
		}
	})

	t.Run("PipeGarbage", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nEND\r\n", nil, "--misbehave=garbage")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\nhello world\n`)
	})

	t.Run("PipeOffboard", func(t *testing.T) {
		r := run(t, pbrain, "", "RECTSTART 12,7\r\nBEGIN\r\nEND\r\n", nil, "--misbehave=offboard")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n12,0\n`)
	})

	t.Run("PipeOccupied", func(t *testing.T) {
		// On an empty board it has to play normally first.
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nTURN 3,4\r\nEND\r\n", nil, "--misbehave=occupied")
		m := coords(t, matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n(\d),(\d)\nMESSAGE testbrain move 2\n(\d),(\d)\n`)...)
		if !(m[2] == m[0] && m[3] == m[1]) && !(m[2] == 3 && m[3] == 4) {
			t.Fatalf("second answer %v is not occupied (stones at %v and 3,4)", m[2:], m[:2])
		}
	})

	t.Run("PipeSuggest", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nPLAY 4,5\r\nTURN 4,6\r\nPLAY 1,2\r\nEND\r\n", nil, "--misbehave=suggest")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\nSUGGEST \d,\d\n4,5\nMESSAGE testbrain move 2\nSUGGEST \d,\d\n1,2\n`)
	})

	t.Run("PipeStray", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nTURN 0,0\r\nEND\r\n", nil, "--misbehave=stray", "--at=2")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\nMESSAGE testbrain move 2\n`+
			`OK\nUNKNOWN x\nERROR y\nDEBUG d\nMESSAGE m\n\d,\d\n`)
	})

	t.Run("PipeLineEndModes", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nEND\r\n", nil, "--misbehave=crlf")
		matchOut(t, r.stdout, `OK\r\nMESSAGE testbrain move 1\r\n\d,\d\r\n`)
		r = run(t, pbrain, "", "START 10\r\nBEGIN\r\nEND\r\n", nil, "--misbehave=cr")
		matchOut(t, r.stdout, `OK\rMESSAGE testbrain move 1\r\d,\d\r`)
	})

	t.Run("PipeStart", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nEND\r\n", nil, "--misbehave=startfail")
		matchOut(t, r.stdout, `ERROR cannot start\n`)
		r = run(t, pbrain, "", "START 10\r\nABOUT\r\nEND\r\n", nil, "--misbehave=nostart")
		matchOut(t, r.stdout, `name="testbrain".*\n`)
		r = run(t, pbrain, "", "START 3\r\nSTART 200\r\nBEGIN\r\nEND\r\n", nil)
		matchOut(t, r.stdout, `ERROR unsupported board size\nERROR unsupported board size\nERROR no board: START first\n`)
	})

	t.Run("PipeHangAndFlood", func(t *testing.T) {
		s := start(t, pbrain, "", nil, "--misbehave=hang")
		s.send("START 10\r\nBEGIN\r\n")
		s.expect(`OK\nMESSAGE testbrain move 1\n`, 5*time.Second)
		s.send("END\r\n")
		s.quiet(300 * time.Millisecond)
		if err := s.cmd.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatal("hanging brain is gone:", err)
		}

		s = start(t, pbrain, "", nil, "--misbehave=flood")
		s.send("START 10\r\nBEGIN\r\n")
		s.expectExact("OK\nMESSAGE testbrain move 1\n"+strings.Repeat("MESSAGE spam\n", 200000), 5*time.Second)
		s.quiet(200 * time.Millisecond)
	})

	t.Run("PipeLongLineAndStderr", func(t *testing.T) {
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nEND\r\n", nil, "--misbehave=longline")
		want := "OK\nMESSAGE testbrain move 1\n" + strings.Repeat("a", 8<<20) + "\n"
		if string(r.stdout) != want {
			t.Fatalf("longline: got %d bytes %q", len(r.stdout), trunc(r.stdout))
		}
		r = run(t, pbrain, "", "START 10\r\nBEGIN\r\nEND\r\n", nil, "--misbehave=stderr")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\n`)
		if len(r.stderr) != 1<<20 {
			t.Fatalf("stderr has %d bytes, want 1 MiB", len(r.stderr))
		}
	})

	t.Run("PipeDelay", func(t *testing.T) {
		t0 := time.Now()
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nEND\r\n", nil, "--delay=200ms")
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\n`)
		if d := time.Since(t0); d < 200*time.Millisecond {
			t.Fatalf("answered after %v despite --delay=200ms", d)
		}
	})

	t.Run("PidFile", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pids")
		env := []string{PidFileEnv + "=" + pidFile}
		s := start(t, pbrain, "", env, "--misbehave=pid")
		s.send("START 10\r\nBEGIN\r\nTURN 0,0\r\n")
		s.expect(`OK\nMESSAGE testbrain move 1\n\d,\d\nMESSAGE testbrain move 2\n\d,\d\n`, 5*time.Second)
		pid := s.cmd.Process.Pid
		if code := s.wait(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		want := strings.Repeat(strconv.Itoa(pid)+" "+strconv.Itoa(pid)+"\n", 3) // start + 2 moves
		if got := string(readFile(t, filepath.Dir(pidFile), "pids")); got != want {
			t.Fatalf("pid file %q, want %q", got, want)
		}

		// Any mode, any protocol: one line at start.
		os.Remove(pidFile)
		dir := writeFiles(t, []string{"-----", "-----", "-----", "-----", "-----"}, "\n", "x")
		r := run(t, tb, dir, "", env, "--misbehave=garbage")
		if r.code != 0 {
			t.Fatalf("exit %d", r.code)
		}
		matchOut(t, readFile(t, filepath.Dir(pidFile), "pids"), `(\d+) (\d+)\n`)
	})

	t.Run("Fork", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pids")
		env := []string{PidFileEnv + "=" + pidFile}
		readPids := func() (lines []string, pids []int) {
			b, _ := os.ReadFile(pidFile)
			lines = strings.Fields(string(b))
			for _, f := range lines {
				n, _ := strconv.Atoi(f)
				pids = append(pids, n)
			}
			return lines, pids
		}
		t.Cleanup(func() {
			// Kill the sleeps the brain started (every line after its own).
			_, pids := readPids()
			for i := 2; i+1 < len(pids); i += 2 {
				_ = syscall.Kill(pids[i], syscall.SIGKILL)
			}
		})
		r := run(t, pbrain, "", "START 10\r\nBEGIN\r\nTURN 0,0\r\nEND\r\n", env, "--misbehave=fork")
		lines, pids := readPids()
		matchOut(t, r.stdout, `OK\nMESSAGE testbrain move 1\n\d,\d\nMESSAGE testbrain move 2\n\d,\d\n`)
		if len(pids) != 8 {
			t.Fatalf("pid file %q: want the brain and 3 children", lines)
		}
		brainPgid := pids[1]
		if pids[3] != brainPgid || pids[5] != brainPgid || pids[7] != pids[6] {
			t.Fatalf("pid file %q: want two children in the brain's group and one leading its own", lines)
		}
		for i := 2; i < 8; i += 2 {
			if err := syscall.Kill(pids[i], 0); err != nil {
				t.Errorf("child %d not running: %v", pids[i], err)
			}
		}
	})

	t.Run("FileCrash", func(t *testing.T) {
		empty := []string{"-----", "-----", "-----", "-----", "-----"}
		dir := writeFiles(t, empty, "\n", "x")
		// Move 1 (no own stone yet) is played normally with --at=2...
		if r := run(t, tb, dir, "", nil, "--misbehave=crash", "--at=2"); r.code != 0 {
			t.Fatalf("exit %d", r.code)
		}
		matchOut(t, readFile(t, dir, "TAH.DAT"), `\d,\d\n`)
		// ...move 2 (one own stone) crashes, leaving TAH.DAT alone.
		dir = writeFiles(t, []string{"-----", "-x---", "--o--", "-----", "-----"}, "\n", "x")
		if r := run(t, tb, dir, "", nil, "--misbehave=crash", "--at=2"); r.code != 3 {
			t.Fatalf("exit %d, want 3", r.code)
		}
		matchOut(t, readFile(t, dir, "TAH.DAT"), `x\n`)
	})

	t.Run("FileModes", func(t *testing.T) {
		rows := []string{"------", "-x----", "--o---", "------", "------", "------"}
		for _, tc := range []struct {
			mode, tah, msg string
		}{
			{"garbage", `hello world\n`, ``},
			{"offboard", `6,0\n`, ``},
			{"occupied", `(?:1,1|2,2)\n`, ``},
			{"msg", `\d,\d\n`, `testbrain message 1\ntestbrain message 2\n`},
			{"nomove", `o\n`, ``},
			{"exit0", `o\n`, ``},
			{"crlf", `\d,\d\r\n`, ``},
			{"cr", `\d,\d\r`, ``},
			{"suggest", `\d,\d\n`, ``}, // pipe-only: plays normally
		} {
			dir := writeFiles(t, rows, "\r\n", "o")
			if r := run(t, tb, dir, "", nil, "--misbehave="+tc.mode); r.code != 0 {
				t.Fatalf("%s: exit %d: %s", tc.mode, r.code, r.stderr)
			}
			matchOut(t, readFile(t, dir, "TAH.DAT"), tc.tah)
			matchOut(t, readFile(t, dir, "MSG.DAT"), tc.msg)
		}

		dir := writeFiles(t, rows, "\n", "o")
		if r := run(t, tb, dir, "", nil, "--misbehave=notah"); r.code != 0 {
			t.Fatalf("notah: exit %d", r.code)
		}
		if _, err := os.Stat(filepath.Join(dir, "TAH.DAT")); !os.IsNotExist(err) {
			t.Fatalf("notah: TAH.DAT still there (%v)", err)
		}

		dir = writeFiles(t, rows, "\n", "o")
		run(t, tb, dir, "", nil, "--misbehave=longline")
		for _, f := range []string{"TAH.DAT", "MSG.DAT"} {
			if b := readFile(t, dir, f); len(b) != 8<<20 || bytes.ContainsAny(b, "\r\n") {
				t.Fatalf("longline: %s has %d bytes", f, len(b))
			}
		}
	})

	t.Run("FileErrors", func(t *testing.T) {
		dir := t.TempDir()
		if r := run(t, tb, dir, "", nil); r.code != 1 {
			t.Fatalf("no files: exit %d", r.code)
		}
		dir = writeFiles(t, []string{"xo", "ox"}, "\n", "x")
		if r := run(t, tb, dir, "", nil); r.code != 1 {
			t.Fatalf("full board: exit %d", r.code)
		}
		matchOut(t, readFile(t, dir, "TAH.DAT"), `x\n`)
		dir = writeFiles(t, []string{"---", "---"}, "\n", "?")
		if r := run(t, tb, dir, "", nil); r.code != 1 {
			t.Fatalf("bad side: exit %d", r.code)
		}
		if r := run(t, tb, "", "", nil, "--misbehave=nonsense"); r.code != 2 {
			t.Fatalf("bad mode: exit %d", r.code)
		}
	})
}
