package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"arena/game/ants/mapgen"
)

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
