package khet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/game"
)

// TestProtocolGolden plays S23C then R21C through the real protocol with
// two scripted processes and checks every line they receive against the
// seed's sample log.
func TestProtocolGolden(t *testing.T) {
	dir := t.TempDir()
	slog, rlog := filepath.Join(dir, "silver.log"), filepath.Join(dir, "red.log")
	out, state, _ := playGame(t, DefaultConfig(), 5*time.Second,
		player(t, "--policy=script", "--moves=S23C", "--log="+slog),
		player(t, "--policy=script", "--moves=R21C", "--log="+rlog))
	// Silver's script runs out at its second move: it exits, and loses E.
	checkResult(t, out, 1, game.ReasonCrash)
	final := "RE" + goldenAfter2[1:]
	if got := state.String(); got != final {
		t.Fatalf("final state\n got %s\nwant %s", got, final)
	}
	wantSilver := []string{"B S " + goldenInitial, "R S " + goldenInitial, "R S " + goldenAfter2, "E S " + final}
	wantRed := []string{"B R " + goldenInitial, "R R " + goldenAfter1, "E R " + final}
	for _, tc := range []struct {
		file string
		want []string
	}{{slog, wantSilver}, {rlog, wantRed}} {
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		// Silver exited before the E line could reach it.
		if tc.file == slog && len(got) == 3 {
			tc.want = tc.want[:3]
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%s: got %d lines, want %d:\n%s", filepath.Base(tc.file), len(got), len(tc.want), data)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s line %d:\n got %q\nwant %q", filepath.Base(tc.file), i+1, got[i], tc.want[i])
			}
		}
	}
	for _, prefix := range []string{"- S23C#97000330110000 1 26", "- R21C#002221100XR21Y3 2 25"} {
		data, _ := os.ReadFile(rlog)
		data2, _ := os.ReadFile(slog)
		if !strings.Contains(string(data)+string(data2), prefix) {
			t.Errorf("no bot received %q", prefix)
		}
	}
}

// TestMisbehaving checks that every kind of misbehaviour loses by the
// protocol's own code, the other bot still gets its E line, and no
// process is left running.
func TestMisbehaving(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string
		reason game.Reason
		code   string
	}{
		{"no play khet line", []string{"--fault=nogreet"}, game.ReasonProtocol, "E"},
		{"wrong colour letter", []string{"--fault=colour"}, game.ReasonIllegal, "E"},
		{"garbage", []string{"--fault=garbage"}, game.ReasonProtocol, "E"},
		{"timeout", []string{"--fault=sleep"}, game.ReasonTimeout, "T"},
		{"crash", []string{"--fault=crash"}, game.ReasonCrash, "E"},
		{"illegal move", []string{"--fault=illegal"}, game.ReasonIllegal, "E"},
		{"flood without a line end", []string{"--fault=flood"}, game.ReasonProtocol, "E"},
		{"timeout later", []string{"--fault=sleep", "--fault-at=3"}, game.ReasonTimeout, "T"},
	}
	for _, tc := range tests {
		for _, bad := range []Color{Silver, Red} {
			t.Run(tc.name+"/"+bad.String(), func(t *testing.T) {
				t.Parallel()
				goodLog := filepath.Join(t.TempDir(), "good.log")
				good := player(t, "--policy=random", "--seed=3", "--log="+goodLog)
				misfit := player(t, append([]string{"--policy=random", "--seed=4"}, tc.flags...)...)
				silver, red := good, misfit
				if bad == Silver {
					silver, red = misfit, good
				}
				t0 := time.Now()
				out, state, pids := playGame(t, DefaultConfig(), 500*time.Millisecond, silver, red)
				checkResult(t, out, int(bad.Other()), tc.reason)
				if o := state.Outcome(); o.Code != tc.code {
					t.Errorf("code %s, want %s", o.Code, tc.code)
				}
				if !strings.HasPrefix(state.String(), string(bad.Other().Letter())+tc.code+" ") {
					t.Errorf("final state %s", state.String())
				}
				if out.Sides[bad].Fault == nil || out.Sides[bad].Fault.Detail == "" {
					t.Errorf("no fault recorded with a detail: %+v", out.Sides[bad])
				}
				data, _ := os.ReadFile(goodLog)
				lines := strings.Split(strings.TrimSpace(string(data)), "\n")
				if last := lines[len(lines)-1]; last != "E "+string(bad.Other().Letter())+" "+state.String() {
					t.Errorf("the other bot's last line is %q, want its E line", last)
				}
				for _, pid := range pids {
					if !gone(pid) {
						t.Errorf("process group %d still runs", pid)
					}
				}
				if took := time.Since(t0); took > time.Minute {
					t.Errorf("took %v", took)
				}
			})
		}
	}
}

// TestLingeringBotIsKilled: a bot that does not exit after E is killed.
func TestLingeringBotIsKilled(t *testing.T) {
	out, _, pids := playGame(t, DefaultConfig(), 2*time.Second,
		player(t, "--policy=script", "--moves=S23C"),
		player(t, "--fault=linger", "--policy=script", "--moves=R21C"))
	checkResult(t, out, 1, game.ReasonCrash)
	for _, pid := range pids {
		if !gone(pid) {
			t.Errorf("process group %d still runs", pid)
		}
	}
}
