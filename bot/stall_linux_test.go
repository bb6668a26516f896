package bot

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arena/sandbox"
)

// TestTimeoutSaysWhatTheBotDid: a timeout's message tells where the
// bot's threads were at the deadline, whether its freezer held it, and,
// for a sandboxed bot continued after a pause, the CPU time it used
// since.
func TestTimeoutSaysWhatTheBotDid(t *testing.T) {
	frozen := newGroup(0, true, sandbox.Cgroup{Freezer: true})
	t.Cleanup(frozen.Close)
	tests := []struct {
		name   string
		script string
		cfg    func(t *testing.T) Config
		before func(p *Process)
		after  func()
		want   []string
	}{
		{"asleep", `read l; sleep 30`, func(*testing.T) Config { return Config{} }, nil, nil,
			[]string{"threads: ", "asleep in "}},
		{"frozen", `read l; echo never`, func(t *testing.T) Config {
			if frozen.freezer == "" {
				t.Skip("no freezer")
			}
			return Config{Group: frozen}
		}, func(p *Process) { frozen.Freeze() }, func() { frozen.Thaw() }, []string{"threads: ", "freezer "}},
		{"thinking after a pause", `read l; while :; do :; done`, func(t *testing.T) Config {
			return Config{Sandbox: sandboxWithFilter(t), Dir: t.TempDir()}
		}, func(p *Process) { p.Pause() }, nil, []string{" of CPU in the ", " since it was continued", "1 running"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := startSh(t, tc.script, tc.cfg(t))
			if tc.before != nil {
				tc.before(p)
			}
			if err := p.WriteResume("go\n", soon()); err != nil {
				t.Fatal(err)
			}
			_, err := p.ReadLine(time.Now().Add(200 * time.Millisecond))
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("want a timeout, got %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			t.Log(err)
			if tc.after != nil {
				tc.after()
			}
		})
	}
}
