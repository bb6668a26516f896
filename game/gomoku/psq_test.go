package gomoku

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestPSQLevel(t *testing.T) {
	tests := []struct{ ms, want int }{
		{-5, 1}, {0, 1}, {99, 1}, {100, 1}, {299, 1}, {300, 2}, {600, 3}, {1000, 4},
		{1500, 5}, {2500, 6}, {4999, 6}, {5000, 7}, {10000, 8}, {15000, 9},
		{30000, 10}, {59999, 10}, {60000, 11}, {300000, 11},
	}
	for _, tc := range tests {
		if got := PSQLevel(tc.ms); got != tc.want {
			t.Errorf("PSQLevel(%d) = %d, want %d", tc.ms, got, tc.want)
		}
	}
}

var psqSample = PSQ{
	Width: 20, Height: 20, Level1: 7, Level2: 7, First: 0,
	Moves: []PSQMove{
		{Point{9, 9}, 0}, {Point{10, 11}, 4500}, {Point{0, 19}, 32}, {Point{19, 0}, 1},
	},
	Names:     []string{"pisq7.exe", "renjusolver.ZIP"},
	ErrorCode: PSQNormal,
}

const psqSampleText = "Piskvorky 20x20, 7:7, 0\n10,10,0\n11,12,4500\n1,20,32\n20,1,1\npisq7.exe\nrenjusolver.ZIP\n0\n"

func TestWritePSQ(t *testing.T) {
	var b bytes.Buffer
	if err := WritePSQ(&b, psqSample); err != nil {
		t.Fatal(err)
	}
	if b.String() != psqSampleText {
		t.Errorf("WritePSQ =\n%s\nwant\n%s", b.String(), psqSampleText)
	}
	crlf := psqSample
	crlf.CRLF = true
	b.Reset()
	if err := WritePSQ(&b, crlf); err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(psqSampleText, "\n", "\r\n"); b.String() != want {
		t.Errorf("WritePSQ with CRLF = %q", b.String())
	}
}

func TestWritePSQErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*PSQ)
		want string
	}{
		{"no board", func(g *PSQ) { g.Width = 0 }, "board 0x20"},
		{"first player", func(g *PSQ) { g.First = 2 }, "first player 2"},
		{"off the board", func(g *PSQ) { g.Moves[1].P = Point{20, 3} }, "move 2 (20,3) is off the 20x20 board"},
		{"occupied", func(g *PSQ) { g.Moves[3].P = g.Moves[0].P }, "move 4 (9,9) is on an occupied square"},
		{"empty name", func(g *PSQ) { g.Names[1] = " " }, "name 2 is empty"},
		{"name on two lines", func(g *PSQ) { g.Names[0] = "a\nb" }, "spans lines"},
		{"name like a move", func(g *PSQ) { g.Names[0] = "3,4" }, "would read as a move"},
	}
	for _, tc := range tests {
		g := psqSample
		g.Moves = append([]PSQMove(nil), psqSample.Moves...)
		g.Names = append([]string(nil), psqSample.Names...)
		tc.edit(&g)
		err := WritePSQ(&bytes.Buffer{}, g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: WritePSQ = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestReadPSQ(t *testing.T) {
	tests := []struct {
		name string
		text string
		want PSQ
	}{
		{"sample", psqSampleText, psqSample},
		{"crlf", strings.ReplaceAll(psqSampleText, "\n", "\r\n"), func() PSQ { g := psqSample; g.CRLF = true; return g }()},
		{"cr only", strings.ReplaceAll(psqSampleText, "\n", "\r"), psqSample},
		{
			"no times, no names, timeout",
			"Piskvorky 15x15, 1:11, 1\n8,8\n9,9\n15\n",
			PSQ{Width: 15, Height: 15, Level1: 1, Level2: 11, First: 1, Moves: []PSQMove{{Point{7, 7}, 0}, {Point{8, 8}, 0}}, ErrorCode: PSQTimeout},
		},
		{
			"blank lines, spaces, bom, no final newline",
			"\uFEFF\n  Piskvorky  30x20 , 0:0 , 0  \n\n 3 , 4 , 5 \n\n6,7,8\nbrain one \n-2",
			PSQ{Width: 30, Height: 20, Moves: []PSQMove{{Point{2, 3}, 5}, {Point{5, 6}, 8}}, Names: []string{"brain one"}, ErrorCode: PSQError},
		},
		{
			"GomocupJudge trailer",
			"Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,120\nblack.zip\nwhite.zip\n-1\n2,0\n",
			PSQ{Width: 15, Height: 15, Level1: 11, Level2: 11, Moves: []PSQMove{{Point{7, 7}, 0}, {Point{8, 8}, 120}}, Names: []string{"black.zip", "white.zip"}, ErrorCode: -1},
		},
		{
			"header only",
			"Piskvorky 20x20, 0:0, 0",
			PSQ{Width: 20, Height: 20},
		},
		{
			"moves end at the first other line",
			"Piskvorky 20x20, 0:0, 0\n1,1,1\n2,2,2,2\n3,3,3\n0\n",
			PSQ{Width: 20, Height: 20, Moves: []PSQMove{{Point{0, 0}, 1}}, Names: []string{"2,2,2,2", "3,3,3"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadPSQ(strings.NewReader(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ReadPSQ =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestReadPSQErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", "no header"},
		{"blank", "\n \n", "no header"},
		{"gomotur", "pbrain-a.exe\npbrain-b.exe\n1,1,5\n", "does not start with Piskvorky"},
		{"no size", "Piskvorky , 1:1, 0\n", "no number"},
		{"no x", "Piskvorky 20 20, 1:1, 0\n", `lacks "x" after 20`},
		{"no colon", "Piskvorky 20x20, 1 1, 0\n", `lacks ":" after 1`},
		{"no first", "Piskvorky 20x20, 1:1\n", `lacks ","`},
		{"extra", "Piskvorky 20x20, 1:1, 0 zzz\n", "extra text"},
		{"zero board", "Piskvorky 0x20, 1:1, 0\n", "declares a 0x20 board"},
		{"huge board", "Piskvorky 5000x20, 1:1, 0\n", "declares a 5000x20 board"},
		{"first 2", "Piskvorky 20x20, 1:1, 2\n", "names player 2 as first"},
		{"off the board", "Piskvorky 20x20, 1:1, 0\n1,1,0\n21,3,0\n", `line 3: not a Piskvork record: move "21,3,0" is off the 20x20 board`},
		{"zero coordinate", "Piskvorky 20x20, 1:1, 0\n0,1,0\n", "off the 20x20 board"},
		{"occupied", "Piskvorky 20x20, 1:1, 0\n1,1,0\n\n1,1,5\n", `line 4: not a Piskvork record: move "1,1,5" is on an occupied square`},
	}
	for _, tc := range tests {
		_, err := ReadPSQ(strings.NewReader(tc.text))
		if err == nil || !errors.Is(err, ErrBadPSQ) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ReadPSQ = %v, want ErrBadPSQ containing %q", tc.name, err, tc.want)
		}
	}
}

func TestPSQRoundTrip(t *testing.T) {
	// A finished random game, written and read back.
	for _, rule := range allRules {
		games := randomGames(t, Config{Width: 15, Height: 13, Rule: rule}, 5, uint64(rule))
		for _, moves := range games {
			g := PSQ{Width: 15, Height: 13, Level1: PSQLevel(5000), First: 1, Names: []string{"a b", "7"}, ErrorCode: PSQError, CRLF: rule%2 == 1}
			for i, p := range moves {
				g.Moves = append(g.Moves, PSQMove{p, i * 37})
			}
			var b bytes.Buffer
			if err := WritePSQ(&b, g); err != nil {
				t.Fatal(err)
			}
			back, err := ReadPSQ(&b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, g) {
				t.Fatalf("round trip:\n%+v\n%+v", back, g)
			}
		}
	}
}

func FuzzReadPSQ(f *testing.F) {
	f.Add(psqSampleText)
	f.Add(strings.ReplaceAll(psqSampleText, "\n", "\r\n"))
	f.Add("Piskvorky 15x15, 1:11, 1\n8,8\n9,9\n15\n")
	f.Add("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,120\nblack.zip\nwhite.zip\n-1\n2,0\n")
	f.Add("Piskvorky 5x5, 0:0, 0\n1,1,1\n2,2,2,2\n3,3,3\n0\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ReadPSQ(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrBadPSQ) {
				t.Fatalf("error %v does not wrap ErrBadPSQ", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WritePSQ(&b, g); err != nil {
			t.Fatalf("WritePSQ of a read record: %v\n%+v", err, g)
		}
		back, err := ReadPSQ(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("reading back %q: %v", b.String(), err)
		}
		if !reflect.DeepEqual(back, g) {
			t.Fatalf("not stable:\n%+v\n%+v", g, back)
		}
	})
}

func ExampleWritePSQ() {
	g := PSQ{
		Width: 15, Height: 15, Level1: PSQLevel(5000), Level2: PSQLevel(5000),
		Moves: []PSQMove{{Point{7, 7}, 0}, {Point{8, 8}, 1250}},
		Names: []string{"pbrain-a", "pbrain-b"}, ErrorCode: PSQTimeout,
	}
	if err := WritePSQ(os.Stdout, g); err != nil {
		panic(err)
	}
	// Output:
	// Piskvorky 15x15, 7:7, 0
	// 8,8,0
	// 9,9,1250
	// pbrain-a
	// pbrain-b
	// 15
}
