package gomoku

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"arena/game"
	"arena/match"
)

// Def is Gomoku's contract with the arena (match.Game): its description,
// its options and the runner that plays its games.
type Def struct{}

var _ match.Game = Def{}

var _ game.FileOptions = (*Settings)(nil)

// Info describes Gomoku.
func (Def) Info() game.Info { return Info() }

// NewOptions returns Gomoku's options at their defaults.
func (Def) NewOptions() game.Options { return DefaultSettings() }

// Settings are the options of a Gomoku match: the board, the rule, the
// openings and the protocols' choices.
type Settings struct {
	Size   int `json:"size"`             // a square board's side
	Width  int `json:"width,omitempty"`  // 0: Size
	Height int `json:"height,omitempty"` // 0: Size
	Rule   int `json:"rule"`
	// Opening is a file of openings in Gomocup's offset format; each is
	// played twice, colours swapped.
	Opening string `json:"opening,omitempty"`
	// Proto is the protocol per bot (auto, file or pipe): one for all
	// or one per bot.
	Proto    []string `json:"proto,omitempty"`
	EndEmpty int      `json:"end_empty,omitempty"`
	MaxMoves int      `json:"max_moves,omitempty"`
	// Folder is the persistent folder of INFO folder ("": OUT/persistent).
	Folder string `json:"folder,omitempty"`
	CRLF   bool   `json:"crlf,omitempty"`
	Strict bool   `json:"strict,omitempty"`
}

// DefaultSettings returns the options of a Gomoku match by default.
func DefaultSettings() *Settings { return &Settings{Size: 20} }

// Bind registers the options as the flags of "arena match gomoku".
func (s *Settings) Bind(fl *pflag.FlagSet) {
	fl.IntVar(&s.Size, "size", s.Size, "board size (5..32)")
	fl.IntVar(&s.Width, "width", s.Width, "board width for a board that is not square (default --size)")
	fl.IntVar(&s.Height, "height", s.Height, "board height for a board that is not square (default --size)")
	fl.IntVar(&s.Rule, "rule", s.Rule, "0 five or more, 1 exactly five, 2 continuous, 3 continuous + exactly five, 4 renju, 8 caro, 9 caro + exactly five")
	fl.StringVar(&s.Opening, "opening", s.Opening, "file of openings in Gomocup's offset format (each opening is played twice, colours swapped)")
	fl.StringSliceVar(&s.Proto, "proto", s.Proto, "protocol per bot: auto, file or pipe (one value for all, or one per --bot)")
	fl.IntVar(&s.EndEmpty, "end-empty", s.EndEmpty, "end the game when this many squares are empty (Piskvork uses 25)")
	fl.IntVar(&s.MaxMoves, "max-moves", s.MaxMoves, "end the game as a draw after this many stones (0 = none)")
	fl.StringVar(&s.Folder, "folder", s.Folder, "persistent folder announced to brains in INFO folder (default OUT/persistent)")
	fl.BoolVar(&s.CRLF, "crlf", s.CRLF, "file protocol: write the .DAT files with CRLF line ends")
	fl.BoolVar(&s.Strict, "strict", s.Strict, "pipe protocol: a stray ERROR/UNKNOWN/OK line loses the game")
}

// Files is the option that names a file to read: --opening.
func (s *Settings) Files() []*string { return []*string{&s.Opening} }

// Config is the board and rule the options describe.
func (s *Settings) Config() Config {
	w, h := s.Width, s.Height
	if w == 0 {
		w = s.Size
	}
	if h == 0 {
		h = s.Size
	}
	return Config{Width: w, Height: h, Rule: Rule(s.Rule), EndEmpty: s.EndEmpty, MaxMoves: s.MaxMoves}
}

// Validate checks the board and the rule.
func (s *Settings) Validate() error {
	if err := s.Config().Validate(); err != nil {
		return fmt.Errorf("--size/--rule: %w", err)
	}
	return nil
}

// NewRunner makes the runner of a match or tournament's games.
func (Def) NewRunner(opts game.Options, env match.Env) (match.Runner, error) {
	s, ok := opts.(*Settings)
	if !ok {
		return nil, fmt.Errorf("gomoku: options of type %T", opts)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	cfg := s.Config()
	gplayers, err := players(env.Players, s.Proto)
	if err != nil {
		return nil, err
	}
	r := &runner{players: gplayers, out: env.Out, turn: env.Clock.Turn}
	if s.Opening != "" {
		r.openings, err = game.ReadOpenings(s.Opening, env.Seed, func(fh io.Reader) ([][]Point, error) {
			return ParseOpenings(fh, cfg.Width, cfg.Height)
		})
		if err != nil {
			return nil, err
		}
	}
	folder := s.Folder
	if folder == "" {
		folder = filepath.Join(env.Out, "persistent")
	}
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return nil, fmt.Errorf("--folder: %w", err)
	}
	folder, _ = filepath.Abs(folder)
	r.config = MatchConfig{
		Config: cfg, Clock: env.Clock, Ponder: env.Ponder, MemoryLimit: env.Memory, Folder: folder,
		Strict: s.Strict, CRLF: s.CRLF, WorkDir: env.Work, Sandbox: env.Sandbox,
	}
	return r, nil
}

// runner plays Gomoku games with fixed options.
type runner struct {
	config   MatchConfig
	players  []Player
	openings [][]Point
	out      string
	turn     time.Duration
}

func (r *runner) Openings() int { return max(len(r.openings), 1) }

func (r *runner) Play(ctx context.Context, j match.Job) (*game.Record, string, error) {
	gs, done := j.Setup(r.config.WorkDir)
	defer done()
	g := Game{ID: j.ID, Black: gs.First, Players: match.Pick(r.players, gs.Order)}
	if len(r.openings) > 0 {
		g.Opening = r.openings[j.Opening%len(r.openings)]
	}
	mc := r.config
	mc.WorkDir, mc.OnMove, mc.Transcripts, mc.Listener = gs.WorkDir, gs.OnMove, gs.Transcripts, gs.Listener
	rec, err := PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := WriteFiles(r.out, rec, r.turn)
	return rec, path, err
}

// players chooses each player's protocol: given by --proto, or by name
// as Piskvork does; arena's own brain speaks the pipe protocol unless
// started with --file.
func players(players []match.Player, protos []string) ([]Player, error) {
	if len(protos) > 1 && len(protos) != len(players) {
		return nil, fmt.Errorf("--proto: give one value or one per --bot (%d), got %d", len(players), len(protos))
	}
	out := make([]Player, len(players))
	for i, p := range players {
		if p.Human != nil {
			out[i] = Player{Player: p}
			continue
		}
		proto := match.ProtoFor(protos, i)
		if proto == "" {
			proto = "auto"
		}
		if p.Proto != "" {
			proto = p.Proto // the bots file's
		}
		var pr Protocol
		switch strings.ToLower(proto) {
		case "auto", "":
			pr = ProtocolFor(p.Args)
			if p.Builtin {
				pr = ProtoPipe
				for _, a := range p.Args[3:] {
					if a == "--file" {
						pr = ProtoFile
					}
				}
			}
		case "file":
			pr = ProtoFile
		case "pipe":
			pr = ProtoPipe
		default:
			return nil, fmt.Errorf("--proto %q: want auto, file or pipe", proto)
		}
		out[i] = Player{Player: p, Protocol: pr, Info: infoOptions(p.Options)}
	}
	return out, nil
}

// infoOptions turns a bots file's options into INFO "key value" pairs.
func infoOptions(options [][2]string) []string {
	var lines []string
	for _, kv := range options {
		lines = append(lines, kv[0]+" "+kv[1])
	}
	return lines
}
