package e2e

import (
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/internal/syncbuf"
)

// joinRE finds the NATS URL "arena serve --listen-nats" prints for
// other machines' workers.
var joinRE = regexp.MustCompile(`arena worker --nats (nats://\S+)`)

// startWorker starts an "arena worker" process in a folder of its own
// (no file shared with the server), stopped as a user would (SIGTERM)
// at the test's end unless stop or kill (SIGKILL) was called first.
func startWorker(t *testing.T, natsURL, name string) (stop, kill func()) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(arenaBinary(t), "worker", "--nats", natsURL, "--slots", "2", "--name", name,
		"--work-dir", dir, "--cache", filepath.Join(dir, "cache"))
	cmd.Dir = dir
	var out syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start arena worker: %v", err)
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("arena worker %s: %v\n%s", name, err, out.String())
			}
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("arena worker %s did not stop within 15 s of SIGTERM:\n%s", name, out.String())
		}
	}
	kill = func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Kill()
		cmd.Wait()
	}
	t.Cleanup(stop)
	return stop, kill
}

// TestWorkersView: arena serve with an embedded NATS server that other
// machines' workers join (--listen-nats). The page lists the workers as
// they join, with their slots; counts the games they play for a
// tournament started from the API, without a reload; shows each one's
// last heartbeat; and drops a worker that stops.
func TestWorkersView(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--listen-nats", "127.0.0.1:0", "--nats-lease", "5s", "--options", "gomoku:--size 10",
		"--bot", "gomoku:b2=builtin")
	var natsURL string
	for deadline := time.Now().Add(10 * time.Second); natsURL == ""; time.Sleep(20 * time.Millisecond) {
		if m := joinRE.FindStringSubmatch(srv.output.String()); m != nil {
			natsURL = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("arena serve --listen-nats printed no URL for workers:\n%s", srv.output.String())
		}
	}

	b := newBrowser(t, srv)
	b.open("#/")
	b.waitFor("#workers", 10*time.Second)
	b.wait("the empty list", `(document.querySelector("#workers-summary")||{}).textContent.includes("No workers have joined yet")`,
		`document.querySelector("#workers").textContent`, 10*time.Second)
	if hidden := eval[bool](b, `document.querySelector('header nav a[data-nav="workers"]').hidden`); hidden {
		t.Error("the Workers menu entry is hidden on a server with workers")
	}

	// Two workers join: the page shows them without a reload.
	stopW1, _ := startWorker(t, natsURL, "e2e-w1")
	_, killW2 := startWorker(t, natsURL, "e2e-w2")
	for _, name := range []string{"e2e-w1", "e2e-w2"} {
		b.waitFor(fmt.Sprintf(`#workers-list [data-worker=%q][data-slots="2"]`, name), 20*time.Second)
	}
	b.wait("the summary of two workers", `document.querySelector("#workers-summary").textContent.startsWith("2 workers · 4 slots")`,
		`document.querySelector("#workers-summary").textContent`, 10*time.Second)

	// A tournament on them: the games they played are counted.
	const name = "e2e-workers"
	req := map[string]any{"name": name, "game": "gomoku", "bots": []string{"builtin", "b2"}, "format": "round-robin", "games": 4, "turn_time": "50ms"}
	if status, body := srv.api(t, "POST", "/api/tournaments", req, srv.Token); status != http.StatusCreated {
		t.Fatalf("POST /api/tournaments: status %d: %s", status, body)
	}
	var rep report
	for deadline := time.Now().Add(120 * time.Second); !rep.Finished; time.Sleep(200 * time.Millisecond) {
		srv.getJSON(t, "/api/tournaments/"+name, &rep)
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish in 120 s: %+v", rep)
		}
	}
	doneSum := `[...document.querySelectorAll("#workers-list [data-worker]")].reduce((n, r) => n + Number(r.dataset.done), 0)`
	b.wait(fmt.Sprintf("the workers' %d games counted", rep.Games), fmt.Sprintf("%s === %d", doneSum, rep.Games), doneSum, 20*time.Second)
	b.wait("nothing running", `[...document.querySelectorAll("#workers-list [data-worker]")].every(r => r.dataset.running === "0")`,
		`document.querySelector("#workers-list").textContent`, 20*time.Second)
	beat := b.text(`#workers-list [data-worker="e2e-w1"] [data-col="heartbeat"]`)
	if !regexp.MustCompile(`^\d+ s ago$`).MatchString(beat) {
		t.Errorf("e2e-w1's last heartbeat shows %q, want N s ago", beat)
	}
	b.screenshot(t.Name() + "-home")

	// The workers' own page lists them too.
	b.click(`header nav a[data-nav="workers"]`)
	b.wait("the workers page", `location.hash === "#/workers"`, "location.hash", 5*time.Second)
	b.waitFor(`#workers-list [data-worker="e2e-w2"]`, 10*time.Second)

	// A worker that stops leaves the list; the other stays.
	stopW1()
	b.wait("e2e-w1 gone", `!document.querySelector('#workers-list [data-worker="e2e-w1"]')`,
		`document.querySelector("#workers-list").textContent`, 20*time.Second)
	if n := eval[int](b, `document.querySelectorAll("#workers-list [data-worker]").length`); n != 1 {
		t.Errorf("%d workers listed after one of two stopped", n)
	}

	// A worker killed cannot say goodbye: it stays, shown as silent once
	// its last heartbeat is old.
	killW2()
	b.wait("e2e-w2 silent", `(document.querySelector('#workers-list [data-worker="e2e-w2"]')||{dataset:{}}).dataset.silent === "true"`,
		`document.querySelector("#workers-list").outerHTML`, 40*time.Second)
	if beat := b.text(`#workers-list [data-worker="e2e-w2"] [data-col="heartbeat"]`); !strings.HasPrefix(beat, "silent, ") {
		t.Errorf("the killed worker's heartbeat shows %q", beat)
	}
	if sum := b.text("#workers-summary"); !strings.HasSuffix(sum, "1 silent") {
		t.Errorf("summary after the kill: %q", sum)
	}
}

// TestNoWorkersView: a server that plays its games itself shows no
// workers view on the home page and no Workers menu entry, never asks
// for the workers (GET /api/workers would be a 404 the browser logs),
// and #/workers says why there are none.
func TestNoWorkersView(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	status, body := srv.api(t, "GET", "/api/workers", nil, "")
	wantError(t, "GET /api/workers without workers", status, body, http.StatusNotFound)

	b := newBrowser(t, srv)
	b.open("#/")
	b.waitFor("#match-form", 10*time.Second) // the page has read /api/info
	if eval[bool](b, `!!document.querySelector("#workers")`) {
		t.Error("the home page shows a workers view on a server without workers")
	}
	if !eval[bool](b, `document.querySelector('header nav a[data-nav="workers"]').hidden`) {
		t.Error("the Workers menu entry shows on a server without workers")
	}
	b.open("#/workers")
	b.wait("the explanation", `(document.querySelector("#workers-summary")||{}).textContent.includes("plays its games itself")`,
		`document.querySelector("main").textContent`, 10*time.Second)
}
