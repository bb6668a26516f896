package antsbot

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// recorder is a Player that keeps what it was given.
type recorder struct {
	params Params
	obs    []Observation
	orders []Order
}

func (r *recorder) Start(p Params) { r.params = p }

func (r *recorder) Turn(obs *Observation, _ time.Time) []Order {
	r.obs = append(r.obs, *obs)
	return r.orders
}

func TestRunParsesTheEngineMessages(t *testing.T) {
	in := "turn 0\nloadtime 3000\nturntime 500\nrows 43\ncols 39\nturns 100\nviewradius2 77\nattackradius2 5\nspawnradius2 1\nplayer_seed 42\nready\n" +
		"turn 1\nw 0 1\nw 1 0\nh 28 19 0\na 28 19 0\nf 25 20\nd 27 19 1\ngo\n" +
		"turn 2\r\nA 3 4 1\r\n\r\n# comment\r\nz 1 2\r\nf 99 99\r\ngo\r\n" +
		"end\nplayers 2\nscore 1 0\nstatus survived eliminated\nplayerturns 2 2\na 28 19 0\ngo\n" +
		"turn 3\ngo\n" // never read: "end" finished the game
	r := &recorder{orders: []Order{{Loc{28, 19}, 'n'}}}
	var out bytes.Buffer
	if err := Run(context.Background(), strings.NewReader(in), &out, r); err != nil {
		t.Fatal(err)
	}
	want := Params{LoadTime: 3000, TurnTime: 500, Rows: 43, Cols: 39, Turns: 100, ViewRadius2: 77, AttackRadius2: 5, SpawnRadius2: 1, PlayerSeed: 42}
	if r.params != want {
		t.Fatalf("params %+v, want %+v", r.params, want)
	}
	if len(r.obs) != 2 {
		t.Fatalf("%d turns seen, want 2", len(r.obs))
	}
	o := r.obs[0]
	if o.Turn != 1 || len(o.Water) != 2 || len(o.Hills) != 1 || len(o.Ants) != 1 || len(o.Food) != 1 || len(o.Dead) != 1 ||
		o.Dead[0] != (Unit{Loc{27, 19}, 1}) || o.Food[0] != (Loc{25, 20}) {
		t.Fatalf("turn 1 observation %+v", o)
	}
	// Upper-case keys are accepted, unknown lines and squares outside
	// the map are skipped.
	if o := r.obs[1]; o.Turn != 2 || len(o.Ants) != 1 || o.Ants[0] != (Unit{Loc{3, 4}, 1}) || len(o.Food) != 0 {
		t.Fatalf("turn 2 observation %+v", o)
	}
	if got, want := out.String(), "go\no 28 19 n\ngo\no 28 19 n\ngo\n"; got != want {
		t.Fatalf("output %q, want %q", got, want)
	}
}

func TestRunEndOfInput(t *testing.T) {
	var out bytes.Buffer
	if err := Run(context.Background(), strings.NewReader("turn 0\nrows 5\ncols 5\nready\nturn 1\n"), &out, New()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "go\n" {
		t.Fatalf("output %q", out.String())
	}
	err := Run(context.Background(), strings.NewReader("turn\n"), io.Discard, New())
	if err == nil || !strings.Contains(err.Error(), "no turn number") {
		t.Fatalf("err = %v", err)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- Run(ctx, pr, io.Discard, New()) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// FuzzReader feeds arbitrary lines to the input parser: it must not
// panic, and observations keep only squares inside the map.
func FuzzReader(f *testing.F) {
	f.Add("turn 0\nrows 10\ncols 10\nready\nturn 1\na 1 2 0\nf 3 4\nw 9 9\nh 0 0 1\nd 5 5 2\ngo\n")
	f.Add("turn 1\na -1 -2 0\nf 100 4\nw x y\ngo\nend\ngo\n")
	f.Add("player_seed 18446744073709551616\nrows -3\ncols 0\n")
	f.Fuzz(func(t *testing.T, in string) {
		r := &reader{params: DefaultParams()}
		for _, line := range strings.Split(in, "\n") {
			nw, nf := len(r.obs.Water), len(r.obs.Food)
			if _, err := r.feed(line, time.Time{}); err != nil {
				continue
			}
			if len(r.obs.Water) < nw || len(r.obs.Food) < nf {
				continue // a new turn started
			}
			for _, l := range append(r.obs.Water[nw:], r.obs.Food[nf:]...) {
				if l.Row < 0 || l.Col < 0 || (r.params.Rows > 0 && l.Row >= r.params.Rows) || (r.params.Cols > 0 && l.Col >= r.params.Cols) {
					t.Fatalf("square %v kept outside %dx%d", l, r.params.Rows, r.params.Cols)
				}
			}
		}
	})
}

func TestRunRejectsBadSettings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"turn 0\nrows 0\ncols 10\nready\n", "bad map size 0x10"},
		{"turn 0\nready\n", "bad map size 0x0"},
		{"turn 1\na 1 1 0\ngo\n", "turn 1 before the turn-0 settings"},
	} {
		err := Run(context.Background(), strings.NewReader(tc.in), io.Discard, New())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
}
