package sandbox_test

import (
	"context"
	"testing"

	"arena/sandbox"
)

func TestProbeReportsEveryLayer(t *testing.T) {
	r := sandbox.Probe(context.Background(), sandbox.NetNone)
	if len(r.Layers) != len(sandbox.AllLayers()) {
		t.Fatalf("report has %d layers, want %d", len(r.Layers), len(sandbox.AllLayers()))
	}
	for _, s := range r.Layers {
		t.Logf("%-13s on=%v %s", s.Layer, s.On, s.Why)
		if !s.On && s.Why == "" {
			t.Errorf("layer %s is off without a reason", s.Layer)
		}
	}
}
