package gomoku

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"arena/bot"
	"arena/game"
	"arena/match"
)

// The files of the old protocol, in upper case as the protocol text
// writes them.
const (
	fileBoard    = "PLOCHA.DAT"
	fileTurn     = "TAH.DAT"
	fileTimeouts = "TIMEOUTS.DAT"
	fileInfo     = "INFO.DAT"
	fileMsg      = "MSG.DAT"
)

// maxFileRead caps what is read back from TAH.DAT and MSG.DAT.
const maxFileRead = 64 << 10

// FileSeat plays one side with a brain that speaks the old file protocol:
// for every move the manager writes PLOCHA.DAT, TAH.DAT, TIMEOUTS.DAT,
// INFO.DAT and an empty MSG.DAT into the working folder, starts the brain
// there with its path as argv[0], waits for it to exit, logs MSG.DAT and
// reads the move "x,y" from TAH.DAT.
type FileSeat struct {
	state *State
	me    Stone
	opts  SeatOptions
	group *bot.Group
	eol   string
	buf   bytes.Buffer
	rbuf  []byte // what was read of TAH.DAT or MSG.DAT

	run  bot.Holder    // the brain during a move, for Kill
	last *bot.Process  // the brain of the last move
	cpu  time.Duration // over all moves
}

// NewFileSeat prepares a seat for side me. opts.Dir must exist; the brain
// may keep a sub-folder named after itself there.
func NewFileSeat(state *State, me Stone, opts SeatOptions) *FileSeat {
	if opts.GameType == 0 {
		opts.GameType = 1
	}
	eol := "\n"
	if opts.CRLF {
		eol = "\r\n"
	}
	return &FileSeat{state: state, me: me, opts: opts, eol: eol}
}

// Start prepares the seat's process group; the brain itself runs only
// during its moves.
func (s *FileSeat) Start(ctx context.Context, req match.Request) (match.Greeting, error) {
	if s.opts.Dir == "" {
		return match.Greeting{}, errors.New("file protocol: no working folder")
	}
	s.group = bot.NewSandboxGroup(s.opts.MemoryLimit, s.opts.Sandbox)
	if s.opts.Sandbox != nil {
		// The brain starts every move: a resident init, set up now in
		// the brain's namespaces and layers, starts each of them (where
		// the sandbox cannot have one, an init is prepared ahead of each
		// move). Should it fail, each start sets an init up itself, as
		// without it.
		s.group.Reside(bot.Config{Args: s.opts.Args, Dir: s.opts.Dir, Sandbox: s.opts.Sandbox, Writable: s.opts.writable()})
	}
	return match.Greeting{}, nil
}

// Move runs the brain once and returns the move it wrote.
func (s *FileSeat) Move(ctx context.Context, req match.Request) (match.Reply[Point], error) {
	if err := s.writeFiles(req); err != nil {
		return match.Reply[Point]{}, err
	}
	p, err := bot.Start(bot.Config{
		Args: s.opts.Args, Env: s.opts.Env, Dir: s.opts.Dir, Group: s.group, MaxLine: s.opts.MaxLine,
		Transcript: s.opts.Transcript, Sandbox: s.opts.Sandbox, Writable: s.opts.writable(),
	})
	if err != nil {
		return match.Reply[Point]{}, game.Fault{Reason: game.ReasonCrash, Detail: err.Error()}
	}
	s.run.Set(p)
	finished := s.wait(ctx, p, req.Deadline)
	p.Kill() // whatever it left running in its process group
	s.group.KillAll()
	s.run.Set(nil)
	s.last = p
	s.cpu += p.CPUTime()

	reply := match.Reply[Point]{Output: s.readMsg()}
	for _, line := range reply.Output {
		s.opts.Transcript.Log('<', fileMsg+": "+line)
	}
	if s.group.MemoryExceeded() {
		return reply, memoryFault(s.opts.MemoryLimit)
	}
	if !finished {
		return reply, fmt.Errorf("did not exit in time: %w", bot.ErrTimeout)
	}
	reply.Move, err = s.readMove(p)
	return reply, err
}

// wait waits for the brain to exit; false means the deadline (or the
// match's end) came first.
func (s *FileSeat) wait(ctx context.Context, p *bot.Process, deadline time.Time) bool {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-p.Done():
		return true
	case <-timeout:
	case <-ctx.Done():
	}
	return false
}

// readMove reads TAH.DAT. A valid move counts whatever the exit status
// was; without one, a brain that failed (non-zero status, signal) crashed,
// and one that exited cleanly broke the protocol.
func (s *FileSeat) readMove(brain *bot.Process) (Point, error) {
	failed, stderr := "", ""
	if brain.ExitCode() != 0 {
		exit := brain.Exit()
		failed, stderr = exit.Error(), exit.Stderr
	}
	fault := func(format string, args ...any) error {
		detail := fmt.Sprintf(format, args...)
		if failed != "" {
			// A brain that fails is started afresh on every move, so its
			// stderr says why as a start-up failure's would.
			detail += " (" + failed + ")"
			if stderr != "" {
				detail += "; stderr: " + stderr
			}
			return game.Fault{Reason: game.ReasonCrash, Detail: detail}
		}
		return game.Fault{Reason: game.ReasonProtocol, Detail: detail}
	}
	data, err := readCapped(filepath.Join(s.opts.Dir, fileTurn), &s.rbuf)
	if errors.Is(err, os.ErrNotExist) {
		return Point{}, fault("wrote no %s%s", fileTurn, pipeHint(brain.FinalStderr()))
	}
	s.opts.Transcript.Log('<', fileTurn+": "+clip(string(data)))
	if err != nil {
		return Point{}, fault("%s: %v", fileTurn, err)
	}
	move, problem := parseTAH(data, s.me)
	if problem != "" {
		if text := strings.TrimSpace(string(data)); text == "" || text == string(s.me.Char()) {
			problem += pipeHint(brain.FinalStderr())
		}
		return Point{}, fault("%s", problem)
	}
	return move, nil
}

// pipeHint looks through what a file-protocol brain printed (its stdout
// and stderr) for lines of the pipe protocol: a brain that answers OK or
// a move on stdout instead of writing TAH.DAT was started on the wrong
// protocol, which its verdict then says, naming the option that fixes it.
func pipeHint(printed string) string {
	for _, line := range strings.FieldsFunc(printed, func(r rune) bool { return r == '\n' || r == '\r' }) {
		kind, _ := parseReply(line)
		word, _ := splitWord(line)
		// ERROR or UNKNOWN is not telling: a file brain may complain in
		// words that start so.
		if kind == replySuggest || kind == replyMove || word == "OK" {
			return fmt.Sprintf("; it printed %q on stdout as a pipe-protocol brain does: run it with --proto pipe", clip(strings.TrimSpace(line)))
		}
	}
	return ""
}

// parseTAH reads the brain's answer from the bytes of TAH.DAT: "x,y" on
// the first line (spaces and CR/LF around it are allowed). It returns a
// description of the problem when there is no move.
func parseTAH(data []byte, me Stone) (Point, string) {
	text := strings.TrimSpace(string(data))
	if first, _, _ := strings.Cut(text, "\n"); first != "" {
		text = strings.TrimSpace(first)
	}
	if text == string(me.Char()) {
		return Point{}, "left " + fileTurn + " unchanged (no move)"
	}
	p, err := ParsePoint(text)
	if err != nil {
		return Point{}, fmt.Sprintf("%s holds %q, not a move x,y", fileTurn, clip(text))
	}
	return p, ""
}

// readMsg returns the lines of MSG.DAT.
func (s *FileSeat) readMsg() []string {
	data, err := readCapped(filepath.Join(s.opts.Dir, fileMsg), &s.rbuf)
	if err != nil || len(data) == 0 {
		return nil
	}
	out := bot.Output{Max: s.opts.maxOutput()}
	for _, line := range strings.FieldsFunc(string(data), func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.TrimSpace(line) != "" {
			out.Add(line)
		}
	}
	return out.Take()
}

// readCapped reads at most maxFileRead bytes of a file into buf, which it
// grows as needed; a longer file is an error. It uses bare system calls:
// the manager reads two files a move.
func readCapped(path string, buf *[]byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	data := (*buf)[:0]
	for len(data) <= maxFileRead {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):min(cap(data), maxFileRead+1)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			*buf = data
			return data, nil
		}
		data = data[:len(data)+n]
	}
	*buf = data
	return data[:maxFileRead], fmt.Errorf("longer than %d bytes", maxFileRead)
}

// writeFiles writes the five files of the protocol for the coming move.
func (s *FileSeat) writeFiles(req match.Request) error {
	cfg := s.state.Config()
	b := &s.buf

	b.Reset()
	for y := 0; y < cfg.Height; y++ {
		for x := 0; x < cfg.Width; x++ {
			p := Point{x, y}
			c := s.state.At(p).Char()
			if s.state.Blocked(p) {
				c = '#'
			}
			b.WriteByte(c)
		}
		b.WriteString(s.eol)
	}
	if err := s.write(fileBoard); err != nil {
		return err
	}

	b.Reset()
	b.WriteByte(s.me.Char())
	b.WriteString(s.eol)
	if err := s.write(fileTurn); err != nil {
		return err
	}

	// Line 1 is the turn limit in whole seconds (as the protocol says, so
	// 2500 ms is 2); with no limit at all the largest value is written.
	b.Reset()
	turn := int64(Unlimited / 1000)
	if d, ok := announcedTurn(req); ok {
		turn = int64(d / time.Second)
	}
	b.WriteString(strconv.FormatInt(turn, 10) + s.eol + strconv.FormatInt(timeLeftMs(req), 10) + s.eol)
	if err := s.write(fileTimeouts); err != nil {
		return err
	}

	b.Reset()
	for _, l := range infoLines(cfg, req, s.opts) {
		b.WriteString(l + s.eol)
	}
	b.WriteString("time_left " + strconv.FormatInt(timeLeftMs(req), 10) + s.eol)
	if s.opts.Folder != "" {
		b.WriteString("folder " + s.opts.Folder + s.eol)
	}
	if err := s.write(fileInfo); err != nil {
		return err
	}

	b.Reset()
	return s.write(fileMsg)
}

// write writes the buffer as the file name: one open, one write and one
// close, with bare system calls (the manager writes five files a move).
func (s *FileSeat) write(name string) error {
	if s.opts.Transcript != nil && name != fileBoard {
		s.opts.Transcript.Log('>', name+": "+strings.ReplaceAll(strings.TrimSpace(s.buf.String()), s.eol, " | "))
	}
	path := filepath.Join(s.opts.Dir, name)
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return fmt.Errorf("file protocol: %w", &os.PathError{Op: "open", Path: path, Err: err})
	}
	data := s.buf.Bytes()
	for len(data) > 0 && err == nil {
		var n int
		n, err = syscall.Write(fd, data)
		data = data[max(n, 0):]
		if err == syscall.EINTR {
			err = nil
		}
	}
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("file protocol: %w", &os.PathError{Op: "write", Path: path, Err: err})
	}
	return nil
}

// Kill ends the brain of the move in progress at once; it may be called
// from any goroutine.
func (s *FileSeat) Kill() { s.run.Kill() }

// Finish removes the protocol files (the brain's own sub-folder stays)
// and kills anything left.
func (s *FileSeat) Finish(ctx context.Context, res game.Result, grace time.Duration) match.Farewell {
	s.Kill()
	var peak int64
	if s.group != nil {
		peak = s.group.PeakMemory()
		s.group.Close()
	}
	for _, name := range []string{fileBoard, fileTurn, fileTimeouts, fileInfo, fileMsg} {
		os.Remove(filepath.Join(s.opts.Dir, name))
	}
	if s.last == nil {
		return match.Farewell{PeakMemory: peak}
	}
	f := match.Ended(s.last)
	f.PeakMemory, f.CPU = peak, s.cpu
	return f
}
