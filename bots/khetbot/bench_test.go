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

// BenchmarkSearchOpenings searches 8 balanced openings (sprtOpening) to
// depth 5 with a fresh table each: the nodes are the same from run to
// run, so ns/op compares the speed of versions with the same tree.
func BenchmarkSearchOpenings(b *testing.B) {
	var boards []*khet.Board
	for i := range 8 {
		s, err := khet.NewState(khet.DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range sprtOpening(b, 9000+i) {
			if _, err := s.Play(m); err != nil {
				b.Fatal(err)
			}
		}
		boards = append(boards, s.Board())
	}
	b.ResetTimer()
	var nodes int64
	for range b.N {
		for _, bd := range boards {
			nodes += NewEngine(16).Search(bd, Limits{Depth: 5}).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
