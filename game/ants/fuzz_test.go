package ants

import (
	"strings"
	"testing"
)

func FuzzParseMap(f *testing.F) {
	f.Add("rows 2\ncols 3\nplayers 2\nm 0.1\nm %*.\n")
	f.Add("rows 1\ncols 4\nplayers 2\n# c\nm A.b1\n")
	f.Add("players 11\n")
	f.Add("rows 1\ncols 2\nm ..\n")
	f.Add("ROWS 1\nCOLS 2\nPLAYERS 2\nscore 1 1\nm 01\n")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMap(text)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on several lines: %q", err)
			}
			return
		}
		if m.Players < 2 || m.Players > 10 || m.Rows <= 0 || m.Cols <= 0 {
			t.Fatalf("accepted a bad map: %+v", m)
		}
		seen := make([]bool, m.Players)
		for _, h := range m.Hills {
			if h.Loc < 0 || h.Loc >= m.Rows*m.Cols || h.Owner < 0 || h.Owner >= m.Players {
				t.Fatalf("hill out of range: %+v", h)
			}
			seen[h.Owner] = true
		}
		for p, ok := range seen {
			if !ok {
				t.Fatalf("player %d has no hill", p)
			}
		}
		if m.Rows*m.Cols > 4096 {
			return
		}
		opt := DefaultOptions()
		opt.Food = "none"
		opt.Turns = 3
		st, err := NewState(m, opt)
		if err != nil {
			return
		}
		st.StartTurn()
		if err := st.FinishTurn(); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzOrders(f *testing.F) {
	f.Add("o 0 1 s\no 0 1 e\nx\n# c\no -1 -1 h\no 9999999999999 1 n")
	f.Add("O 1_0 +1 N\no ٣ 1 n\no\t2\t2\ts")
	f.Fuzz(func(t *testing.T, text string) {
		st := scenario(t, 2,
			"0a%.......",
			"..*.......",
			"..a.......",
			"..........",
			".........1",
			"........b.")
		st.StartTurn()
		lines := strings.Split(text, "\n")
		rep := st.DoMoves(0, lines)
		for _, v := range rep.Valid {
			if strings.Contains(v, " # ") {
				t.Fatalf("valid order with a reason: %q", v)
			}
		}
		for _, l := range append(rep.Ignored, rep.Invalid...) {
			if !strings.Contains(l, " # ") {
				t.Fatalf("judged line without a reason: %q", l)
			}
		}
		if err := st.FinishTurn(); err != nil {
			t.Fatal(err)
		}
		for _, a := range st.currentAnts() {
			if int(st.grid[a.Loc]) != a.Owner {
				t.Fatalf("map and ants disagree at %d", a.Loc)
			}
		}
	})
}

func TestPyInt(t *testing.T) {
	cases := []struct {
		in      string
		v       int
		ok, big bool
	}{
		{"12", 12, true, false}, {"-3", -3, true, false}, {"+7", 7, true, false}, {"007", 7, true, false},
		{"1_000", 1000, true, false}, {"1__0", 0, false, false}, {"_1", 0, false, false}, {"1_", 0, false, false},
		{"", 0, false, false}, {"-", 0, false, false}, {"1.5", 0, false, false}, {"0x10", 0, false, false},
		{"99999999999999999999", 0, true, true}, {"٣", 3, true, false}, {"１２", 12, true, false},
	}
	for _, c := range cases {
		v, ok, big := pyInt(c.in)
		if ok != c.ok || big != c.big || (ok && !big && v != c.v) {
			t.Errorf("pyInt(%q) = %d %v %v, want %d %v %v", c.in, v, ok, big, c.v, c.ok, c.big)
		}
	}
}

// FuzzSimpleOrder checks the fast path for orders in the usual form
// against the general parser: whenever the fast path takes a line, both
// read the same order from it.
func FuzzSimpleOrder(f *testing.F) {
	for _, s := range []string{"o 1 2 n", "o 12 034 w", "o 1  2 n", "O 1 2 n", "o -1 2 s", "o 1 2 n ", "o 1234567890 1 e", "o 1 2 x", "o ٣ 1 n", "o 12 34 e", "o 1: 34 e", "o 7 45 w", "o 45 7 e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		row, col, dir, ok := parseSimpleOrder(line)
		if !ok {
			return
		}
		orders, invalid := parseOrderLine(nil, nil, line)
		if len(invalid) != 0 || len(orders) != 1 {
			t.Fatalf("%q: fast path took it, general path says %v %v", line, orders, invalid)
		}
		want := parsedOrder{line: line, row: row, col: col, dir: dir}
		if orders[0] != want {
			t.Fatalf("%q: fast path %+v, general path %+v", line, want, orders[0])
		}
	})
}

func TestSimpleOrder(t *testing.T) {
	cases := []struct {
		in       string
		row, col int
		dir      byte
		ok       bool
	}{
		{"o 1 2 n", 1, 2, 'n', true},
		{"o 0 199 w", 0, 199, 'w', true},
		{"o 007 10 s", 7, 10, 's', true},
		{"o 123456789 1 e", 123456789, 1, 'e', true},
		{"o 1234567890 1 e", 0, 0, 0, false}, // ten digits: the general path
		{"o 1 2 n ", 0, 0, 0, false},
		{" o 1 2 n", 0, 0, 0, false},
		{"O 1 2 N", 0, 0, 0, false},
		{"o 1  2 n", 0, 0, 0, false},
		{"o -1 2 n", 0, 0, 0, false},
		{"o 1 2", 0, 0, 0, false},
		{"o 1 n", 0, 0, 0, false},
		{"o  1 n", 0, 0, 0, false},
		{"o 1 2 x", 0, 0, 0, false},
		{"o 1_0 2 n", 0, 0, 0, false},
		{"", 0, 0, 0, false},
		// one, two and more digits each side (twoDigits, then the loops)
		{"o 12 3 e", 12, 3, 'e', true},
		{"o 3 12 e", 3, 12, 'e', true},
		{"o 12 34 s", 12, 34, 's', true},
		{"o 123 4 w", 123, 4, 'w', true},
		{"o 4 123 w", 4, 123, 'w', true},
		{"o 99 99999 n", 99, 99999, 'n', true},
		{"o 1a 2 n", 0, 0, 0, false},
		{"o 1 2a n", 0, 0, 0, false},
		{"o a1 2 n", 0, 0, 0, false},
		{"o 1 a2 n", 0, 0, 0, false},
		{"o 12  n", 0, 0, 0, false},
		{"o 1 2 3 n", 0, 0, 0, false},
		{"o 12 n", 0, 0, 0, false},
		// nine bytes: "o RR CC d" read as one word, or another form
		{"o 79 05 e", 79, 5, 'e', true},
		{"o 00 00 n", 0, 0, 'n', true},
		{"o 12 34 x", 0, 0, 0, false},
		{"o 12 34 N", 0, 0, 0, false},
		{"O 12 34 n", 0, 0, 0, false},
		{"o 12 3: n", 0, 0, 0, false},
		{"o 1/ 34 n", 0, 0, 0, false},
		{"o 12 34  ", 0, 0, 0, false},
		{"o 12\t34 n", 0, 0, 0, false},
		{"o 12 34n n", 0, 0, 0, false},
		{"o  12 34 n"[:9], 0, 0, 0, false},
		{"o 1 2345 n"[:9], 0, 0, 0, false},
		{"o 1 234 n", 1, 234, 'n', true},
		{"o 123 4 s", 123, 4, 's', true},
		// eight bytes: "o R CC d" or "o RR C d" as one word
		{"o 7 45 w", 7, 45, 'w', true},
		{"o 45 7 e", 45, 7, 'e', true},
		{"o 0 00 n", 0, 0, 'n', true},
		{"o 4: 7 e", 0, 0, 0, false},
		{"o 45 : e", 0, 0, 0, false},
		{"o 7 4/ w", 0, 0, 0, false},
		{"o : 45 w", 0, 0, 0, false},
		{"o 7 45 x", 0, 0, 0, false},
		{"o 7 45  ", 0, 0, 0, false},
		{"o 745  w", 0, 0, 0, false},
		{"o  7 4 w", 0, 0, 0, false},
		{"o 7  4 w", 0, 0, 0, false},
		{"p 7 45 w", 0, 0, 0, false},
		{"o 7 45 W", 0, 0, 0, false},
	}
	for _, c := range cases {
		row, col, dir, ok := parseSimpleOrder(c.in)
		if ok != c.ok || (ok && (row != c.row || col != c.col || dir != c.dir)) {
			t.Errorf("parseSimpleOrder(%q) = %d %d %c %v, want %d %d %c %v", c.in, row, col, dir, ok, c.row, c.col, c.dir, c.ok)
		}
	}
}
