package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nodeEnv, set, makes the test binary a cluster node: a NATS server of
// the ServerConfig in its JSON, running until it is killed.
const nodeEnv = "ARENA_TEST_NATS_NODE"

func TestMain(m *testing.M) {
	if cfg := os.Getenv(nodeEnv); cfg != "" {
		os.Exit(runNode(cfg))
	}
	os.Exit(m.Run())
}

func runNode(cfgJSON string) int {
	var cfg ServerConfig
	if err := json.Unmarshal([]byte(cfgJSON), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := StartServer(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	<-ctx.Done()
	s.Shutdown()
	return 0
}

// TestClusterNodeKilled runs a tournament on a three-node cluster, each
// node a process of its own (this test binary as a NATS server), with
// the streams kept on every node, and kills one node with SIGKILL in the
// middle: no game is lost or stored twice.
func TestClusterNodeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster takes seconds to elect its leaders")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var routes, clients []string
	for range 3 {
		routes = append(routes, freeAddr(t))
		clients = append(clients, freeAddr(t))
	}
	nodes := make([]*exec.Cmd, 3)
	for i := range nodes {
		cfg, _ := json.Marshal(ServerConfig{
			StoreDir: t.TempDir(), Listen: clients[i], Name: fmt.Sprintf("n%d", i+1),
			Cluster: &ClusterConfig{Name: "arena", Listen: routes[i], Routes: routes},
		})
		c := exec.Command(exe)
		c.Env = append(os.Environ(), nodeEnv+"="+string(cfg))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		nodes[i] = c
	}
	var urls []string
	for _, c := range clients {
		urls = append(urls, "nats://"+c)
	}
	url := strings.Join(urls, ",")
	nc := connect(t, url)
	// The cluster takes its time to elect a meta leader.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var r *Runner
	for {
		actx, acancel := context.WithTimeout(ctx, 3*time.Second)
		r, err = NewRunner(actx, nc, Config{Event: "cl", Out: t.TempDir(), Games: testGames, Local: localOnly{}, Lease: time.Second, Replicas: 3})
		acancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		t.Logf("waiting for the cluster: %v", err)
		time.Sleep(300 * time.Millisecond)
	}
	t.Cleanup(r.Close)
	f := newFakeGames(20 * time.Millisecond)
	startWorker(t, connect(t, url), "w1", 2, f)
	startWorker(t, connect(t, url), "w2", 2, f)
	st := openStore(t)
	tour := roundRobin("cl", 5, 2, r, st, t.TempDir())
	stored := 0
	tour.Stored = func(tournamentGame, *gameRecord, string, *standingsTable) error {
		if stored++; stored == 5 {
			nodes[0].Process.Signal(syscall.SIGKILL) // the node the clients came to first
		}
		return nil
	}
	if _, err := tour.Run(ctx); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, "cl", 20)
}
