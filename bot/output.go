package bot

import (
	"strconv"
	"sync"
)

// Output collects the lines a bot prints besides its moves (status,
// debug, stray lines), up to Max of them, each clipped to 1000 bytes; it
// counts the rest, so a flood costs no memory.
type Output struct {
	Max     int
	lines   []string
	dropped int
}

// Add keeps a line, or counts it once Max lines are kept.
func (o *Output) Add(line string) {
	if len(o.lines) < o.Max {
		if len(line) > 1000 {
			line = line[:1000] + "..."
		}
		o.lines = append(o.lines, line)
		return
	}
	o.dropped++
}

// Take returns the kept lines, with a note of how many were dropped, and
// starts afresh.
func (o *Output) Take() []string {
	lines := o.lines
	if o.dropped > 0 {
		lines = append(lines, "[arena: "+strconv.Itoa(o.dropped)+" more lines not kept]")
	}
	o.lines, o.dropped = nil, 0
	return lines
}

// Holder keeps a seat's running process where Kill, called from another
// goroutine when a match is cancelled, can reach it.
type Holder struct {
	mu   sync.Mutex
	proc *Process
}

// Set records the running process (nil once it has ended).
func (h *Holder) Set(p *Process) {
	h.mu.Lock()
	h.proc = p
	h.mu.Unlock()
}

// Get returns the running process, or nil.
func (h *Holder) Get() *Process {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.proc
}

// Kill ends the running process at once, if there is one.
func (h *Holder) Kill() {
	if p := h.Get(); p != nil {
		p.Kill()
	}
}

// Pause stops the running process's group, if there is one (the
// opponent is thinking).
func (h *Holder) Pause() {
	if p := h.Get(); p != nil {
		p.Pause()
	}
}

// Resume continues the running process's group, if there is one.
func (h *Holder) Resume() {
	if p := h.Get(); p != nil {
		p.Resume()
	}
}

// Pid returns the running process (group) id, 0 when there is none.
func (h *Holder) Pid() int {
	if p := h.Get(); p != nil {
		return p.Pid()
	}
	return 0
}
