package ants

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/bots/antsbot"
	"arena/game/ants/mapgen"
)

// The official engine's referee time per turn (aichallenge ants.py and
// engine.py under CPython 3.11, replaying recorded orders on this kind of
// 2-core machine): fixed reference figures (issue 18), printed beside ours
// with the ratio. Ours is measured here; the engine is not run.
const (
	official2p       = 1.37 // ms per turn, 2 players
	official4p200    = 2.82 // 4 players, 200 turns
	official4p1000   = 3.10 // 4 players, 1000 turns
	official8p       = 4.37 // 8 players
	officialStressMs = 12.4 // a turn with about 1200 ants
)

// gameCase is one game replayed from its recorded orders.
type gameCase struct {
	name     string
	official float64 // ms per turn
	rec      *Recorded
}

// reportOfficial prints our time per turn beside the official engine's
// and the ratio between them, from the wall clock and from this process's
// CPU time (the machine may be shared).
func reportOfficial(b *testing.B, turns int, official float64, cpu time.Duration) {
	wall := float64(b.Elapsed().Nanoseconds()) / 1e6 / float64(turns)
	cpuMs := float64(cpu.Nanoseconds()) / 1e6 / float64(turns)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(wall*1000, "µs/turn")
	b.ReportMetric(official*1000, "official-µs/turn")
	b.ReportMetric(official/wall, "x-official")
	b.ReportMetric(official/cpuMs, "x-official-cpu")
}

// BenchmarkRefereeVsOfficial replays whole games from their recorded
// orders through the referee (every turn judged, every bot's text
// rendered, the replay written; no optional logs) and compares the time
// per turn with the official engine's: the recorded official 2- and
// 4-player games, and 4- and 8-player games of 1000 turns played here by
// the sample bots (the Go ports of the official Python sample bots).
// The games of a case share a FoodCache, as the games of a runner do.
func BenchmarkRefereeVsOfficial(b *testing.B) {
	var cases []gameCase
	for _, g := range []string{"v1_tutorial1_hunter_greedy_strict", "v2_random_walk_p02_03_greedy_random",
		"v3_cell_maze_p02_08_greedy_hunter", "v4_maze_p02_01_hunter_hunter", "v8_maze_p02_02_greedy_random_foodnone"} {
		rec, err := LoadRecorded(filepath.Join(conformanceDir(b), g))
		if err != nil {
			b.Fatal(err)
		}
		cases = append(cases, gameCase{"2p/" + g[:2], official2p, rec})
	}
	v5, err := LoadRecorded(filepath.Join(conformanceDir(b), "v5_maze_p04_03_4p"))
	if err != nil {
		b.Fatal(err)
	}
	cases = append(cases, gameCase{"4p-200/v5", official4p200, v5})
	// 1000 turns on the map of v5 with its seeds, HunterBot, GreedyBot,
	// LeftyBot and RandomBot as in v5.
	long, err := recordSampleGame(v5.MapText, v5.Options, 1000, []string{"hunter", "greedy", "lefty", "random"})
	if err != nil {
		b.Fatal(err)
	}
	cases = append(cases, gameCase{"4p-1000", official4p1000, long})
	m8, err := mapgen.Generate(mapgen.Options{Players: 8, Seed: 8, Rows: 120, Cols: 120})
	if err != nil {
		b.Fatal(err)
	}
	opt8 := DefaultOptions()
	opt8.EngineSeed, opt8.PlayerSeed = 8, 8
	eight, err := recordSampleGame(m8, opt8, 1000, []string{"hunter", "greedy", "lefty", "random", "hunter", "greedy", "lefty", "random"})
	if err != nil {
		b.Fatal(err)
	}
	cases = append(cases, gameCase{"8p-1000", official8p, eight})

	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			bots := newRecordedBots(c.rec.Answers)
			cache := NewFoodCache()
			turns := 0
			var last *Result
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				m, err := ParseMap(c.rec.MapText)
				if err != nil {
					b.Fatal(err)
				}
				st, err := NewState(m, c.rec.Options)
				if err != nil {
					b.Fatal(err)
				}
				st.UseFoodCache(cache)
				e := &Engine{State: st, Bots: bots, Sleep: func(time.Duration) {}}
				res, err := e.Run(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				_ = ReplayJSON(res, c.rec.Names)
				turns += res.GameLength
				last = res
			}
			cpu := cpuTime() - cpu0
			b.StopTimer()
			if bots.missing != "" {
				b.Fatal(bots.missing)
			}
			b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
			b.ReportMetric(antsPerTurn(last), "ants/turn")
			reportOfficial(b, turns, c.official, cpu)
		})
	}
}

// recordSampleGame plays a game between sample bots (antsbot, in this
// process, over real pipes) through the referee and returns it as a
// recorded game: the map, the options and every bot's answers.
func recordSampleGame(mapText string, opt Options, turns int, samples []string) (*Recorded, error) {
	m, err := ParseMap(mapText)
	if err != nil {
		return nil, err
	}
	if m.Players != len(samples) {
		return nil, fmt.Errorf("map for %d players, %d bots", m.Players, len(samples))
	}
	opt.Turns = turns
	st, err := NewState(m, opt)
	if err != nil {
		return nil, err
	}
	bots, err := startSampleBots(samples)
	if err != nil {
		return nil, err
	}
	e := &Engine{State: st, Bots: bots, Sleep: func(time.Duration) {}}
	_, err = e.Run(context.Background())
	bots.close()
	if err != nil {
		return nil, err
	}
	if bots.err != nil {
		return nil, bots.err
	}
	rec := &Recorded{MapText: mapText, Options: opt, Answers: bots.answers}
	for _, s := range samples {
		rec.Names = append(rec.Names, s)
	}
	return rec, nil
}

// sampleBots runs sample bots as goroutines behind OS pipes and keeps
// every answer they give, turn by turn.
type sampleBots struct {
	in      []*os.File // the bots' input, written by Send
	outR    []*os.File
	out     []*bufio.Reader
	done    []chan error
	answers []map[int]Answer
	err     error
}

func startSampleBots(names []string) (*sampleBots, error) {
	sb := &sampleBots{}
	for _, name := range names {
		pl, err := antsbot.NewSample(name, 0)
		if err != nil {
			sb.close()
			return nil, err
		}
		inR, inW, err := os.Pipe()
		if err != nil {
			sb.close()
			return nil, err
		}
		outR, outW, err := os.Pipe()
		if err != nil {
			inR.Close()
			inW.Close()
			sb.close()
			return nil, err
		}
		done := make(chan error, 1)
		go func() {
			err := antsbot.Run(context.Background(), inR, outW, pl)
			inR.Close()
			outW.Close()
			done <- err
		}()
		sb.in = append(sb.in, inW)
		sb.outR = append(sb.outR, outR)
		sb.out = append(sb.out, bufio.NewReaderSize(outR, 1<<16))
		sb.done = append(sb.done, done)
		sb.answers = append(sb.answers, map[int]Answer{})
	}
	return sb, nil
}

func (sb *sampleBots) Started(int) bool { return true }

func (sb *sampleBots) Send(b int, text []byte) {
	if sb.in[b] == nil {
		return
	}
	if _, err := sb.in[b].Write(text); err != nil && sb.err == nil {
		sb.err = fmt.Errorf("bot %d: %w", b, err)
	}
}

func (sb *sampleBots) Moves(turn int, group []int, _ time.Duration) []Answer {
	out := make([]Answer, len(group))
	for i, b := range group {
		for {
			line, err := sb.out[b].ReadString('\n')
			if err != nil {
				if sb.err == nil {
					sb.err = fmt.Errorf("bot %d turn %d: %w", b, turn, err)
				}
				out[i].Status = "crashed"
				break
			}
			line = pyStrip(line)
			if strings.ToLower(line) == "go" {
				break
			}
			out[i].Lines = append(out[i].Lines, line)
		}
		sb.answers[b][turn] = out[i]
	}
	return out
}

func (sb *sampleBots) Resume(int) {}

func (sb *sampleBots) Kill(b int) {
	if sb.in[b] != nil {
		sb.in[b].Close()
		sb.in[b] = nil
	}
}

// close ends every bot, waits for it and keeps the first error of a
// pipe or of a bot's protocol in err.
func (sb *sampleBots) close() {
	for b := range sb.in {
		sb.Kill(b)
	}
	for b, done := range sb.done {
		if err := <-done; err != nil && sb.err == nil {
			sb.err = fmt.Errorf("bot %d: %w", b, err)
		}
		sb.outR[b].Close()
	}
}

// antsPerTurn is the mean number of live ants over the turns of a game.
func antsPerTurn(res *Result) float64 {
	total := 0
	for _, a := range res.State.AllAnts {
		end := res.GameLength
		if a.Killed {
			end = a.DieTurn
		}
		total += end - a.SpawnTurn
	}
	return float64(total) / float64(max(res.GameLength, 1))
}
