package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestContestPages runs a contest on a real server: two participants
// submit a Python and a C bot with arena submit, the ladder plays, and
// the page shows the leaderboard and a participant's own page (its own
// bot's stderr, never the other's), and the organiser's view.
func TestContestPages(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"gcc", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	srv := startServer(t, "--ladder-slots", "2")
	bin := arenaBinary(t)
	db := filepath.Join(srv.Dir, "arena.db")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = srv.Dir
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return strings.TrimSpace(string(out))
	}
	run("contest", "create", "cup", "--game", "gomoku", "--proto", "pipe", "--db", db)
	tokens := map[string]string{}
	for _, u := range []string{"py", "c"} {
		tokens[u] = run("contest", "user", "add", u, "--contest", "cup", "--db", db)
	}
	bots, err := filepath.Abs(filepath.Join("..", "..", "cmd", "arena", "testdata", "contest"))
	if err != nil {
		t.Fatal(err)
	}
	run("submit", "--server", srv.URL, "--token", tokens["py"], "--contest", "cup", filepath.Join(bots, "py"))
	run("submit", "--server", srv.URL, "--token", tokens["c"], "--contest", "cup", filepath.Join(bots, "c", "bot.c"))

	b := newBrowser(t, srv)
	b.open("#/contests")
	b.waitFor(`#contest-list a[href="#/contest/cup"]`, 10*time.Second)
	b.click(`#contest-list a[href="#/contest/cup"]`)
	b.waitFor("#leaderboard", 10*time.Second)
	// The ladder's games show on the leaderboard (the page is reloaded
	// until they do).
	b.wait("ladder games on the leaderboard",
		`(async () => { location.hash = "#/contests"; await new Promise(r => setTimeout(r, 100)); location.hash = "#/contest/cup";
		  await new Promise(r => setTimeout(r, 700));
		  const g = [...document.querySelectorAll("#leaderboard td.games")].map(td => +td.textContent);
		  return g.length === 2 && g.every(n => n > 0); })()`,
		`document.querySelector("#leaderboard")?.innerText`, 90*time.Second)
	langs := eval[string](b, `[...document.querySelectorAll("#leaderboard td.language")].map(td => td.textContent).sort().join(",")`)
	if langs != "c,python" {
		t.Errorf("leaderboard languages %q, want c,python", langs)
	}
	if txt := b.text("#languages"); !strings.Contains(txt, "py_compile") || !strings.Contains(txt, "java") {
		t.Errorf("languages: %q", txt)
	}
	// The organiser (the page holds the server's token) sees its view.
	b.waitFor("#pause", 5*time.Second)

	// py's own page: its submission, its games with its own stderr only.
	eval[bool](b, `(localStorage.setItem("arena-contest-token:cup", `+jsString(tokens["py"])+`), true)`)
	b.open("#/contests")
	b.open("#/contest/cup")
	b.waitFor("#my-games .contest-game", 60*time.Second)
	if me := b.text("#me"); me != "py" {
		t.Errorf("signed in as %q", me)
	}
	if subs := b.text("#my-submissions"); !strings.Contains(subs, "accepted") {
		t.Errorf("my submissions: %q", subs)
	}
	stderr := eval[string](b, `[...document.querySelectorAll("#my-games pre.stderr")].map(p => p.textContent).join("\n")`)
	if !strings.Contains(stderr, "stderr of py") || strings.Contains(stderr, "stderr of c") {
		t.Errorf("py's page shows stderr %q", stderr)
	}
	if problems := b.takeProblems(); len(problems) > 0 {
		t.Errorf("the page reported problems: %v", problems)
	}
}
