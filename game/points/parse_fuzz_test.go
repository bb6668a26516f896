package points

import (
	"testing"
)

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"move 1 2", "MOVE  3\t4", "move", "move a b", "move 1 2 3", "status", "", "move -1 99999999999999999999"} {
		f.Add(s, 0)
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, line string, base int) {
		base &= 1
		p, err := ParseMove(line, base)
		if err != nil {
			return
		}
		q, err := ParseMove(FormatMove(p, base), base)
		if err != nil || q != p {
			t.Fatalf("%q -> %v -> %q -> %v, %v", line, p, FormatMove(p, base), q, err)
		}
	})
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"1,2", " 3 , 4 ", "1", ",", "a,b", "-5,7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePoint(s)
		if err != nil {
			return
		}
		if q, err := ParsePoint(p.String()); err != nil || q != p {
			t.Fatalf("%q -> %v -> %v, %v", s, p, q, err)
		}
	})
}

func FuzzParseProtocolOptions(f *testing.F) {
	for _, s := range []string{"", "base=1", "base=0,time_unit=s", "time_unit=cs", "x", "base=1,,", "unit=ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseProtocolOptions(s)
		if err != nil {
			return
		}
		if q, err := ParseProtocolOptions(o.String()); err != nil || q != o {
			t.Fatalf("%q -> %+v -> %+v, %v", s, o, q, err)
		}
	})
}

func FuzzParseOpening(f *testing.F) {
	for _, s := range []string{"empty", "cross", "2", "cross4", "random", "x"} {
		f.Add(s, 39, 32, int64(1))
	}
	f.Fuzz(func(t *testing.T, s string, w, h int, seed int64) {
		o, err := ParseOpening(s)
		if err != nil {
			return
		}
		w, h = MinSize+abs(w)%(MaxSize-MinSize+1), MinSize+abs(h)%(MaxSize-MinSize+1)
		pts, err := o.Points(w, h, seed)
		if err != nil {
			return
		}
		st, _ := NewState(Config{Width: w, Height: h})
		if err := st.PlayOpening(pts); err != nil {
			t.Fatalf("%s on %dx%d: %v", o, w, h, err)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}

// FuzzParseV6Reply: whatever an engine prints, the parser either refuses
// it or reads an answer that writes back to itself; a move it reads
// writes back to the same move.
func FuzzParseV6Reply(f *testing.F) {
	for _, s := range []string{"= 1 list_commands init play", "? 12 play", "= 5 gen_move_with_time 1 2 1", "=  7\tgen_move 3 4 0 ", "= 5", "= -1 play", "= 1e3 play", "", "move 1 2", "= 2 play a b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseV6Reply(line)
		if err != nil {
			return
		}
		q, err := ParseV6Reply(r.String())
		if err != nil || q.String() != r.String() || q.OK != r.OK || q.ID != r.ID || q.Command != r.Command || len(q.Args) != len(r.Args) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, r, r.String(), q, err)
		}
		p, c, err := r.Move()
		if err != nil {
			return
		}
		col := Color(c + 1)
		if c != 0 && c != 1 {
			return
		}
		back := V6Reply{OK: true, ID: r.ID, Command: r.Command, Args: V6Move(p, col)}
		if p2, c2, err := back.Move(); err != nil || p2 != p || c2 != c {
			t.Fatalf("%q: move %v colour %d writes back as %v %d, %v", line, p, c, p2, c2, err)
		}
	})
}

// FuzzParseV6Request is the same for what a manager sends an engine.
func FuzzParseV6Request(f *testing.F) {
	for _, s := range []string{"1 list_commands", "4 init 39 32 0", " 5\tplay 1 2 0", "x play", "-1 quit", "7", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseV6Request(line)
		if err != nil {
			return
		}
		q, err := ParseV6Request(r.String())
		if err != nil || q.String() != r.String() || q.ID != r.ID || q.Command != r.Command {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, r, r.String(), q, err)
		}
	})
}
