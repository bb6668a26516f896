package gomoku

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/match"
)

func TestProtocolFor(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"pbrain-x.py", "pbrain-x.jar", "PBRAIN-Y.exe", "brain.py"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "pbrain-dir"), 0o755)
	in := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name string
		args []string
		want Protocol
	}{
		{"pbrain program", []string{"/x/pbrain-rapfi"}, ProtoPipe},
		{"upper case", []string{"PBRAIN-Embryo.exe"}, ProtoPipe},
		{"bare prefix", []string{"/x/pbrain-"}, ProtoPipe},
		{"other program", []string{"/x/pisq7"}, ProtoFile},
		{"pbrain folder, other program", []string{"/pbrain-dir/brain"}, ProtoFile},
		{"no dash", []string{"pbrain"}, ProtoFile},
		{"interpreter alone", []string{"/usr/bin/python3"}, ProtoFile},
		{"prefix not at the start", []string{"./my-pbrain-thing"}, ProtoFile},
		{"mixed case", []string{"/opt/Pbrain-Fiver6"}, ProtoPipe},
		{"python script", []string{"/usr/bin/python3", in("pbrain-x.py")}, ProtoPipe},
		{"python options first", []string{"/usr/bin/python3", "-u", in("pbrain-x.py"), "--level", "3"}, ProtoPipe},
		{"java jar", []string{"/usr/bin/java", "-jar", in("pbrain-x.jar")}, ProtoPipe},
		{"mono", []string{"/usr/bin/mono", in("PBRAIN-Y.exe")}, ProtoPipe},
		{"wine", []string{"/usr/bin/wine", in("PBRAIN-Y.exe")}, ProtoPipe},
		{"file-protocol script", []string{"/usr/bin/python3", in("brain.py")}, ProtoFile},
		{"missing script", []string{"/usr/bin/python3", in("pbrain-missing.py")}, ProtoFile},
		{"option value, not a file", []string{"/x/brain", "--name", "pbrain-x"}, ProtoFile},
		{"folder named pbrain-", []string{"/usr/bin/python3", in("pbrain-dir")}, ProtoFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProtocolFor(tc.args); got != tc.want {
				t.Errorf("ProtocolFor(%q) = %s, want %s", tc.args, got, tc.want)
			}
		})
	}
}

func TestInfoLines(t *testing.T) {
	cfg := Config{Width: 15, Height: 15, Rule: Renju}
	opts := SeatOptions{MemoryLimit: 350 << 20, GameType: 1}
	tests := []struct {
		name string
		req  match.Request
		want string
	}{
		{"turn and match", match.Request{Clock: match.Clock{Turn: 2500 * time.Millisecond, Match: 3 * time.Minute}},
			"max_memory 367001600|timeout_match 180000|timeout_turn 2500|game_type 1|rule 4"},
		{"match only: the turn is the match time, never 0", match.Request{Clock: match.Clock{Match: time.Minute}},
			"max_memory 367001600|timeout_match 60000|timeout_turn 60000|game_type 1|rule 4"},
		{"nothing limited", match.Request{Unlimited: true},
			"max_memory 367001600|timeout_match 0|game_type 1|rule 4"},
		{"turn only", match.Request{Unlimited: true, Clock: match.Clock{Turn: 300 * time.Millisecond}},
			"max_memory 367001600|timeout_match 0|timeout_turn 300|game_type 1|rule 4"},
	}
	for _, tc := range tests {
		if got := strings.Join(infoLines(cfg, tc.req, opts), "|"); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
