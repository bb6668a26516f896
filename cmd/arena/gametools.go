package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"arena/game"
	"arena/game/ants"
	"arena/game/ants/mapgen"
	"arena/game/ants/replaystats"
	"arena/game/points"
)

func pointsCommands() []*cobra.Command {
	root := &cobra.Command{
		Use:   "points",
		Short: "Points tools: replay a game record move by move",
		Args:  cobra.NoArgs,
	}
	root.AddCommand(newPointsReplayCmd())
	return []*cobra.Command{root}
}

func newPointsReplayCmd() *cobra.Command {
	var ply int
	var all bool
	cmd := &cobra.Command{
		Use:   "replay RECORD.json",
		Short: "Re-play a game record through the referee and draw the field",
		Long: `Re-play a Points game record (the JSON arena writes) move by move through
the referee, checking that every move does what the record says (captures,
areas, score), and draw the field: after the last move, after move --ply, or
after every move with --all. In the drawing '.' is a free point, 'x' and 'o'
live red and blue dots, 'X' and 'O' dots inside the other colour's area, '+'
and '-' empty points of red and blue areas.`,
		Example: `  arena points replay arena-out/points-20260101-120000-001.json --ply 40`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := game.ReadRecord(args[0])
			if err != nil {
				return err
			}
			if ply < 0 || ply > len(rec.Moves) {
				return fmt.Errorf("--ply %d: the record has %d moves", ply, len(rec.Moves))
			}
			w := cmd.OutOrStdout()
			draw := func(n int, s *points.State) {
				fmt.Fprintf(w, "after move %d: red %d, blue %d\n%s\n", n, s.Score(points.Red), s.Score(points.Blue), s.Field())
			}
			final, err := points.Replay(rec, func(n int, s *points.State, _ points.Effect) {
				if all || n == ply {
					draw(n, s)
				}
			})
			if err != nil {
				return err
			}
			if !all && ply == 0 {
				draw(len(rec.Moves), final)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&ply, "ply", 0, "draw the field after this move (0 = the last)")
	cmd.Flags().BoolVar(&all, "all", false, "draw the field after every move")
	return cmd
}

// antsCommands is "arena ants": the map generator and the conformance
// check against games recorded from the official engine.
func antsCommands() []*cobra.Command {
	root := &cobra.Command{
		Use:   "ants",
		Short: "Ants tools: generate maps, check the referee against recorded official games, sum up games",
		Args:  cobra.NoArgs,
	}
	root.AddCommand(newAntsMapCmd(), newAntsConformanceCmd(), newAntsReportCmd())
	return []*cobra.Command{root}
}

func newAntsConformanceCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "conformance DIR...",
		Short: "Replay games recorded from the official engine and compare every byte",
		Long: `Replay games recorded from the official Python engine through arena's
referee and compare: every byte sent to every bot (bot<i>.input), the replay
(replay.json, as JSON values), the judged orders (bot<i>.output), the
engine's notes in the error logs (bot<i>.error: crashes, timeouts, ignored
and invalid orders; the bots' own stderr is ignored) and the stream
(stream.txt). A folder holds one game (map.map, game.json, bot<i>.moves,
...) as in the repository's testdata/conformance/ants; a folder without game.json is searched
for game folders one level down. Prints PASS NAME or FAIL NAME: <first
difference> per game and fails if any game fails.`,
		Example: `  arena ants conformance testdata/conformance/ants
  arena ants conformance testdata/conformance/ants/v1_tutorial1_hunter_greedy_strict`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var dirs []string
			for _, a := range args {
				if _, err := os.Stat(filepath.Join(a, "game.json")); err == nil {
					dirs = append(dirs, a)
					continue
				}
				entries, err := os.ReadDir(a)
				if err != nil {
					return fmt.Errorf("conformance: %w", err)
				}
				found := false
				for _, e := range entries {
					sub := filepath.Join(a, e.Name())
					if _, err := os.Stat(filepath.Join(sub, "game.json")); e.IsDir() && err == nil {
						dirs = append(dirs, sub)
						found = true
					}
				}
				if !found {
					return fmt.Errorf("conformance: %s holds no recorded game (no game.json)", a)
				}
			}
			failed := 0
			for _, dir := range dirs {
				name := filepath.Base(filepath.Clean(dir))
				diff, err := ants.Conform(cmd.Context(), dir)
				if err != nil {
					diff = err.Error()
				}
				if diff != "" {
					failed++
					fmt.Fprintf(cmd.OutOrStdout(), "FAIL %s: %s\n", name, strings.ReplaceAll(diff, "\n", " "))
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "PASS %s\n", name)
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d games differ from the official engine", failed, len(dirs))
			}
			return nil
		},
	}
}

// newAntsMapCmd is "arena ants map": write a generated symmetric map.
func newAntsMapCmd() *cobra.Command {
	var o mapgen.Options
	var out string
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Generate a symmetric Ants map (2-10 players) in the official .map format",
		Long: `Generate a map for Ants in the official .map format. Maps are symmetric
(translate: players side by side, any count; rotate: 2 players, or 4 on a
square map; mirror: 2 or 4 players), every land square is reachable, and
hills of different players are far apart, so the engine's validity and
symmetry checks accept them. The same options and seed give the same map.`,
		Example: `  arena ants map --players 2 --seed 7 --out duel.map
  arena ants map --players 4 --seed 1 --rows 80 --cols 80 --symmetry rotate`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			text, err := mapgen.Generate(o)
			if err != nil {
				return err
			}
			if out == "" || out == "-" {
				_, err = fmt.Fprint(cmd.OutOrStdout(), text)
				return err
			}
			if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Players, "players", 2, "number of players (2..10)")
	f.Int64Var(&o.Seed, "seed", 1, "random seed")
	f.IntVar(&o.Rows, "rows", 0, "rows (default: from the seed, about 2500 squares per player)")
	f.IntVar(&o.Cols, "cols", 0, "columns (give with --rows)")
	f.StringVar(&o.Symmetry, "symmetry", "", "translate, rotate or mirror (default: from the seed)")
	f.IntVar(&o.Hills, "hills", 1, "hills per player (1..3)")
	f.Float64Var(&o.Water, "water", 0, "share of squares seeded as water before smoothing (default 0.45)")
	f.IntVar(&o.MinHillDistance, "min-hill-distance", 0, "fewest steps between hills of different players (default: from the size, at most 20)")
	f.StringVar(&out, "out", "", "write the map to this file (default stdout)")
	return cmd
}

// newAntsReportCmd is "arena ants report": figures summed over the
// replays of a folder of games.
func newAntsReportCmd() *cobra.Command {
	o := replaystats.DefaultOptions()
	var byMap bool
	cmd := &cobra.Command{
		Use:   "report DIR|REPLAY...",
		Short: "Sum up Ants games from their replays: W/D/L, ants alive at a turn, deaths, hills lost",
		Long: `Read every replay (*.replay, as arena match and arena sprt write them, or an
official engine's replay JSON) in the folders given and print, player by
player: games won, drawn and lost; its share of the ants alive at --turn
(over the games that lasted that long); its ants killed per enemy ant
killed; its lone deaths (no other of its ants within squared distance
--lone-r2 when it died); the hills it lost. Players are named as in the
game record beside the replay (ID.json), else as in the replay.`,
		Example: `  arena ants report runs/ours-vs-partner
  arena ants report --by-map --turn 200 runs/a runs/b`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var files []string
			for _, a := range args {
				st, err := os.Stat(a)
				if err != nil {
					return fmt.Errorf("report: %w", err)
				}
				if !st.IsDir() {
					files = append(files, a)
					continue
				}
				found, err := filepath.Glob(filepath.Join(a, "*.replay"))
				if err != nil {
					return fmt.Errorf("report: %w", err)
				}
				if len(found) == 0 {
					return fmt.Errorf("report: %s holds no replay (*.replay)", a)
				}
				files = append(files, found...)
			}
			var all replaystats.Totals
			perMap := map[string]*replaystats.Totals{}
			var maps []string
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					return fmt.Errorf("report: %w", err)
				}
				g, err := replaystats.Parse(data, o)
				if err != nil {
					return fmt.Errorf("report: %s: %w", f, err)
				}
				mapName := nameFromRecord(f, g)
				all.Add(g)
				if perMap[mapName] == nil {
					perMap[mapName] = &replaystats.Totals{}
					maps = append(maps, mapName)
				}
				perMap[mapName].Add(g)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%d games\n", len(files))
			printTotals(w, "", all, o)
			if byMap {
				slices.Sort(maps)
				for _, m := range maps {
					printTotals(w, m, *perMap[m], o)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Turn, "turn", o.Turn, "count the ants alive at this turn")
	f.IntVar(&o.LoneR2, "lone-r2", o.LoneR2, "a death is lone with no friend within this squared distance")
	f.BoolVar(&byMap, "by-map", false, "also print the figures map by map")
	return cmd
}

// nameFromRecord takes the players' names (seat order) and the map's
// name from arena's game record beside the replay, when there is one,
// and returns the map's name ("" when unknown).
func nameFromRecord(replayFile string, g *replaystats.Game) string {
	data, err := os.ReadFile(strings.TrimSuffix(replayFile, ".replay") + ".json")
	if err != nil {
		return ""
	}
	var rec struct {
		Options struct {
			Map string `json:"map"`
		} `json:"options"`
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
		Seats []int `json:"seats"`
	}
	if json.Unmarshal(data, &rec) != nil {
		return ""
	}
	if len(rec.Players) == len(g.Names) && len(rec.Seats) == len(rec.Players) {
		names := make([]string, len(g.Names))
		for i, seat := range rec.Seats {
			if seat < 0 || seat >= len(names) {
				return strings.TrimSuffix(filepath.Base(rec.Options.Map), ".map")
			}
			names[seat] = rec.Players[i].Name
		}
		g.Names = names
	}
	return strings.TrimSuffix(filepath.Base(rec.Options.Map), ".map")
}

func printTotals(w io.Writer, label string, t replaystats.Totals, o replaystats.Options) {
	if label != "" {
		fmt.Fprintf(w, "%s\n", label)
	}
	fmt.Fprintf(w, "  %-16s %5s %11s %6s %9s %11s %11s %10s\n", "player", "games", "W/D/L", "won", fmt.Sprintf("share@%d", o.Turn), "dead/killed", "lone deaths", "hills lost")
	for _, p := range t.List {
		fmt.Fprintf(w, "  %-16s %5d %11s %5.1f%% %9.3f %11.2f %11d %10d\n", p.Name, p.Games,
			fmt.Sprintf("%d/%d/%d", p.Won, p.Drawn, p.Lost), 100*float64(p.Won)/float64(p.Games),
			p.Share(), p.DeadPerEnemy(), p.LoneDead, p.HillsLost)
	}
}
