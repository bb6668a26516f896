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
	"github.com/spf13/pflag"

	"arena/bots/gomokubot"
	"arena/game"
	"arena/game/gomoku"
)

func gomokuDriver() driver {
	return driver{
		info:  gomoku.Info(),
		short: "Play Gomoku games between two Gomocup brains (pipe or file protocol)",
		long: `Play Gomoku games between two brains speaking either Gomocup protocol.
A brain named "pbrain-..." speaks the pipe protocol, any other the old file
protocol (PLOCHA.DAT/TAH.DAT), unless --proto says; the brain may be the
program or the file an interpreter runs ("python3 pbrain-x.py",
"java -jar pbrain-x.jar", "wine pbrain-x.exe"). Relative paths in a command
are read against the folder arena starts in.
Without --bot, arena's own brain plays itself.`,
		example: `  arena match gomoku --bot ./pbrain-a --bot ./pbrain-b --games 10 --turn-time 300ms --match-time 60s
  arena match gomoku --bot builtin --bot "python3 mybrain.py" --proto auto,pipe --rule 1 --size 15`,
		turnTime: time.Second, matchTime: 3 * time.Minute,
		defaultBots: []string{"builtin", "builtin"},
		flags:       gomokuFlags,
		bot:         newGomokuBotCmd,
		human:       true,
		toldClock:   true,
		botFields:   []string{fieldDir, fieldProto, fieldEnv, fieldMemory, fieldTurnTime, fieldMatchTime, fieldOptions},
	}
}

// gomokuFlags registers Gomoku's options.
func gomokuFlags(fl *pflag.FlagSet) func(runEnv) (runner, error) {
	var (
		size, width, height int
		rule                int
		opening             string
		protos              []string
		endEmpty, maxMoves  int
		folder              string
		crlf, strict        bool
	)
	fl.IntVar(&size, "size", 20, "board size (5..32)")
	fl.IntVar(&width, "width", 0, "board width for a board that is not square (default --size)")
	fl.IntVar(&height, "height", 0, "board height for a board that is not square (default --size)")
	fl.IntVar(&rule, "rule", 0, "0 five or more, 1 exactly five, 2 continuous, 3 continuous + exactly five, 4 renju, 8 caro, 9 caro + exactly five")
	fl.StringVar(&opening, "opening", "", "file of openings in Gomocup's offset format (each opening is played twice, colours swapped)")
	fl.StringSliceVar(&protos, "proto", nil, "protocol per bot: auto, file or pipe (one value for all, or one per --bot)")
	fl.IntVar(&endEmpty, "end-empty", 0, "end the game when this many squares are empty (Piskvork uses 25)")
	fl.IntVar(&maxMoves, "max-moves", 0, "end the game as a draw after this many stones (0 = none)")
	fl.StringVar(&folder, "folder", "", "persistent folder announced to brains in INFO folder (default OUT/persistent)")
	fl.BoolVar(&crlf, "crlf", false, "file protocol: write the .DAT files with CRLF line ends")
	fl.BoolVar(&strict, "strict", false, "pipe protocol: a stray ERROR/UNKNOWN/OK line loses the game")
	return func(env runEnv) (runner, error) {
		if width == 0 {
			width = size
		}
		if height == 0 {
			height = size
		}
		cfg := gomoku.Config{Width: width, Height: height, Rule: gomoku.Rule(rule), EndEmpty: endEmpty, MaxMoves: maxMoves}
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("--size/--rule: %w", err)
		}
		gplayers, err := gomokuPlayers(env.players, protos)
		if err != nil {
			return nil, err
		}
		r := &gomokuRunner{players: gplayers, out: env.out, turn: env.clock.Turn}
		if opening != "" {
			fh, err := os.Open(opening)
			if err != nil {
				return nil, fmt.Errorf("--opening: %w", err)
			}
			r.openings, err = gomoku.ParseOpenings(fh, width, height)
			fh.Close()
			if err != nil {
				return nil, fmt.Errorf("--opening %s: %w", opening, err)
			}
			if len(r.openings) == 0 {
				return nil, fmt.Errorf("--opening %s: no openings in the file", opening)
			}
			if env.seed != 0 {
				rng := rand.New(rand.NewPCG(uint64(env.seed), 0))
				rng.Shuffle(len(r.openings), func(i, j int) { r.openings[i], r.openings[j] = r.openings[j], r.openings[i] })
			}
		}
		if folder == "" {
			folder = filepath.Join(env.out, "persistent")
		}
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return nil, fmt.Errorf("--folder: %w", err)
		}
		folder, _ = filepath.Abs(folder)
		r.config = gomoku.MatchConfig{
			Config: cfg, Clock: env.clock, Ponder: env.ponder, MemoryLimit: env.memory, Folder: folder,
			Strict: strict, CRLF: crlf, WorkDir: env.work, Sandbox: env.sandbox,
		}
		return r, nil
	}
}

// gomokuRunner plays Gomoku games with fixed options.
type gomokuRunner struct {
	config   gomoku.MatchConfig
	players  []gomoku.Player
	openings [][]gomoku.Point
	out      string
	turn     time.Duration
}

func (r *gomokuRunner) Openings() int { return max(len(r.openings), 1) }

func (r *gomokuRunner) Play(ctx context.Context, j job) (*game.Record, string, error) {
	gs, done := j.setup(r.config.WorkDir)
	defer done()
	g := gomoku.Game{ID: j.ID, Black: gs.first, Players: pick(r.players, gs.order)}
	if len(r.openings) > 0 {
		g.Opening = r.openings[j.Opening%len(r.openings)]
	}
	mc := r.config
	mc.WorkDir, mc.OnMove, mc.Transcripts, mc.Listener = gs.workDir, gs.onMove, gs.transcripts, gs.listener
	rec, err := gomoku.PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := gomoku.WriteFiles(r.out, rec, r.turn)
	return rec, path, err
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
		if p.Human != nil {
			out[i] = gomoku.Player{Player: p.Player}
			continue
		}
		proto := "auto"
		if len(protos) == 1 {
			proto = protos[0]
		} else if len(protos) > 1 {
			proto = protos[i]
		}
		if p.Proto != "" {
			proto = p.Proto // the bots file's
		}
		var pr gomoku.Protocol
		switch strings.ToLower(proto) {
		case "auto", "":
			pr = gomoku.ProtocolFor(p.Args)
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
		out[i] = gomoku.Player{Player: p.Player, Protocol: pr, Info: infoOptions(p.Options)}
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
