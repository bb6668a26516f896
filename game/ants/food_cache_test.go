package ants

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"arena/game/ants/mapgen"
)

// namedMap is a map's text and a name for the messages.
type namedMap struct{ name, text string }

// foodTestMaps are the maps of the food cache tests: every recorded
// official game's, the tutorial map, the tutorial map with one more
// square of water (the same size and hills: only the water tells it
// apart, and it is no longer symmetric), and generated maps of each
// symmetry for 2 to 8 players (several of the same size).
func foodTestMaps(t *testing.T) []namedMap {
	t.Helper()
	var maps []namedMap
	for _, dir := range recordedGames(t) {
		rec, err := LoadRecorded(dir)
		if err != nil {
			t.Fatal(err)
		}
		maps = append(maps, namedMap{filepath.Base(dir), rec.MapText})
	}
	text, err := os.ReadFile(filepath.Join("testdata", "tutorial1.map"))
	if err != nil {
		t.Fatal(err)
	}
	maps = append(maps, namedMap{"tutorial1", string(text)})
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		if j := strings.Index(l, "...."); strings.HasPrefix(l, "m ") && j >= 0 {
			lines[i] = l[:j+1] + "%" + l[j+2:]
			break
		}
	}
	maps = append(maps, namedMap{"tutorial1 with more water", strings.Join(lines, "\n")})
	for _, o := range []mapgen.Options{
		{Players: 2, Seed: 1, Rows: 40, Cols: 40},
		{Players: 2, Seed: 2, Rows: 40, Cols: 40},
		{Players: 4, Seed: 3, Rows: 48, Cols: 48, Symmetry: mapgen.Translate},
		{Players: 4, Seed: 3, Rows: 48, Cols: 48},
		{Players: 8, Seed: 8, Rows: 64, Cols: 64},
		{Players: 3, Seed: 5, Rows: 45, Cols: 60, Hills: 2},
	} {
		text, err := mapgen.Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		maps = append(maps, namedMap{fmt.Sprintf("generated %+v", o), text})
	}
	return maps
}

// foodRun is a game's food after turns turns in which nobody moves, and
// the error that stopped it ("" for none).
func foodRun(m *Map, opt Options, cache *FoodCache, turns int) ([][3]int, string) {
	st, err := NewState(m, opt)
	if err != nil {
		return nil, "NewState: " + err.Error()
	}
	st.UseFoodCache(cache)
	if err := st.StartGame(); err != nil {
		return nil, "StartGame: " + err.Error()
	}
	for t := 0; t < turns; t++ {
		st.StartTurn()
		if err := st.FinishTurn(); err != nil {
			return nil, "FinishTurn: " + err.Error()
		}
	}
	var food [][3]int
	for _, f := range st.AllFood {
		food = append(food, [3]int{f.Loc, f.StartTurn, f.EndTurn})
	}
	return food, ""
}

// TestFoodCacheSameFood plays every test map with several seeds and
// option sets, without a cache and with one cache shared by all of them
// (maps, seeds and options), and compares where and when food appeared.
func TestFoodCacheSameFood(t *testing.T) {
	maps := foodTestMaps(t)
	cache := NewFoodCache()
	variants := []func(*Options){
		func(*Options) {},
		func(o *Options) { o.FoodVisible = [2]int{0, 0} },
		func(o *Options) { o.ViewRadius2 = 40 },
		func(o *Options) { o.FoodStart = [2]int{0, 0} },
	}
	for _, nm := range maps {
		name := nm.name
		m, err := ParseMap(nm.text)
		if err != nil {
			t.Fatal(name, err)
		}
		for vi, v := range variants {
			for seed := int64(1); seed <= 3; seed++ {
				opt := DefaultOptions()
				opt.EngineSeed, opt.PlayerSeed = seed*7919, seed
				v(&opt)
				want, wantErr := foodRun(m, opt, nil, 40)
				for round := 0; round < 2; round++ { // making the entry, then using it
					got, gotErr := foodRun(m, opt, cache, 40)
					if gotErr != wantErr {
						t.Fatalf("%s variant %d seed %d round %d: error %q, without the cache %q", name, vi, seed, round, gotErr, wantErr)
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%s variant %d seed %d round %d: food differs from the game without the cache", name, vi, seed, round)
					}
				}
				if len(want) == 0 && wantErr == "" && opt.Food != "none" && name[:2] != "v8" {
					t.Fatalf("%s: no food at all: the test compares nothing", name)
				}
			}
		}
	}
	if n := len(cache.entries); n == 0 || n > foodCacheMax {
		t.Fatalf("%d entries in the cache", n)
	}
}

// TestFoodCacheReused checks that games on one map share one entry, with
// the sets of each symmetry drawn, and that another map gets its own.
func TestFoodCacheReused(t *testing.T) {
	cache := NewFoodCache()
	texts := []string{}
	for _, seed := range []int64{11, 12} {
		text, err := mapgen.Generate(mapgen.Options{Players: 4, Seed: seed, Rows: 48, Cols: 48})
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, text)
	}
	var entries []*foodCacheEntry
	for i, text := range texts {
		m, err := ParseMap(text)
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= 4; seed++ {
			opt := DefaultOptions()
			opt.EngineSeed = seed
			st, err := NewState(m, opt)
			if err != nil {
				t.Fatal(err)
			}
			st.UseFoodCache(cache)
			if err := st.StartGame(); err != nil {
				t.Fatal(err)
			}
			if st.foodEntry == nil {
				t.Fatalf("map %d seed %d: no cache entry", i, seed)
			}
			if seed == 1 {
				entries = append(entries, st.foodEntry)
			} else if st.foodEntry != entries[i] {
				t.Fatalf("map %d seed %d: a second entry for the same map", i, seed)
			}
			for _, starting := range []bool{true, false} {
				k := foodSetsKey{choice: st.symmetryChoice, starting: starting}
				if starting {
					k.viewRadius2 = opt.ViewRadius2
				}
				if cache.sets(st.foodEntry, k) == nil {
					t.Fatalf("map %d seed %d: the sets (starting %v) were not kept", i, seed, starting)
				}
			}
		}
	}
	if entries[0] == entries[1] || len(cache.entries) != 2 {
		t.Fatalf("two maps, %d entries", len(cache.entries))
	}
}

// TestFoodCacheBounded fills a cache with more maps than it keeps.
func TestFoodCacheBounded(t *testing.T) {
	cache := NewFoodCache()
	for seed := int64(1); seed <= foodCacheMax+3; seed++ {
		text, err := mapgen.Generate(mapgen.Options{Players: 2, Seed: seed, Rows: 24, Cols: 24})
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseMap(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, msg := foodRun(m, DefaultOptions(), cache, 1); msg != "" {
			t.Fatal(msg)
		}
	}
	if len(cache.entries) != foodCacheMax {
		t.Fatalf("%d entries, want %d", len(cache.entries), foodCacheMax)
	}
}

// TestFoodCacheConcurrent plays games on one map at once with one cache
// (run with -race): every game gets the food of the game without it.
func TestFoodCacheConcurrent(t *testing.T) {
	text, err := mapgen.Generate(mapgen.Options{Players: 4, Seed: 21, Rows: 40, Cols: 40})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMap(text)
	if err != nil {
		t.Fatal(err)
	}
	cache := NewFoodCache()
	const games = 8
	want := make([]string, games)
	got := make([]string, games)
	opts := make([]Options, games)
	for g := range opts {
		opts[g] = DefaultOptions()
		opts[g].EngineSeed = int64(g + 1)
		food, msg := foodRun(m, opts[g], nil, 20)
		want[g] = fmt.Sprint(food, msg)
	}
	var wg sync.WaitGroup
	for g := range opts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			food, msg := foodRun(m, opts[g], cache, 20)
			got[g] = fmt.Sprint(food, msg)
		}()
	}
	wg.Wait()
	for g := range got {
		if got[g] != want[g] {
			t.Fatalf("game %d: food differs from the game without the cache", g)
		}
	}
}
