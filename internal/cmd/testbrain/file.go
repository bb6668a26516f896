package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"arena/internal/testbrain"
)

// File protocol names, as the manager writes them.
const (
	boardFile = "PLOCHA.DAT"
	moveFile  = "TAH.DAT"
	msgFile   = "MSG.DAT"
)

// runFile plays one move of the old file protocol in dir and returns the
// exit status. Some misbehaviours exit the process directly.
func runFile(c config, dir string) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "testbrain: "+format+"\n", args...)
		return 1
	}
	boardPath := findFile(dir, boardFile)
	movePath := findFile(dir, moveFile)
	msgPath := findFile(dir, msgFile)

	raw, err := os.ReadFile(boardPath)
	if err != nil {
		return fail("%v", err)
	}
	board, err := testbrain.ParseBoard(strings.FieldsFunc(string(raw), func(r rune) bool {
		return r == '\n' || r == '\r'
	}))
	if err != nil {
		return fail("%s: %v", boardPath, err)
	}
	tah, err := os.ReadFile(movePath)
	if err != nil {
		return fail("%v", err)
	}
	side := byte(0)
	if t := bytes.TrimSpace(tah); len(t) > 0 {
		switch t[0] {
		case 'x', 'X':
			side = testbrain.X
		case 'o', 'O':
			side = testbrain.O
		}
	}
	if side == 0 {
		return fail("%s: want the side to move (x or o), got %q", movePath, tah)
	}

	n := board.Count(side) + 1
	if c.delay > 0 {
		time.Sleep(c.delay)
	}
	answer := func(s string) int {
		if err := os.WriteFile(movePath, []byte(s+c.eol), 0o644); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	var hold [][]byte // memory mode: kept until the answer is written
	defer func() { runtime.KeepAlive(hold) }()
	if c.misbehaves(n) {
		switch c.mode {
		case "crash":
			return crashStatus
		case "segv":
			segv()
		case "hang", "stubborn":
			hang(c.mode == "stubborn")
		case "exit0", "nomove":
			return 0
		case "notah":
			if err := os.Remove(movePath); err != nil {
				return fail("%v", err)
			}
			return 0
		case "garbage":
			return answer("hello world")
		case "longline":
			if err := os.WriteFile(msgPath, longLine(), 0o644); err != nil {
				return fail("%v", err)
			}
			if err := os.WriteFile(movePath, longLine(), 0o644); err != nil {
				return fail("%v", err)
			}
			return 0
		case "longmsg":
			if err := os.WriteFile(msgPath, longLine(), 0o644); err != nil {
				return fail("%v", err)
			}
		case "flood":
			os.Stdout.Write(bytes.Repeat([]byte(floodLine+"\n"), floodLines))
			hang(false)
		case "offboard":
			return answer(fmt.Sprintf("%d,0", board.W))
		case "occupied":
			if x, y, ok := anyStone(board, c); ok {
				return answer(fmt.Sprintf("%d,%d", x, y))
			}
		case "msg":
			msg := "testbrain message 1" + c.eol + "testbrain message 2" + c.eol
			if err := os.WriteFile(msgPath, []byte(msg), 0o644); err != nil {
				return fail("%v", err)
			}
		case "memory":
			hold = allocate(c.memMiB)
		case "fork":
			forkChildren(c.pidFile)
		case "stderr":
			spamStderr()
		}
	}
	x, y, ok := c.policy(board, side, c.rng)
	if !ok {
		return fail("no empty square")
	}
	return answer(fmt.Sprintf("%d,%d", x, y))
}

// findFile returns the path of name in dir, matching the case of an
// existing file if only a differently-cased one exists (Piskvork writes
// Plocha.dat, Tah.dat); otherwise dir/name.
func findFile(dir, name string) string {
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return p
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) {
			return filepath.Join(dir, e.Name())
		}
	}
	return p
}
