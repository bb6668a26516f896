package standings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/rating"
	"arena/store"
)

func ptr(i int) *int { return &i }

// duel is a two-player game: players in record order, seats[0] moved first.
func duel(id string, a, b string, first int, winner *int, reason string) store.Game {
	seats := []int{0, 1}
	if first == 1 {
		seats = []int{1, 0}
	}
	return store.Game{ID: id, Round: 1, Players: []string{a, b}, Seats: seats, Winner: winner, Reason: reason, Moves: 40}
}

// record is a stored record's JSON with the players' faults.
func record(faults ...game.Reason) json.RawMessage {
	var rec struct {
		Players []struct {
			Name  string      `json:"name"`
			Fault game.Reason `json:"fault,omitempty"`
		} `json:"players"`
	}
	for i, f := range faults {
		rec.Players = append(rec.Players, struct {
			Name  string      `json:"name"`
			Fault game.Reason `json:"fault,omitempty"`
		}{fmt.Sprint("p", i), f})
	}
	data, _ := json.Marshal(rec)
	return data
}

func row(t *testing.T, rep Report, name string) Row {
	t.Helper()
	for _, r := range rep.Standings {
		if r.Player == name {
			return r
		}
	}
	t.Fatalf("no row for %s in %+v", name, rep.Standings)
	return Row{}
}

func TestTable(t *testing.T) {
	tests := []struct {
		name   string
		names  []string
		games  []store.Game
		faults [][]game.Reason // per game; nil entries: the record does not say
		// want: player -> wins, draws, losses, points, rank
		want       map[string][5]float64
		wantFaults map[string]map[string]int
		cross      map[string]map[string]Cell
		nPlayer    bool
	}{
		{
			name:  "round robin of three",
			names: []string{"a", "b", "c"},
			games: []store.Game{
				duel("g1", "a", "b", 0, ptr(0), "five"),
				duel("g2", "a", "b", 1, nil, "draw"),
				duel("g3", "a", "c", 0, ptr(0), "five"),
				duel("g4", "b", "c", 1, ptr(1), "timeout"),
				duel("g5", "b", "c", 0, ptr(0), "five"),
				duel("g6", "a", "c", 1, ptr(1), "crash"),
			},
			faults: [][]game.Reason{nil, nil, nil, {"timeout", ""}, nil, {"crash", ""}},
			want: map[string][5]float64{
				"a": {2, 1, 1, 2.5, 1},
				"b": {1, 1, 2, 1.5, 3},
				"c": {2, 0, 2, 2, 2},
			},
			wantFaults: map[string]map[string]int{"a": {"crash": 1}, "b": {"timeout": 1}},
			cross: map[string]map[string]Cell{
				"a": {"b": {1, 1, 0}, "c": {1, 0, 1}},
				"b": {"a": {0, 1, 1}, "c": {1, 0, 1}},
				"c": {"a": {1, 0, 1}, "b": {1, 0, 1}},
			},
		},
		{
			name:  "older records: the loser of a fault game is at fault",
			names: nil,
			games: []store.Game{
				duel("g1", "x", "y", 0, ptr(1), "illegal"),
				duel("g2", "x", "y", 1, ptr(0), "five"),
			},
			faults: [][]game.Reason{nil, nil},
			want: map[string][5]float64{
				"x": {1, 0, 1, 1, 0},
				"y": {1, 0, 1, 1, 0},
			},
			wantFaults: map[string]map[string]int{"x": {"illegal": 1}},
		},
		{
			name:  "N-player games ranked by score",
			names: []string{"p", "q", "r"},
			games: []store.Game{
				{ID: "a1", Players: []string{"p", "q", "r"}, Seats: []int{0, 1, 2}, Winner: ptr(0), Scores: []int{5, 3, 1}, Reason: "turns"},
				{ID: "a2", Players: []string{"p", "q", "r"}, Seats: []int{2, 0, 1}, Winner: ptr(0), Scores: []int{4, 4, 0}, Reason: "turns"},
				{ID: "a3", Players: []string{"p", "q", "r"}, Seats: []int{1, 2, 0}, Winner: nil, Reason: "turns"},
			},
			faults: [][]game.Reason{nil, {"", "", "timeout"}, nil},
			want: map[string][5]float64{
				"p": {2, 1, 0, 2.5, 1},
				"q": {0, 1, 2, 0.5, 0},
				"r": {0, 1, 2, 0.5, 0},
			},
			wantFaults: map[string]map[string]int{"r": {"timeout": 1}},
			nPlayer:    true,
		},
		{
			name:  "a shared top score is a draw between those players and a loss for the rest",
			names: []string{"p", "q", "r", "s"},
			games: []store.Game{
				{ID: "t1", Players: []string{"p", "q", "r", "s"}, Seats: []int{0, 1, 2, 3}, Winner: nil, Scores: []int{7, 4, 7, 0}, Reason: "turns"},
				{ID: "t2", Players: []string{"p", "q", "r", "s"}, Seats: []int{1, 2, 3, 0}, Winner: nil, Scores: []int{3, 3, 3, 3}, Reason: "turns"},
			},
			faults: [][]game.Reason{nil, nil},
			want: map[string][5]float64{
				"p": {0, 2, 0, 1, 0},
				"q": {0, 1, 1, 0.5, 0},
				"r": {0, 2, 0, 1, 0},
				"s": {0, 1, 1, 0.5, 0},
			},
			nPlayer: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := New(tc.names)
			for i, g := range tc.games {
				tb.Add(g, tc.faults[i])
			}
			rep := tb.Full()
			if rep.Games != len(tc.games) || tb.Played() != len(tc.games) {
				t.Errorf("games %d, played %d; want %d", rep.Games, tb.Played(), len(tc.games))
			}
			for name, w := range tc.want {
				r := row(t, rep, name)
				got := [5]float64{float64(r.Wins), float64(r.Draws), float64(r.Losses), r.Points, 0}
				w[4] = 0
				if got != w {
					t.Errorf("%s: wins/draws/losses/points %v, want %v", name, got[:4], w[:4])
				}
				if r.Games != r.Wins+r.Draws+r.Losses {
					t.Errorf("%s: %d games of %d results", name, r.Games, r.Wins+r.Draws+r.Losses)
				}
				if !reflect.DeepEqual(r.Faults, tc.wantFaults[name]) {
					t.Errorf("%s: faults %v, want %v", name, r.Faults, tc.wantFaults[name])
				}
				if tc.nPlayer != (r.Ordinal != nil) || tc.nPlayer == (r.Elo != nil) {
					t.Errorf("%s: elo %v ordinal %v for nPlayer=%v", name, r.Elo, r.Ordinal, tc.nPlayer)
				}
			}
			for name, w := range tc.want {
				if w[4] != 0 && row(t, rep, name).Rank != int(w[4]) {
					t.Errorf("%s: rank %d, want %v", name, row(t, rep, name).Rank, w[4])
				}
			}
			for i := 1; i < len(rep.Standings); i++ {
				if rep.Standings[i].Rank != i+1 || rep.Standings[i].Points > rep.Standings[i-1].Points {
					t.Errorf("standings out of order: %+v", rep.Standings)
				}
			}
			if tc.cross != nil && !reflect.DeepEqual(rep.Crosstable, tc.cross) {
				t.Errorf("crosstable %v, want %v", rep.Crosstable, tc.cross)
			}
			if len(rep.Results) != len(tc.games) {
				t.Fatalf("%d results for %d games", len(rep.Results), len(tc.games))
			}
			for i, g := range tc.games {
				r := rep.Results[i]
				if r.ID != g.ID || !slices.Equal(r.Players, g.Players) || r.Reason != g.Reason || r.Moves != g.Moves ||
					!reflect.DeepEqual(r.Winner, g.Winner) {
					t.Errorf("result %d: %+v for game %+v", i, r, g)
				}
			}
			// The history ends at the standings' own ratings.
			if len(rep.History) == 0 {
				t.Fatal("no history")
			}
			last := rep.History[len(rep.History)-1]
			if last.Games != len(tc.games) {
				t.Errorf("last history point after %d games, want %d", last.Games, len(tc.games))
			}
			for _, r := range rep.Standings {
				want := r.Elo
				if tc.nPlayer {
					want = r.Ordinal
				}
				if got, ok := last.Ratings[r.Player]; !ok || want == nil || math.Abs(got-*want) > 1e-9 {
					t.Errorf("%s: last history rating %v (%v), standings %v", r.Player, got, ok, want)
				}
			}
		})
	}
}

func TestCheckpoints(t *testing.T) {
	tests := []struct {
		n          int
		points     int
		first, gap int
	}{
		{0, 0, 0, 0},
		{1, 1, 1, 1},
		{59, 59, 1, 1},
		{60, 60, 1, 1},
		{61, 31, 2, 2},
		{1000, 59, 17, 17},
		{100_000, 60, 1667, 1667},
	}
	for _, tc := range tests {
		got := checkpoints(tc.n)
		if len(got) != tc.points {
			t.Errorf("checkpoints(%d): %d points, want %d", tc.n, len(got), tc.points)
			continue
		}
		if tc.n == 0 {
			continue
		}
		if got[0] != tc.first || got[len(got)-1] != tc.n {
			t.Errorf("checkpoints(%d) = %v..%v, want %d..%d", tc.n, got[0], got[len(got)-1], tc.first, tc.n)
		}
		for i := 1; i < len(got)-1; i++ {
			if got[i]-got[i-1] != tc.gap {
				t.Errorf("checkpoints(%d): gap %d at %d, want %d", tc.n, got[i]-got[i-1], i, tc.gap)
				break
			}
		}
		if len(got) > MaxHistory+1 {
			t.Errorf("checkpoints(%d): %d points, more than %d", tc.n, len(got), MaxHistory+1)
		}
	}
}

// TestHistory follows a stronger bot's rating as it wins more and more:
// the history has at most MaxHistory+1 points, in game order, and leaves
// out early points whose games do not connect every bot yet.
func TestHistory(t *testing.T) {
	tests := []struct {
		name   string
		games  []store.Game
		points int
		// firstGames is the Games of the first point.
		firstGames int
	}{
		{
			name: "disconnected at first",
			games: []store.Game{
				duel("g1", "a", "b", 0, ptr(0), "five"),
				duel("g2", "c", "d", 0, ptr(0), "five"),
				duel("g3", "a", "c", 0, ptr(0), "five"),
			},
			points: 2, firstGames: 1,
		},
		{
			name: "many games",
			games: func() []store.Game {
				var gs []store.Game
				for i := range 500 {
					gs = append(gs, duel(fmt.Sprint("g", i), "strong", "weak", i%2, ptr(0), "five"))
				}
				return gs
			}(),
			points: 56, firstGames: 9,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := New(nil)
			for _, g := range tc.games {
				tb.Add(g, nil)
			}
			h := tb.History()
			if len(h) != tc.points || h[0].Games != tc.firstGames {
				t.Fatalf("%d points from %d games, want %d from %d: %+v", len(h), h[0].Games, tc.points, tc.firstGames, h)
			}
			for i := 1; i < len(h); i++ {
				if h[i].Games <= h[i-1].Games {
					t.Errorf("history out of order at %d: %d then %d", i, h[i-1].Games, h[i].Games)
				}
			}
			if tc.name == "disconnected at first" {
				// After g2, a-b and c-d are two groups: no point.
				if h[1].Games != 3 || len(h[0].Ratings) != 2 || len(h[1].Ratings) != 4 {
					t.Errorf("history %+v", h)
				}
			}
			if tc.name == "many games" {
				// More wins move the stronger bot up.
				if !(h[0].Ratings["strong"] < h[len(h)-1].Ratings["strong"]) || h[len(h)-1].Ratings["strong"] <= 0 {
					t.Errorf("strong bot's rating does not rise: %v .. %v", h[0].Ratings, h[len(h)-1].Ratings)
				}
			}
		})
	}
}

// TestSkillHistoryMatchesFit checks that the N-player history, updated
// checkpoint by checkpoint, ends where rating.FitPlackettLuce ends.
func TestSkillHistoryMatchesFit(t *testing.T) {
	tb := New(nil)
	var rankings []rating.Ranking
	names := []string{"a", "b", "c", "d"}
	for i := range 150 {
		players := []string{names[i%4], names[(i+1)%4], names[(i+2)%4]}
		scores := []int{i % 3, (i + 1) % 3 * 2, 1}
		tb.Add(store.Game{ID: fmt.Sprint(i), Players: players, Seats: []int{0, 1, 2}, Scores: scores, Winner: ptr(0)}, nil)
		idx := []int{i % 4, (i + 1) % 4, (i + 2) % 4}
		rankings = append(rankings, rating.Ranking{Players: idx, Ranks: ranks(store.Game{Scores: scores}, -1, idx)})
	}
	h := tb.History()
	if len(h) > MaxHistory+1 || h[len(h)-1].Games != 150 {
		t.Fatalf("%d points, last after %d games", len(h), h[len(h)-1].Games)
	}
	want := rating.FitPlackettLuce(4, rankings)
	for i, n := range names {
		if got := h[len(h)-1].Ratings[n]; math.Abs(got-want[i].Ordinal()) > 1e-9 {
			t.Errorf("%s: history ends at %v, fit gives %v", n, got, want[i].Ordinal())
		}
	}
}

func TestBotNames(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"gomoku", "--bot=a=builtin", "--format=swiss", "--bot=b=./pbrain-b --x"}, []string{"a", "b"}},
		{[]string{"gomoku", "--bot=a=builtin", "--bot=./pbrain"}, nil},  // unnamed: as the CLI names it
		{[]string{"gomoku", "--bot=a=builtin", "--bot=a=builtin"}, nil}, // the CLI would rename the second
		{[]string{"gomoku", "--bot=./dir/x=1", "--bot=b=builtin"}, nil}, // a path, not a name
		{[]string{"gomoku", "--bot==builtin", "--bot=b=builtin"}, nil},  // empty name
		{[]string{"gomoku", "--name=t", "--games-per-pair=2"}, nil},     // no bots
		{[]string{"ants", "--bot=p1=builtin", "--bot=p2=python3 bot.py"}, []string{"p1", "p2"}},
	}
	for _, tc := range tests {
		if got := BotNames(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("BotNames(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestFlag(t *testing.T) {
	tests := []struct {
		args       []string
		name, want string
	}{
		{[]string{"gomoku", "--format=swiss"}, "format", "swiss"},
		{[]string{"gomoku", "--format=swiss", "--format=knockout"}, "format", "knockout"},
		{[]string{"gomoku", "--formats=x"}, "format", ""},
		{nil, "format", ""},
	}
	for _, tc := range tests {
		if got := Flag(tc.args, tc.name); got != tc.want {
			t.Errorf("Flag(%q, %q) = %q, want %q", tc.args, tc.name, got, tc.want)
		}
	}
}

func TestRecordFaults(t *testing.T) {
	tests := []struct {
		name string
		g    store.Game
		want []game.Reason
	}{
		{"faults", store.Game{Players: []string{"a", "b"}, Record: record("", "timeout")}, []game.Reason{"", "timeout"}},
		{"none", store.Game{Players: []string{"a", "b"}, Record: record("", "")}, []game.Reason{"", ""}},
		{"no record", store.Game{Players: []string{"a", "b"}}, nil},
		{"other player count", store.Game{Players: []string{"a", "b", "c"}, Record: record("", "")}, nil},
		{"broken JSON", store.Game{Players: []string{"a"}, Record: json.RawMessage(`{"players": [`)}, nil},
	}
	for _, tc := range tests {
		if got := RecordFaults(tc.g); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// openStore is a SQLite store in a test's temporary folder.
func openStore(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "arena.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// storeTournament saves a round robin of n games between bots in a store.
func storeTournament(tb testing.TB, st *store.Store, name string, bots []string, n int) {
	tb.Helper()
	ctx := context.Background()
	args := []string{"gomoku", "--format=gauntlet"}
	for _, b := range bots {
		args = append(args, "--bot="+b+"=builtin")
	}
	if err := st.CreateTournament(ctx, store.Tournament{Name: name, Game: "gomoku", Args: args, Status: store.StatusFinished}); err != nil {
		tb.Fatal(err)
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i := range n {
		a, b := bots[i%len(bots)], bots[(i/len(bots)+i+1)%len(bots)]
		if a == b {
			b = bots[(i+1)%len(bots)]
		}
		var winner *int
		reason := "five"
		switch i % 5 {
		case 0, 1, 2:
			winner = ptr(0)
		case 3:
			winner, reason = ptr(1), "timeout"
		}
		faults := []game.Reason{"", ""}
		if reason == "timeout" {
			faults[0] = "timeout"
		}
		g := duel(fmt.Sprintf("%s-%04d", name, i), a, b, i%2, winner, reason)
		g.Tournament, g.Round = name, i/len(bots)+1
		g.Record = record(faults...)
		g.Start, g.End = start.Add(time.Duration(i)*time.Minute), start.Add(time.Duration(i)*time.Minute+30*time.Second)
		if err := st.SaveGame(ctx, g); err != nil {
			tb.Fatal(err)
		}
	}
}

func TestOf(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	storeTournament(t, st, "cup", []string{"zeta", "alpha", "mid"}, 30)
	// A bot entered but without games still has its row, and the bots
	// keep the order they were entered in where they tie.
	if err := st.CreateTournament(ctx, store.Tournament{Name: "empty", Game: "gomoku",
		Args: []string{"gomoku", "--bot=b=builtin", "--bot=a=builtin"}}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		players  []string
		games    int
		finished bool
		format   string
	}{
		{"cup", []string{"zeta", "alpha", "mid"}, 30, true, "gauntlet"},
		{"empty", []string{"b", "a"}, 0, false, "round-robin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Of(ctx, st, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Tournament != tc.name || rep.Game != "gomoku" || rep.Games != tc.games || rep.Finished != tc.finished ||
				rep.Format != tc.format || len(rep.Results) != tc.games {
				t.Errorf("report %+v", rep)
			}
			var got []string
			for _, r := range rep.Standings {
				got = append(got, r.Player)
			}
			if tc.games == 0 && !slices.Equal(got, tc.players) {
				t.Errorf("players %v, want %v in entry order", got, tc.players)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.players))
			if !slices.Equal(got, want) {
				t.Errorf("players %v, want %v", got, want)
			}
			// The JSON the page reads: history and results are lists
			// even when empty.
			data, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			for _, key := range []string{`"history":[`, `"results":[`, `"standings":[`, `"tournament":"` + tc.name + `"`} {
				if !strings.Contains(string(data), key) {
					t.Errorf("JSON lacks %s: %s", key, data)
				}
			}
			if tc.games == 0 {
				return
			}
			timeouts := 0
			for _, r := range rep.Standings {
				timeouts += r.Faults["timeout"]
			}
			if timeouts != tc.games/5 {
				t.Errorf("%d timeouts counted, want %d", timeouts, tc.games/5)
			}
			for i, r := range rep.Results {
				if r.ID != fmt.Sprintf("cup-%04d", i) {
					t.Errorf("result %d is %s: not in stored order", i, r.ID)
					break
				}
			}
			if rep.Crosstable == nil || rep.LOS == nil || rep.History[len(rep.History)-1].Games != tc.games {
				t.Errorf("crosstable %v los %v history %v", rep.Crosstable, rep.LOS, rep.History)
			}
		})
	}

	if _, err := Of(ctx, st, "nothing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Of(unknown) = %v, want store.ErrNotFound", err)
	}
}

func FuzzBotNames(f *testing.F) {
	f.Add("--bot=a=builtin\x00--bot=b=./x")
	f.Add("--bot==\x00--bot=a=b=c")
	f.Fuzz(func(t *testing.T, line string) {
		names := BotNames(strings.Split(line, "\x00"))
		seen := map[string]bool{}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, "= \t/\\'\"") || seen[n] {
				t.Fatalf("BotNames gives %q", names)
			}
			seen[n] = true
		}
	})
}

func FuzzRecordFaults(f *testing.F) {
	f.Add([]byte(`{"players":[{"fault":"timeout"},{}]}`), 2)
	f.Add([]byte(`{"players":null}`), 0)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = min(max(n, 0), 8)
		g := store.Game{Players: make([]string, n), Record: data}
		if faults := RecordFaults(g); faults != nil && len(faults) != n {
			t.Fatalf("%d faults for %d players", len(faults), n)
		}
	})
}

func BenchmarkOf(b *testing.B) {
	st := openStore(b)
	storeTournament(b, st, "big", []string{"a", "b", "c", "d", "e", "f", "g", "h"}, 1000)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		rep, err := Of(ctx, st, "big")
		if err != nil || rep.Games != 1000 {
			b.Fatal(rep.Games, err)
		}
	}
}

// BenchmarkFull is the computation alone, without the store.
func BenchmarkFull(b *testing.B) {
	st := openStore(b)
	storeTournament(b, st, "big", []string{"a", "b", "c", "d", "e", "f", "g", "h"}, 1000)
	games, err := st.Games(context.Background(), "big")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		tb := New(nil)
		for _, g := range games {
			tb.Add(g, RecordFaults(g))
		}
		if rep := tb.Full(); len(rep.History) == 0 {
			b.Fatal("no history")
		}
	}
}

// The ratings of a four-player game with a shared top score take the tie:
// the two who share it rate alike, above the two behind.
func TestSharedTopScoreRatings(t *testing.T) {
	tb := New([]string{"p", "q", "r", "s"})
	tb.Add(store.Game{ID: "t1", Players: []string{"p", "q", "r", "s"}, Seats: []int{0, 1, 2, 3}, Scores: []int{7, 4, 7, 0}, Reason: "turns"}, nil)
	rep := tb.Full()
	ord := map[string]float64{}
	for _, name := range []string{"p", "q", "r", "s"} {
		r := row(t, rep, name)
		if r.Ordinal == nil {
			t.Fatalf("%s: no rating", name)
		}
		ord[name] = *r.Ordinal
	}
	if math.Abs(ord["p"]-ord["r"]) > 1e-9 {
		t.Errorf("tied first places rate %v and %v", ord["p"], ord["r"])
	}
	if !(ord["r"] > ord["q"] && ord["q"] > ord["s"]) {
		t.Errorf("ratings %v: want p = r > q > s", ord)
	}
	if got := ranks(store.Game{Scores: []int{7, 4, 7, 0}}, -1, []int{0, 1, 2, 3}); !slices.Equal(got, []int{1, 3, 1, 4}) {
		t.Errorf("ranks %v, want [1 3 1 4]", got)
	}
}
