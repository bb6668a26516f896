package store

import (
	"context"
	"errors"
	"testing"
)

func TestContests(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := open(t, dsn)
		c := Contest{Name: "cup", Game: "gomoku", Args: []string{"--size", "15"}, Open: true}
		if err := s.CreateContest(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateContest(ctx, c); !errors.Is(err, ErrExists) {
			t.Errorf("second create: %v, want ErrExists", err)
		}
		got, err := s.Contest(ctx, "cup")
		if err != nil || got.Game != "gomoku" || !got.Open || got.Paused || len(got.Args) != 2 {
			t.Fatalf("Contest = %+v, %v", got, err)
		}
		if err := s.SetContestPaused(ctx, "cup", true); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Contest(ctx, "cup"); !got.Paused {
			t.Error("pause did not stick")
		}
		if err := s.SetContestPaused(ctx, "nope", true); !errors.Is(err, ErrNotFound) {
			t.Errorf("pausing a missing contest: %v", err)
		}

		for i, name := range []string{"ann", "bob", "a%b"} {
			if err := s.AddParticipant(ctx, Participant{Contest: "cup", Name: name, Mu: 25, Sigma: 8}, "hash-"+name); err != nil {
				t.Fatalf("participant %d: %v", i, err)
			}
		}
		if err := s.AddParticipant(ctx, Participant{Contest: "cup", Name: "ann"}, "other"); !errors.Is(err, ErrExists) {
			t.Errorf("duplicate participant: %v", err)
		}
		if err := s.AddParticipant(ctx, Participant{Contest: "nope", Name: "x"}, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("participant of a missing contest: %v", err)
		}
		p, err := s.ParticipantByToken(ctx, "cup", "hash-bob")
		if err != nil || p.Name != "bob" {
			t.Errorf("by token: %+v, %v", p, err)
		}
		if _, err := s.ParticipantByToken(ctx, "cup", "hash-zed"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown token: %v", err)
		}

		// Submissions: a newer accepted one replaces the older.
		for _, id := range []string{"s1", "s2", "s3"} {
			if err := s.AddSubmission(ctx, Submission{ID: id, Contest: "cup", User: "ann", State: SubmissionCompiling}); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []Submission{
			{ID: "s1", Contest: "cup", User: "ann", State: SubmissionAccepted, Language: "go", Command: []string{"./bot"}},
			{ID: "s2", Contest: "cup", User: "ann", State: SubmissionRejected, Reason: "does not compile", Log: "x.c:1: error"},
			{ID: "s3", Contest: "cup", User: "ann", State: SubmissionAccepted, Language: "c", Command: []string{"./bot"}},
		} {
			if err := s.FinishSubmission(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		subs, err := s.Submissions(ctx, "cup", "ann")
		if err != nil || len(subs) != 3 {
			t.Fatalf("submissions: %+v, %v", subs, err)
		}
		for i, want := range []string{SubmissionReplaced, SubmissionRejected, SubmissionAccepted} {
			if subs[i].State != want {
				t.Errorf("submission %s is %s, want %s", subs[i].ID, subs[i].State, want)
			}
		}
		if subs[1].Log != "x.c:1: error" || subs[2].Command[0] != "./bot" {
			t.Errorf("log or command lost: %+v", subs)
		}
		if other, _ := s.Submissions(ctx, "cup", "bob"); len(other) != 0 {
			t.Errorf("bob has %d submissions", len(other))
		}

		// A ladder game counts once, with its ratings.
		g := sampleGame("", 1)
		g.ID = "cup-1"
		w := 0
		g.Winner = &w
		cg := ContestGame{Contest: "cup", Users: []string{"ann", "a%b"}, Submissions: []string{"s3", ""}, Stderr: []string{"ann's", "theirs"}}
		rated := []Rated{{User: "ann", Mu: 27, Sigma: 7, Win: true}, {User: "a%b", Mu: 23, Sigma: 7}}
		if err := s.SaveContestGame(ctx, g, cg, rated); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveContestGame(ctx, g, cg, rated); !errors.Is(err, ErrExists) {
			t.Errorf("second save: %v, want ErrExists", err)
		}
		ps, err := s.Participants(ctx, "cup")
		if err != nil || len(ps) != 3 {
			t.Fatalf("participants: %v, %v", ps, err)
		}
		if ps[0].Mu != 27 || ps[0].Games != 1 || ps[0].Wins != 1 || ps[2].Losses != 1 || ps[1].Games != 0 {
			t.Errorf("after one game: %+v", ps)
		}
		for _, c := range []struct {
			user string
			want int
		}{{"", 1}, {"ann", 1}, {"a%b", 1}, {"bob", 0}, {"a", 0}} {
			gs, err := s.ContestGames(ctx, "cup", c.user, 0)
			if err != nil || len(gs) != c.want {
				t.Errorf("games of %q: %+v, %v; want %d", c.user, gs, err, c.want)
			}
		}
		if n, err := s.CountContestGames(ctx, "cup"); err != nil || n != 1 {
			t.Errorf("CountContestGames = %d, %v", n, err)
		}
		if got, err := s.ContestOfGame(ctx, "cup-1"); err != nil || got.Users[1] != "a%b" || got.Stderr[0] != "ann's" {
			t.Errorf("ContestOfGame: %+v, %v", got, err)
		}
		if err := s.Disqualify(ctx, "cup", "bob"); err != nil {
			t.Fatal(err)
		}
		if ps, _ := s.Participants(ctx, "cup"); !ps[1].Disqualified {
			t.Error("disqualification did not stick")
		}
	})
}
