package ants

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// The replay is written byte for byte as playgame.py writes it: the
// engine's result dumped with sorted keys, parsed and dumped again with
// Python's default separators (", " and ": "), "playernames" appended
// last, no trailing newline.

type jw struct {
	b   bytes.Buffer
	num [24]byte // scratch for numbers
}

func (w *jw) raw(s string) { w.b.WriteString(s) }

func (w *jw) str(s string) {
	if plainJSON(s) {
		// the common case (orders, map rows, names): nothing to escape
		w.b.WriteByte('"')
		w.b.WriteString(s)
		w.b.WriteByte('"')
		return
	}
	// Python's json.dumps escapes non-ASCII as \uXXXX (ensure_ascii).
	w.b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			w.b.WriteString(`\"`)
		case r == '\\':
			w.b.WriteString(`\\`)
		case r == '\n':
			w.b.WriteString(`\n`)
		case r == '\r':
			w.b.WriteString(`\r`)
		case r == '\t':
			w.b.WriteString(`\t`)
		case r == '\b':
			w.b.WriteString(`\b`)
		case r == '\f':
			w.b.WriteString(`\f`)
		case r < 0x20 || (r >= 0x7f && r < 0x10000):
			if r < 0x7f {
				w.b.WriteString(`\u00`)
				w.b.WriteString(strconv.FormatInt(int64(r)+0x100, 16)[1:])
			} else {
				w.b.WriteString(`\u`)
				w.b.WriteString(strconv.FormatInt(int64(r)+0x10000, 16)[1:])
			}
		case r >= 0x10000:
			r -= 0x10000
			hi, lo := 0xd800+(r>>10), 0xdc00+(r&0x3ff)
			w.b.WriteString(`\u` + strconv.FormatInt(int64(hi), 16) + `\u` + strconv.FormatInt(int64(lo), 16))
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}

// plainJSON reports whether s is printable ASCII without '"' or '\\',
// which json.dumps writes as is.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func (w *jw) ints(v []int) {
	w.b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			w.raw(", ")
		}
		w.int(int64(x))
	}
	w.b.WriteByte(']')
}

// int writes a number without a string in between.
func (w *jw) int(v int64) {
	w.b.Write(strconv.AppendInt(w.num[:0], v, 10))
}

func (w *jw) strs(v []string) {
	w.raw("[")
	for i, x := range v {
		if i > 0 {
			w.raw(", ")
		}
		w.str(x)
	}
	w.raw("]")
}

// obj writes {"k": v, ...} with fields in the given order.
func (w *jw) obj(fields ...func()) {
	w.raw("{")
	for i, f := range fields {
		if i > 0 {
			w.raw(", ")
		}
		f()
	}
	w.raw("}")
}

func (w *jw) key(k string) { w.str(k); w.raw(": ") }

// ReplayJSON renders the replay file (rev 3) of a finished game.
func ReplayJSON(res *Result, playerNames []string) []byte {
	g := res.State
	w := &jw{}
	// Room for about the whole file at once (the map, the food, the ants
	// with their orders, the score and hive histories) rather than
	// growing it step by step.
	size := 1024 + g.Rows*(g.Cols+4) + 28*len(g.AllFood)
	for _, a := range g.AllAnts {
		size += 36 + int(a.ordN)
	}
	for p := range g.ScoreHist {
		size += 6 * (len(g.ScoreHist[p]) + len(g.HiveHistory[p]))
	}
	w.b.Grow(size)
	field := func(k string, f func()) func() { return func() { w.key(k); f() } }
	num := func(k string, v int64) func() { return field(k, func() { w.int(v) }) }
	end := g.Turn + 1
	replayData := func() {
		w.obj(
			field("ants", func() {
				w.raw("[")
				var ob []byte
				for i, a := range g.AllAnts {
					if i > 0 {
						w.raw(", ")
					}
					e := end
					if a.Killed {
						e = a.DieTurn
					}
					w.ints([]int{g.row(a.InitialLoc), g.col(a.InitialLoc), a.SpawnTurn, e, a.Owner})
					w.b.Truncate(w.b.Len() - 1)
					w.raw(", ")
					// n e s w and -: nothing to escape
					w.b.WriteByte('"')
					ob = g.appendAntOrders(ob[:0], a)
					w.b.Write(ob)
					w.b.WriteByte('"')
					w.raw("]")
				}
				w.raw("]")
			}),
			num("attackradius2", int64(g.opt.AttackRadius2)),
			field("bonus", func() { w.ints(g.Bonus) }),
			field("cutoff", func() { w.str(g.Cutoff) }),
			num("engine_seed", g.EngineSeed),
			field("food", func() {
				w.raw("[")
				for i, f := range g.AllFood {
					if i > 0 {
						w.raw(", ")
					}
					e := end
					if f.EndTurn != 0 {
						e = f.EndTurn
					}
					v := [5]int{g.row(f.Loc), g.col(f.Loc), f.StartTurn, e, f.Owner}
					if f.Owner >= 0 {
						w.ints(v[:5])
					} else {
						w.ints(v[:4])
					}
				}
				w.raw("]")
			}),
			num("food_rate", int64(g.FoodRate)),
			num("food_start", int64(g.FoodStart)),
			num("food_turn", int64(g.FoodTurn)),
			field("hills", func() {
				w.raw("[")
				for i, h := range g.Hills {
					if i > 0 {
						w.raw(", ")
					}
					e := end
					if h.EndTurn != 0 {
						e = h.EndTurn
					}
					w.ints([]int{g.row(h.Loc), g.col(h.Loc), h.Owner, e})
				}
				w.raw("]")
			}),
			field("hive_history", func() { w.intLists(g.HiveHistory) }),
			num("loadtime", int64(g.opt.LoadTime)),
			field("map", func() {
				w.obj(num("cols", int64(g.Cols)), field("data", func() { w.strs(g.replayMap()) }), num("rows", int64(g.Rows)))
			}),
			num("player_seed", g.PlayerSeed),
			num("players", int64(g.N)),
			num("ranking_turn", int64(g.RankingTurn)),
			num("revision", 3),
			field("scores", func() { w.intLists(g.ScoreHist) }),
			num("spawnradius2", int64(g.opt.SpawnRadius2)),
			num("turns", int64(g.opt.Turns)),
			num("turntime", int64(g.opt.TurnTime)),
			num("viewradius2", int64(g.opt.ViewRadius2)),
			num("winning_turn", int64(g.WinningTurn)),
		)
	}
	fields := []func(){
		field("challenge", func() { w.str("ants") }),
		num("game_id", 0),
		num("game_length", int64(res.GameLength)),
		field("location", func() { w.str("localhost") }),
		field("playerturns", func() { w.ints(res.PlayerTurns) }),
		field("rank", func() { w.ints(res.Rank) }),
		field("replaydata", replayData),
		field("replayformat", func() { w.str("json") }),
		field("score", func() { w.ints(res.Score) }),
		field("status", func() { w.strs(res.Status) }),
	}
	if playerNames != nil {
		fields = append(fields, field("playernames", func() { w.strs(playerNames) }))
	}
	w.obj(fields...)
	return w.b.Bytes()
}

func (w *jw) intLists(v [][]int) {
	w.raw("[")
	for i, l := range v {
		if i > 0 {
			w.raw(", ")
		}
		w.ints(l)
	}
	w.raw("]")
}

// FirstJSONDifference compares two JSON documents as values and describes
// the first difference ("" when equal), with a path like
// replaydata.ants[3][5].
func FirstJSONDifference(got, want []byte) string {
	var a, b interface{}
	if err := json.Unmarshal(got, &a); err != nil {
		return "ours is not JSON: " + err.Error()
	}
	if err := json.Unmarshal(want, &b); err != nil {
		return "recorded is not JSON: " + err.Error()
	}
	return diffValues("", a, b)
}

func diffValues(path string, a, b interface{}) string {
	switch bv := b.(type) {
	case map[string]interface{}:
		av, ok := a.(map[string]interface{})
		if !ok {
			return path + ": not an object"
		}
		keys := sortedKeys(bv, av)
		for _, k := range keys {
			x, okA := av[k]
			y, okB := bv[k]
			p := strings.TrimPrefix(path+"."+k, ".")
			if !okA {
				return p + ": missing in ours"
			}
			if !okB {
				return p + ": not in the recorded replay"
			}
			if d := diffValues(p, x, y); d != "" {
				return d
			}
		}
		return ""
	case []interface{}:
		av, ok := a.([]interface{})
		if !ok {
			return path + ": not a list"
		}
		for i := 0; i < len(av) && i < len(bv); i++ {
			if d := diffValues(path+"["+strconv.Itoa(i)+"]", av[i], bv[i]); d != "" {
				return d
			}
		}
		if len(av) != len(bv) {
			return path + ": length " + strconv.Itoa(len(av)) + ", recorded " + strconv.Itoa(len(bv))
		}
		return ""
	default:
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			return path + ": " + string(ja) + ", recorded " + string(jb)
		}
		return ""
	}
}

func sortedKeys(a, b map[string]interface{}) []string {
	seen := map[string]bool{}
	var keys []string
	for k := range a {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for k := range b {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
