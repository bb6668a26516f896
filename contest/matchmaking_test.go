package contest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"arena/rating"
)

func TestPick(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		es   []Entrant
		n    int
		want []int // exactly these, seed first; nil = none
	}{
		{"too few", []Entrant{{Skill: rating.DefaultSkill()}}, 2, nil},
		{"the uncertain one seeds, the closest rating joins",
			[]Entrant{{Skill: rating.Skill{Mu: 30, Sigma: 2}}, {Skill: rating.Skill{Mu: 20, Sigma: 8}}, {Skill: rating.Skill{Mu: 21, Sigma: 2}}, {Skill: rating.Skill{Mu: 40, Sigma: 2}}},
			2, []int{1, 2}},
		{"a busy bot is left out while others are free",
			[]Entrant{{Skill: rating.Skill{Mu: 20, Sigma: 8}}, {Skill: rating.Skill{Mu: 20, Sigma: 2}, Playing: 1}, {Skill: rating.Skill{Mu: 35, Sigma: 2}}},
			2, []int{0, 2}},
		{"a busy bot plays when it must",
			[]Entrant{{Skill: rating.Skill{Mu: 20, Sigma: 8}}, {Skill: rating.Skill{Mu: 20, Sigma: 2}, Playing: 2}},
			2, []int{0, 1}},
		{"four players: the three closest",
			[]Entrant{{Skill: rating.Skill{Mu: 25, Sigma: 8}}, {Skill: rating.Skill{Mu: 10, Sigma: 1}}, {Skill: rating.Skill{Mu: 24, Sigma: 1}},
				{Skill: rating.Skill{Mu: 27, Sigma: 1}}, {Skill: rating.Skill{Mu: 50, Sigma: 1}}, {Skill: rating.Skill{Mu: 25.5, Sigma: 1}}},
			4, []int{0, 2, 3, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Pick(c.es, c.n, rng)
			if c.want == nil {
				if got != nil {
					t.Fatalf("Pick = %v, want none", got)
				}
				return
			}
			if len(got) != c.n || got[0] != c.want[0] {
				t.Fatalf("Pick = %v, want %v", got, c.want)
			}
			rest := slices.Clone(got[1:])
			slices.Sort(rest)
			if !slices.Equal(rest, c.want[1:]) {
				t.Errorf("Pick = %v, want %v", got, c.want)
			}
		})
	}
}

// BenchmarkPick is matchmaking over 10,000 participants, per game.
func BenchmarkPick(b *testing.B) {
	for _, n := range []int{2, 4} {
		b.Run(map[int]string{2: "2-player", 4: "4-player"}[n], func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			es := make([]Entrant, 10_000)
			for i := range es {
				es[i] = Entrant{Skill: rating.Skill{Mu: 10 + rng.Float64()*30, Sigma: 1 + rng.Float64()*7}, Games: rng.IntN(100)}
			}
			for b.Loop() {
				if Pick(es, n, rng) == nil {
					b.Fatal("no game")
				}
			}
		})
	}
}
