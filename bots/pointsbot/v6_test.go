package pointsbot

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"arena/game/points"
)

// TestRunV6 drives the player through a v6 session and checks each
// answer: the IDs and commands echoed, refusals for plays it cannot make,
// a generated move that is legal and not played until the manager plays
// it, undo, and quit ending the session.
func TestRunV6(t *testing.T) {
	requests := []string{
		"1 list_commands",
		"2 name",
		"3 init 6 5 7",
		"4 play 2 2 0",
		"5 play 2 3 1",
		"6 play 3 3 0",
		"7 play 3 2 1",
		"8 play 3 2 0",  // occupied
		"9 play 1 1 1",  // red is to move
		"10 gen_move 1", // red is to move
		"11 gen_move_with_time 0 200",
		"12 undo",
		"13 play 3 2 1", // the undone dot again
		"14 gen_move_with_complexity 0 1",
		"15 bogus",
		"sixteen quit", // no ID: ignored
		"17 quit",
		"18 name", // after quit: not read
	}
	var out bytes.Buffer
	opts := Options{Name: "arena points", Protocol: points.ProtocolOptions{Kind: points.AIProtocol6}, Seed: 1}
	if err := RunPipe(context.Background(), strings.NewReader(strings.Join(requests, "\n")+"\n"), &out, opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"= 1 list_commands " + strings.Join(v6Commands, " "),
		"= 2 name arena_points",
		"= 3 init",
		"= 4 play 2 2 0", "= 5 play 2 3 1", "= 6 play 3 3 0", "= 7 play 3 2 1",
		"? 8 play", "? 9 play", "? 10 gen_move",
		"", // 11: checked below
		"= 12 undo",
		"= 13 play 3 2 1",
		"", // 14: checked below
		"? 15 bogus",
		"= 17 quit",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d answers, want %d:\n%s", len(lines), len(want), out.String())
	}
	f, _ := points.NewField(6, 5, points.Standard)
	for _, p := range []points.Point{{X: 2, Y: 2}, {X: 2, Y: 3}, {X: 3, Y: 3}, {X: 3, Y: 2}} {
		f.Play(p)
	}
	for i, w := range want {
		if w != "" {
			if lines[i] != w {
				t.Errorf("answer %d: %q, want %q", i+1, lines[i], w)
			}
			continue
		}
		r, err := points.ParseV6Reply(lines[i])
		if err != nil || !r.OK || !strings.HasPrefix(r.Command, "gen_move") {
			t.Fatalf("answer %d: %q, %v", i+1, lines[i], err)
		}
		p, c, err := r.Move()
		if err != nil || c != 0 || f.Check(p) != nil {
			t.Errorf("answer %d: %q is not a legal red dot (%v)", i+1, lines[i], err)
		}
	}
}
