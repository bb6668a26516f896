package gomoku

import (
	"strings"
	"testing"
	"time"

	"arena/match"
)

func TestProtocolFor(t *testing.T) {
	tests := map[string]Protocol{
		"/x/pbrain-rapfi":    ProtoPipe,
		"PBRAIN-Embryo.exe":  ProtoPipe,
		"/x/pbrain-":         ProtoPipe,
		"/x/pisq7":           ProtoFile,
		"/pbrain-dir/brain":  ProtoFile,
		"pbrain":             ProtoFile,
		"/usr/bin/python3":   ProtoFile,
		"./my-pbrain-thing":  ProtoFile,
		"/opt/Pbrain-Fiver6": ProtoPipe,
	}
	for prog, want := range tests {
		if got := ProtocolFor(prog); got != want {
			t.Errorf("ProtocolFor(%q) = %s, want %s", prog, got, want)
		}
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
