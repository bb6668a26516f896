package gomokubot
import ("testing";"os";"context";"time";"arena/game/gomoku")
func TestManual(t *testing.T) {
	e := engineFrom(t, gomoku.Freestyle, midgame...)
	e.Log = os.Stdout
	p, info := e.Search(context.Background(), gomoku.White, time.Second)
	t.Logf("%v %+v nps %d", p, info, info.NPS())
	e = NewEngine(20,20,0)
	e.Log = os.Stdout
	p, info = e.Search(context.Background(), gomoku.Black, time.Second)
	e.Place(p, gomoku.Black)
	p, info = e.Search(context.Background(), gomoku.White, time.Second)
	t.Logf("%v %+v nps %d", p, info, info.NPS())
}
