package bot

import "sync"

// tail keeps the last max bytes written to it and counts all of them. It
// is safe for concurrent use: a goroutine drains stderr into it while the
// match reads it.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

func newTail(max int) *tail { return &tail{max: max} }

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
