package dispatch

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestClusterNodeKilled runs a tournament on a three-node cluster
// (embedded servers) with streams kept on every node, and kills one
// node in the middle: no game is lost or stored twice.
func TestClusterNodeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster takes seconds to elect its leaders")
	}
	var routes, clients []string
	for range 3 {
		routes = append(routes, freeAddr(t))
		clients = append(clients, freeAddr(t))
	}
	nodes := make([]*Server, 3)
	for i := range nodes {
		s, err := StartServer(ServerConfig{
			StoreDir: t.TempDir(), Listen: clients[i], Name: fmt.Sprintf("n%d", i+1),
			Cluster: &ClusterConfig{Name: "arena", Listen: routes[i], Routes: routes},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Shutdown)
		nodes[i] = s
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
		var err error
		actx, acancel := context.WithTimeout(ctx, 3*time.Second)
		r, err = NewRunner(actx, nc, Config{Event: "cl", Out: t.TempDir(), Local: localOnly{}, Lease: time.Second, Replicas: 3})
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
			go nodes[0].Shutdown() // the node the clients came to first
		}
		return nil
	}
	if _, err := tour.Run(ctx); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, "cl", 20)
}
