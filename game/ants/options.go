package ants

import "time"

// Options are the game options of playgame.py, under the same names and
// with the same defaults.
type Options struct {
	Turns         int           // --turns, 1000
	LoadTime      int           // --loadtime in ms, 3000
	TurnTime      int           // --turntime in ms, 1000
	ViewRadius2   int           // --viewradius2, 77
	AttackRadius2 int           // --attackradius2, 5
	SpawnRadius2  int           // --spawnradius2, 1
	EngineSeed    int64         // --engine_seed
	PlayerSeed    int64         // --player_seed
	FoodRate      [2]int        // --food_rate, 5 11
	FoodTurn      [2]int        // --food_turn, 19 37
	FoodStart     [2]int        // --food_start, 75 175
	FoodVisible   [2]int        // --food_visible, 3 5
	Food          string        // --food: none, random, sections, symmetric (default)
	Attack        string        // --attack: focus (default), closest, support, damage
	CutoffTurn    int           // --cutoff_turn, 150
	CutoffPercent float64       // --cutoff_percent, 0.85
	Scenario      bool          // --scenario: ants and food from the map
	Strict        bool          // --strict: an invalid order eliminates the bot
	Serial        int           // --serial: bots timed this many at a time (0 = all at once)
	EndWait       time.Duration // --end_wait: time bots get to read the end message
}

// DefaultOptions returns playgame.py's defaults (seeds zero: set them).
func DefaultOptions() Options {
	return Options{
		Turns: 1000, LoadTime: 3000, TurnTime: 1000,
		ViewRadius2: 77, AttackRadius2: 5, SpawnRadius2: 1,
		FoodRate: [2]int{5, 11}, FoodTurn: [2]int{19, 37},
		FoodStart: [2]int{75, 175}, FoodVisible: [2]int{3, 5},
		Food: "symmetric", Attack: "focus",
		CutoffTurn: 150, CutoffPercent: 0.85,
	}
}

// withDefaults fills the names left empty with the defaults.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Food == "" {
		o.Food = d.Food
	}
	if o.Attack == "" {
		o.Attack = d.Attack
	}
	return o
}
