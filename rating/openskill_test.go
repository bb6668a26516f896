package rating

import (
	"math"
	"testing"
)

// The free-for-all cases of openskill.js's Plackett–Luce tests
// (src/models/__tests__/plackett-luce.test.js): every player starts at the
// default rating and the input order is the finishing order.
func TestPlackettLuceOpenSkillValues(t *testing.T) {
	tests := []struct {
		name string
		want []Skill
	}{
		{"2p FFA", []Skill{
			{27.63523138347365, 8.065506316323548},
			{22.36476861652635, 8.065506316323548},
		}},
		{"3p FFA", []Skill{
			{27.868876552746237, 8.204837030780652},
			{25.717219138186557, 8.057829747583874},
			{21.413904309067206, 8.057829747583874},
		}},
		{"4p FFA", []Skill{
			{27.795084971874736, 8.263160757613477},
			{26.552824984374855, 8.179213704945203},
			{24.68943500312503, 8.083731307186588},
			{20.96265504062538, 8.083731307186588},
		}},
		{"5p FFA", []Skill{
			{27.666666666666668, 8.290556877154474},
			{26.833333333333332, 8.240145629781066},
			{25.72222222222222, 8.179996679645559},
			{24.055555555555557, 8.111796013701358},
			{20.72222222222222, 8.111796013701358},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.want)
			skills := make([]Skill, n)
			ranks := make([]int, n)
			for i := range skills {
				skills[i] = DefaultSkill()
				ranks[i] = i + 1
			}
			got := PlackettLuce(skills, ranks)
			for i := range got {
				if math.Abs(got[i].Mu-tc.want[i].Mu) > 1e-9 || math.Abs(got[i].Sigma-tc.want[i].Sigma) > 1e-9 {
					t.Errorf("player %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestSkillBasics(t *testing.T) {
	d := DefaultSkill()
	if d.Mu != 25 || d.Sigma != 25.0/3 || math.Abs(d.Ordinal()) > 1e-12 {
		t.Errorf("default %+v ordinal %v", d, d.Ordinal())
	}
	if o := (Skill{30, 2}).Ordinal(); o != 24 {
		t.Errorf("ordinal %v", o)
	}
}

// Only the order of the rank numbers matters, the input order does not,
// and the input is left alone.
func TestPlackettLuceInvariances(t *testing.T) {
	skills := []Skill{{30, 5}, {25, 8}, {20, 3}, {27, 6}}
	orig := append([]Skill(nil), skills...)
	got := PlackettLuce(skills, []int{2, 1, 4, 3})
	if !equalSkills(skills, orig) {
		t.Fatal("input modified")
	}
	if alt := PlackettLuce(skills, []int{20, 10, 400, 30}); !equalSkills(alt, got) {
		t.Errorf("rank numbers 20,10,400,30 give %v, want %v", alt, got)
	}
	perm := []int{3, 0, 2, 1}
	ps := make([]Skill, 4)
	pr := make([]int, 4)
	ranks := []int{2, 1, 4, 3}
	for k, i := range perm {
		ps[k], pr[k] = skills[i], ranks[i]
	}
	for k, s := range PlackettLuce(ps, pr) {
		if math.Abs(s.Mu-got[perm[k]].Mu) > 1e-12 || math.Abs(s.Sigma-got[perm[k]].Sigma) > 1e-12 {
			t.Errorf("permuted input: player %d got %+v, want %+v", perm[k], s, got[perm[k]])
		}
	}
	// Winners gain, losers lose, everyone grows more certain.
	if !(got[1].Mu > skills[1].Mu && got[2].Mu < skills[2].Mu) {
		t.Errorf("winner %+v loser %+v", got[1], got[2])
	}
	for i := range got {
		if !(got[i].Sigma < skills[i].Sigma) {
			t.Errorf("player %d: sigma %v -> %v", i, skills[i].Sigma, got[i].Sigma)
		}
	}
}

func TestPlackettLuceTies(t *testing.T) {
	d := DefaultSkill()
	// Two equal players who tie stay equal to each other and keep their
	// mean: a draw between equals carries no information about who is
	// better.
	got := PlackettLuce([]Skill{d, d}, []int{1, 1})
	if got[0] != got[1] || math.Abs(got[0].Mu-25) > 1e-12 {
		t.Errorf("tie of equals: %+v", got)
	}
	// Players sharing a rank get the same update when they start equal, and
	// sit between the winner and the last.
	got = PlackettLuce([]Skill{d, d, d, d}, []int{1, 2, 2, 3})
	if got[1] != got[2] || !(got[0].Mu > got[1].Mu && got[1].Mu > got[3].Mu) {
		t.Errorf("tied middle: %+v", got)
	}
}

func TestPlackettLuceSmallGames(t *testing.T) {
	if got := PlackettLuce(nil, nil); len(got) != 0 {
		t.Errorf("empty game: %v", got)
	}
	one := []Skill{{31, 4}}
	if got := PlackettLuce(one, []int{1}); got[0] != one[0] {
		t.Errorf("solo game changed %v to %v", one[0], got[0])
	}
	// Extreme means must not overflow exp.
	for _, s := range PlackettLuce([]Skill{{5000, 1}, {-5000, 1}, {0, 8}}, []int{3, 1, 2}) {
		if math.IsNaN(s.Mu) || math.IsInf(s.Mu, 0) || math.IsNaN(s.Sigma) || !(s.Sigma > 0) {
			t.Errorf("extreme input gives %+v", s)
		}
	}
}

func TestFitPlackettLuce(t *testing.T) {
	// Player 2 always wins, player 0 always comes last, in games of three
	// out of four players.
	var games []Ranking
	for range 30 {
		games = append(games,
			Ranking{Players: []int{0, 1, 2}, Ranks: []int{3, 2, 1}},
			Ranking{Players: []int{3, 2, 0}, Ranks: []int{2, 1, 3}},
			Ranking{Players: []int{1, 3, 0}, Ranks: []int{1, 2, 3}})
	}
	s := FitPlackettLuce(4, games)
	if !(s[2].Ordinal() > s[1].Ordinal() && s[1].Ordinal() > s[0].Ordinal() && s[3].Ordinal() > s[0].Ordinal()) {
		t.Errorf("skills %+v", s)
	}
	// The first game is exactly one PlackettLuce update from the defaults.
	d := DefaultSkill()
	first := PlackettLuce([]Skill{d, d, d}, []int{3, 2, 1})
	s = FitPlackettLuce(4, games[:1])
	if !equalSkills([]Skill{s[0], s[1], s[2]}, first) || s[3] != d {
		t.Errorf("one game: %+v, want %+v then the default", s, first)
	}
}

func TestFitPlackettLucePanics(t *testing.T) {
	for name, g := range map[string]Ranking{
		"unknown player": {Players: []int{0, 5}, Ranks: []int{1, 2}},
		"length":         {Players: []int{0, 1}, Ranks: []int{1}},
		"twice":          {Players: []int{1, 1}, Ranks: []int{1, 2}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			FitPlackettLuce(3, []Ranking{g})
		}()
	}
}

func equalSkills(a, b []Skill) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].Mu-b[i].Mu) > 1e-12 || math.Abs(a[i].Sigma-b[i].Sigma) > 1e-12 {
			return false
		}
	}
	return true
}

func BenchmarkPlackettLuce10(b *testing.B) {
	skills := make([]Skill, 10)
	ranks := make([]int, 10)
	for i := range skills {
		skills[i] = Skill{Mu: 20 + float64(i), Sigma: 3 + float64(i)/4}
		ranks[i] = (i*7)%10 + 1
	}
	for b.Loop() {
		PlackettLuce(skills, ranks)
	}
}

// A tie is the average of the updates for every order the tied players
// could have finished in: checked against the untied update applied to
// each of those orders.
func TestPlackettLuceTieAveragesOrders(t *testing.T) {
	tests := []struct {
		name   string
		skills []Skill
		ranks  []int
	}{
		{"shared first of four", []Skill{{25, 8.3}, {25, 8.3}, {25, 8.3}, {25, 8.3}}, []int{1, 3, 1, 4}},
		{"unequal pair tied", []Skill{{30, 5}, {22, 7}}, []int{1, 1}},
		{"two ties", []Skill{{28, 4}, {21, 6}, {25, 8}, {19, 3}, {26, 5}}, []int{2, 1, 2, 3, 3}},
		{"three tied last", []Skill{{24, 2}, {27, 6}, {23, 5}, {29, 7}}, []int{1, 2, 2, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.skills)
			got := PlackettLuce(tc.skills, tc.ranks)
			// Every strict order consistent with the ranks, by brute force.
			var mu, shrink []float64 = make([]float64, n), make([]float64, n)
			orders := 0
			perm := make([]int, n)
			var place func(pos int, used []bool)
			place = func(pos int, used []bool) {
				if pos == n {
					strict := make([]int, n)
					for p, i := range perm {
						strict[i] = p + 1
					}
					for i := 1; i < n; i++ {
						if tc.ranks[perm[i-1]] > tc.ranks[perm[i]] {
							return // not consistent with the ranks
						}
					}
					orders++
					for i, s := range PlackettLuce(tc.skills, strict) {
						mu[i] += s.Mu
						r := s.Sigma / tc.skills[i].Sigma
						shrink[i] += 1 - r*r
					}
					return
				}
				for i := range n {
					if !used[i] {
						used[i], perm[pos] = true, i
						place(pos+1, used)
						used[i] = false
					}
				}
			}
			place(0, make([]bool, n))
			for i := range n {
				wantMu := mu[i] / float64(orders)
				wantSigma := tc.skills[i].Sigma * math.Sqrt(math.Max(1-shrink[i]/float64(orders), plKappa))
				if math.Abs(got[i].Mu-wantMu) > 1e-9 || math.Abs(got[i].Sigma-wantSigma) > 1e-9 {
					t.Errorf("player %d: got %+v, want mu %v sigma %v (average of %d orders)", i, got[i], wantMu, wantSigma, orders)
				}
			}
		})
	}
}

// Four equal players scoring 7, 4, 7 and 0: the two who share first place
// rate alike and above the third, who rates above the last.
func TestPlackettLuceSharedFirstPlace(t *testing.T) {
	d := DefaultSkill()
	got := PlackettLuce([]Skill{d, d, d, d}, []int{1, 3, 1, 4})
	if got[0] != got[2] {
		t.Errorf("tied first places differ: %+v, %+v", got[0], got[2])
	}
	for _, by := range []struct {
		name string
		f    func(Skill) float64
	}{{"mu", func(s Skill) float64 { return s.Mu }}, {"ordinal", Skill.Ordinal}} {
		if !(by.f(got[0]) > by.f(got[1]) && by.f(got[1]) > by.f(got[3])) {
			t.Errorf("%s: %v %v %v %v, want first = first > third > last", by.name, by.f(got[0]), by.f(got[2]), by.f(got[1]), by.f(got[3]))
		}
	}
}

// A tie too large to average exactly still treats equals equally: the
// tied winners rate alike, above the one behind them.
func TestPlackettLuceLargeTie(t *testing.T) {
	n := maxExactTie + 2
	skills := make([]Skill, n)
	ranks := make([]int, n)
	for i := range skills {
		skills[i] = DefaultSkill()
	}
	ranks[n-1] = 1
	got := PlackettLuce(skills, ranks)
	for i := 1; i < n-1; i++ {
		if got[i] != got[0] {
			t.Errorf("tied player %d: %+v, player 0: %+v", i, got[i], got[0])
		}
	}
	if !(got[0].Mu > 25 && got[n-1].Mu < 25) {
		t.Errorf("tied winners %+v, last %+v", got[0], got[n-1])
	}
}
