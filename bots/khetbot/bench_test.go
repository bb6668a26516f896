package khetbot

import (
	"testing"

	"arena/game/khet"
)

// BenchmarkSearch searches the Classic start to depth 4 with a fresh
// table and reports nodes per second.
func BenchmarkSearch(b *testing.B) {
	var nodes int64
	for i := 0; i < b.N; i++ {
		bd, _ := khet.SetupBoard(khet.Classic, khet.Rules{})
		res := NewEngine(16).Search(bd, Limits{Depth: 4})
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkEvaluate is the leaf evaluation as the search makes it (with
// the material it keeps).
func BenchmarkEvaluate(b *testing.B) {
	bd, _ := khet.SetupBoard(khet.Classic, khet.Rules{})
	k := keptOf(bd)
	for i := 0; i < b.N; i++ {
		evaluateWith(bd, &k, defaultWeights())
	}
}
