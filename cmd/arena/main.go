// Command arena runs matches and tournaments between game-playing
// programs and referees them. See README.md for the two commands to start
// with.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"arena/bot"
	"arena/internal/version"
	"arena/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRoot().ExecuteContext(ctx)
	stop()
	bot.Shutdown() // the sandbox's guard ends with arena, not a moment after it
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "arena",
		Short:         "Run and referee matches between game-playing programs",
		Long:          "Run and referee matches between game-playing programs.\n\nGames:\n" + gameList(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version.String(),
	}
	root.SetVersionTemplate("arena {{.Version}}\n")
	root.AddCommand(newMatchCmd(), newBotCmd(), newGamesCmd(), newTournamentCmd(), newStandingsCmd(), newExportCmd(), newSprtCmd(), newServeCmd(), newDoctorCmd(), newWorkerCmd(), newWorkersCmd(), newContestCmd(), newSubmitCmd())
	for _, c := range root.Commands() {
		switch c.Name() {
		case "match", "bot", "tournament", "sprt":
			takesGame(c)
		}
	}
	for _, d := range drivers() {
		if d.commands != nil {
			root.AddCommand(d.commands()...)
		}
	}
	return root
}

// gameList describes the games arena plays, one a line, for the help.
func gameList() string {
	var b strings.Builder
	reg := games()
	for _, name := range reg.Names() {
		d, _ := reg.Lookup(name)
		info := d.info
		players := fmt.Sprint(info.Players[0])
		if info.Players[1] != info.Players[0] {
			players = fmt.Sprintf("%d-%d", info.Players[0], info.Players[1])
		}
		fmt.Fprintf(&b, "  %-8s %s (%s players)\n", info.Name, info.Title, players)
	}
	return b.String()
}

func newGamesCmd() *cobra.Command {
	var db, gameName, tournamentName string
	var limit int
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the stored games (tournaments' and the web page's), the last stored first",
		Long: `List the games in the store that arena tournament and arena serve keep
(OUT/arena.db, or --db), the last stored first. The games of "arena match"
are files in its --out folder, not in the store.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if gameName != "" {
				if _, ok := driverByName(gameName); !ok {
					return unknownName("game", gameName, "--game takes", gameNames())
				}
			}
			st, err := openExistingStore(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer st.Close()
			gs, err := st.RecentGames(cmd.Context(), store.GameFilter{Game: gameName, Tournament: tournamentName, Limit: limit})
			if err != nil {
				return err
			}
			return printGames(cmd.OutOrStdout(), gs, jsonOut)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&db, "db", filepath.Join("arena-out", "arena.db"), "the store: a SQLite file or postgres://...")
	fl.StringVar(&gameName, "game", "", "only games of this game (gomoku, khet, ...)")
	fl.StringVar(&tournamentName, "tournament", "", "only the games of this tournament")
	fl.IntVar(&limit, "limit", store.DefaultLimit, "list at most this many games")
	fl.BoolVar(&jsonOut, "json", false, "print one JSON object per game")
	return cmd
}

// storedGameLine is the JSON line of "arena games --json".
type storedGameLine struct {
	Type       string   `json:"type"`
	ID         string   `json:"id"`
	Game       string   `json:"game"`
	Tournament string   `json:"tournament,omitempty"`
	Players    []string `json:"players"`
	Winner     *int     `json:"winner"`
	Reason     string   `json:"reason"`
	Moves      int      `json:"moves"`
	End        string   `json:"end"`
}

// printGames lists stored games for people, or as JSON lines.
func printGames(w io.Writer, gs []store.GameSummary, jsonOut bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if !jsonOut {
		fmt.Fprintln(tw, "id\tgame\ttournament\tplayers\tresult\tmoves\tend")
	}
	for _, g := range gs {
		end := g.End.UTC().Format("2006-01-02 15:04:05")
		if jsonOut {
			line := storedGameLine{Type: "game", ID: g.ID, Game: g.Game, Tournament: g.Tournament, Players: g.Players,
				Winner: g.Winner, Reason: g.Reason, Moves: g.Moves, End: end}
			if err := writeJSONLine(w, line); err != nil {
				return err
			}
			continue
		}
		result := "draw (" + g.Reason + ")"
		if g.Winner != nil && *g.Winner >= 0 && *g.Winner < len(g.Players) {
			result = g.Players[*g.Winner] + " by " + g.Reason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", g.ID, g.Game, orDash(g.Tournament),
			strings.Join(g.Players, " vs "), result, g.Moves, end)
	}
	return tw.Flush()
}

// orDash shows an empty field as "-".
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// takesGame makes parent, whose subcommands are games ("arena match
// GAME"), answer a game it does not know with its name and the nearest
// game's, and with a non-zero exit: cobra would print the parent's help
// and exit 0, or complain about the first flag meant for the game.
func takesGame(parent *cobra.Command) {
	parent.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return unknownGame(cmd, args[0])
		}
		return nil
	}
	if !parent.Runnable() {
		parent.RunE = func(cmd *cobra.Command, _ []string) error {
			return fmt.Errorf("give a game: %s GAME, GAME one of %s", cmd.CommandPath(), strings.Join(subcommandNames(cmd), ", "))
		}
	}
	// A flag error on the parent means the flags were meant for a game
	// it did not find ("arena match chess --bot x"): the game is the news.
	parent.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if cmd == parent && cmd.Flags().NArg() > 0 {
			return unknownGame(cmd, cmd.Flags().Arg(0))
		}
		return err
	})
}

// unknownGame is the error for a game name that cmd has no subcommand for.
func unknownGame(cmd *cobra.Command, name string) error {
	return unknownName("game", name, cmd.CommandPath()+" takes", subcommandNames(cmd))
}

// unknownName is the error for a name of a kind ("game") that is not
// among known: it names the nearest known names, or all of them after
// where ("arena match takes").
func unknownName(kind, name, where string, known []string) error {
	if near := nearest(name, known); len(near) > 0 {
		return fmt.Errorf("unknown %s %q (did you mean %s?)", kind, name, strings.Join(near, " or "))
	}
	return fmt.Errorf("unknown %s %q: %s %s", kind, name, where, strings.Join(known, ", "))
}

// subcommandNames lists the names of cmd's subcommands a user may give.
func subcommandNames(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return names
}

// nearest returns the candidates a mistyped name most likely meant: those
// it starts, or those within two edits of it, ignoring case.
func nearest(name string, candidates []string) []string {
	typed := strings.ToLower(name)
	var out []string
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if (len(typed) >= 2 && strings.HasPrefix(lc, typed)) || editDistance(typed, lc) <= 2 {
			out = append(out, c)
		}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
