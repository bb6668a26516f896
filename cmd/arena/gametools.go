package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"arena/game"
	"arena/game/ants"
	"arena/game/ants/mapgen"
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
		Short: "Ants tools: generate maps, check the referee against recorded official games",
		Args:  cobra.NoArgs,
	}
	root.AddCommand(newAntsMapCmd(), newAntsConformanceCmd())
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
