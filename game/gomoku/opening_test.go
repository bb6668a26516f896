package gomoku

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestParseOpeningsTable(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		w, h   int
		want   [][]Point
		errMsg string
	}{
		{name: "offsets", text: "0,0, 1,0, 1,3\n", w: 15, h: 15, want: [][]Point{{{7, 7}, {8, 7}, {8, 10}}}},
		{name: "offsets 20x20", text: "-7,-8, -6,-9, -3,-9", w: 20, h: 20, want: [][]Point{{{3, 2}, {4, 1}, {7, 1}}}},
		{name: "rectangle centre", text: "0,0, -1,1", w: 20, h: 15, want: [][]Point{{{10, 7}, {9, 8}}}},
		{name: "spaces and tabs", text: " 0 ,0,\t2 , 2 ,\n", w: 15, h: 15, want: [][]Point{{{7, 7}, {9, 9}}}},
		{name: "blanks only", text: "1 1 -1 -1", w: 15, h: 15, want: [][]Point{{{8, 8}, {6, 6}}}},
		{name: "pos", text: "h8h9i8", w: 15, h: 15, want: [][]Point{{{7, 7}, {7, 8}, {8, 7}}}},
		{name: "pos upper case, separators", text: "A1 b2, o15;c3", w: 15, h: 15, want: [][]Point{{{0, 0}, {1, 1}, {14, 14}, {2, 2}}}},
		{name: "comments, blank lines, CRLF, BOM", text: "\uFEFF# c\r\n\r\n// c\r\n0,0\r\n  # indented\n", w: 15, h: 15, want: [][]Point{{{7, 7}}}},
		{name: "several", text: "0,0\nh8i9\n\n1,1, 2,2\n", w: 15, h: 15, want: [][]Point{{{7, 7}}, {{7, 7}, {8, 8}}, {{8, 8}, {9, 9}}}},
		{name: "no openings", text: "# nothing\n\n", w: 15, h: 15},
		{name: "odd count", text: "0,0\n0,0, 1\n", w: 15, h: 15, errMsg: "openings: line 2: bad opening: odd number of values (3)"},
		{name: "off the board", text: "0,0, 8,0", w: 15, h: 15, errMsg: "line 1: bad opening: stone 2 (15,7) is off the 15x15 board"},
		{name: "off the top", text: "0,-8", w: 15, h: 15, errMsg: "stone 1 (7,-1) is off the 15x15 board"},
		{name: "duplicate", text: "0,0, 1,1, 0,0", w: 15, h: 15, errMsg: "line 1: bad opening: stone 3 (7,7) is on the square of an earlier stone"},
		{name: "empty", text: "# c\n , ,\n", w: 15, h: 15, errMsg: "line 2: bad opening: empty opening"},
		{name: "not a number", text: "0,0, x,1", w: 15, h: 15, errMsg: "stone 2 (\"x\",\"1\") is not two numbers"},
		{name: "pos off the board", text: "h8p1", w: 15, h: 15, errMsg: "stone 2 (15,0) is off the 15x15 board"},
		{name: "pos row zero", text: "h0", w: 15, h: 15, errMsg: "stone 1 (7,-1) is off"},
		{name: "pos without row", text: "h8i", w: 15, h: 15, errMsg: "stone 2 (\"i\") has no row number"},
		{name: "pos junk", text: "h8-9", w: 15, h: 15, errMsg: "stone 2: \"-\" is not a column letter"},
		{name: "pos duplicate", text: "h8H8", w: 15, h: 15, errMsg: "stone 2 (7,7) is on the square of an earlier stone"},
		{name: "huge offset", text: "99999999999999999,0", w: 15, h: 15, errMsg: "is off the 15x15 board"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseOpenings(strings.NewReader(tc.text), tc.w, tc.h)
			if tc.errMsg != "" {
				if err == nil || !errors.Is(err, ErrBadOpening) || !strings.Contains(err.Error(), tc.errMsg) {
					t.Fatalf("ParseOpenings = %v, want ErrBadOpening containing %q", err, tc.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseOpenings = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOpeningsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, size := range randomSizes {
		w, h := size[0], size[1]
		var openings [][]Point
		for range 50 {
			seen := map[Point]bool{}
			var o []Point
			for range 1 + rng.IntN(min(w*h, 12)) {
				p := Point{rng.IntN(w), rng.IntN(h)}
				if !seen[p] {
					seen[p] = true
					o = append(o, p)
				}
			}
			openings = append(openings, o)
		}
		var b bytes.Buffer
		if err := WriteOpenings(&b, openings, w, h); err != nil {
			t.Fatal(err)
		}
		back, err := ParseOpenings(&b, w, h)
		if err != nil {
			t.Fatalf("%dx%d: %v", w, h, err)
		}
		if !reflect.DeepEqual(back, openings) {
			t.Fatalf("%dx%d: round trip differs", w, h)
		}
		// The pos notation reads back the same where it reaches.
		if w <= 26 {
			for _, o := range openings {
				pos, err := FormatPos(o)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ParseOpenings(strings.NewReader(pos), w, h)
				if err != nil || !reflect.DeepEqual(got, [][]Point{o}) {
					t.Fatalf("pos %q: %v, %v", pos, got, err)
				}
			}
		}
	}
	if s := FormatOpening([]Point{{7, 7}, {8, 7}, {8, 10}}, 15, 15); s != "0,0, 1,0, 1,3" {
		t.Errorf("FormatOpening = %q", s)
	}
	if s, err := FormatPos([]Point{{7, 7}, {7, 8}, {8, 7}}); s != "h8h9i8" || err != nil {
		t.Errorf("FormatPos = %q, %v", s, err)
	}
	if _, err := FormatPos([]Point{{26, 0}}); err == nil {
		t.Error("FormatPos past z: no error")
	}
}

func FuzzParseOpenings(f *testing.F) {
	f.Add("0,0, 1,0, 1,3\n-7,-8, -6,-9, -3,-9\n", 20)
	f.Add("h8h9i8\n# c\n// c\n\nA1 b2, o15\n", 15)
	f.Add("0,0, 1\n", 15)
	f.Add("\uFEFF 1 1 -1 -1\r\n", 5)
	f.Fuzz(func(t *testing.T, text string, size int) {
		w := MinSize + (size%28+28)%28
		got, err := ParseOpenings(strings.NewReader(text), w, w)
		if err != nil {
			if !errors.Is(err, ErrBadOpening) {
				t.Fatalf("error %v does not wrap ErrBadOpening", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WriteOpenings(&b, got, w, w); err != nil {
			t.Fatal(err)
		}
		back, err := ParseOpenings(&b, w, w)
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("not stable: %v -> %q -> %v, %v", got, b.String(), back, err)
		}
	})
}

func ExampleParseOpenings() {
	file := "# two openings\n0,0, 1,0, 1,3\nh8h9i8\n"
	openings, err := ParseOpenings(strings.NewReader(file), 15, 15)
	if err != nil {
		panic(err)
	}
	fmt.Println(openings)
	_, err = ParseOpenings(strings.NewReader("0,0, 9,0\n"), 15, 15)
	fmt.Println(err)
	// Output:
	// [[7,7 8,7 8,10] [7,7 7,8 8,7]]
	// openings: line 1: bad opening: stone 2 (16,7) is off the 15x15 board
}
