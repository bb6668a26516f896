// Command testbrain is a weak Gomoku brain for testing the tournament
// manager: it plays legal (random or greedy) moves and, on request, fails
// in the ways real brains fail.
//
// It speaks the Piskvork pipe protocol when the base name of its
// executable starts with "pbrain-" (case-insensitive) or --proto=pipe is
// given, and the old file protocol (PLOCHA.DAT/TAH.DAT in the working
// directory, one process per move) otherwise or with --proto=file.
//
// Usage:
//
//	testbrain [--proto=auto|pipe|file] [--policy=random|greedy] [--seed=N]
//	          [--name=NAME] [--delay=DURATION] [--misbehave=MODE] [--at=N]
//	          [--mem=MIB] [--busy=DURATION]
//
// The move number counts move requests answered by this process in pipe
// mode (BEGIN, TURN and BOARD; a PLAY answering SUGGEST is part of the same
// move), and is the number of the brain's own stones on the board plus one
// in file mode. A misbehaviour happens on every move whose number is at
// least --at (default 1); earlier moves are played normally. Memory and
// fork happen once per process; crlf, cr, startfail and nostart do not
// depend on --at. Modes that do not apply to the protocol in use are
// ignored (the brain plays normally).
//
// Modes:
//
//	crash      exit with status 3 without answering (file: TAH.DAT untouched)
//	segv       kill itself with SIGSEGV without answering
//	hang       never answer: sleep forever without reading input
//	stubborn   like hang, but also ignore SIGTERM, SIGINT and SIGHUP
//	exit0      exit with status 0 without answering
//	garbage    answer "hello world" (file: written into TAH.DAT)
//	longline   pipe: print one 8 MiB line instead of a move;
//	           file: write an 8 MiB line into MSG.DAT and into TAH.DAT
//	longmsg    an 8 MiB MESSAGE line (file: MSG.DAT line), then a normal move
//	flood      print 200000 "MESSAGE spam" lines on stdout, then hang
//	offboard   answer the square W,0, just off the board
//	occupied   answer a square holding a stone (plays normally while none)
//	notah      file: delete TAH.DAT and exit 0
//	nomove     file: exit 0 leaving TAH.DAT holding the side letter
//	msg        file: write two lines to MSG.DAT; pipe: two extra MESSAGE lines
//	memory     allocate and touch --mem MiB (default 512) in 16 MiB steps,
//	           hold it, then answer normally
//	fork       start three "sleep 600" children (the third in a new session
//	           via setsid), then answer normally
//	startfail  pipe: answer START/RECTSTART/RESTART with "ERROR cannot start"
//	nostart    pipe: never answer START/RECTSTART/RESTART
//	stray      pipe: print OK, UNKNOWN x, ERROR y, DEBUG d, MESSAGE m, then answer
//	suggest    pipe: answer "SUGGEST x,y"; answer "PLAY x,y" with x,y
//	crlf, cr   end every output line with CR LF or CR (file: TAH.DAT answer)
//	stderr     write 1 MiB to stderr, then answer normally
//	pid        append "PID PGID" to $TESTBRAIN_PIDFILE before each answer
//	busyafter  pipe: after printing each move, stay busy for --busy of CPU
//	           time before reading again; a command that has come by then
//	           is refused with "ERROR Unknown command: WORD" and dropped.
//	           So behaves a brain whose manager stops it between printing
//	           its move and clearing its "thinking" flag: the next command
//	           finds it still thinking.
//
// Whatever the mode, when the environment variable TESTBRAIN_PIDFILE is set
// the brain appends a line "PID PGID" to that file when it starts (and the
// fork mode adds a line per child), so tests can check that nothing it
// started survives. In pipe mode each move answer is preceded by a line
// "MESSAGE testbrain move N".
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"arena/internal/testbrain"
)

// PidFileEnv names the environment variable holding the file to which the
// brain appends "PID PGID" lines.
const PidFileEnv = "TESTBRAIN_PIDFILE"

// config is the parsed command line.
type config struct {
	proto   string // "pipe" or "file"
	policy  testbrain.Policy
	rng     *rand.Rand
	name    string
	delay   time.Duration
	mode    string
	at      int
	memMiB  int
	busy    time.Duration // busyafter: CPU time spent after each move
	pidFile string
	eol     string // line ending of answers
}

// knownMode reports whether m is a --misbehave mode.
func knownMode(m string) bool {
	switch m {
	case "", "crash", "segv", "hang", "stubborn", "exit0", "garbage", "longline",
		"longmsg", "flood", "offboard", "occupied", "notah", "nomove", "msg",
		"memory", "fork", "startfail", "nostart", "stray", "suggest", "crlf",
		"cr", "stderr", "pid", "busyafter":
		return true
	}
	return false
}

// parseArgs parses the command line (without argv[0]); argv0 decides the
// protocol when --proto is auto.
func parseArgs(argv0 string, args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("testbrain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	proto := fs.String("proto", "auto", "protocol: auto (by executable name), pipe or file")
	policy := fs.String("policy", "random", "move policy: random or greedy")
	seed := fs.Uint64("seed", 0, "random seed (default: a random one)")
	name := fs.String("name", "testbrain", "brain name reported by ABOUT")
	delay := fs.Duration("delay", 0, "sleep before each move answer")
	mode := fs.String("misbehave", "", "failure mode (see package documentation)")
	at := fs.Int("at", 1, "first move on which to misbehave")
	mem := fs.Int("mem", 512, "MiB allocated by --misbehave=memory")
	busy := fs.Duration("busy", 50*time.Millisecond, "CPU time --misbehave=busyafter spends after each move")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })

	c := config{name: *name, delay: *delay, mode: *mode, at: *at, memMiB: *mem, busy: *busy, eol: "\n"}
	switch *proto {
	case "pipe", "file":
		c.proto = *proto
	case "auto", "":
		c.proto = "file"
		if strings.HasPrefix(strings.ToLower(filepath.Base(argv0)), "pbrain-") {
			c.proto = "pipe"
		}
	default:
		return config{}, fmt.Errorf("unknown protocol %q", *proto)
	}
	p, ok := testbrain.PolicyByName(*policy)
	if !ok {
		return config{}, fmt.Errorf("unknown policy %q", *policy)
	}
	c.policy = p
	if !knownMode(c.mode) {
		return config{}, fmt.Errorf("unknown misbehave mode %q", c.mode)
	}
	if c.delay < 0 || c.memMiB < 0 || c.busy < 0 {
		return config{}, fmt.Errorf("negative --delay, --mem or --busy")
	}
	switch c.mode {
	case "crlf":
		c.eol = "\r\n"
	case "cr":
		c.eol = "\r"
	}
	s := *seed
	if !seedSet {
		s = rand.Uint64()
	}
	c.rng = rand.New(rand.NewPCG(s, s^0x5eed5eed5eed5eed))
	return c, nil
}

// misbehaves reports whether the brain misbehaves on move n.
func (c config) misbehaves(n int) bool {
	return c.mode != "" && n >= c.at
}

func main() {
	c, err := parseArgs(os.Args[0], os.Args[1:], os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbrain:", err)
		os.Exit(2)
	}
	c.pidFile = os.Getenv(PidFileEnv)
	appendPid(c.pidFile, os.Getpid())
	if c.proto == "pipe" {
		os.Exit(runPipe(c, os.Stdin, os.Stdout))
	}
	os.Exit(runFile(c, "."))
}
