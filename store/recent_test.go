package store

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

func TestRecentGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		if err := s.CreateTournament(ctx, Tournament{Name: "cup", Game: "gomoku"}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTournament(ctx, Tournament{Name: "ants cup", Game: "ants"}); err != nil {
			t.Fatal(err)
		}
		// Stored in this order; RecentGames lists them backwards.
		var saved []Game
		save := func(g Game) {
			t.Helper()
			if err := s.SaveGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			saved = append(saved, g)
		}
		save(sampleGame("cup", 0))
		save(sampleGame("cup", 1))
		khet := sampleGame("", 2)
		khet.ID = "web-1"
		khet.Record = json.RawMessage(`{"id":"web-1","game":"khet","moves":[]}`)
		save(khet)
		save(sampleGame("ants cup", 3))
		noRecord := sampleGame("", 4)
		noRecord.ID = "web-2"
		noRecord.Record = nil
		save(noRecord)
		save(sampleGame("cup", 5))

		ids := func(gs []GameSummary) []string {
			out := []string{}
			for _, g := range gs {
				out = append(out, g.ID)
			}
			return out
		}
		id := func(i int) string { return saved[i].ID }
		for _, c := range []struct {
			name string
			f    GameFilter
			want []string
		}{
			{"all", GameFilter{}, []string{id(5), id(4), id(3), id(2), id(1), id(0)}},
			{"limit", GameFilter{Limit: 2}, []string{id(5), id(4)}},
			{"offset", GameFilter{Limit: 2, Offset: 2}, []string{id(3), id(2)}},
			{"past the end", GameFilter{Offset: 10}, []string{}},
			{"tournament", GameFilter{Tournament: "cup"}, []string{id(5), id(1), id(0)}},
			{"game of a tournament", GameFilter{Game: "gomoku"}, []string{id(5), id(1), id(0)}},
			{"game of a plain match", GameFilter{Game: "khet"}, []string{id(2)}},
			{"both", GameFilter{Tournament: "ants cup", Game: "ants"}, []string{id(3)}},
			{"no match", GameFilter{Tournament: "cup", Game: "ants"}, []string{}},
			{"unknown tournament", GameFilter{Tournament: "nope"}, []string{}},
		} {
			got, err := s.RecentGames(ctx, c.f)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !reflect.DeepEqual(ids(got), c.want) {
				t.Errorf("%s: %v, want %v", c.name, ids(got), c.want)
			}
		}

		all, err := s.RecentGames(ctx, GameFilter{})
		if err != nil {
			t.Fatal(err)
		}
		wantGame := []string{"gomoku", "", "ants", "khet", "gomoku", "gomoku"}
		for i, g := range all {
			src := saved[len(saved)-1-i]
			if g.Game != wantGame[i] || g.Tournament != src.Tournament || g.Moves != src.Moves ||
				g.Reason != src.Reason || !reflect.DeepEqual(g.Players, src.Players) ||
				!reflect.DeepEqual(g.Seats, src.Seats) || !reflect.DeepEqual(g.Scores, src.Scores) ||
				!reflect.DeepEqual(g.Winner, src.Winner) || !g.End.Equal(src.End.Truncate(1000)) {
				t.Errorf("summary %d: %+v\nfrom %+v (game %q)", i, g, src, wantGame[i])
			}
		}

		counts, err := s.GameCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"cup": 3, "ants cup": 1, "": 2}; !reflect.DeepEqual(counts, want) {
			t.Errorf("GameCounts = %v, want %v", counts, want)
		}
	})
}
