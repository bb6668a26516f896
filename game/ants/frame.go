package ants

import (
	"strconv"
)

// A frame is one turn of a game as the web page's live view draws it: the
// Effect of the MoveRecord a game.Listener gets once per turn (Side -1,
// Move "turn N"). Squares are numbered row*cols+col so that a frame of
// thousands of ants stays a few kilobytes; seats are the engine's player
// indexes (Record.Seats maps them to players). The JSON:
//
//	{"turn": N,
//	 "ants":  [[square, ...] per seat],   live ants after the turn
//	 "dead":  [[square, ...] per seat],   ants that died this turn (battles, collisions)
//	 "food":  [square, ...],              food on the map
//	 "hills": [[square, owner, razed 0|1], ...],
//	 "scores": [per seat], "hive": [stored food per seat], "alive": [0|1 per seat]}
//
// The map itself (rows, cols, water) and turn 0's frame are in the
// header's options (mapView), which the final record keeps too.

// appendFrame writes the frame of the current turn. It is called only when
// someone listens, so it may allocate.
func (s *State) appendFrame(b []byte) []byte {
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(s.Turn), 10)
	perSeat := func(key string, ants []*Ant) {
		lists := make([][]int, s.N)
		for _, a := range ants {
			lists[a.Owner] = append(lists[a.Owner], a.Loc)
		}
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":[`...)
		for p, l := range lists {
			if p > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, l)
		}
		b = append(b, ']')
	}
	perSeat("ants", s.currentAnts())
	perSeat("dead", s.killedAnts)
	b = append(b, `,"food":[`...)
	for i, f := range s.liveFood() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(f.Loc), 10)
	}
	b = append(b, `],"hills":[`...)
	for i, h := range s.Hills {
		if i > 0 {
			b = append(b, ',')
		}
		razed := 0
		if h.KilledBy >= 0 && h.EndTurn != 0 {
			razed = 1
		}
		b = appendInts(b, []int{h.Loc, h.Owner, razed})
	}
	b = append(b, `],"scores":`...)
	b = appendInts(b, s.Score)
	b = append(b, `,"hive":`...)
	b = appendInts(b, s.hive)
	b = append(b, `,"alive":[`...)
	for p := 0; p < s.N; p++ {
		if p > 0 {
			b = append(b, ',')
		}
		if s.IsAlive(p) {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	return append(b, "]}"...)
}

func appendInts(b []byte, v []int) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// waterRows is the map for a viewer: a string per row, '%' water, '.'
// land (hills, ants and food come in the frames).
func (s *State) waterRows() []string {
	rows := make([]string, s.Rows)
	line := make([]byte, s.Cols)
	for r := range rows {
		for c := range line {
			line[c] = '.'
			if s.initialMap[r*s.Cols+c] == water {
				line[c] = '%'
			}
		}
		rows[r] = string(line)
	}
	return rows
}
