package mapgen_test

import (
	"fmt"
	"testing"

	"arena/game/ants"
	"arena/game/ants/mapgen"
)

// TestEngineAcceptsMaps loads generated maps into the referee with the
// official defaults (food symmetric): the engine parses them, finds their
// symmetry and places the starting food, as the AI Challenge engine would.
func TestEngineAcceptsMaps(t *testing.T) {
	for players := 2; players <= 10; players++ {
		for _, sym := range []string{"", mapgen.Translate, mapgen.Rotate, mapgen.Mirror} {
			if (sym == mapgen.Mirror || sym == mapgen.Rotate) && players != 2 && players != 4 {
				continue
			}
			o := mapgen.Options{Players: players, Seed: int64(players*10 + len(sym)), Symmetry: sym}
			if sym == mapgen.Rotate && players == 4 {
				o.Rows, o.Cols = 72, 72
			}
			t.Run(fmt.Sprintf("p%d_%s", players, sym), func(t *testing.T) {
				text, err := mapgen.Generate(o)
				if err != nil {
					t.Fatal(err)
				}
				m, err := ants.ParseMap(text)
				if err != nil {
					t.Fatalf("engine rejects the map: %v", err)
				}
				if m.Players != players {
					t.Fatalf("players %d", m.Players)
				}
				opts := ants.DefaultOptions()
				opts.EngineSeed, opts.PlayerSeed = 1, 1
				st, err := ants.NewState(m, opts)
				if err != nil {
					t.Fatalf("engine state: %v", err)
				}
				if err := st.StartGame(); err != nil {
					t.Fatalf("engine start (symmetric food): %v\n%s", err, text)
				}
			})
		}
	}
}

// TestEngineRejectsBrokenSymmetry is the control for the test above: the
// same check fails once one square breaks the symmetry.
func TestEngineRejectsBrokenSymmetry(t *testing.T) {
	m, err := mapgen.Build(mapgen.Options{Players: 2, Seed: 5, Rows: 40, Cols: 40, Symmetry: mapgen.Mirror})
	if err != nil {
		t.Fatal(err)
	}
	// Turn one land square next to player 0's hill into water.
	h := m.Hills[0][0]
	m.Water[h[0]][(h[1]+1)%m.Cols] = true
	pm, err := ants.ParseMap(m.String())
	if err != nil {
		t.Fatal(err)
	}
	opts := ants.DefaultOptions()
	opts.EngineSeed = 1
	st, err := ants.NewState(pm, opts)
	if err == nil {
		err = st.StartGame()
	}
	if err == nil {
		t.Fatal("the engine accepted a map that is not symmetric")
	}
}
