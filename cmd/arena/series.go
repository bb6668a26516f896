package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"arena/engine"
	"arena/game"
	"arena/match"
	"arena/rating"
	"arena/standings"
)

// series plays a number of games between the same players, one after the
// other, and reports each as it ends: a JSON line on stdout with --json, a
// progress bar (or a line per game) and a summary table for people.
type series struct {
	game    string
	players []player
	games   int
	// spec is game i; run plays it.
	spec   func(i int) match.Spec
	runner engine.Runner
	// follow gives game i its hooks besides the progress bar's, and
	// what to call once it is over.
	follow   func(i int, spec match.Spec) (match.Local, func(), error)
	json     bool
	stdout   io.Writer
	stderr   io.Writer
	terminal bool // stderr is a terminal: draw a live progress bar
	// concurrency is how many games play at once (at least 1).
	concurrency int
	// summaryFile, if set, also receives the final standings table.
	summaryFile string
}

// summaryLine is the JSON object printed for every finished game.
type summaryLine struct {
	// Type is "game", which tells these lines from the final object
	// of a tournament ("standings") or an SPRT ("sprt").
	Type    string   `json:"type"`
	ID      string   `json:"id"`
	Game    string   `json:"game"`
	Players []string `json:"players"`
	First   int      `json:"first"`
	// Seats lists the player on each seat of a game of more than two
	// players (Ants); First is then the player on seat 0.
	Seats  []int       `json:"seats,omitempty"`
	Winner *int        `json:"winner"`
	Scores []int       `json:"scores,omitempty"`
	Reason game.Reason `json:"reason"`
	Detail string      `json:"detail,omitempty"`
	Moves  int         `json:"moves"`
	Record string      `json:"record"`
	// Sandbox lists the sandbox layers the bots ran in ([] when off).
	Sandbox []string `json:"sandbox"`
	// Worker names the worker that played the game (--nats, --workers).
	Worker string `json:"worker,omitempty"`
}

// tally counts one player's results.
type tally struct {
	Wins, Losses, Draws int
	Faults              map[game.Reason]int // losses by timeout, crash, ...
	TimeMs              float64
	Moves               int
}

// run plays the games, up to s.concurrency at once, and reports each as
// it ends. When a game cannot be played, or ctx ends, the games still
// running are stopped and the finished ones stay counted.
func (s *series) run(ctx context.Context) error {
	tallies := make([]tally, len(s.players))
	for i := range tallies {
		tallies[i].Faults = map[game.Reason]int{}
	}
	prog := newProgress(s.stderr, s.terminal, s.games, s.players)
	series := &engine.Series{
		Games: s.games, Concurrency: s.concurrency, Runner: s.runner, Spec: s.spec,
		Follow: func(i int, spec match.Spec) (match.Local, func(), error) {
			f, done, err := s.follow(i, spec)
			if err != nil {
				return match.Local{}, nil, err
			}
			f.OnMove = prog.follow(spec.ID, fmt.Sprintf("#%d", i+1))
			return f, done, nil
		},
		Failed: func(_ int, spec match.Spec) { prog.forget(spec.ID) },
	}
	finished := 0
	series.Done = func(_ int, rec *game.Record, path string, stopped bool) error {
		finished++
		s.count(tallies, rec)
		var err error
		if s.json && !stopped {
			err = emitGame(s.stdout, rec, path)
		}
		prog.gameOver(finished, rec, tallies)
		return err
	}
	_, runErr := series.Run(ctx)
	prog.clear()
	if errors.Is(runErr, context.Canceled) {
		note := fmt.Sprintf("interrupted: %d of %d games finished\n", finished, s.games)
		fmt.Fprint(s.stderr, note)
		s.summary(s.stderr, tallies)
		return errors.Join(runErr, s.writeSummary(tallies, note))
	}
	if runErr != nil {
		return errors.Join(runErr, s.writeSummary(tallies, fmt.Sprintf("stopped: %v\n", runErr)))
	}
	s.summary(s.stderr, tallies)
	return s.writeSummary(tallies, "")
}

// writeSummary replaces the summary file, if any, with the standings so
// far under the note head ("" when the series finished).
func (s *series) writeSummary(tallies []tally, head string) error {
	if s.summaryFile == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString(head)
	s.summary(&b, tallies)
	return game.WriteFileAtomic(s.summaryFile, []byte(b.String()))
}

func (s *series) count(tallies []tally, rec *game.Record) {
	behind := standings.BehindTop(rec.Winner, rec.Scores, len(s.players))
	for pi := range s.players {
		t := &tallies[pi]
		switch {
		case rec.Winner != nil && *rec.Winner == pi:
			t.Wins++
		case rec.Winner == nil && !behind[pi]:
			t.Draws++
		default:
			t.Losses++
		}
		if f := rec.Players[pi].Fault; isFault(string(f)) {
			t.Faults[f]++
		}
		t.TimeMs += rec.Players[pi].TimeMs
	}
	for _, m := range rec.Moves {
		tallies[rec.Seats[m.Side]].Moves++
	}
}

// emitGame prints the JSON line of a finished game (the same for
// matches, tournaments and SPRTs).
func emitGame(w io.Writer, rec *game.Record, path string) error {
	line := summaryLine{
		Type: "game", ID: rec.ID, Game: rec.Game, First: rec.FirstPlayer(), Winner: rec.Winner, Scores: rec.Scores,
		Reason: rec.Reason, Detail: rec.Detail, Moves: rec.Length(), Record: path, Sandbox: rec.Sandbox, Worker: rec.Worker,
	}
	if len(rec.Seats) > 2 {
		line.Seats = rec.Seats
	}
	for _, p := range rec.Players {
		line.Players = append(line.Players, p.Name)
	}
	return writeJSONLine(w, line)
}

// writeJSONLine prints v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode JSON: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// summary prints the standings table and, for two players, the Elo
// difference the score implies with its 95 % interval.
func (s *series) summary(out io.Writer, tallies []tally) {
	order := make([]int, len(s.players))
	for i := range order {
		order[i] = i
	}
	points := func(t tally) float64 { return float64(t.Wins) + float64(t.Draws)/2 }
	sort.SliceStable(order, func(a, b int) bool { return points(tallies[order[a]]) > points(tallies[order[b]]) })

	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "player\tgames\twins\tdraws\tlosses\tpoints\ttimeout\tcrash\tillegal\tprotocol\tmemory\tms/move")
	for _, i := range order {
		t := tallies[i]
		n := t.Wins + t.Draws + t.Losses
		perMove := 0.0
		if t.Moves > 0 {
			perMove = t.TimeMs / float64(t.Moves)
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.1f\t%d\t%d\t%d\t%d\t%d\t%.1f\n", s.players[i].Name, n,
			t.Wins, t.Draws, t.Losses, points(t), t.Faults[game.ReasonTimeout], t.Faults[game.ReasonCrash],
			t.Faults[game.ReasonIllegal], t.Faults[game.ReasonProtocol], t.Faults[game.ReasonMemory], perMove)
	}
	w.Flush()
	if len(tallies) == 2 {
		t := tallies[0]
		if n := t.Wins + t.Draws + t.Losses; n > 0 {
			score := rating.Score{Wins: t.Wins, Draws: t.Draws, Losses: t.Losses}
			diff, margin := score.Elo()
			fmt.Fprintf(out, "%s vs %s: %s, LOS %.1f %%\n", s.players[0].Name, s.players[1].Name,
				formatElo(diff, margin), 100*score.LOS())
		}
	}
}

func formatElo(diff, margin float64) string {
	switch {
	case math.IsInf(diff, 1):
		return "all points to the first (Elo difference unbounded)"
	case math.IsInf(diff, -1):
		return "all points to the second (Elo difference unbounded)"
	case math.IsNaN(margin) || math.IsInf(margin, 0):
		return fmt.Sprintf("Elo difference %+.0f (too few games for an interval)", diff+0)
	}
	return fmt.Sprintf("Elo difference %+.0f ± %.0f (95 %%)", diff+0, margin)
}

// describeResult says who won and why in words.
func describeResult(rec *game.Record) string {
	moves := game.Count(rec.Length(), "move")
	if rec.Winner == nil {
		return fmt.Sprintf("draw (%s) after %s", rec.Reason, moves)
	}
	w := rec.Players[*rec.Winner].Name
	s := fmt.Sprintf("%s won by %s after %s", w, rec.Reason, moves)
	if rec.Detail != "" && rec.Reason != "five" {
		s += ": " + rec.Detail
	}
	return s
}
