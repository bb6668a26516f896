package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
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
	// The cluster takes its time to elect a meta leader.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var (
		nodes []*node
		url   string
		r     *Runner
	)
	for attempt := 1; ; attempt++ {
		nodes, url = startCluster(t)
		var err error
		r, err = clusterRunner(ctx, t, connect(t, url), nodes)
		if err == nil {
			break
		}
		if !errors.Is(err, errNodeDied) || attempt == 3 {
			t.Fatal(err)
		}
		// A port chosen free can be taken by another test before the node
		// binds it: start again on new ports.
		t.Logf("attempt %d: %v; starting the cluster again", attempt, err)
		for _, n := range nodes {
			n.stop()
		}
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
			nodes[0].cmd.Process.Signal(syscall.SIGKILL) // the node the clients came to first
		}
		return nil
	}
	if _, err := tour.Run(ctx); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, "cl", 20)
}

// node is one cluster node's process; done is closed when it has ended.
type node struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func (n *node) stop() {
	n.cmd.Process.Kill()
	<-n.done
}

// errNodeDied is a cluster node ending before the cluster was ready.
var errNodeDied = errors.New("a cluster node ended before the cluster was ready")

// startCluster starts three nodes (this test binary as NATS servers, the
// streams' replicas on every one) on free ports and returns them with the
// clients' URL list.
func startCluster(t *testing.T) ([]*node, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var routes, clients []string
	for range 3 {
		routes = append(routes, freeAddr(t))
		clients = append(clients, freeAddr(t))
	}
	nodes := make([]*node, 3)
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
		n := &node{cmd: c, done: make(chan struct{})}
		go func() { c.Wait(); close(n.done) }()
		t.Cleanup(n.stop)
		nodes[i] = n
	}
	var urls []string
	for _, c := range clients {
		urls = append(urls, "nats://"+c)
	}
	return nodes, strings.Join(urls, ",")
}

// clusterRunner makes the tournament's Runner once the cluster has
// elected its leaders, or fails with errNodeDied when a node ends first.
func clusterRunner(ctx context.Context, t *testing.T, nc *nats.Conn, nodes []*node) (*Runner, error) {
	for {
		for _, n := range nodes {
			select {
			case <-n.done:
				return nil, errNodeDied
			default:
			}
		}
		actx, acancel := context.WithTimeout(ctx, 3*time.Second)
		r, err := NewRunner(actx, nc, Config{Event: "cl", Out: t.TempDir(), Games: testGames, Local: localOnly{}, Lease: time.Second, Replicas: 3})
		acancel()
		if err == nil {
			return r, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		t.Logf("waiting for the cluster: %v", err)
		time.Sleep(300 * time.Millisecond)
	}
}
