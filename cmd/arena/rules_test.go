package main

import (
	"path/filepath"
	"testing"
)

// TestEveryRule plays arena's brain against the random brain under every
// rule code and checks the verdicts the rule allows.
func TestEveryRule(t *testing.T) {
	skipUnderRace(t)
	dir := testBrain(t)
	tests := []struct {
		rule, size string
		reasons    []string // allowed
	}{
		{"0", "15", []string{"five"}},
		{"1", "15", []string{"five"}},
		{"2", "8", []string{"score"}},
		{"3", "8", []string{"score"}},
		{"4", "15", []string{"five", "foul"}},
		{"8", "15", []string{"five"}},
		{"9", "15", []string{"five"}},
	}
	for _, tc := range tests {
		t.Run("rule "+tc.rule, func(t *testing.T) {
			stdout, stderr, err := arena(t, "match", "gomoku", "--rule", tc.rule, "--size", tc.size, "--games", "2",
				"--turn-time", "100ms", "--bot", "builtin", "--bot", filepath.Join(dir, "pbrain-tb")+" --seed=5",
				"--out", t.TempDir(), "--json")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for i, g := range decodeLines(t, stdout) {
				ok := false
				for _, r := range tc.reasons {
					ok = ok || g["reason"] == r
				}
				if !ok || g["winner"] != float64(0) {
					t.Errorf("game %d: winner %v by %v (%v), want the builtin brain by %v", i+1, g["winner"], g["reason"], g["detail"], tc.reasons)
				}
				if tc.reasons[0] == "score" {
					scores, _ := g["scores"].([]any)
					if len(scores) != 2 || scores[0].(float64) <= scores[1].(float64) {
						t.Errorf("game %d: scores %v", i+1, g["scores"])
					}
				}
			}
		})
	}
}
