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

// parseOrders is parse_orders: "o ROW COL DIR", case-insensitive, blank
// lines and '#' comments skipped.
func parseOrders(lines []string) (orders []parsedOrder, invalid []string) {
	return parseOrdersInto(nil, lines)
}

// parseOrdersInto is parseOrders appending the orders to dst.
func parseOrdersInto(orders []parsedOrder, lines []string) (_ []parsedOrder, invalid []string) {
	var fields [8]string
	for _, raw := range lines {
		line := strings.ToLower(pyStrip(raw))
		if line == "" || line[0] == '#' {
			continue
		}
		data := pyFieldsInto(fields[:0], line)
		if data[0] != "o" {
			invalid = append(invalid, line+" # unknown action")
			continue
		}
		if len(data) != 4 {
			invalid = append(invalid, line+" # incorrectly formatted order")
			continue
		}
		row, ok1, big1 := pyInt(data[1])
		col, ok2, big2 := pyInt(data[2])
		if !ok1 || !ok2 {
			invalid = append(invalid, line+" # invalid row or col")
			continue
		}
		d := data[3]
		if d != "n" && d != "e" && d != "s" && d != "w" {
			invalid = append(invalid, line+" # invalid direction")
			continue
		}
		orders = append(orders, parsedOrder{line: line, row: row, col: col, big: big1 || big2, dir: d[0]})
	}
	return orders, invalid
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
// any move and stores the valid orders (do_moves).
func (s *State) DoMoves(p int, lines []string) MoveReport {
	parsed, invalid := parseOrdersInto(s.parsedBuf[:0], lines)
	s.parsedBuf = parsed
	var rep MoveReport
	if len(parsed) > 0 {
		rep.Valid = make([]string, 0, len(parsed))
	}
	valid := s.orders[p][:0] // the buffer of p's orders of last turn
	// seen holds only squares of valid orders, all inside the map, so a
	// raw (row, col) can match only when it is inside the map too.
	s.seenStamp++
	if s.seen == nil {
		s.seen = make([]int32, s.Rows*s.Cols)
	}
	for _, o := range parsed {
		if !o.big && o.row >= 0 && o.row < s.Rows && o.col >= 0 && o.col < s.Cols && s.seen[o.row*s.Cols+o.col] == s.seenStamp {
			invalid = append(invalid, o.line+" # duplicate order")
			continue
		}
		r, okR := index(o.row, s.Rows, o.big)
		c, okC := index(o.col, s.Cols, o.big)
		if !okR || !okC {
			invalid = append(invalid, o.line+" # out of bounds")
			continue
		}
		loc := r*s.Cols + c
		if int(s.grid[loc]) != p {
			invalid = append(invalid, o.line+" # not player ant")
			continue
		}
		if o.row < 0 || o.col < 0 {
			invalid = append(invalid, o.line+" # out of bounds")
			continue
		}
		dest := s.destination(loc, aimRow[o.dir], aimCol[o.dir])
		if v := s.grid[dest]; v == food || v == water {
			rep.Ignored = append(rep.Ignored, o.line+" # move blocked")
			continue
		}
		valid = append(valid, order{loc, o.dir})
		rep.Valid = append(rep.Valid, o.line)
		s.seen[loc] = s.seenStamp
	}
	s.orders[p] = valid
	rep.Invalid = invalid
	return rep
}
