package ants

import "strings"

// MoveReport is what the engine makes of one bot's lines for a turn
// (do_moves): the valid orders, the ignored ones ("line # move blocked")
// and the invalid ones ("line # reason"), each in the order sent.
type MoveReport struct {
	Valid, Ignored, Invalid []string
}

type parsedOrder struct {
	line string
	row  int
	col  int
	big  bool
	dir  byte
}

// parseOrderLine is parse_orders for one line of any form: "o ROW COL
// DIR", case-insensitive, blank lines and '#' comments skipped.
func parseOrderLine(orders []parsedOrder, invalid []string, raw string) ([]parsedOrder, []string) {
	var fields [8]string
	line := strings.ToLower(pyStrip(raw))
	if line == "" || line[0] == '#' {
		return orders, invalid
	}
	data := pyFieldsInto(fields[:0], line)
	if data[0] != "o" {
		return orders, append(invalid, line+" # unknown action")
	}
	if len(data) != 4 {
		return orders, append(invalid, line+" # incorrectly formatted order")
	}
	row, ok1, big1 := pyInt(data[1])
	col, ok2, big2 := pyInt(data[2])
	if !ok1 || !ok2 {
		return orders, append(invalid, line+" # invalid row or col")
	}
	d := data[3]
	if d != "n" && d != "e" && d != "s" && d != "w" {
		return orders, append(invalid, line+" # invalid direction")
	}
	return append(orders, parsedOrder{line: line, row: row, col: col, big: big1 || big2, dir: d[0]}), invalid
}

// parseSimpleOrder reads an order in the form bots send: "o ROW COL DIR"
// in lower case with single spaces, at most 9 plain digits per number and
// nothing around. Such a line is its own stripped, lower-cased text and
// parses as the general path parses it; ok is false for any other line,
// which the general path then judges.
func parseSimpleOrder(s string) (row, col int, dir byte, ok bool) {
	n := len(s)
	if n == 8 {
		// "o R CC d" or "o RR C d", read as "o RR CC d" below.
		x := le64(s)
		dir = s[7]
		if aimRow[dir]|aimCol[dir] != 0 {
			if x>>24&0xff == ' ' {
				if x&order8RMask == order8RFixed && (x+order8RSix)&order8RNibble == order8RZero {
					v := x - order8RZero
					return int(v >> 16 & 15), int(v>>32&15)*10 + int(v>>40&15), dir, true
				}
			} else if x&order8CMask == order8CFixed && (x+order8CSix)&order8CNibble == order8CZero {
				v := x - order8CZero
				return int(v>>16&15)*10 + int(v>>24&15), int(v >> 40 & 15), dir, true
			}
		}
	}
	if n == 9 {
		// "o RR CC d", the most common form on maps of 10 to 100
		// squares a side: the first 8 bytes as a word, tested and read
		// at once; other lines of 9 bytes ("o R CCC d") go the general
		// way below.
		x := le64(s)
		dir = s[8]
		if x&order9Mask == order9Fixed && (x+order9Six)&order9Nibble == order9Zero && aimRow[dir]|aimCol[dir] != 0 {
			v := x - order9Zero // the digits' values
			return int(v>>16&15)*10 + int(v>>24&15), int(v>>40&15)*10 + int(v>>48&15), dir, true
		}
	}
	if n < 7 || s[0] != 'o' || s[1] != ' ' || s[n-2] != ' ' {
		return 0, 0, 0, false
	}
	dir = s[n-1]
	if aimRow[dir] == 0 && aimCol[dir] == 0 { // not n, e, s or w
		return 0, 0, 0, false
	}
	// Numbers of one or two digits (maps up to 100 squares a side) are
	// read without a branch on their length, which bots vary at random;
	// longer ones by the loops. s[n-2] is a space: each digit loop stops
	// there at the latest.
	row, i, short := twoDigits(s, 2) // n >= 7: s[4] exists
	if !short {
		row, i = 0, 2
		for ; ; i++ {
			d := s[i] - '0'
			if d > 9 {
				break
			}
			row = row*10 + int(d)
		}
		if i == 2 || i > 11 || s[i] != ' ' {
			return 0, 0, 0, false
		}
	}
	i++
	j := i
	short = false
	if j+2 < n {
		col, i, short = twoDigits(s, j)
	}
	if !short {
		col, i = 0, j
		for ; ; i++ {
			d := s[i] - '0'
			if d > 9 {
				break
			}
			col = col*10 + int(d)
		}
		if i == j || i-j > 9 {
			return 0, 0, 0, false
		}
	}
	if i != n-2 {
		return 0, 0, 0, false
	}
	return row, col, dir, true
}

// The bytes of "o RR CC " as a little-endian word: 'o' and the spaces at
// 0, 1, 4 and 7 as given, a digit's high nibble 3 at 2, 3, 5 and 6; a
// digit plus 6 keeps that nibble (0x30..0x39 but not 0x3a..0x3f).
const (
	order9Mask   = 0xff_f0_f0_ff_f0_f0_ff_ff
	order9Fixed  = 0x20_30_30_20_30_30_20_6f
	order9Nibble = 0x00_f0_f0_00_f0_f0_00_00
	order9Zero   = 0x00_30_30_00_30_30_00_00
	order9Six    = 0x00_06_06_00_06_06_00_00
)

// The same for "o R CC d" (one-digit row) and "o RR C d" (one-digit
// column), the direction at 7 left out.
const (
	order8RMask   = 0x00_ff_f0_f0_ff_f0_ff_ff
	order8RFixed  = 0x00_20_30_30_20_30_20_6f
	order8RNibble = 0x00_00_f0_f0_00_f0_00_00
	order8RZero   = 0x00_00_30_30_00_30_00_00
	order8RSix    = 0x00_00_06_06_00_06_00_00
	order8CMask   = 0x00_ff_f0_ff_f0_f0_ff_ff
	order8CFixed  = 0x00_20_30_20_30_30_20_6f
	order8CNibble = 0x00_00_f0_00_f0_f0_00_00
	order8CZero   = 0x00_00_30_00_30_30_00_00
	order8CSix    = 0x00_00_06_00_06_06_00_00
)

// le64 is the first 8 bytes of s (at least 8 long) as a little-endian
// word (one load: the compiler merges the bytes' loads).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// twoDigits reads a number of one or two digits at s[i] followed by a
// space, choosing between the two lengths without a branch; ok is false
// for any other text there. s[i+2] must exist.
func twoDigits(s string, i int) (v, end int, ok bool) {
	t := s[i : i+3]
	d0, d1 := t[0]-'0', t[1]-'0'
	v, end, ok = int(d0)*10+int(d1), i+2, d1 <= 9 && t[2] == ' '
	if t[1] == ' ' {
		v, end, ok = int(d0), i+1, true
	}
	return v, end, ok && d0 <= 9
}

// index resolves a row or column as Python indexes a list: negatives count
// from the end; out of range is an IndexError.
func index(v, n int, big bool) (int, bool) {
	if big || v >= n || v < -n {
		return 0, false
	}
	if v < 0 {
		v += n
	}
	return v, true
}

// DoMoves judges player p's lines for this turn against the map before
// any move and stores the valid orders (do_moves). The report's Valid
// slice is p's buffer: it holds until p's next DoMoves.
func (s *State) DoMoves(p int, lines []string) MoveReport {
	return s.doMoves(p, lines, true)
}

// doMoves is DoMoves; without withValid the report leaves the valid
// lines out (the engine writes them only to the output log).
func (s *State) doMoves(p int, lines []string, withValid bool) MoveReport {
	// One pass over the lines: each is parsed, then judged. The engine
	// parses all lines before judging any, so the lines that do not parse
	// come first among the invalid ones: the two kinds are kept apart
	// and joined at the end, each in the order sent.
	if len(s.validLines) != s.N {
		s.validLines = make([][]string, s.N)
	}
	rep := MoveReport{Valid: s.validLines[p][:0]}
	var unparsed, judged []string
	valid := s.orders[p][:0] // the buffer of p's orders of last turn
	// seen holds only squares of valid orders, all inside the map, so a
	// raw (row, col) can match only when it is inside the map too.
	s.seenStamp++
	if s.seen == nil {
		s.seen = make([]int32, s.Rows*s.Cols)
	}
	var one [1]parsedOrder
	// The map and its size in locals: the compiler would load them again
	// after every store into seen.
	grid, seen, stamp, rows, cols := s.grid, s.seen, s.seenStamp, s.Rows, s.Cols
	for _, raw := range lines {
		row, col, dir, ok := parseSimpleOrder(raw)
		// The usual order in the usual form: inside the map, p's ant, a
		// free square ahead.
		if ok && uint(row) < uint(rows) && uint(col) < uint(cols) {
			loc := row*cols + col
			if seen[loc] != stamp && int(grid[loc]) == p {
				r, c := row+aimRow[dir], col+aimCol[dir]
				if r < 0 {
					r += rows
				} else if r >= rows {
					r -= rows
				}
				if c < 0 {
					c += cols
				} else if c >= cols {
					c -= cols
				}
				if v := grid[r*cols+c]; v != food && v != water {
					valid = append(valid, order{int32(loc), int32(r*cols + c), dir})
					if withValid {
						rep.Valid = append(rep.Valid, raw)
					}
					seen[loc] = stamp
					continue
				}
			}
		}
		var o parsedOrder
		if ok {
			o = parsedOrder{line: raw, row: row, col: col, dir: dir}
		} else {
			var got []parsedOrder
			got, unparsed = parseOrderLine(one[:0], unparsed, raw)
			if len(got) == 0 {
				continue
			}
			o = got[0]
		}
		// The usual order: inside the map, p's ant, a free square ahead.
		if !o.big && uint(o.row) < uint(s.Rows) && uint(o.col) < uint(s.Cols) {
			loc := o.row*s.Cols + o.col
			if s.seen[loc] != s.seenStamp && int(s.grid[loc]) == p {
				r, c := o.row+aimRow[o.dir], o.col+aimCol[o.dir]
				if r < 0 {
					r += s.Rows
				} else if r >= s.Rows {
					r -= s.Rows
				}
				if c < 0 {
					c += s.Cols
				} else if c >= s.Cols {
					c -= s.Cols
				}
				if v := s.grid[r*s.Cols+c]; v != food && v != water {
					valid = append(valid, order{int32(loc), int32(r*s.Cols + c), o.dir})
					if withValid {
						rep.Valid = append(rep.Valid, o.line)
					}
					s.seen[loc] = s.seenStamp
					continue
				}
			}
		}
		// Any other: judged step by step, as the engine does.
		if !o.big && o.row >= 0 && o.row < s.Rows && o.col >= 0 && o.col < s.Cols && s.seen[o.row*s.Cols+o.col] == s.seenStamp {
			judged = append(judged, o.line+" # duplicate order")
			continue
		}
		r, okR := index(o.row, s.Rows, o.big)
		c, okC := index(o.col, s.Cols, o.big)
		if !okR || !okC {
			judged = append(judged, o.line+" # out of bounds")
			continue
		}
		loc := r*s.Cols + c
		if int(s.grid[loc]) != p {
			judged = append(judged, o.line+" # not player ant")
			continue
		}
		if o.row < 0 || o.col < 0 {
			judged = append(judged, o.line+" # out of bounds")
			continue
		}
		dest := s.destination(loc, aimRow[o.dir], aimCol[o.dir])
		if v := s.grid[dest]; v == food || v == water {
			rep.Ignored = append(rep.Ignored, o.line+" # move blocked")
			continue
		}
		valid = append(valid, order{int32(loc), int32(dest), o.dir})
		if withValid {
			rep.Valid = append(rep.Valid, o.line)
		}
		s.seen[loc] = s.seenStamp
	}
	s.orders[p] = valid
	s.validLines[p] = rep.Valid
	if len(rep.Valid) == 0 {
		rep.Valid = nil
	}
	rep.Invalid = append(unparsed, judged...)
	return rep
}
