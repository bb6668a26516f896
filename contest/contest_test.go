package contest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/game"
	"arena/internal/nim"
	"arena/match"
	"arena/store"
)

// Nim bots, as participants write them: each answers "take N MAX".
var (
	pyBot = "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'take':\n        print('SECRET-PY', file=sys.stderr)\n        print(1, flush=True)\n"
	cBot  = "#include <stdio.h>\nint main(void){char w[16];int n,m;setvbuf(stdout,0,_IONBF,0);\n" +
		"while(scanf(\"%15s\",w)==1){if(w[0]=='t'&&scanf(\"%d %d\",&n,&m)==2){fprintf(stderr,\"SECRET-C\\n\");printf(\"%d\\n\", n%(m+1)?n%(m+1):1);}}return 0;}\n"
	badC    = "int main(void){ return undefined_thing; }\n"
	crashPy = "import sys\nsys.stdin.readline()\nsys.exit(3)\n"
)

// env is a store, a service over Nim on this machine and a ladder.
type env struct {
	st  *store.Store
	svc *Service
	dir string
}

func newEnv(t *testing.T) env { return newEnvTB(t) }

func newEnvTB(t testing.TB) env {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg, err := game.NewRegistry[match.Game](nim.Def{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"out", "work"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	builtinDir := filepath.Join(dir, "builtin")
	os.MkdirAll(builtinDir, 0o755)
	os.WriteFile(filepath.Join(builtinDir, "b.py"), []byte(strings.ReplaceAll(pyBot, "SECRET-PY", "builtin")), 0o644)
	py, err := Tool("python3")
	if err != nil {
		t.Skip(err)
	}
	sb := testSandbox(t)
	svc, err := NewService(Config{Store: st, Games: reg, Dir: filepath.Join(dir, "subs"), Sandbox: sb,
		Runner: engine.NewLocal(reg, match.Local{Out: filepath.Join(dir, "out"), Work: filepath.Join(dir, "work"), Sandbox: sb}),
		Builtin: func(string) (match.Player, error) {
			return match.Player{Name: "builtin", Args: []string{py, "-u", "b.py"}, Files: builtinDir}, nil
		}, Uploads: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateContest(context.Background(), store.Contest{Name: "cup", Game: "nim"}); err != nil {
		t.Fatal(err)
	}
	return env{st: st, svc: svc, dir: dir}
}

// submit uploads a bot and waits for its verdict.
func (e env) submit(t *testing.T, ctx context.Context, user, file, body string) store.Submission {
	return e.submitTB(t, ctx, user, file, body)
}

func (e env) submitTB(t testing.TB, ctx context.Context, user, file, body string) store.Submission {
	t.Helper()
	sub, err := e.svc.Submit(ctx, "cup", user, file, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	for sub.State == store.SubmissionCompiling {
		time.Sleep(50 * time.Millisecond)
		if sub, err = e.svc.Submission(ctx, "cup", user, sub.ID); err != nil {
			t.Fatal(err)
		}
	}
	return sub
}

func TestContestLadder(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tokens := map[string]string{}
	for _, u := range []string{"py", "c", "bad", "crash"} {
		tok, err := AddParticipant(ctx, e.st, "cup", u)
		if err != nil {
			t.Fatal(err)
		}
		tokens[u] = tok
	}
	if p, err := e.svc.Authenticate(ctx, "cup", tokens["c"]); err != nil || p.Name != "c" {
		t.Fatalf("Authenticate: %+v, %v", p, err)
	}
	if _, err := e.svc.Authenticate(ctx, "cup", "nope"); err != ErrAuth {
		t.Errorf("a wrong token: %v", err)
	}
	lad := NewLadder(e.svc, 2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		lad.Run(ctx, t.Logf)
	}()
	for _, c := range []struct {
		user, file, body, state, reason string
	}{
		{"py", "__init__.py", pyBot, store.SubmissionAccepted, ""},
		{"c", "bot.c", cBot, store.SubmissionAccepted, ""},
		{"bad", "bot.c", badC, store.SubmissionRejected, "compilation failed: gcc exited"},
		{"crash", "main.py", crashPy, store.SubmissionRejected, "crash"},
	} {
		sub := e.submit(t, ctx, c.user, c.file, c.body)
		if sub.State != c.state || !strings.Contains(sub.Reason, c.reason) {
			t.Errorf("%s: %s (%s), want %s (%q)\n%s", c.user, sub.State, sub.Reason, c.state, c.reason, sub.Log)
		}
	}
	// The ladder plays the two accepted bots.
	deadline := time.Now().Add(60 * time.Second)
	var gs []store.ContestGameSummary
	for time.Now().Before(deadline) {
		gs, _ = e.st.ContestGames(ctx, "cup", "", 0)
		if len(gs) >= 6 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(gs) < 6 {
		t.Fatalf("the ladder stored %d games in a minute", len(gs))
	}
	if err := lad.SetPaused(ctx, "cup", true); err != nil {
		t.Fatal(err)
	}
	s, err := LoadStatus(ctx, e.st, "cup")
	if err != nil {
		t.Fatal(err)
	}
	if s.Standings[0].User != "c" || s.Standings[0].Language != "c" || s.Standings[1].User != "py" || s.Standings[0].Games == 0 {
		t.Errorf("the perfect C bot should lead: %+v", s.Standings)
	}
	// A record keeps no stderr; each player's own is kept apart.
	cg, err := e.st.ContestOfGame(ctx, gs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.st.Game(ctx, gs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(g.Record), "SECRET") {
		t.Error("a stored record holds a bot's stderr")
	}
	for i, u := range cg.Users {
		want := map[string]string{"py": "SECRET-PY", "c": "SECRET-C"}[u]
		if !strings.Contains(cg.Stderr[i], want) {
			t.Errorf("%s's stderr %q lacks %q", u, cg.Stderr[i], want)
		}
	}
	// A new submission replaces the old one, its rating carried over
	// with a wider uncertainty.
	var before Standing
	for _, r := range s.Standings {
		if r.User == "py" {
			before = r
		}
	}
	sub := e.submit(t, ctx, "py", "bot.py", pyBot)
	if sub.State != store.SubmissionAccepted {
		t.Fatalf("resubmission: %s %s", sub.State, sub.Reason)
	}
	s, _ = LoadStatus(ctx, e.st, "cup")
	for _, r := range s.Standings {
		// (Games in progress when the ladder paused may still have been
		// rated: the rating is carried, not reset to a new player's.)
		if r.User == "py" && (r.Mu > 20 || r.Sigma <= before.Sigma || r.Accepted != sub.ID) {
			t.Errorf("after resubmitting: %+v, before %+v", r, before)
		}
	}
	cancel()
	<-done
	e.svc.Wait()
}

// BenchmarkLadderSlots plays ladder games between three instant bots
// (the C bot of Nim) on 4 slots and reports how much of the slots' time
// was spent outside games (idle-%): matchmaking, rating, waiting.
func BenchmarkLadderSlots(b *testing.B) {
	e := newEnvTB(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, u := range []string{"a", "b", "c"} {
		if _, err := AddParticipant(ctx, e.st, "cup", u); err != nil {
			b.Fatal(err)
		}
		if sub := e.submitTB(b, ctx, u, "bot.c", cBot); sub.State != store.SubmissionAccepted {
			b.Fatalf("%s: %s", sub.State, sub.Log)
		}
	}
	lad := NewLadder(e.svc, 4)
	done := make(chan struct{})
	b.ResetTimer()
	go func() {
		defer close(done)
		lad.Run(ctx, b.Logf)
	}()
	for {
		gs, _ := e.st.ContestGames(ctx, "cup", "", b.N+1)
		if len(gs) >= b.N {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.ReportMetric(100*(1-lad.Utilization()), "idle-%")
	cancel()
	<-done
}
