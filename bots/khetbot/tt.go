package khetbot

import "arena/game/khet"

// Bounds of a table score.
const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

// ttEntry is one slot of the transposition table, replaced when a search
// of at least the same depth (or another position) comes along.
type ttEntry struct {
	key   uint64
	move  khet.Move
	score int16
	depth int8
	flag  uint8
}

const ttEntrySize = 16

func (e *Engine) probe(h uint64) (ttEntry, bool) {
	ent := e.tt[h&e.ttMask]
	return ent, ent.flag != 0 && ent.key == h
}

func (e *Engine) store(h uint64, depth, score int, flag uint8, m khet.Move, ply int) {
	slot := &e.tt[h&e.ttMask]
	if slot.key == h && int(slot.depth) > depth && flag != boundExact {
		return
	}
	*slot = ttEntry{key: h, move: m, score: int16(toTT(score, ply)), depth: int8(depth), flag: flag}
}

// Mate scores are stored relative to the node so they stay right when the
// same position is reached at another distance from the root.
func toTT(score, ply int) int {
	switch {
	case score > mateSoon:
		return score + ply
	case score < -mateSoon:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > mateSoon:
		return score - ply
	case score < -mateSoon:
		return score + ply
	}
	return score
}
