package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// scriptBrain returns the path of a script brain in testdata/brains,
// skipping the test if its interpreter is missing.
func scriptBrain(t *testing.T, name string, needs ...string) string {
	t.Helper()
	for _, prog := range needs {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s not found: %v", prog, err)
		}
	}
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "brains", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScriptPyRandom(t *testing.T) {
	bin := scriptBrain(t, "pbrain-pyrandom.py", "python3")
	in := "START 15\r\nINFO timeout_turn 1000\r\nBEGIN\r\nTURN 7,7\r\nBOARD\r\n0,0,1\r\n1,1,2\r\nDONE\r\n" +
		"ABOUT\r\nRECTSTART 8,6\r\nBEGIN\nYXFOO\rEND\r\n"
	r := run(t, bin, "", in, nil)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	m := coords(t, matchOut(t, r.stdout, `OK\n(\d+),(\d+)\n(\d+),(\d+)\n(\d+),(\d+)\n`+
		`name="pyrandom", version="1\.0", author="arena", country="CZ"\nOK\n(\d),(\d)\nUNKNOWN YXFOO\n`)...)
	if (m[2] == 7 && m[3] == 7) || (m[2] == m[0] && m[3] == m[1]) || (m[4] == m[5] && m[4] <= 1) {
		t.Fatalf("moves %v reuse occupied squares", m)
	}
	if m[6] >= 8 || m[7] >= 6 {
		t.Fatalf("move %v off the 8x6 board", m[6:])
	}

	// A CR-only line is answered without waiting for more input.
	s := start(t, bin, "", nil)
	s.send("START 5\r")
	s.expect(`OK\n`, 5*time.Second)
	s.send("BEGIN\r")
	s.expect(`\d,\d\n`, 5*time.Second)
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d at end of input", code)
	}
}

func TestScriptPyCrash(t *testing.T) {
	bin := scriptBrain(t, "pbrain-pycrash.py", "python3")
	r := run(t, bin, "", "START 10\r\nBEGIN\r\nTURN 1,1\r\nTURN 2,2\r\n", nil)
	matchOut(t, r.stdout, `OK\n\d,\d\n`)
	if r.code != 1 || !bytes.Contains(r.stderr, []byte("Traceback")) {
		t.Fatalf("exit %d, stderr %q; want 1 and a traceback", r.code, r.stderr)
	}
}

func TestScriptShHang(t *testing.T) {
	bin := scriptBrain(t, "pbrain-shhang.sh", "sh", "sleep")
	s := start(t, bin, "", nil) // killed with its group at the end
	s.send("START 10\r\n")
	s.expect(`OK\n`, 5*time.Second)
	s.send("INFO time_left 1000\r\nBEGIN\r\n")
	s.quiet(300 * time.Millisecond)
}

func TestScriptFileRandom(t *testing.T) {
	bin := scriptBrain(t, "filebrain-random.sh", "sh", "awk", "od")
	rows := []string{"xoxo-o", "oxox#x", "######", "xo-xxo", "oooooo"}
	empty := map[string]bool{"4,0\n": true, "2,3\n": true}
	for _, eol := range []string{"\n", "\r\n"} {
		dir := writeFiles(t, rows, eol, "x")
		if r := run(t, bin, dir, "", nil); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if got := string(readFile(t, dir, "TAH.DAT")); !empty[got] {
			t.Fatalf("TAH.DAT = %q, want one of %v", got, empty)
		}
	}
	dir := writeFiles(t, []string{"xo#", "ox#"}, "\n", "o")
	if r := run(t, bin, dir, "", nil); r.code != 1 {
		t.Fatalf("full board: exit %d", r.code)
	}
}

func TestScriptFileCrash(t *testing.T) {
	bin := scriptBrain(t, "filebrain-crash.sh", "sh")
	dir := writeFiles(t, []string{"-----", "-----", "-----", "-----", "-----"}, "\n", "x")
	if r := run(t, bin, dir, "", nil); r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	matchOut(t, readFile(t, dir, "TAH.DAT"), `x\n`)
}
