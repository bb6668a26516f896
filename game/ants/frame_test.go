package ants

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"arena/game"
)

// wireFrame is the frame JSON as a viewer reads it.
type wireFrame struct {
	Turn   int      `json:"turn"`
	Ants   [][]int  `json:"ants"`
	Dead   [][]int  `json:"dead"`
	Food   []int    `json:"food"`
	Hills  [][3]int `json:"hills"`
	Scores []int    `json:"scores"`
	Alive  []int    `json:"alive"`
}

// normalize sorts the lists whose order is the engine's and no viewer's
// business.
func (f *wireFrame) normalize() {
	for _, l := range f.Ants {
		slices.Sort(l)
	}
	for _, l := range f.Dead {
		slices.Sort(l)
	}
	slices.Sort(f.Food)
	slices.SortFunc(f.Hills, func(a, b [3]int) int { return a[0] - b[0] })
}

// listener keeps what a game.Listener is told.
type listener struct {
	starts int
	header *game.Record
	moves  []game.MoveRecord
	plies  []int
}

func (l *listener) Started(h *game.Record) { l.starts++; l.header = h }
func (l *listener) Moved(ply int, m game.MoveRecord) {
	l.plies = append(l.plies, ply)
	l.moves = append(l.moves, m)
}

// replayFrames builds every turn's frame from a rev-3 replay the way the
// web page does (web/static/games/ants.js): ants walk their order strings
// from where they spawned.
func replayFrames(t *testing.T, replay []byte) (rows, cols int, water []string, frames []wireFrame) {
	t.Helper()
	var r struct {
		GameLength int `json:"game_length"`
		Data       struct {
			Ants  [][]any `json:"ants"`
			Food  [][]int `json:"food"`
			Hills [][]int `json:"hills"`
			Map   struct {
				Rows, Cols int
				Data       []string
			} `json:"map"`
			Players int     `json:"players"`
			Scores  [][]int `json:"scores"`
		} `json:"replaydata"`
	}
	if err := json.Unmarshal(replay, &r); err != nil {
		t.Fatalf("replay: %v", err)
	}
	d := r.Data
	rows, cols = d.Map.Rows, d.Map.Cols
	for _, line := range d.Map.Data {
		water = append(water, strings.Map(func(c rune) rune {
			if c == '%' {
				return '%'
			}
			return '.'
		}, line))
	}
	n, last := d.Players, r.GameLength
	frames = make([]wireFrame, last+1)
	for turn := range frames {
		f := &frames[turn]
		f.Turn = turn
		f.Ants, f.Dead = make([][]int, n), make([][]int, n)
		f.Scores = make([]int, n)
		for p := 0; p < n; p++ {
			h := d.Scores[p]
			f.Scores[p] = h[min(turn, len(h)-1)]
		}
	}
	dir := map[byte][2]int{'n': {-1, 0}, 'e': {0, 1}, 's': {1, 0}, 'w': {0, -1}, '-': {0, 0}}
	for _, a := range d.Ants {
		row, col := int(a[0].(float64)), int(a[1].(float64))
		start, end, owner := int(a[2].(float64)), int(a[3].(float64)), int(a[4].(float64))
		orders := a[5].(string)
		for turn := start; turn <= min(end, last); turn++ {
			if turn > start {
				step := dir[orders[turn-start-1]]
				row, col = (row+step[0]+rows)%rows, (col+step[1]+cols)%cols
			}
			switch {
			case turn < end:
				frames[turn].Ants[owner] = append(frames[turn].Ants[owner], row*cols+col)
			case end <= last:
				frames[turn].Dead[owner] = append(frames[turn].Dead[owner], row*cols+col)
			}
		}
	}
	for _, fd := range d.Food {
		for turn := fd[2]; turn < min(fd[3], last+1); turn++ {
			frames[turn].Food = append(frames[turn].Food, fd[0]*cols+fd[1])
		}
	}
	for turn := range frames {
		for _, h := range d.Hills {
			razed := 0
			if h[3] <= turn {
				razed = 1
			}
			frames[turn].Hills = append(frames[turn].Hills, [3]int{h[0]*cols + h[1], h[2], razed})
		}
		frames[turn].normalize()
	}
	return rows, cols, water, frames
}

// The frames a listener gets during a game with real bot processes agree,
// turn for turn, with the replay file of the same game.
func TestLiveFramesAgreeWithReplay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		turns  int
		seed   int64
		modes  []string
		battle bool // the game has deaths, so the dead lists are checked too
	}{
		{"random", 200, 10, []string{"random", "random"}, true},
		{"one holds", 60, 7, []string{"random", "hold"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var players []Player
			for i, m := range tc.modes {
				players = append(players, testPlayer(t, fmt.Sprintf("p%d", i), m, 99))
			}
			l := &listener{}
			opt := quickOptions(tc.turns)
			opt.EngineSeed, opt.PlayerSeed = tc.seed, tc.seed
			// A bot that times out on a loaded machine ends the game early:
			// time enough that only a hung bot would.
			opt.LoadTime, opt.TurnTime = 30000, 30000
			mc := MatchConfig{Options: opt, MapText: tutorialMap(t), MapName: "tutorial1", WorkDir: t.TempDir(), Listener: l}
			played, err := PlayGame(context.Background(), mc, Game{ID: "live", Players: players, Seats: []int{1, 0}})
			if err != nil {
				t.Fatal(err)
			}
			if l.starts != 1 || l.header == nil {
				t.Fatalf("Started called %d times", l.starts)
			}
			if l.header.ID != "live" || l.header.Game != "ants" || !slices.Equal(l.header.Seats, []int{1, 0}) || len(l.header.Players) != 2 {
				t.Fatalf("header: %+v", l.header)
			}
			var opts struct {
				Rows, Cols int
				Water      []string
				Start      wireFrame
				Turns      int
			}
			if err := json.Unmarshal(l.header.Options, &opts); err != nil {
				t.Fatal(err)
			}
			rows, cols, water, want := replayFrames(t, played.Replay)
			if opts.Rows != rows || opts.Cols != cols || !slices.Equal(opts.Water, water) || opts.Turns != tc.turns {
				t.Fatalf("header map %dx%d (turns %d) differs from the replay's %dx%d", opts.Rows, opts.Cols, opts.Turns, rows, cols)
			}
			if len(l.moves) != played.Record.Turns || len(want) != played.Record.Turns+1 {
				t.Fatalf("%d frames for %d turns (replay %d positions)", len(l.moves), played.Record.Turns, len(want))
			}
			got := []wireFrame{opts.Start}
			for i, m := range l.moves {
				if m.Side != -1 || m.Move != fmt.Sprintf("turn %d", i+1) || l.plies[i] != i+1 {
					t.Fatalf("move %d: side %d %q ply %d", i, m.Side, m.Move, l.plies[i])
				}
				var f wireFrame
				if err := json.Unmarshal(m.Effect, &f); err != nil {
					t.Fatalf("turn %d frame: %v\n%s", i+1, err, m.Effect)
				}
				got = append(got, f)
			}
			deaths, ants := 0, 0
			for turn := range got {
				g, w := got[turn], want[turn]
				g.normalize()
				for p := range g.Ants {
					deaths += len(g.Dead[p])
					ants += len(g.Ants[p])
					if !slices.Equal(g.Ants[p], w.Ants[p]) {
						t.Fatalf("turn %d seat %d ants %v, replay %v", turn, p, g.Ants[p], w.Ants[p])
					}
					if !slices.Equal(g.Dead[p], w.Dead[p]) {
						t.Fatalf("turn %d seat %d dead %v, replay %v", turn, p, g.Dead[p], w.Dead[p])
					}
				}
				// The replay's score history starts with the scores before
				// turn 0 while a frame has them after it: a bot failing in
				// turn 0 has lost its hill's point only in the frame.
				if turn == 0 {
					g.Scores = w.Scores
				}
				if g.Turn != turn || !slices.Equal(g.Food, w.Food) || !slices.Equal(g.Hills, w.Hills) || !slices.Equal(g.Scores, w.Scores) {
					t.Fatalf("turn %d: got turn %d food %v hills %v scores %v\nreplay food %v hills %v scores %v",
						turn, g.Turn, g.Food, g.Hills, g.Scores, w.Food, w.Hills, w.Scores)
				}
			}
			t.Logf("%d turns, %d ant-turns, %d deaths", len(got)-1, ants, deaths)
			if tc.battle && deaths == 0 {
				t.Fatal("no ant died: the dead lists were not tested")
			}
			var recOpts struct {
				Rows  int
				Water []string
				Start json.RawMessage
			}
			if err := json.Unmarshal(played.Record.Options, &recOpts); err != nil {
				t.Fatal(err)
			}
			if recOpts.Rows != rows || len(recOpts.Water) != rows || recOpts.Start != nil {
				t.Fatalf("the record keeps rows %d, %d water rows, start %s", recOpts.Rows, len(recOpts.Water), recOpts.Start)
			}
		})
	}
}

// Without a listener the record still carries the map and nothing is
// reported.
func TestNoListener(t *testing.T) {
	players := []Player{testPlayer(t, "a", "random", 99), testPlayer(t, "b", "random", 99)}
	opt := quickOptions(5)
	opt.LoadTime, opt.TurnTime = 30000, 30000
	mc := MatchConfig{Options: opt, MapText: tutorialMap(t), WorkDir: t.TempDir()}
	played, err := PlayGame(context.Background(), mc, Game{ID: "quiet", Players: players, Seats: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ Rows, Cols int }
	if err := json.Unmarshal(played.Record.Options, &o); err != nil || o.Rows != 43 || o.Cols != 39 {
		t.Fatalf("record options %s: %v", played.Record.Options, err)
	}
}

func BenchmarkFrame(b *testing.B) {
	st := newBenchState(b)
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = st.appendFrame(buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "bytes/frame")
}
