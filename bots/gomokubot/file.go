package gomokubot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/game/gomoku"
)

// fileOverhead is what the file protocol loses before RunFile starts:
// process creation and start-up, plus writing the answer.
const fileOverhead = 60 * time.Millisecond

// RunFile plays one move with the old file protocol in folder dir: it
// reads PLOCHA.DAT (the board; its size is detected), TAH.DAT (the side
// to move, 'x' or 'o'), INFO.DAT (timeout_turn in ms, time_left, rule;
// optional) and TIMEOUTS.DAT (turn limit in seconds, match time left in
// ms; used when INFO.DAT has no timeout_turn), then writes the move to
// TAH.DAT as "x,y" and one line about the search to MSG.DAT.
func RunFile(ctx context.Context, dir string, opts Options) error {
	start := time.Now()
	boardName, boardText, err := readDat(dir, "PLOCHA.DAT")
	if err != nil {
		return err
	}
	rows, err := parsePlocha(boardText)
	if err != nil {
		return fmt.Errorf("%s: %w", boardName, err)
	}
	tahName, tahText, err := readDat(dir, "TAH.DAT")
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if tahName == "" {
		tahName = filepath.Join(dir, "TAH.DAT")
	}
	clk, rule := fileLimits(dir)
	eng := NewEngine(len(rows[0]), len(rows), rule)
	eng.MaxDepth = opts.MaxDepth
	eng.Log = opts.Log
	nx, no := 0, 0
	for y, row := range rows {
		for x, ch := range row {
			p := gomoku.Point{X: x, Y: y}
			switch ch {
			case 'x', 'X':
				nx++
				err = eng.Place(p, gomoku.Black)
			case 'o', 'O':
				no++
				err = eng.Place(p, gomoku.White)
			case '#':
				err = eng.Block(p)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", boardName, err)
			}
		}
	}
	me := sideFromTah(tahText, nx, no)
	budget := clk.budget(fileOverhead+time.Since(start), eng.EmptySquares())
	eng.TurnOnly = !clk.matchBinds()
	p, info := eng.Search(ctx, me, budget)
	if p.X < 0 {
		return fmt.Errorf("%s: no empty square left", boardName)
	}
	if err := writeFile(tahName, fmt.Sprintf("%d,%d", p.X, p.Y)); err != nil {
		return err
	}
	msgName, _, err := readDat(dir, "MSG.DAT")
	if err != nil {
		msgName = filepath.Join(dir, "MSG.DAT")
	}
	msg := fmt.Sprintf("%s %s: %s\n", opts.name(), Version, info)
	return writeFile(msgName, msg)
}

// writeFile replaces the file name with text.
func writeFile(name, text string) error {
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(name), err)
	}
	return nil
}

// readDat reads one of the protocol files, trying the upper-case name
// first and then the spellings other managers use (Plocha.dat,
// plocha.dat). It returns the path it read.
func readDat(dir, name string) (string, string, error) {
	base := strings.TrimSuffix(name, ".DAT")
	var firstErr error
	for _, n := range []string{name, base[:1] + strings.ToLower(base[1:]) + ".dat", strings.ToLower(name)} {
		path := filepath.Join(dir, n)
		b, err := os.ReadFile(path)
		if err == nil {
			return path, string(b), nil
		}
		if firstErr == nil {
			firstErr = fmt.Errorf("read %s: %w", name, err)
		}
	}
	return "", "", firstErr
}

// parsePlocha splits PLOCHA.DAT into rows: non-blank lines are rows, the
// longest row gives the width (shorter rows are padded with empty
// squares); CRLF and LF are both fine.
func parsePlocha(text string) ([]string, error) {
	var rows []string
	w := 0
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" {
			continue
		}
		rows = append(rows, line)
		w = max(w, len(line))
	}
	if len(rows) < gomoku.MinSize || len(rows) > gomoku.MaxSize || w < gomoku.MinSize || w > gomoku.MaxSize {
		return nil, fmt.Errorf("board %dx%d: each side must be %d..%d", w, len(rows), gomoku.MinSize, gomoku.MaxSize)
	}
	for i, r := range rows {
		if len(r) < w {
			rows[i] = r + strings.Repeat("-", w-len(r))
		}
	}
	return rows, nil
}

// sideFromTah reads the side to move from TAH.DAT ('x' Black, 'o'
// White); without a readable letter the stone counts decide.
func sideFromTah(text string, nx, no int) gomoku.Stone {
	for _, r := range strings.ToLower(text) {
		switch r {
		case 'x':
			return gomoku.Black
		case 'o':
			return gomoku.White
		}
	}
	if nx > no {
		return gomoku.White
	}
	return gomoku.Black
}

// fileLimits reads INFO.DAT and TIMEOUTS.DAT. INFO.DAT's timeout_turn
// (ms) wins over TIMEOUTS.DAT's first line (seconds).
func fileLimits(dir string) (clock, gomoku.Rule) {
	clk := newClock()
	rule := gomoku.Freestyle
	if _, text, err := readDat(dir, "TIMEOUTS.DAT"); err == nil {
		lines := strings.Fields(text)
		if len(lines) > 0 {
			if s, err := strconv.ParseInt(lines[0], 10, 64); err == nil && s >= 0 {
				// Seconds, as the protocol says; GomocupJudge writes
				// milliseconds here, so a value of 1000 or more (over
				// 16 minutes a move) is taken as milliseconds.
				clk.turnMs = s * 1000
				if s >= 1000 {
					clk.turnMs = s
				}
			}
		}
		if len(lines) > 1 {
			if ms, err := strconv.ParseInt(lines[1], 10, 64); err == nil {
				clk.setLeft(ms)
			}
		}
	}
	if _, text, err := readDat(dir, "INFO.DAT"); err == nil {
		for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
			key, val, _ := strings.Cut(strings.TrimSpace(line), " ")
			n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
			if err != nil {
				continue
			}
			switch strings.ToLower(key) {
			case "timeout_turn":
				clk.turnMs = max(n, 0)
			case "timeout_match":
				clk.matchMs = max(n, 0)
			case "time_left":
				clk.setLeft(n)
			case "rule":
				rule = supportedRule(gomoku.Rule(n))
			}
		}
	}
	return clk, rule
}
