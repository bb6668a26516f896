// Command arena runs matches and tournaments between game-playing
// programs and referees them. See README.md for the two commands to start
// with.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRoot().ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "arena",
		Short:         "Run and referee matches between game-playing programs",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newMatchCmd(), newBotCmd(), newGamesCmd(), newTournamentCmd(), newStandingsCmd(), newExportCmd(), newSprtCmd(), newServeCmd())
	for _, d := range drivers() {
		if d.commands != nil {
			root.AddCommand(d.commands()...)
		}
	}
	return root
}

func newGamesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games arena can referee",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg := games()
			for _, name := range reg.Names() {
				info, _ := reg.Lookup(name)
				players := fmt.Sprint(info.Players[0])
				if info.Players[1] != info.Players[0] {
					players = fmt.Sprintf("%d-%d", info.Players[0], info.Players[1])
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%-8s %s (%s players)\n", info.Name, info.Title, players)
			}
			return nil
		},
	}
}

func newMatchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "match GAME",
		Short: "Play games between two bots and report the score",
	}
	for _, d := range drivers() {
		cmd.AddCommand(newMatchGameCmd(d))
	}
	return cmd
}

func newBotCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bot GAME",
		Short: "Run one of arena's own bots on stdin/stdout (or the game's file protocol)",
	}
	for _, d := range drivers() {
		if d.bot != nil {
			cmd.AddCommand(d.bot())
		}
	}
	return cmd
}
