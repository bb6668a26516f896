package ants

import (
	"fmt"
	"strings"
)

// Map is a parsed .map file, in the official format:
//
//	rows 43
//	cols 39
//	players 2
//	m %%%...a..0..
//
// Water is '%', land '.', food '*', ants 'a'-'j', hills '0'-'9', an ant on
// its own hill 'A'-'J'. Keys are case-insensitive; '#' starts a comment.
type Map struct {
	Rows, Cols, Players int
	Water               []int // square indexes (row*Cols+col), row-major
	// Hills lists the hills of each owner in the order the engine creates
	// them: owners in order of their first hill on the map, then the map
	// order of that owner's hills.
	Hills []MapHill
	Ants  []MapAnt // scenario only, same owner grouping as the engine
	Food  []int    // scenario only
}

// MapHill is one hill of a map.
type MapHill struct{ Loc, Owner int }

// MapAnt is one ant placed by a map (used only with --scenario).
type MapAnt struct{ Loc, Owner int }

// ParseMap reads a map with the official engine's rules (parse_map in
// ants.py): players 2..10 before the first m line, rows and cols as given,
// only the characters of the format for that many players, and — because a
// game needs them — at least one hill per player.
func ParseMap(text string) (*Map, error) {
	width, height, players := -1, -1, -1
	var water, food []int
	water = make([]int, 0, strings.Count(text, "%")) // room for all of it at once
	antsBy := map[int][]int{}
	hillsBy := map[int][]int{}
	var antOwners, hillOwners []int
	row := 0
	var scoreCount, hiveCount = -1, -1
	var grid []string
	for _, raw := range strings.Split(text, "\n") {
		line := pyStrip(raw)
		if line == "" || line[0] == '#' {
			continue
		}
		key, value, found := strings.Cut(line, " ")
		if !found {
			return nil, fmt.Errorf("map: line %q has no value", line)
		}
		switch strings.ToLower(key) {
		case "cols":
			v, ok, big := pyInt(value)
			if !ok || big {
				return nil, fmt.Errorf("map: bad cols %q", value)
			}
			width = v
		case "rows":
			v, ok, big := pyInt(value)
			if !ok || big {
				return nil, fmt.Errorf("map: bad rows %q", value)
			}
			height = v
		case "players":
			v, ok, _ := pyInt(value)
			if !ok {
				return nil, fmt.Errorf("map: bad players %q", value)
			}
			if v < 2 || v > 10 {
				return nil, fmt.Errorf("map: player count must be between 2 and 10")
			}
			players = v
		case "score", "hive":
			f := pyFields(value)
			for _, s := range f {
				if _, ok, _ := pyInt(s); !ok {
					return nil, fmt.Errorf("map: bad %s %q", key, value)
				}
			}
			if strings.ToLower(key) == "score" {
				scoreCount = len(f)
			} else {
				hiveCount = len(f)
			}
		case "m":
			if grid == nil && players < 0 {
				return nil, fmt.Errorf("map: players count expected before map lines")
			}
			if width < 0 || len(value) != width {
				return nil, fmt.Errorf("map: incorrect number of cols in row %d: got %d, expected %d", row, len(value), width)
			}
			grid = append(grid, value)
			for col := 0; col < len(value); col++ {
				c := value[col]
				loc := row*max(width, 1) + col
				switch {
				case c >= 'a' && int(c-'a') < players:
					o := int(c - 'a')
					if _, seen := antsBy[o]; !seen {
						antOwners = append(antOwners, o)
					}
					antsBy[o] = append(antsBy[o], loc)
				case c >= '0' && int(c-'0') < players:
					o := int(c - '0')
					if _, seen := hillsBy[o]; !seen {
						hillOwners = append(hillOwners, o)
					}
					hillsBy[o] = append(hillsBy[o], loc)
				case c >= 'A' && int(c-'A') < players:
					o := int(c - 'A')
					if _, seen := antsBy[o]; !seen {
						antOwners = append(antOwners, o)
					}
					antsBy[o] = append(antsBy[o], loc)
					if _, seen := hillsBy[o]; !seen {
						hillOwners = append(hillOwners, o)
					}
					hillsBy[o] = append(hillsBy[o], loc)
				case c == '*':
					food = append(food, loc)
				case c == '%':
					water = append(water, loc)
				case c != '.':
					return nil, fmt.Errorf("map: invalid character in map: %q", c)
				}
			}
			row++
		}
	}
	if players < 0 {
		return nil, fmt.Errorf("map: no players line")
	}
	if scoreCount >= 0 && scoreCount != players {
		return nil, fmt.Errorf("map: incorrect score count: expected %d, got %d", players, scoreCount)
	}
	if hiveCount >= 0 && hiveCount != players {
		return nil, fmt.Errorf("map: incorrect hive count: expected %d, got %d", players, hiveCount)
	}
	if height != row {
		return nil, fmt.Errorf("map: incorrect number of rows: expected %d, got %d", height, row)
	}
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("map: empty map")
	}
	m := &Map{Rows: height, Cols: width, Players: players, Water: water, Food: food}
	for _, o := range hillOwners {
		for _, loc := range hillsBy[o] {
			m.Hills = append(m.Hills, MapHill{Loc: loc, Owner: o})
		}
	}
	for _, o := range antOwners {
		for _, loc := range antsBy[o] {
			m.Ants = append(m.Ants, MapAnt{Loc: loc, Owner: o})
		}
	}
	for p := 0; p < players; p++ {
		if len(hillsBy[p]) == 0 {
			return nil, fmt.Errorf("map: player %d has no starting hills", p)
		}
	}
	return m, nil
}
