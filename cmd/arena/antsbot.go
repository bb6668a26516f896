package main

import (
	"github.com/spf13/cobra"

	"arena/bots/antsbot"
)

// newAntsBotCmd is "arena bot ants": arena's own Ants player speaking the
// AI Challenge bot protocol on stdin/stdout.
func newAntsBotCmd() *cobra.Command {
	var sample string
	var seed int64
	cmd := &cobra.Command{
		Use:   "ants",
		Short: "arena's Ants bot: the AI Challenge bot protocol on stdin/stdout",
		Long: `arena's Ants bot speaks the AI Challenge 2011 bot protocol on stdin/stdout:
it reads the turn-0 settings, answers "go", then plays every turn with
"o ROW COL DIR" orders and "go" until the engine sends "end".
With --sample it plays one of the simple opponents instead (random, hold,
lefty, greedy, hunter), in the style of the engine's Python sample bots.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var pl antsbot.Player = antsbot.New()
			if sample != "" {
				var err error
				if pl, err = antsbot.NewSample(sample, seed); err != nil {
					return err
				}
			}
			return antsbot.Run(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), pl)
		},
	}
	cmd.Flags().StringVar(&sample, "sample", "", "play a sample strategy instead: random, hold, lefty, greedy or hunter")
	cmd.Flags().Int64Var(&seed, "seed", 0, "random seed of a sample strategy (default: the engine's player_seed)")
	return cmd
}
