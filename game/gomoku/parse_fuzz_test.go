package gomoku

import (
	"strings"
	"testing"
)

func TestParseReply(t *testing.T) {
	tests := []struct {
		line string
		kind replyKind
		p    Point
	}{
		{"7,8", replyMove, Point{7, 8}},
		{" 7 , 8 ", replyMove, Point{7, 8}},
		{"", replyEmpty, Point{}},
		{"   ", replyEmpty, Point{}},
		{"MESSAGE depth 5", replyMessage, Point{}},
		{"message hi", replyMessage, Point{}},
		{"DEBUG x", replyMessage, Point{}},
		{"OK", replyStray, Point{}},
		{"unknown FOO", replyStray, Point{}},
		{"ERROR Unknown rule id: 8", replyStray, Point{}},
		{"SUGGEST 3,4", replySuggest, Point{3, 4}},
		{"SUGGEST", replyBad, Point{}},
		{"hello world", replyBad, Point{}},
		{"7,8,1", replyBad, Point{}},
		{"-1,3", replyMove, Point{-1, 3}}, // off the board: the referee refuses it
	}
	for _, tc := range tests {
		kind, p := parseReply(tc.line)
		if kind != tc.kind || p != tc.p {
			t.Errorf("parseReply(%q) = %v %v, want %v %v", tc.line, kind, p, tc.kind, tc.p)
		}
	}
}

func TestParseTAH(t *testing.T) {
	tests := []struct {
		data    string
		p       Point
		problem string
	}{
		{"7,8", Point{7, 8}, ""},
		{"7,8\r\n", Point{7, 8}, ""},
		{"  7,8\n9,9\n", Point{7, 8}, ""},
		{"x\n", Point{}, "unchanged"},
		{"", Point{}, "not a move"},
		{"hello", Point{}, "not a move"},
		{"7;8", Point{}, "not a move"},
	}
	for _, tc := range tests {
		p, problem := parseTAH([]byte(tc.data), Black)
		if p != tc.p || !strings.Contains(problem, tc.problem) || (tc.problem == "") != (problem == "") {
			t.Errorf("parseTAH(%q) = %v %q", tc.data, p, problem)
		}
	}
}

// FuzzParseReply: any line is classified without panicking, and a move
// read from a line prints back to something that reads the same.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"7,8", "MESSAGE x", "SUGGEST 1,2", "ERROR", "", "a,b", "99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		kind, p := parseReply(line)
		if kind == replyMove || kind == replySuggest {
			if q, err := ParsePoint(p.String()); err != nil || q != p {
				t.Fatalf("%q: move %v does not round-trip", line, p)
			}
		}
	})
}

// FuzzParseTAH: any TAH.DAT content gives a move or a problem, never both
// or neither, and never a panic.
func FuzzParseTAH(f *testing.F) {
	for _, s := range []string{"7,8", "x\n", "o", "7,8\r\n", "\x00\xff", "1,2,3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, problem := parseTAH(data, White)
		if problem != "" && p != (Point{}) {
			t.Fatalf("%q: both a move %v and a problem %q", data, p, problem)
		}
	})
}

func TestPipeHint(t *testing.T) {
	tests := []struct {
		name, printed, quoted string // quoted: "" for no hint
	}{
		{"OK", "OK\r\n", "OK"},
		{"a move", "debug: thinking\n7,8\n", "7,8"},
		{"UNKNOWN in words", "Unknown option --fast\n", ""},
		{"SUGGEST", "SUGGEST 3,4\n", "SUGGEST 3,4"},
		{"words", "cannot open PLOCHA.DAT\n", ""},
		{"an ERROR in words", "ERROR no board\n", ""},
		{"MESSAGE alone", "MESSAGE hello\n", ""},
		{"nothing", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := pipeHint(tc.printed)
			if tc.quoted == "" && got != "" || tc.quoted != "" && (!strings.Contains(got, `"`+tc.quoted+`"`) || !strings.Contains(got, "--proto pipe")) {
				t.Errorf("pipeHint(%q) = %q, want it to quote %q", tc.printed, got, tc.quoted)
			}
		})
	}
}

// FuzzPipeHint checks that the hint, when given, names --proto pipe and
// stays on one line.
func FuzzPipeHint(f *testing.F) {
	for _, seed := range []string{"OK\n7,7\n", "ERROR x\n", "", "\r\r\n", "SUGGEST 1,2"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, printed string) {
		got := pipeHint(printed)
		if got != "" && (!strings.Contains(got, "--proto pipe") || strings.ContainsAny(got, "\r\n")) {
			t.Fatalf("pipeHint(%q) = %q", printed, got)
		}
	})
}
