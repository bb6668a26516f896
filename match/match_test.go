package match

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"arena/bot"
	"arena/game"
)

// count is a trivial game: sides take turns saying numbers; a side that
// reaches the target wins. Simultaneous mode has every side move each
// turn.
type num int

func (n num) String() string { return strconv.Itoa(int(n)) }

type countRef struct {
	sides, target int
	simultaneous  bool
	turn          int
	total         []int
	pending       map[int]bool
	res           *game.Result
	faults        []game.Fault
}

func newCount(sides, target int, simultaneous bool) *countRef {
	return &countRef{sides: sides, target: target, simultaneous: simultaneous, total: make([]int, sides)}
}

func (r *countRef) ToMove() []int {
	if r.res != nil {
		return nil
	}
	if !r.simultaneous {
		return []int{r.turn % r.sides}
	}
	var s []int
	for i := 0; i < r.sides; i++ {
		s = append(s, i)
	}
	return s
}

func (r *countRef) Play(side int, m num) error {
	if m < 0 {
		return errors.New("negative numbers are not allowed")
	}
	r.total[side] += int(m)
	if r.total[side] >= r.target {
		r.res = &game.Result{Winner: side, Reason: "target"}
	}
	r.turn++
	return nil
}

func (r *countRef) Forfeit(side int, f game.Fault) {
	r.faults = append(r.faults, f)
	if r.res == nil {
		r.res = &game.Result{Winner: (side + 1) % r.sides, Reason: f.Reason, Detail: f.Detail}
	}
}

func (r *countRef) Result() (game.Result, bool) {
	if r.res == nil {
		return game.Result{}, false
	}
	return *r.res, true
}

// fakeSeat answers from a script of (delay, move, error).
type step struct {
	delay time.Duration
	move  num
	err   error
}

type fakeSeat struct {
	mu       sync.Mutex
	steps    []step
	startErr error
	startDur time.Duration
	reqs     []Request
	events   []string
	finished bool
}

func (s *fakeSeat) log(e string) {
	s.mu.Lock()
	s.events = append(s.events, e)
	s.mu.Unlock()
}

func (s *fakeSeat) Start(ctx context.Context, req Request) (Greeting, error) {
	time.Sleep(s.startDur)
	s.log("start")
	return Greeting{About: "fake"}, s.startErr
}

func (s *fakeSeat) Move(ctx context.Context, req Request) (Reply[num], error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	st := step{move: 1}
	if len(s.steps) > 0 {
		st, s.steps = s.steps[0], s.steps[1:]
	}
	s.events = append(s.events, "move")
	s.mu.Unlock()
	select {
	case <-time.After(st.delay):
	case <-ctx.Done():
		return Reply[num]{}, ctx.Err()
	}
	return Reply[num]{Move: st.move, Output: []string{"thinking"}}, st.err
}

func (s *fakeSeat) Finish(ctx context.Context, res game.Result, grace time.Duration) Farewell {
	s.log("finish")
	s.finished = true
	return Farewell{Exit: "exit status 0"}
}

func (s *fakeSeat) Pause()  { s.log("pause") }
func (s *fakeSeat) Resume() { s.log("resume") }

func seatsOf(ss ...*fakeSeat) []Seat[num] {
	out := make([]Seat[num], len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func TestRunAlternating(t *testing.T) {
	a, b := &fakeSeat{}, &fakeSeat{}
	ref := newCount(2, 3, false)
	var moves []MoveEvent
	out := Run[num](context.Background(), ref, seatsOf(a, b), Config{OnMove: func(ev MoveEvent) { moves = append(moves, ev) }})
	if out.Result.Winner != 0 || out.Result.Reason != "target" || len(out.Moves) != 5 {
		t.Fatalf("result %+v after %d moves, want side 0 by target after 5", out.Result, len(out.Moves))
	}
	if len(moves) != 5 || moves[4].Ply != 5 || moves[4].Move.Move != "1" || moves[4].Move.Output[0] != "thinking" {
		t.Fatalf("move events %+v", moves)
	}
	for i, m := range out.Moves {
		if m.Side != i%2 {
			t.Fatalf("move %d by side %d", i, m.Side)
		}
	}
	if !a.finished || !b.finished || out.Sides[0].Greeting.About != "fake" || out.Sides[1].Farewell.Exit == "" {
		t.Fatalf("seats not started/finished: %+v", out.Sides)
	}
	// Paused after start, resumed for each move and paused again, resumed
	// for the end.
	want := "start pause resume move pause resume move pause resume move pause resume finish"
	if got := fmt.Sprint(a.events); got != "["+want+"]" {
		t.Fatalf("seat a events %v, want [%s]", got, want)
	}
}

func TestPonderDoesNotPause(t *testing.T) {
	a, b := &fakeSeat{}, &fakeSeat{}
	Run[num](context.Background(), newCount(2, 1, false), seatsOf(a, b), Config{Ponder: true})
	for _, e := range append(a.events, b.events...) {
		if e == "pause" {
			t.Fatalf("a seat was paused with pondering on: %v %v", a.events, b.events)
		}
	}
}

func TestClockVerdicts(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		clock  Clock
		steps  []step
		reason game.Reason
		moves  int
	}{
		{"within the turn limit", Clock{Turn: 300 * ms}, []step{{delay: 10 * ms, move: 1}}, "target", 5},
		{"late but within tolerance", Clock{Turn: 20 * ms, Tolerance: 200 * ms}, []step{{delay: 60 * ms, move: 1}}, "target", 5},
		{"late beyond tolerance", Clock{Turn: 20 * ms, Tolerance: 10 * ms}, []step{{delay: 80 * ms, move: 1}}, game.ReasonTimeout, 0},
		// 300 ms for the game: two moves of 120 ms leave 60 ms, the third
		// overruns it.
		{"match time runs out", Clock{Match: 300 * ms, Tolerance: 20 * ms}, []step{{delay: 120 * ms, move: 1}, {delay: 120 * ms, move: 1}, {delay: 120 * ms, move: 1}}, game.ReasonTimeout, 4},
		// 150 ms alone would not hold three moves of 90 ms; 120 ms more
		// before each does.
		{"increment keeps the clock alive", Clock{Match: 150 * ms, Increment: 120 * ms, Tolerance: 5 * ms}, []step{{delay: 90 * ms, move: 1}, {delay: 90 * ms, move: 1}, {delay: 90 * ms, move: 1}}, "target", 5},
		// An increment alone is a clock that starts at zero (Points
		// Battle): unused time carries over, so the third move may take
		// more than one increment.
		{"increment alone carries time over", Clock{Increment: 200 * ms, Tolerance: 10 * ms}, []step{{delay: 10 * ms, move: 1}, {delay: 10 * ms, move: 1}, {delay: 350 * ms, move: 1}}, "target", 5},
		{"increment alone runs out", Clock{Increment: 200 * ms, Tolerance: 10 * ms}, []step{{delay: 300 * ms, move: 1}}, game.ReasonTimeout, 0},
		{"illegal move", Clock{}, []step{{move: -1}}, game.ReasonIllegal, 0},
		{"crash", Clock{}, []step{{err: &bot.ExitError{Status: "exit status 3"}}}, game.ReasonCrash, 0},
		{"memory", Clock{}, []step{{err: &bot.ExitError{Status: "killed by signal killed", OOM: true}}}, game.ReasonMemory, 0},
		{"protocol", Clock{}, []step{{err: errors.New("answered \"hello\"")}}, game.ReasonProtocol, 0},
		{"fault from the seat", Clock{}, []step{{err: game.Fault{Reason: game.ReasonProtocol, Detail: "bad"}}}, game.ReasonProtocol, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &fakeSeat{steps: tc.steps}
			// the opponent answers at once
			out := Run[num](context.Background(), newCount(2, 3, false), seatsOf(a, &fakeSeat{}), Config{Clock: tc.clock})
			if out.Result.Reason != tc.reason || len(out.Moves) != tc.moves {
				t.Fatalf("result %+v after %d moves, want %s after %d", out.Result, len(out.Moves), tc.reason, tc.moves)
			}
			if tc.reason != "target" && (out.Result.Winner != 1 || out.Sides[0].Fault == nil) {
				t.Fatalf("side 0 should lose by its fault: %+v %+v", out.Result, out.Sides[0].Fault)
			}
		})
	}
}

func TestRequestsCarryTheClock(t *testing.T) {
	a := &fakeSeat{steps: []step{{delay: 20 * time.Millisecond, move: 1}, {move: 1}}}
	clock := Clock{Turn: time.Second, Match: 10 * time.Second, Tolerance: 100 * time.Millisecond}
	Run[num](context.Background(), newCount(2, 2, false), seatsOf(a, &fakeSeat{}), Config{Clock: clock})
	if len(a.reqs) != 2 {
		t.Fatalf("%d requests", len(a.reqs))
	}
	r0, r1 := a.reqs[0], a.reqs[1]
	if r0.Unlimited || r0.TurnLimit != time.Second || r0.Deadline.IsZero() {
		t.Fatalf("request %+v", r0)
	}
	if spent := r0.TimeLeft - r1.TimeLeft; spent < 20*time.Millisecond || spent > time.Second {
		t.Fatalf("match time went from %v to %v", r0.TimeLeft, r1.TimeLeft)
	}
	if r1.Ply != 2 {
		t.Fatalf("second request at ply %d", r1.Ply)
	}
}

func TestClockPerSide(t *testing.T) {
	// Side 0 (a person, say) has a minute a move; side 1 has 30 ms and
	// overruns it.
	person := Clock{Turn: time.Minute}
	a := &fakeSeat{steps: []step{{delay: 40 * time.Millisecond, move: 1}}}
	b := &fakeSeat{steps: []step{{delay: 200 * time.Millisecond, move: 1}}}
	ref := newCount(2, 5, false)
	out := Run[num](context.Background(), ref, seatsOf(a, b),
		Config{Clock: Clock{Turn: 30 * time.Millisecond}, Clocks: []Clock{person, {}}})
	if got := a.reqs[0].Clock; got != person {
		t.Fatalf("side 0 was told %+v, want its own clock", got)
	}
	if got := b.reqs[0].Clock.Turn; got != 30*time.Millisecond {
		t.Fatalf("side 1 was told a turn of %v, want the shared clock", got)
	}
	if out.Result.Winner != 0 || out.Result.Reason != game.ReasonTimeout || len(out.Moves) != 1 {
		t.Fatalf("result %+v after %d moves: want side 1 late on the shared clock", out.Result, len(out.Moves))
	}
}

func TestStartupFailure(t *testing.T) {
	a := &fakeSeat{startErr: game.Fault{Reason: game.ReasonProtocol, Detail: "refused START"}}
	b := &fakeSeat{}
	out := Run[num](context.Background(), newCount(2, 3, false), seatsOf(a, b), Config{})
	if out.Result.Winner != 1 || out.Result.Reason != game.ReasonProtocol || len(out.Moves) != 0 {
		t.Fatalf("result %+v", out.Result)
	}
	if !a.finished || !b.finished {
		t.Fatal("seats not finished after a failed start")
	}
}

func TestStartupTimeout(t *testing.T) {
	a := &fakeSeat{startDur: 80 * time.Millisecond}
	out := Run[num](context.Background(), newCount(2, 3, false), seatsOf(a, &fakeSeat{}), Config{Clock: Clock{Startup: 20 * time.Millisecond}})
	if out.Result.Reason != game.ReasonTimeout {
		t.Fatalf("result %+v", out.Result)
	}
}

func TestSimultaneous(t *testing.T) {
	seats := []*fakeSeat{{}, {}, {}}
	for _, s := range seats {
		s.steps = []step{{delay: 100 * time.Millisecond, move: 1}, {delay: 100 * time.Millisecond, move: 1}}
	}
	seats[2].steps[1].move = 5
	ref := newCount(3, 3, true)
	t0 := time.Now()
	out := Run[num](context.Background(), ref, seatsOf(seats...), Config{})
	if out.Result.Winner != 2 || len(out.Moves) < 6 {
		t.Fatalf("result %+v after %d moves", out.Result, len(out.Moves))
	}
	// Each turn's three answers were asked for at the same time: one by
	// one, the two turns would take 600 ms.
	if took := time.Since(t0); took > 450*time.Millisecond {
		t.Fatalf("simultaneous moves took %v, as if asked one by one", took)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	a := &fakeSeat{steps: []step{{delay: time.Hour}}}
	go func() {
		time.Sleep(30 * time.Millisecond)
		cancel()
	}()
	out := Run[num](ctx, newCount(2, 3, false), seatsOf(a, &fakeSeat{}), Config{})
	if !out.Canceled {
		t.Fatalf("not canceled: %+v", out)
	}
	if !a.finished {
		t.Fatal("seat not finished after cancel")
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		err  error
		want game.Reason
	}{
		{fmt.Errorf("no move: %w", bot.ErrTimeout), game.ReasonTimeout},
		{context.DeadlineExceeded, game.ReasonTimeout},
		{fmt.Errorf("x: %w", &bot.ExitError{Status: "exit status 1"}), game.ReasonCrash},
		{&bot.ExitError{OOM: true}, game.ReasonMemory},
		{bot.ErrLineTooLong, game.ReasonProtocol},
		{game.Fault{Reason: game.ReasonIllegal}, game.ReasonIllegal},
		{errors.New("what"), game.ReasonProtocol},
	}
	for _, tc := range tests {
		if got := Classify(tc.err); got.Reason != tc.want || got.Detail == "" {
			t.Errorf("Classify(%v) = %+v, want %s with a detail", tc.err, got, tc.want)
		}
	}
}

// RecordSides puts each side's report on the player in that seat,
// including the fault the side lost by.
func TestRecordSides(t *testing.T) {
	crash := &fakeSeat{steps: []step{{err: &bot.ExitError{Status: "exit status 3"}}}}
	out := Run[num](context.Background(), newCount(2, 3, false), seatsOf(crash, &fakeSeat{}), Config{})
	rec := &game.Record{Players: make([]game.PlayerRecord, 2), Seats: []int{1, 0}}
	out.RecordSides(rec)
	if rec.Players[1].Fault != game.ReasonCrash || rec.Players[0].Fault != "" {
		t.Fatalf("faults by player %q and %q, want crash on player 1 (side 0)", rec.Players[0].Fault, rec.Players[1].Fault)
	}
}
