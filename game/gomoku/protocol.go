package gomoku

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
	"arena/sandbox"
)

// Protocol names a Gomocup brain protocol.
type Protocol string

// The two protocols.
const (
	ProtoFile Protocol = "file" // the old protocol: PLOCHA.DAT, TAH.DAT, ...
	ProtoPipe Protocol = "pipe" // the Piskvork protocol on stdin/stdout
)

// ProtocolFor chooses the protocol of a command as Piskvork does: a brain
// named "pbrain-..." (any case) speaks the pipe protocol, anything else
// the file protocol. The brain may be the program itself or a file an
// interpreter or launcher runs ("python3 pbrain-x.py", "java -jar
// pbrain-x.jar", "mono pbrain-x.exe", "wine pbrain-x.exe"): the program
// counts by its name, a later word when it names an existing file
// (relative words are read against the current folder), so an option
// value that merely looks like a brain's name does not.
func ProtocolFor(args []string) Protocol {
	for i, word := range args {
		if !isPbrainName(word) {
			continue
		}
		if i == 0 {
			return ProtoPipe
		}
		if st, err := os.Stat(word); err == nil && !st.IsDir() {
			return ProtoPipe
		}
	}
	return ProtoFile
}

// isPbrainName reports whether the base name of a path starts with
// "pbrain-" in any case.
func isPbrainName(path string) bool {
	base := filepath.Base(path)
	return len(base) >= 7 && strings.EqualFold(base[:7], "pbrain-")
}

// Unlimited is the time_left value that means no match limit.
const Unlimited = math.MaxInt32

// SeatOptions configures one brain for either protocol.
type SeatOptions struct {
	Args        []string // command; Args[0] absolute (bot.ResolveProgram)
	Env         []string
	Dir         string   // working folder (fresh per match, not the brain's own)
	MemoryLimit int64    // bytes; 0 = none. Also sent as INFO max_memory.
	Folder      string   // persistent folder announced in INFO folder ("" = none)
	Info        []string // extra INFO "key value" pairs, sent after the standard ones
	GameType    int      // INFO game_type: 1 = opponent is a brain (default)
	MaxLine     int      // longest accepted line (bytes)
	Strict      bool     // pipe: a stray ERROR line is a protocol fault
	CRLF        bool     // file: write the .DAT files with CRLF line ends
	MaxOutput   int      // lines of output kept per move (0 = 1000)
	// PauseGrace is the longest the pipe brain is given to block after a
	// move before it is paused (0 = bot.DefaultPauseGrace).
	PauseGrace time.Duration
	// Transcript, if set, logs everything sent to and read from the brain.
	Transcript *bot.Transcript
	// Sandbox, when set, starts the brain inside its layers (nil: off).
	Sandbox *sandbox.Sandbox
}

// writable is what a sandboxed brain may write besides its working
// folder: the persistent folder of INFO folder.
func (o SeatOptions) writable() []string {
	if o.Folder == "" {
		return nil
	}
	return []string{o.Folder}
}

func (o SeatOptions) maxOutput() int {
	if o.MaxOutput <= 0 {
		return 1000
	}
	return o.MaxOutput
}

// infoLines returns the INFO keys in Piskvork's order (without time_left
// and folder), each as "key value".
func infoLines(cfg Config, req match.Request, o SeatOptions) []string {
	matchMs := int64(0)
	if !req.Unlimited {
		matchMs = req.Clock.Match.Milliseconds()
	}
	lines := []string{
		"max_memory " + strconv.FormatInt(o.MemoryLimit, 10),
		"timeout_match " + strconv.FormatInt(matchMs, 10),
	}
	if turn, ok := announcedTurn(req); ok {
		lines = append(lines, "timeout_turn "+strconv.FormatInt(max(turn.Milliseconds(), 1), 10))
	}
	lines = append(lines,
		"game_type "+strconv.Itoa(o.GameType),
		"rule "+strconv.Itoa(int(cfg.Rule)),
	)
	return append(lines, o.Info...)
}

// announcedTurn is the per-move limit told to brains. A limit of 0 would
// tell them to answer at once, so without a per-move limit it is the match
// time; ok is false when nothing is limited.
func announcedTurn(req match.Request) (time.Duration, bool) {
	switch {
	case req.Clock.Turn > 0:
		return req.Clock.Turn, true
	case !req.Unlimited && req.Clock.Match > 0:
		return req.Clock.Match, true
	}
	return 0, false
}

// timeLeftMs is the INFO time_left value: the match time left in ms, or
// 2147483647 when the match is not limited.
func timeLeftMs(req match.Request) int64 {
	if req.Unlimited {
		return Unlimited
	}
	return req.TimeLeft.Milliseconds()
}

func protocolFault(format string, args ...any) game.Fault {
	return game.Fault{Reason: game.ReasonProtocol, Detail: fmt.Sprintf(format, args...)}
}

// memoryFault is the verdict on a brain its memory limit stopped.
func memoryFault(limit int64) game.Fault {
	return game.Fault{Reason: game.ReasonMemory, Detail: "exceeded its memory limit of " + strconv.FormatInt(limit, 10) + " bytes"}
}

// ms formats a duration in whole milliseconds for messages.
func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + "ms" }
