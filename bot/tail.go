package bot

import (
	"sync"
	"time"
)

// tail keeps the last max bytes written to it and counts all of them. It
// is safe for concurrent use: a goroutine drains stderr into it while the
// match reads it.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
	ended chan struct{} // closed by end, when the stream is over
	once  sync.Once
}

func newTail(max int) *tail { return &tail{max: max, ended: make(chan struct{})} }

// end marks the stream as over: nothing more will be written.
func (t *tail) end() { t.once.Do(func() { close(t.ended) }) }

// since returns what was written after the first n bytes, as far as it is
// still kept ("[...]" first when some of it was dropped), and the count
// of bytes written so far.
func (t *tail) since(n int64) (string, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fresh := t.total - max(n, 0)
	switch {
	case fresh <= 0:
		return "", t.total
	case fresh > int64(len(t.buf)):
		return "[...]" + string(t.buf), t.total
	}
	return string(t.buf[int64(len(t.buf))-fresh:]), t.total
}

// StderrSince returns what the bot wrote to stderr after its first n
// bytes, and the count of bytes it wrote so far (the n of the next call):
// a referee that logs stderr turn by turn, as the Ants engine does, reads
// each part once. A part longer than the kept tail starts with "[...]".
func (p *Process) StderrSince(n int64) (string, int64) { return p.stderr.since(n) }

// WaitStderr waits up to d for the bot's stderr to end (the bot and every
// child holding it have closed it) and reports whether it did: after a
// crash, what the bot wrote last is then read in full.
func (p *Process) WaitStderr(d time.Duration) bool {
	select {
	case <-p.stderr.ended:
		return true
	default:
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.stderr.ended:
		return true
	case <-timer.C:
		return false
	}
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// String returns the kept bytes, marked when earlier output was dropped.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.total > int64(len(t.buf)) {
		return "[...]" + string(t.buf)
	}
	return string(t.buf)
}
