package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arena/bot"
	"arena/bots/gomokubot"
	"arena/game"
	"arena/game/gomoku"
	"arena/match"
)

func newGomokuMatchCmd() *cobra.Command {
	var (
		f                   matchFlags
		size, width, height int
		rule                int
		opening             string
		protos              []string
		endEmpty, maxMoves  int
		folder, workRoot    string
		crlf, strict        bool
	)
	cmd := &cobra.Command{
		Use:   "gomoku",
		Short: "Play Gomoku games between two Gomocup brains (pipe or file protocol)",
		Long: `Play Gomoku games between two brains speaking either Gomocup protocol.
A brain whose program name starts with "pbrain-" speaks the pipe protocol,
any other the old file protocol (PLOCHA.DAT/TAH.DAT), unless --proto says.
Without --bot, arena's own brain plays itself.`,
		Example: `  arena match gomoku --bot ./pbrain-a --bot ./pbrain-b --games 10 --turn-time 300ms --match-time 60s
  arena match gomoku --bot builtin --bot "python3 mybrain.py" --proto auto,pipe --rule 1 --size 15`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			clock, err := f.clock()
			if err != nil {
				return err
			}
			if width == 0 {
				width = size
			}
			if height == 0 {
				height = size
			}
			cfg := gomoku.Config{Width: width, Height: height, Rule: gomoku.Rule(rule), EndEmpty: endEmpty, MaxMoves: maxMoves}
			if err := cfg.Validate(); err != nil {
				return fmt.Errorf("--size/--rule: %w", err)
			}
			memory, err := parseSize(f.memory)
			if err != nil {
				return fmt.Errorf("--memory: %w", err)
			}
			if len(f.bots) == 0 {
				f.bots = []string{"builtin", "builtin"}
			}
			if len(f.bots) != 2 {
				return fmt.Errorf("--bot: gomoku needs exactly 2 bots, got %d", len(f.bots))
			}
			players, err := parsePlayers(f.bots, "gomoku")
			if err != nil {
				return err
			}
			gplayers, err := gomokuPlayers(players, protos)
			if err != nil {
				return err
			}
			var openings [][]gomoku.Point
			if opening != "" {
				fh, err := os.Open(opening)
				if err != nil {
					return fmt.Errorf("--opening: %w", err)
				}
				openings, err = gomoku.ParseOpenings(fh, width, height)
				fh.Close()
				if err != nil {
					return fmt.Errorf("--opening %s: %w", opening, err)
				}
				if len(openings) == 0 {
					return fmt.Errorf("--opening %s: no openings in the file", opening)
				}
				if f.seed != 0 {
					r := rand.New(rand.NewPCG(uint64(f.seed), 0))
					r.Shuffle(len(openings), func(i, j int) { openings[i], openings[j] = openings[j], openings[i] })
				}
			}
			if err := os.MkdirAll(f.out, 0o755); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			if f.out, err = filepath.Abs(f.out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			work, err := bot.ScratchDir(workRoot, f.out, "arena-work-")
			if err != nil {
				return fmt.Errorf("--work-dir: %w", err)
			}
			defer os.RemoveAll(work)
			if folder == "" {
				folder = filepath.Join(f.out, "persistent")
			}
			if err := os.MkdirAll(folder, 0o755); err != nil {
				return fmt.Errorf("--folder: %w", err)
			}
			folder, _ = filepath.Abs(folder)
			mc := gomoku.MatchConfig{
				Config: cfg, Clock: clock, Ponder: f.ponder, MemoryLimit: memory, Folder: folder,
				Strict: strict, CRLF: crlf, WorkDir: work,
			}
			name := f.matchName("gomoku")
			s := &series{
				game: "gomoku", players: players, games: f.games, json: f.json,
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(),
				terminal:    cmd.ErrOrStderr() == os.Stderr && isTerminal(os.Stderr),
				summaryFile: filepath.Join(f.out, name+"-summary.txt"),
			}
			if !f.json {
				s.stdout = cmd.ErrOrStderr()
			}
			s.play = func(ctx context.Context, i int, prog *progress) (*game.Record, string, error) {
				g := gomoku.Game{ID: fmt.Sprintf("%s-%03d", name, i+1), Players: gplayers, Black: i % 2}
				if len(openings) > 0 {
					g.Opening = openings[(i/2)%len(openings)]
				}
				mc := mc
				mc.OnMove = func(ev match.MoveEvent) { prog.moved(ev.Ply) }
				if f.debug {
					logs, closeLogs, err := openTranscripts(f.out, g.ID, players)
					if err != nil {
						return nil, "", err
					}
					defer closeLogs()
					mc.Transcripts = func(_ string, pi int) *bot.Transcript { return logs[pi] }
				}
				rec, err := gomoku.PlayGame(ctx, mc, g)
				if err != nil {
					return nil, "", err
				}
				path, err := gomoku.WriteFiles(f.out, rec, clock.Turn)
				return rec, path, err
			}
			return s.run(cmd.Context())
		},
	}
	f.register(cmd, time.Second, 3*time.Minute)
	fl := cmd.Flags()
	fl.IntVar(&size, "size", 20, "board size (5..32)")
	fl.IntVar(&width, "width", 0, "board width for a board that is not square (default --size)")
	fl.IntVar(&height, "height", 0, "board height for a board that is not square (default --size)")
	fl.IntVar(&rule, "rule", 0, "0 five or more, 1 exactly five, 2 continuous, 3 continuous + exactly five, 4 renju, 8 caro, 9 caro + exactly five")
	fl.StringVar(&opening, "opening", "", "file of openings in Gomocup's offset format (each opening is played twice, colours swapped)")
	fl.StringSliceVar(&protos, "proto", nil, "protocol per bot: auto, file or pipe (one value for all, or one per --bot)")
	fl.IntVar(&endEmpty, "end-empty", 0, "end the game when this many squares are empty (Piskvork uses 25)")
	fl.IntVar(&maxMoves, "max-moves", 0, "end the game as a draw after this many stones (0 = none)")
	fl.StringVar(&folder, "folder", "", "persistent folder announced to brains in INFO folder (default OUT/persistent)")
	fl.StringVar(&workRoot, "work-dir", "", "where the brains' working folders go (default: /dev/shm when it is a memory file system, else OUT)")
	fl.BoolVar(&crlf, "crlf", false, "file protocol: write the .DAT files with CRLF line ends")
	fl.BoolVar(&strict, "strict", false, "pipe protocol: a stray ERROR/UNKNOWN/OK line loses the game")
	return cmd
}

// gomokuPlayers chooses each player's protocol: given by --proto, or by
// name as Piskvork does; arena's own brain speaks the pipe protocol unless
// started with --file.
func gomokuPlayers(players []player, protos []string) ([]gomoku.Player, error) {
	if len(protos) > 1 && len(protos) != len(players) {
		return nil, fmt.Errorf("--proto: give one value or one per --bot (%d), got %d", len(players), len(protos))
	}
	out := make([]gomoku.Player, len(players))
	for i, p := range players {
		proto := "auto"
		if len(protos) == 1 {
			proto = protos[0]
		} else if len(protos) > 1 {
			proto = protos[i]
		}
		var pr gomoku.Protocol
		switch strings.ToLower(proto) {
		case "auto", "":
			pr = gomoku.ProtocolFor(p.Args[0])
			if p.Builtin {
				pr = gomoku.ProtoPipe
				for _, a := range p.Args[3:] {
					if a == "--file" {
						pr = gomoku.ProtoFile
					}
				}
			}
		case "file":
			pr = gomoku.ProtoFile
		case "pipe":
			pr = gomoku.ProtoPipe
		default:
			return nil, fmt.Errorf("--proto %q: want auto, file or pipe", proto)
		}
		out[i] = gomoku.Player{Name: p.Name, Command: p.Command, Args: p.Args, Protocol: pr}
	}
	return out, nil
}

func newGomokuBotCmd() *cobra.Command {
	var file bool
	cmd := &cobra.Command{
		Use:   "gomoku",
		Short: "arena's Gomoku brain: the pipe protocol on stdin/stdout, or with --file one move of the file protocol",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := gomokubot.Options{Name: "arena-gomoku"}
			if !file {
				if _, err := os.Stat("PLOCHA.DAT"); err == nil {
					file = true
				}
			}
			if file {
				return gomokubot.RunFile(cmd.Context(), ".", opts)
			}
			return gomokubot.RunPipe(cmd.Context(), os.Stdin, os.Stdout, opts)
		},
	}
	cmd.Flags().BoolVar(&file, "file", false, "speak the old file protocol in the current folder (also chosen when PLOCHA.DAT is there)")
	return cmd
}
