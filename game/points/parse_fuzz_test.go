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
