package khet

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"arena/game"
	"arena/match"
)

// TestPlayGameRecord plays a game between two test players, writes its
// files and replays the record move by move, laser paths included.
func TestPlayGameRecord(t *testing.T) {
	mc := MatchConfig{
		Config:  DefaultConfig(),
		Clock:   match.Clock{Turn: 5 * time.Second, Tolerance: time.Second},
		WorkDir: t.TempDir(),
	}
	g := Game{ID: "khet-test-001", Silver: 1, Players: []Player{
		{Name: "greedy", Args: player(t, "--policy=greedy", "--seed=5")},
		{Name: "random", Args: player(t, "--policy=random", "--seed=6", "--name=rnd bot")},
	}}
	rec, err := PlayGame(context.Background(), mc, g)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Seats[0] != 1 || rec.Players[1].About != "rnd bot" || rec.Players[0].Protocol != "tartu" {
		t.Errorf("seats %v, players %+v", rec.Seats, rec.Players)
	}
	if rec.Reason != ReasonPharaoh && rec.Reason != ReasonRepetition && rec.Reason != ReasonMaxPlies {
		t.Errorf("reason %s (%s)", rec.Reason, rec.Detail)
	}
	path, back, states := writeAndReplay(t, rec)
	if len(states) != len(back.Moves)+1 || states[0] != goldenInitial {
		t.Fatalf("%d states for %d moves, first %q", len(states), len(back.Moves), states[0])
	}
	for i, mr := range back.Moves {
		var e Effect
		if err := json.Unmarshal(mr.Effect, &e); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		if e.State != states[i+1] && i+1 < len(back.Moves) {
			t.Fatalf("move %d: effect state %q, replay %q", i+1, e.State, states[i+1])
		}
		if len(e.Path) != len(e.Shot)-2-len(e.Removed)-boolInt(e.Removed != "")+1 {
			t.Fatalf("move %d: path %v for shot %s", i+1, e.Path, e.Shot)
		}
		if mr.Side != i%2 {
			t.Fatalf("move %d by side %d", i+1, mr.Side)
		}
	}
	var opts Options
	json.Unmarshal(back.Options, &opts)
	if !strings.HasPrefix(opts.Final, stateResult(back)) {
		t.Errorf("final state %q for winner %v by %s", opts.Final, back.Winner, back.Reason)
	}
	log, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".khet")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != len(back.Moves)+4 || lines[1] != goldenInitial || lines[len(lines)-2] != opts.Final {
		t.Errorf("log has %d lines for %d moves:\n%s", len(lines), len(back.Moves), log)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// stateResult is the result field a record's final state must start with.
func stateResult(rec *game.Record) string {
	if rec.Winner == nil {
		return "d"
	}
	side := 0
	if rec.Seats[1] == *rec.Winner {
		side = 1
	}
	return string(Color(side).Letter())
}

// TestRandomGames plays random games through the referee and checks the
// invariants: generated moves are legal, the incremental hash is right,
// unmake restores the position, the state string parses back to the
// board, and every game ends.
func TestRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	games := 60
	if testing.Short() || raceEnabled {
		games = 10
	}
	reasons := map[game.Reason]int{}
	for range games {
		setup := Setups()[rng.IntN(3)]
		s, _ := NewState(Config{Setup: setup, MaxPlies: 400, Repetition: 3, Rules: Rules{PharaohRotation: rng.IntN(2) == 0}})
		for !s.Over() {
			b := s.Board()
			moves := b.Moves(nil)
			if len(moves) == 0 {
				t.Fatalf("no moves in\n%v", b)
			}
			for _, m := range moves {
				if err := b.Check(m); err != nil {
					t.Fatalf("generated %v is illegal: %v", m, err)
				}
			}
			m := moves[rng.IntN(len(moves))]
			h := b.Hash()
			u := b.Make(m)
			if b.Hash() != b.computeHash() {
				t.Fatalf("%v: hash", m)
			}
			b.Unmake(u)
			if b.Hash() != h || b.key() != s.board.key() || b.Count() != s.board.Count() {
				t.Fatalf("%v: unmake did not restore the position", m)
			}
			b.Pass()
			if b.ToMove() == s.ToMove() || b.Hash() != b.computeHash() {
				t.Fatal("a pass did not hand the turn over with its hash")
			}
			b.Pass()
			if b.Hash() != h || b.key() != s.board.key() {
				t.Fatal("a second pass did not restore the position")
			}
			shot, err := s.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			pos, err := ParseState(s.String(), s.cfg.Rules)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if pos.Board.key() != s.board.key() || pos.Plies != s.Plies() {
				t.Fatalf("state %s does not read back", s)
			}
			u = b.Make(m)
			if u.Removed() != shot.Removed.Piece || b.key() != s.board.key() {
				t.Fatalf("%v: Make and the referee disagree: removed %v, shot %s", m, u.Removed(), shot)
			}
		}
		reasons[s.Outcome().Reason]++
	}
	t.Logf("%d random games: %v", games, reasons)
}

// writeAndReplay writes a record's files, reads the record back and
// replays it: the path of its JSON file, the record read and the states.
func writeAndReplay(t *testing.T, rec *game.Record) (string, *game.Record, []string) {
	t.Helper()
	path, err := WriteFiles(t.TempDir(), rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := game.ReadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	states, err := Replay(back)
	if err != nil {
		t.Fatal(err)
	}
	return path, back, states
}
