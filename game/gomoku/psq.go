package gomoku

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrBadPSQ is wrapped by the errors ReadPSQ returns for text that is not
// a Piskvork record.
var ErrBadPSQ = errors.New("not a Piskvork record")

// Error codes of the last line of a Piskvork record.
const (
	PSQNormal  = 0  // the game ended normally
	PSQTimeout = 15 // a player ran out of time
	PSQError   = -2 // a player crashed, answered an illegal move, ...
)

// Board sizes a Piskvork record may declare.
const maxPSQSize = 1000

// PSQMove is one move of a Piskvork record.
type PSQMove struct {
	P  Point // 0-based square
	Ms int   // time the player took, in milliseconds
}

// PSQ is a Piskvork game record (.psq):
//
//	Piskvorky 20x20, 11:11, 0
//	10,10,456          (x,y,ms per move: 1-based coordinates)
//	...
//	pbrain-a.exe       (names, in tournament records)
//	pbrain-b.zip
//	0                  (error code)
type PSQ struct {
	Width, Height int
	// Level1 and Level2 are the players' Piskvork levels (see PSQLevel);
	// 0 is a human.
	Level1, Level2 int
	// First is the player (0 or 1) who moved first.
	First int
	Moves []PSQMove
	// Names are the players' file names (Piskvork writes them in
	// tournaments only). They must not be empty or span lines.
	Names []string
	// ErrorCode is PSQNormal, PSQTimeout or PSQError.
	ErrorCode int
	// CRLF ends lines with "\r\n" instead of "\n". ReadPSQ sets it when
	// the header line ends so.
	CRLF bool
}

// psqLevels are Piskvork's turn times in ms, one per level.
var psqLevels = [...]int{100, 300, 600, 1000, 1500, 2500, 5000, 10000, 15000, 30000, 60000}

// PSQLevel returns the Piskvork level of a computer player with the given
// turn time, as Piskvork's level() computes it: 1 + the index of the
// largest of 100, 300, 600, 1000, 1500, 2500, 5000, 10000, 15000, 30000,
// 60000 ms that is at most turnMs, and 1 when turnMs is below 100 ms
// (including 0, "as fast as possible", and unlimited turns written as 0).
// The level of a human player is 0; callers write that themselves.
func PSQLevel(turnMs int) int {
	l := len(psqLevels) - 1
	for l > 0 && turnMs < psqLevels[l] {
		l--
	}
	return l + 1
}

// WritePSQ writes g in Piskvork's format.
func WritePSQ(w io.Writer, g PSQ) error {
	if err := g.check(); err != nil {
		return fmt.Errorf("write psq: %w", err)
	}
	eol := "\n"
	if g.CRLF {
		eol = "\r\n"
	}
	b := make([]byte, 0, 64+16*len(g.Moves))
	b = fmt.Appendf(b, "Piskvorky %dx%d, %d:%d, %d%s", g.Width, g.Height, g.Level1, g.Level2, g.First, eol)
	for _, m := range g.Moves {
		b = strconv.AppendInt(b, int64(m.P.X+1), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.P.Y+1), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Ms), 10)
		b = append(b, eol...)
	}
	for _, n := range g.Names {
		b = append(b, strings.TrimSpace(n)...)
		b = append(b, eol...)
	}
	b = strconv.AppendInt(b, int64(g.ErrorCode), 10)
	b = append(b, eol...)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write psq: %w", err)
	}
	return nil
}

// check reports what would keep g from reading back as it is.
func (g PSQ) check() error {
	if g.Width < 1 || g.Height < 1 || g.Width > maxPSQSize || g.Height > maxPSQSize {
		return fmt.Errorf("board %dx%d: each side must be 1..%d", g.Width, g.Height, maxPSQSize)
	}
	if g.First != 0 && g.First != 1 {
		return fmt.Errorf("first player %d: must be 0 or 1", g.First)
	}
	seen := make(map[Point]bool, len(g.Moves))
	for i, m := range g.Moves {
		if m.P.X < 0 || m.P.Y < 0 || m.P.X >= g.Width || m.P.Y >= g.Height {
			return fmt.Errorf("move %d (%v) is off the %dx%d board", i+1, m.P, g.Width, g.Height)
		}
		if seen[m.P] {
			return fmt.Errorf("move %d (%v) is on an occupied square", i+1, m.P)
		}
		seen[m.P] = true
	}
	for i, n := range g.Names {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			return fmt.Errorf("name %d is empty", i+1)
		case strings.ContainsAny(n, "\r\n"):
			return fmt.Errorf("name %d (%q) spans lines", i+1, clip(n))
		case i == 0 && isPSQMove(n):
			return fmt.Errorf("name %q would read as a move", clip(n))
		}
	}
	return nil
}

// ReadPSQ reads a Piskvork record. Like Piskvork it accepts LF, CRLF (and
// CR) line ends, moves with or without the time field and blank lines
// between moves; the moves end at the first line that is not one. The
// lines after them are the names, then the error code: the last line that
// is a plain number (0 and no names when there is none; anything after it
// is ignored). Errors wrap ErrBadPSQ and name the line.
func ReadPSQ(r io.Reader) (PSQ, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return PSQ{}, fmt.Errorf("read psq: %w", err)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	lines, crlf := splitLines(string(data))
	var g PSQ
	n := 0 // lines consumed
	for n < len(lines) && strings.TrimSpace(lines[n]) == "" {
		n++
	}
	if n == len(lines) {
		return PSQ{}, fmt.Errorf("read psq: %w: no header", ErrBadPSQ)
	}
	if err := parsePSQHeader(lines[n], &g); err != nil {
		return PSQ{}, fmt.Errorf("read psq: line %d: %w", n+1, err)
	}
	g.CRLF = crlf
	n++
	seen := map[Point]bool{}
	for ; n < len(lines); n++ {
		line := strings.TrimSpace(lines[n])
		if line == "" {
			continue
		}
		m, ok := parsePSQMove(line)
		if !ok {
			break
		}
		if m.P.X < 0 || m.P.Y < 0 || m.P.X >= g.Width || m.P.Y >= g.Height {
			return PSQ{}, fmt.Errorf("read psq: line %d: %w: move %q is off the %dx%d board", n+1, ErrBadPSQ, clip(line), g.Width, g.Height)
		}
		if seen[m.P] {
			return PSQ{}, fmt.Errorf("read psq: line %d: %w: move %q is on an occupied square", n+1, ErrBadPSQ, clip(line))
		}
		seen[m.P] = true
		g.Moves = append(g.Moves, m)
	}
	var rest []string
	for _, line := range lines[n:] {
		if line = strings.TrimSpace(line); line != "" {
			rest = append(rest, line)
		}
	}
	g.Names = rest
	for i := len(rest) - 1; i >= 0; i-- {
		if code, err := strconv.Atoi(rest[i]); err == nil {
			g.ErrorCode = code
			g.Names = rest[:i]
			break
		}
	}
	if len(g.Names) == 0 {
		g.Names = nil
	}
	return g, nil
}

// splitLines splits text at "\r\n", "\n" and "\r", and reports whether the
// first line ended with "\r\n".
func splitLines(text string) (lines []string, crlf bool) {
	first := true
	for text != "" {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i])
		n := 1
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			n = 2
		}
		if first && strings.TrimSpace(text[:i]) != "" {
			crlf, first = n == 2, false
		}
		text = text[i+n:]
	}
	return lines, crlf
}

// parsePSQHeader reads "Piskvorky WxH, L1:L2, F" into g.
func parsePSQHeader(line string, g *PSQ) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: header %q %s (want \"Piskvorky WIDTHxHEIGHT, LEVEL1:LEVEL2, FIRST\")", ErrBadPSQ, clip(line), why)
	}
	s := strings.TrimSpace(line)
	const magic = "Piskvorky"
	if len(s) < len(magic) || !strings.EqualFold(s[:len(magic)], magic) {
		return bad("does not start with Piskvorky")
	}
	sc := headerScanner{s: s[len(magic):]}
	vals := [5]*int{&g.Width, &g.Height, &g.Level1, &g.Level2, &g.First}
	seps := [5]string{"xX", ",", ":", ",", ""}
	for i, v := range vals {
		if !sc.int(v) {
			return bad("has no number where one belongs")
		}
		if seps[i] != "" && !sc.sep(seps[i]) {
			return bad(fmt.Sprintf("lacks %q after %d", seps[i][:1], *v))
		}
	}
	if strings.TrimSpace(sc.s) != "" {
		return bad("has extra text")
	}
	if g.Width < 1 || g.Height < 1 || g.Width > maxPSQSize || g.Height > maxPSQSize {
		return bad(fmt.Sprintf("declares a %dx%d board", g.Width, g.Height))
	}
	if g.First != 0 && g.First != 1 {
		return bad(fmt.Sprintf("names player %d as first (0 or 1)", g.First))
	}
	return nil
}

// headerScanner reads the numbers of a .psq header.
type headerScanner struct{ s string }

// int reads an optionally signed decimal number after optional spaces.
func (h *headerScanner) int(v *int) bool {
	s := strings.TrimLeft(h.s, " \t")
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		return false
	}
	*v, h.s = n, s[i:]
	return true
}

// sep reads one of the separator characters after optional spaces.
func (h *headerScanner) sep(chars string) bool {
	s := strings.TrimLeft(h.s, " \t")
	if s == "" || !strings.ContainsRune(chars, rune(s[0])) {
		return false
	}
	h.s = s[1:]
	return true
}

// parsePSQMove reads "x,y" or "x,y,ms" (1-based coordinates).
func parsePSQMove(line string) (PSQMove, bool) {
	f := strings.Split(line, ",")
	if len(f) != 2 && len(f) != 3 {
		return PSQMove{}, false
	}
	var v [3]int
	for i, s := range f {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return PSQMove{}, false
		}
		v[i] = n
	}
	return PSQMove{P: Point{v[0] - 1, v[1] - 1}, Ms: v[2]}, true
}

// isPSQMove reports whether a line would read as a move.
func isPSQMove(line string) bool {
	_, ok := parsePSQMove(line)
	return ok
}
