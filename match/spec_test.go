package match

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"arena/game"
)

// countGame is a game whose runner plays nothing: it counts the runners
// made and returns a record of the spec at once.
type countGame struct{ runners *atomic.Int32 }

type countOptions struct {
	Size int `json:"size"`
}

func (o *countOptions) Bind(fs *pflag.FlagSet) { fs.IntVar(&o.Size, "size", o.Size, "size") }
func (o *countOptions) Validate() error {
	if o.Size < 1 {
		return fmt.Errorf("--size %d: must be positive", o.Size)
	}
	return nil
}

func (g countGame) Info() game.Info          { return game.Info{Name: "count", Players: [2]int{2, 2}} }
func (g countGame) NewOptions() game.Options { return &countOptions{Size: 3} }
func (g countGame) NewRunner(opts game.Options, env Env) (Runner, error) {
	g.runners.Add(1)
	return countRunner{size: opts.(*countOptions).Size, env: env}, nil
}

type countRunner struct {
	size int
	env  Env
}

func (r countRunner) Openings() int { return r.size }
func (r countRunner) Play(_ context.Context, j Job) (*game.Record, string, error) {
	order, seats := Participants(j.Seats)
	rec := &game.Record{ID: j.ID, Game: "count", Seats: seats, Seed: j.Seed}
	for _, pi := range order {
		rec.Players = append(rec.Players, r.env.Players[pi].Record("count"))
	}
	return rec, r.env.Out + "/" + j.ID + ".json", nil
}

type countGames struct{ g countGame }

func (c countGames) Lookup(name string) (Game, bool) { return c.g, name == "count" }

func testSpec() Spec {
	return Spec{ID: "c-1", Game: "count", Options: json.RawMessage(`{"size": 5}`),
		Players: []Player{{Name: "a", Args: []string{"/bin/a"}}, {Name: "b", Args: []string{"/bin/b"}}},
		Seats:   []int{1, 0}, Clock: Clock{Turn: time.Second}, Seed: 7, GameSeed: 9}
}

// A spec survives JSON unchanged; unknown fields, in the spec or in the
// game's options, are refused rather than ignored.
func TestSpecJSON(t *testing.T) {
	s := testSpec()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) {
		t.Fatalf("round trip:\n%s\n%s", data, again)
	}
	for _, bad := range []string{`{"id":"x","game":"count","sede":3}`, `{"id":"x"}`, `not json`} {
		if _, err := ReadSpec([]byte(bad)); err == nil {
			t.Errorf("ReadSpec(%s): no error", bad)
		}
	}
	games := countGames{countGame{new(atomic.Int32)}}
	s.Options = json.RawMessage(`{"sise": 5}`)
	if _, _, err := Play(context.Background(), games, s, Local{}); err == nil || !strings.Contains(err.Error(), "sise") {
		t.Errorf("unknown option: %v", err)
	}
	s.Options = json.RawMessage(`{"size": 0}`)
	if _, _, err := Play(context.Background(), games, s, Local{}); err == nil || !strings.Contains(err.Error(), "--size 0") {
		t.Errorf("invalid option: %v", err)
	}
	s.Game = "chess"
	if _, _, err := Play(context.Background(), games, s, Local{}); err == nil {
		t.Error("played an unknown game")
	}
}

// Play plays the spec's game: the players seated as the spec says, the
// game's seed; Runners makes one runner per match, however many games.
func TestPlayAndRunners(t *testing.T) {
	made := new(atomic.Int32)
	games := countGames{countGame{made}}
	rec, path, err := Play(context.Background(), games, testSpec(), Local{Out: "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID != "c-1" || path != "/out/c-1.json" || rec.Seed != 9 || fmt.Sprint(rec.Seats) != "[1 0]" || rec.Players[0].Name != "a" {
		t.Fatalf("record %+v at %s", rec, path)
	}
	rs := NewRunners(games, Local{Out: "/out", Work: "/work"})
	for i := range 10 {
		s := testSpec()
		s.ID, s.Opening, s.GameSeed = fmt.Sprint("c-", i), i, int64(i)
		if _, _, err := rs.Play(context.Background(), s, Local{}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := rs.Openings(testSpec()); err != nil || n != 5 {
		t.Fatalf("openings %d, %v", n, err)
	}
	other := testSpec()
	other.Seed = 8 // another match
	if _, _, err := rs.Play(context.Background(), other, Local{}); err != nil {
		t.Fatal(err)
	}
	if got := made.Load(); got != 1+2 {
		t.Fatalf("%d runners made: want 1 for Play and 2 for the Runners' two matches", got)
	}
}

// BenchmarkRunnersPlay measures what playing a game through a spec adds
// per game: finding the match's runner by its spec.
func BenchmarkRunnersPlay(b *testing.B) {
	rs := NewRunners(countGames{countGame{new(atomic.Int32)}}, Local{Out: "/out", Work: "/work"})
	s := testSpec()
	for b.Loop() {
		if _, _, err := rs.Play(context.Background(), s, Local{}); err != nil {
			b.Fatal(err)
		}
	}
}
