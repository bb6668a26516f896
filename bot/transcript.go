package bot

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Transcript logs what passes between the arena and a bot, one line per
// line, with the time since the transcript began: "12.345 > TURN 7,7".
// Directions: '>' to the bot, '<' from the bot, '!' its stderr, '#' what
// the arena notes (start, exit, files). It is safe for concurrent use; a
// nil *Transcript logs nothing.
type Transcript struct {
	mu sync.Mutex
	w  io.Writer
	t0 time.Time
}

// NewTranscript starts a transcript written to w.
func NewTranscript(w io.Writer) *Transcript {
	return &Transcript{w: w, t0: time.Now()}
}

// Log writes text, split into lines, in direction dir.
func (t *Transcript) Log(dir byte, text string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	at := float64(time.Since(t.t0).Microseconds()) / 1000
	text = strings.TrimRight(text, "\r\n")
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if len(line) > 4096 {
			line = line[:4096] + fmt.Sprintf("... [%d bytes]", len(line))
		}
		fmt.Fprintf(t.w, "%10.3f %c %s\n", at, dir, line)
	}
}
