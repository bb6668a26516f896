package match

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"arena/game"
)

// checkNum is the count game's check for a person: a number that the
// referee would accept.
func checkNum(text string) (num, error) {
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, errors.New("negative numbers are not allowed")
	}
	return num(n), nil
}

// person plays a human seat from another goroutine: on each of the
// seat's turns it submits that turn's texts one by one, collecting the
// errors.
func person(t *testing.T, h *Human, turnTexts [][]string) (errs func() []error) {
	t.Helper()
	var mu sync.Mutex
	var got []error
	turns := make(chan bool, 16)
	h.OnTurn(func(waiting bool, _ time.Time) {
		if waiting {
			turns <- true
		}
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, texts := range turnTexts {
			select {
			case <-turns:
			case <-time.After(5 * time.Second):
				return
			}
			for _, text := range texts {
				err := h.Submit(text)
				mu.Lock()
				got = append(got, err)
				mu.Unlock()
			}
		}
	}()
	return func() []error {
		<-done
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

func TestHumanSeatPlays(t *testing.T) {
	h := NewHuman()
	if err := h.Submit("1"); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("before the game: %v, want ErrNotYourTurn", err)
	}
	errs := person(t, h, [][]string{{"-5", "x", "3"}, {"4"}})
	ref := newCount(2, 7, false)
	bot := &fakeSeat{steps: []step{{move: 1}, {move: 1}}}
	out := Run[num](context.Background(), ref, []Seat[num]{HumanSeat(h, checkNum), bot}, Config{})
	res, ok := ref.Result()
	if !ok || res.Winner != 0 || res.Reason != "target" {
		t.Fatalf("result %+v %v, want side 0 to reach the target", res, ok)
	}
	if len(out.Moves) != 3 || out.Moves[0].Move != "3" || out.Moves[2].Move != "4" {
		t.Fatalf("moves %+v", out.Moves)
	}
	got := errs()
	if len(got) != 4 || got[0] == nil || got[1] == nil || got[2] != nil || got[3] != nil {
		t.Fatalf("submit errors %v, want two refusals then two accepted moves", got)
	}
	if err := h.Submit("1"); !errors.Is(err, ErrGameOver) {
		t.Fatalf("after the game: %v, want ErrGameOver", err)
	}
}

func TestHumanSeatTimesOut(t *testing.T) {
	h := NewHuman()
	ref := newCount(2, 7, false)
	out := Run[num](context.Background(), ref, []Seat[num]{HumanSeat(h, checkNum), &fakeSeat{}},
		Config{Clock: Clock{Turn: 50 * time.Millisecond}})
	res, _ := ref.Result()
	if res.Winner != 1 || res.Reason != game.ReasonTimeout {
		t.Fatalf("result %+v, want a timeout loss", res)
	}
	if f := out.Sides[0].Fault; f == nil || f.Reason != game.ReasonTimeout {
		t.Fatalf("fault %+v", f)
	}
	if waiting, _ := h.Turn(); waiting {
		t.Fatal("the seat still waits after the game")
	}
}

func TestHumanSeatResigns(t *testing.T) {
	for _, early := range []bool{false, true} {
		t.Run("early="+strconv.FormatBool(early), func(t *testing.T) {
			h := NewHuman()
			if early {
				h.Resign() // during the opponent's turn: takes effect at ours
			} else {
				h.OnTurn(func(waiting bool, _ time.Time) {
					if waiting {
						go h.Resign()
					}
				})
			}
			ref := newCount(2, 7, false)
			Run[num](context.Background(), ref, []Seat[num]{HumanSeat(h, checkNum), &fakeSeat{}}, Config{})
			res, _ := ref.Result()
			if res.Winner != 1 || res.Reason != game.ReasonResign {
				t.Fatalf("result %+v, want a resignation", res)
			}
		})
	}
}

func TestHumanSeatCancel(t *testing.T) {
	h := NewHuman()
	ctx, cancel := context.WithCancel(context.Background())
	h.OnTurn(func(waiting bool, _ time.Time) {
		if waiting {
			cancel()
		}
	})
	out := Run[num](ctx, newCount(2, 7, false), []Seat[num]{HumanSeat(h, checkNum), &fakeSeat{}}, Config{})
	if !out.Canceled {
		t.Fatal("not cancelled")
	}
}

// killableSeat thinks until it is killed.
type killableSeat struct {
	fakeSeat
	killed chan struct{}
	once   sync.Once
}

func (s *killableSeat) Kill() { s.once.Do(func() { close(s.killed) }) }

func (s *killableSeat) Move(ctx context.Context, req Request) (Reply[num], error) {
	select {
	case <-s.killed:
		return Reply[num]{}, errors.New("killed")
	case <-time.After(time.Minute):
		return Reply[num]{Move: 1}, nil
	}
}

// TestHumanResignsDuringTheBotsTurn: a person's resignation ends the game
// at once, even while the opponent thinks; the opponent, killed for it,
// is not blamed.
func TestHumanResignsDuringTheBotsTurn(t *testing.T) {
	h := NewHuman()
	bot := &killableSeat{killed: make(chan struct{})}
	errs := person(t, h, [][]string{{"1"}})
	go func() {
		errs() // our move is in: the bot thinks now
		time.Sleep(20 * time.Millisecond)
		h.Resign()
	}()
	ref := newCount(2, 7, false)
	out := Run[num](context.Background(), ref, []Seat[num]{HumanSeat(h, checkNum), bot}, Config{})
	select {
	case <-bot.killed:
	default:
		t.Fatal("the bot thought on after the resignation")
	}
	res, _ := ref.Result()
	if res.Winner != 1 || res.Reason != game.ReasonResign {
		t.Fatalf("result %+v, want a resignation", res)
	}
	if out.Sides[1].Fault != nil || len(out.Moves) != 1 {
		t.Fatalf("bot's fault %+v, %d moves", out.Sides[1].Fault, len(out.Moves))
	}
}
