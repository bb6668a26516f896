package gomokubot

import (
	"context"
	"os"
	"testing"
	"time"

	"arena/game/gomoku"
)

func TestQuick(t *testing.T) {
	e := engineFrom(t, 0,
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
		"......o........",
		".....xxo.......",
		"......xo.......",
		".....x.x.......",
		"....o..........",
		"...............",
		"...............",
		"...............",
		"...............",
		"...............",
	)
	e.Log = os.Stderr
	p, info := e.Search(context.Background(), gomoku.White, time.Second)
	t.Logf("%v %+v nps %d", p, info, info.NPS())
	e2 := NewEngine(15, 15, 0)
	e2.Place(gomoku.Point{7, 7}, gomoku.Black)
	e2.Log = os.Stderr
	p, info = e2.Search(context.Background(), gomoku.White, time.Second)
	t.Logf("%v %+v nps %d", p, info, info.NPS())
}
