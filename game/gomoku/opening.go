package gomoku

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrBadOpening is wrapped by the errors ParseOpenings returns for a line
// that is not an opening.
var ErrBadOpening = errors.New("bad opening")

// ParseOpenings reads an opening file: one opening per line, its stones
// in the order they are played, Black first. Two notations are accepted,
// chosen per line:
//
//   - Gomocup/Piskvork offsets from the centre (width/2, height/2):
//     "dx,dy, dx,dy, ..." e.g. "0,0, 1,0, 1,3" (commas and blanks both
//     separate the numbers);
//   - "pos" strings, used by GomocupJudge and c-gomoku-cli: a letter for
//     the column (a = 0) then the row counted from 1, e.g. "h8h9i8"
//     (case-insensitive; blanks, commas or semicolons may separate stones).
//
// Blank lines and lines starting with '#' or "//" are skipped. Errors wrap
// ErrBadOpening and name the line and the problem: an odd number of
// values, a stone off the board, two stones on one square, an empty
// opening.
func ParseOpenings(r io.Reader, width, height int) ([][]Point, error) {
	if width < 1 || height < 1 {
		return nil, fmt.Errorf("openings: board %dx%d is empty", width, height)
	}
	br := bufio.NewReader(r)
	var out [][]Point
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("openings: line %d: %w", n, err)
		}
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		s := strings.TrimSpace(line)
		if s != "" && s[0] != '#' && !strings.HasPrefix(s, "//") {
			stones, perr := parseOpening(s, width, height)
			if perr != nil {
				return nil, fmt.Errorf("openings: line %d: %w: %w", n, ErrBadOpening, perr)
			}
			out = append(out, stones)
		}
		if err == io.EOF {
			return out, nil
		}
	}
}

// parseOpening reads one opening line (not blank, not a comment).
func parseOpening(s string, width, height int) ([]Point, error) {
	var stones []Point
	var err error
	if c := s[0] | 0x20; c >= 'a' && c <= 'z' {
		stones, err = parsePos(s)
	} else {
		stones, err = parseOffsets(s, width, height)
	}
	if err != nil {
		return nil, err
	}
	if len(stones) == 0 {
		return nil, errors.New("empty opening")
	}
	seen := make(map[Point]bool, len(stones))
	for i, p := range stones {
		if p.X < 0 || p.Y < 0 || p.X >= width || p.Y >= height {
			return nil, fmt.Errorf("stone %d (%v) is off the %dx%d board", i+1, p, width, height)
		}
		if seen[p] {
			return nil, fmt.Errorf("stone %d (%v) is on the square of an earlier stone", i+1, p)
		}
		seen[p] = true
	}
	return stones, nil
}

// parseOffsets reads "dx,dy, dx,dy, ..." relative to the centre.
func parseOffsets(s string, width, height int) ([]Point, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(f)%2 != 0 {
		return nil, fmt.Errorf("odd number of values (%d)", len(f))
	}
	stones := make([]Point, 0, len(f)/2)
	for i := 0; i < len(f); i += 2 {
		dx, err1 := strconv.Atoi(f[i])
		dy, err2 := strconv.Atoi(f[i+1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("stone %d (%q,%q) is not two numbers", i/2+1, clip(f[i]), clip(f[i+1]))
		}
		// Offsets beyond any board stay off it (and cannot overflow).
		dx, dy = max(min(dx, MaxSize*4), -MaxSize*4), max(min(dy, MaxSize*4), -MaxSize*4)
		stones = append(stones, Point{width/2 + dx, height/2 + dy})
	}
	return stones, nil
}

// parsePos reads a pos string such as "h8h9i8".
func parsePos(s string) ([]Point, error) {
	var stones []Point
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' || s[i] == ',' || s[i] == ';' {
			i++
			continue
		}
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return nil, fmt.Errorf("stone %d: %q is not a column letter", len(stones)+1, s[i:i+1])
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' && j-i <= 3 {
			j++
		}
		row, err := strconv.Atoi(s[i+1 : j])
		if err != nil {
			return nil, fmt.Errorf("stone %d (%q) has no row number", len(stones)+1, clip(s[i:]))
		}
		stones = append(stones, Point{int(c - 'a'), row - 1})
		i = j
	}
	return stones, nil
}

// FormatOpening writes stones in the offset notation ParseOpenings reads,
// "dx,dy, dx,dy, ..." relative to the centre of a width x height board.
func FormatOpening(stones []Point, width, height int) string {
	var b strings.Builder
	for i, p := range stones {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(p.X - width/2))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(p.Y - height/2))
	}
	return b.String()
}

// FormatPos writes stones as a pos string ("h8h9i8"). It fails for a
// column beyond 'z' (x > 25) or a negative coordinate.
func FormatPos(stones []Point) (string, error) {
	var b strings.Builder
	for i, p := range stones {
		if p.X < 0 || p.X > 25 || p.Y < 0 {
			return "", fmt.Errorf("pos: stone %d (%v) has no pos notation", i+1, p)
		}
		b.WriteByte(byte('a' + p.X))
		b.WriteString(strconv.Itoa(p.Y + 1))
	}
	return b.String(), nil
}

// WriteOpenings writes openings one per line in the offset notation.
func WriteOpenings(w io.Writer, openings [][]Point, width, height int) error {
	var b strings.Builder
	for _, o := range openings {
		b.WriteString(FormatOpening(o, width, height))
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write openings: %w", err)
	}
	return nil
}
