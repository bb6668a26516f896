package main

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"arena/sandbox"
)

func TestDoctorReportsEveryLayer(t *testing.T) {
	stdout, stderr, err := arena(t, "doctor", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var rep doctorReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	var names []string
	for _, l := range rep.Layers {
		names = append(names, l.Layer)
		if !l.On && l.Why == "" {
			t.Errorf("layer %s is off without a reason", l.Layer)
		}
	}
	if !slices.Equal(names, sandbox.AllLayers()) {
		t.Errorf("layers %v, want %v", names, sandbox.AllLayers())
	}
	if rep.Start.Error != "" || rep.Start.BareMs <= 0 || rep.Start.SandboxedMs <= 0 || rep.Start.PooledMs <= 0 {
		t.Errorf("start not measured: %+v", rep.Start)
	}
	resides := os.Geteuid() == 0 && sandbox.Probe(context.Background(), sandbox.NetNone).On(sandbox.LayerMount)
	if (rep.Start.ResidentMs > 0) != resides || (rep.Start.ResidentWhy == "") != resides {
		t.Errorf("the resident start: %.2f ms (%q), where arena as root with namespaces is %v", rep.Start.ResidentMs,
			rep.Start.ResidentWhy, resides)
	}
	switch {
	case rep.PauseLook == "proc" && rep.PauseLookWhy == "":
		t.Error("the pause's look reads /proc without a reason")
	case rep.PauseLook == "proc" && sandbox.PipeSleepPrerequisites() == nil:
		t.Errorf("the machine gives what the pipe sleep programs need, but the pause's look reads /proc: %s", rep.PauseLookWhy)
	case rep.PauseLook != "proc" && rep.PauseLook != "kernel":
		t.Errorf("pause_look %q", rep.PauseLook)
	}

	text, _, err := arena(t, "doctor")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range append(sandbox.AllLayers(), "the sandbox adds", "in a group kept ready", "look before pausing an idle bot") {
		if !strings.Contains(text, w) {
			t.Errorf("doctor does not show %q:\n%s", w, text)
		}
	}
}

// TestSandboxFieldInEveryLine plays a game in each mode and checks the
// layers its JSON line and record list.
func TestSandboxFieldInEveryLine(t *testing.T) {
	probe := sandbox.Probe(t.Context(), sandbox.NetNone)
	cases := []struct {
		mode string
		want []string
	}{
		{"off", []string{}},
		{"auto", nil}, // every layer the probe found on
	}
	if len(probe.Missing()) == 0 {
		cases = append(cases, struct {
			mode string
			want []string
		}{"strict", sandbox.AllLayers()})
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			want := c.want
			if want == nil {
				sb, err := sandbox.New(sandbox.Policy{Mode: sandbox.Auto}, probe)
				if err != nil {
					t.Fatal(err)
				}
				want = sb.Layers()
			}
			stdout, stderr, err := arena(t, "match", "gomoku", "--bot", "builtin", "--bot", "builtin", "--games", "1",
				"--size", "8", "--turn-time", "50ms", "--out", t.TempDir(), "--json", "--sandbox", c.mode)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			lines := decodeLines(t, stdout)
			if len(lines) != 1 {
				t.Fatalf("want one game line, got %q", stdout)
			}
			var got []string
			for _, l := range lines[0]["sandbox"].([]any) {
				got = append(got, l.(string))
			}
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("sandbox %v, want %v", got, want)
			}
			if r := lines[0]["reason"]; r == "crash" || r == "protocol" {
				t.Errorf("the built-in bot failed in the sandbox: %v", lines[0])
			}
		})
	}
	if _, _, err := arena(t, "match", "gomoku", "--bot", "builtin", "--bot", "builtin", "--sandbox", "sometimes"); err == nil ||
		!strings.Contains(err.Error(), "--sandbox") {
		t.Errorf("want --sandbox sometimes refused, got %v", err)
	}
}
