package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/engine"
	"arena/game"
	"arena/match"
	"arena/rating"
	"arena/store"
)

// Ladder plays every contest's accepted bots against each other without
// end, Slots games at once, on the service's runner; each game is
// stored with the new ratings in one transaction.
type Ladder struct {
	svc   *Service
	slots int
	rng   *rand.Rand

	mu      sync.Mutex
	cond    *sync.Cond
	pools   map[string]*pool // by contest
	queue   []job            // games asked for (re-runs), played first
	stopped bool
	seq     int64

	saves chan saved
	// busy is the slots' time inside the runner, for Utilization.
	busy    time.Duration
	started time.Time
}

// pool is one contest's ladder.
type pool struct {
	c        store.Contest
	info     game.Info
	players  int // per game
	entrants []Entrant
	users    []string
	subs     []store.Submission
}

// job is one ladder game to play.
type job struct {
	contest string
	users   []string
	subs    []store.Submission
	spec    match.Spec
	idx     []int // into the pool's entrants when it was picked
}

type saved struct {
	g     store.Game
	cg    store.ContestGame
	rated []store.Rated
	path  string
	rec   *game.Record
}

// NewLadder makes the ladder of a service with slots games at once.
func NewLadder(svc *Service, slots int) *Ladder {
	l := &Ladder{svc: svc, slots: max(slots, 1), rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7)),
		pools: map[string]*pool{}, saves: make(chan saved, 64)}
	l.cond = sync.NewCond(&l.mu)
	svc.mu.Lock()
	svc.accepted = func(c string) { l.Refresh(context.Background(), c) }
	svc.mu.Unlock()
	return l
}

// Refresh reloads a contest's entrants from the store: its accepted,
// not disqualified bots and their ratings, and whether it is paused.
func (l *Ladder) Refresh(ctx context.Context, name string) error {
	st := l.svc.cfg.Store
	c, err := st.Contest(ctx, name)
	if err != nil {
		return err
	}
	g, ok := l.svc.cfg.Games.Lookup(c.Game)
	if !ok {
		return fmt.Errorf("contest %s: unknown game %q", c.Name, c.Game)
	}
	ps, err := st.Participants(ctx, name)
	if err != nil {
		return err
	}
	subs, err := st.Submissions(ctx, name, "")
	if err != nil {
		return err
	}
	accepted := map[string]store.Submission{}
	for _, s := range subs {
		if s.State == store.SubmissionAccepted {
			accepted[s.User] = s
		}
	}
	p := &pool{c: c, info: g.Info(), players: g.Info().Players[0]}
	if p.players < 2 {
		p.players = 2
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.pools[name]
	for _, pt := range ps {
		sub, ok := accepted[pt.Name]
		if !ok || pt.Disqualified {
			continue
		}
		e := Entrant{Skill: rating.Skill{Mu: pt.Mu, Sigma: pt.Sigma}, Games: pt.Games}
		if old != nil {
			// Games in progress stay counted; the ladder's own ratings
			// are newer than the store's while their saves are queued,
			// unless the bot was replaced (then the store's, widened).
			if i := slices.Index(old.users, pt.Name); i >= 0 {
				e.Playing = old.entrants[i].Playing
				if old.subs[i].ID == sub.ID {
					e.Skill, e.Games = old.entrants[i].Skill, max(e.Games, old.entrants[i].Games)
				}
			}
		}
		p.entrants, p.users, p.subs = append(p.entrants, e), append(p.users, pt.Name), append(p.subs, sub)
	}
	l.pools[name] = p
	l.cond.Broadcast()
	return nil
}

// RefreshAll reloads every contest of the store.
func (l *Ladder) RefreshAll(ctx context.Context) error {
	cs, err := l.svc.cfg.Store.Contests(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range cs {
		errs = append(errs, l.Refresh(ctx, c.Name))
	}
	return errors.Join(errs...)
}

// Rerun plays a stored ladder game again between the same participants
// (with their current bots).
func (l *Ladder) Rerun(ctx context.Context, gameID string) error {
	cg, err := l.svc.cfg.Store.ContestOfGame(ctx, gameID)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.pools[cg.Contest]
	if p == nil {
		return fmt.Errorf("contest %s has no ladder", cg.Contest)
	}
	j := job{contest: cg.Contest}
	for _, u := range cg.Users {
		i := slices.Index(p.users, u)
		if i < 0 {
			return fmt.Errorf("re-run %s: %s has no bot on the ladder now", gameID, u)
		}
		j.idx = append(j.idx, i)
	}
	l.queue = append(l.queue, j)
	l.cond.Broadcast()
	return nil
}

// Run plays games until ctx ends, then waits for the games in progress
// and their saves. Errors of single games are reported to logf.
func (l *Ladder) Run(ctx context.Context, logf func(format string, args ...any)) {
	if err := l.RefreshAll(ctx); err != nil {
		logf("ladder: %v", err)
	}
	l.mu.Lock()
	l.started = time.Now()
	l.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		l.mu.Lock()
		l.stopped = true
		l.cond.Broadcast()
		l.mu.Unlock()
	})
	defer stop()
	saverDone := make(chan struct{})
	go func() {
		defer close(saverDone)
		for s := range l.saves {
			if err := l.save(s); err != nil {
				logf("ladder: %v", err)
			}
		}
	}()
	// Contests created or changed from elsewhere (the command line)
	// are picked up every few seconds.
	go func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				l.RefreshAll(ctx)
			}
		}
	}()
	var wg sync.WaitGroup
	for range l.slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, ok := l.next()
				if !ok {
					return
				}
				l.play(ctx, j, logf)
			}
		}()
	}
	wg.Wait()
	close(l.saves)
	<-saverDone
}

// next waits for a game to play: a queued re-run, else the matchmaker's
// pick in a contest that is not paused; false once the ladder stops.
func (l *Ladder) next() (job, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		if l.stopped {
			return job{}, false
		}
		if j, ok := l.pick(); ok {
			p := l.pools[j.contest]
			for _, i := range j.idx {
				p.entrants[i].Playing++
				j.users = append(j.users, p.users[i])
				j.subs = append(j.subs, p.subs[i])
			}
			l.seq++
			j.spec = l.spec(p, j, l.seq)
			return j, true
		}
		l.cond.Wait()
	}
}

// pick takes a queued game or asks the matchmaker, contests in turn
// (the one whose entrants have played least goes first).
func (l *Ladder) pick() (job, bool) {
	for len(l.queue) > 0 {
		j := l.queue[0]
		l.queue = l.queue[1:]
		if p := l.pools[j.contest]; p != nil && !p.c.Paused && len(j.idx) == p.players && validIdx(j.idx, len(p.entrants)) {
			return j, true
		}
	}
	var best *pool
	least := -1
	for _, p := range l.pools {
		if p.c.Paused || len(p.entrants) < p.players {
			continue
		}
		playing := 0
		for _, e := range p.entrants {
			playing += e.Playing
		}
		if best == nil || playing < least {
			best, least = p, playing
		}
	}
	if best == nil {
		return job{}, false
	}
	return job{contest: best.c.Name, idx: Pick(best.entrants, best.players, l.rng)}, true
}

func validIdx(idx []int, n int) bool {
	for _, i := range idx {
		if i < 0 || i >= n {
			return false
		}
	}
	return true
}

// spec is the spec of a picked game: its players in the picked order,
// seated in a random order.
func (l *Ladder) spec(p *pool, j job, seq int64) match.Spec {
	var players []match.Player
	for k, u := range j.users {
		players = append(players, Player(u, j.subs[k]))
	}
	spec, _, _ := l.svc.matchSpec(p.c, players)
	spec.ID = fmt.Sprintf("%s-L%s-%d", p.c.Name, time.Now().UTC().Format("20060102T150405"), seq)
	spec.ID = strings.ReplaceAll(spec.ID, " ", "_")
	spec.Seats = l.rng.Perm(len(players))
	spec.Opening = l.rng.IntN(1 << 20)
	spec.GameSeed = l.rng.Int64()
	return spec
}

// play plays one game and rates it.
func (l *Ladder) play(ctx context.Context, j job, logf func(string, ...any)) {
	t0 := time.Now()
	rec, path, err := l.svc.cfg.Runner.Run(ctx, j.spec, match.Local{})
	l.mu.Lock()
	l.busy += time.Since(t0)
	p := l.pools[j.contest]
	var rated []store.Rated
	if p != nil {
		var skills []rating.Skill
		var live []int // the game's players still on the ladder, as then
		for k, u := range j.users {
			if i := slices.Index(p.users, u); i >= 0 {
				p.entrants[i].Playing = max(p.entrants[i].Playing-1, 0)
				if p.subs[i].ID == j.subs[k].ID {
					live = append(live, k)
					skills = append(skills, p.entrants[i].Skill)
				}
			}
		}
		if err == nil && len(live) == len(j.users) {
			ranks := Ranks(rec)
			for k, s := range rating.PlackettLuce(skills, ranks) {
				i := slices.Index(p.users, j.users[k])
				p.entrants[i].Skill = s
				p.entrants[i].Games++
				rated = append(rated, store.Rated{User: j.users[k], Mu: s.Mu, Sigma: s.Sigma,
					Win: ranks[k] == 1 && rec.Winner != nil, Draw: rec.Winner == nil})
			}
		}
		l.cond.Broadcast()
	}
	l.mu.Unlock()
	if err != nil {
		if ctx.Err() == nil {
			logf("ladder: game %s: %v", j.spec.ID, err)
		}
		return
	}
	if len(rated) != len(j.users) {
		return // a bot was replaced meanwhile: the game is not rated
	}
	subs := make([]string, len(j.subs))
	for k, s := range j.subs {
		subs[k] = s.ID
	}
	l.saves <- saved{rec: rec, path: path, rated: rated,
		cg: store.ContestGame{Contest: j.contest, Users: j.users, Submissions: subs}}
}

// Ranks are a record's places for PlackettLuce, per player: the winner
// first and everyone else second; in a draw everyone first; a game with
// scores and more than two players by score.
func Ranks(rec *game.Record) []int {
	n := len(rec.Players)
	ranks := make([]int, n)
	switch {
	case n > 2 && len(rec.Scores) == n:
		for i := range n {
			ranks[i] = 1
			for k := range n {
				if rec.Scores[k] > rec.Scores[i] {
					ranks[i]++
				}
			}
		}
	case rec.Winner == nil:
		for i := range ranks {
			ranks[i] = 1
		}
	default:
		for i := range ranks {
			ranks[i] = 2
		}
		ranks[*rec.Winner] = 1
	}
	return ranks
}

// save stores one game: each player's stderr moves out of the record
// (which anyone may replay) into the contest's own column, which only
// its participant and the organiser read, and the record file is
// rewritten without it.
func (l *Ladder) save(s saved) error {
	stderr := make([]string, len(s.rec.Players))
	for i := range s.rec.Players {
		stderr[i] = s.rec.Players[i].Stderr
		s.rec.Players[i].Stderr = ""
		s.rec.Players[i].Output = nil
	}
	s.cg.Stderr = stderr
	if data, err := json.MarshalIndent(s.rec, "", "  "); err == nil && s.path != "" {
		os.WriteFile(s.path, append(data, '\n'), 0o644)
	}
	g, err := engine.StoredGame(s.rec, s.path, "", 0)
	if err != nil {
		return err
	}
	return l.svc.cfg.Store.SaveContestGame(context.Background(), g, s.cg, s.rated)
}

// Utilization is the share of the slots' time spent playing since Run
// started (1 = never idle).
func (l *Ladder) Utilization() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started.IsZero() {
		return 0
	}
	return l.busy.Seconds() / (time.Since(l.started).Seconds() * float64(l.slots))
}

// SetPaused pauses or resumes a contest's ladder.
func (l *Ladder) SetPaused(ctx context.Context, name string, paused bool) error {
	if err := l.svc.cfg.Store.SetContestPaused(ctx, name, paused); err != nil {
		return err
	}
	return l.Refresh(ctx, name)
}

// Disqualify takes a participant off the ladder for good.
func (l *Ladder) Disqualify(ctx context.Context, name, user string) error {
	if err := l.svc.cfg.Store.Disqualify(ctx, name, user); err != nil {
		return err
	}
	return l.Refresh(ctx, name)
}
