package dispatch

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerConfig is an embedded NATS server with JetStream.
type ServerConfig struct {
	// StoreDir is where JetStream keeps its streams on disk: the same
	// folder after a restart keeps every queued job and result.
	StoreDir string
	// Listen is the client address, host:port; "" listens on a free
	// port of 127.0.0.1 only. A port of 0 is a free port.
	Listen string
	// Name names the server (a cluster's nodes need distinct names);
	// "" lets the server choose.
	Name string
	// Cluster, when set, joins the server to a cluster.
	Cluster *ClusterConfig
}

// ClusterConfig is the cluster an embedded server joins.
type ClusterConfig struct {
	Name   string   // the cluster's name, the same on every node
	Listen string   // host:port of this node's route listener
	Routes []string // host:port of every node's route listener
}

// Server is an embedded NATS server.
type Server struct {
	ns *server.Server
}

// StartServer starts an embedded NATS server with JetStream and waits
// until it takes connections.
func StartServer(cfg ServerConfig) (*Server, error) {
	if cfg.StoreDir == "" {
		return nil, errors.New("nats server: no store folder")
	}
	host, port, err := hostPort(cfg.Listen, "127.0.0.1")
	if err != nil {
		return nil, fmt.Errorf("nats server: listen %q: %w", cfg.Listen, err)
	}
	opts := &server.Options{
		ServerName: cfg.Name, Host: host, Port: port,
		JetStream: true, StoreDir: cfg.StoreDir,
		NoSigs: true, NoLog: true,
		MaxPayload: 8 << 20, // records of long games
	}
	if c := cfg.Cluster; c != nil {
		ch, cp, err := hostPort(c.Listen, "127.0.0.1")
		if err != nil {
			return nil, fmt.Errorf("nats server: cluster listen %q: %w", c.Listen, err)
		}
		opts.Cluster = server.ClusterOpts{Name: c.Name, Host: ch, Port: cp}
		for _, r := range c.Routes {
			opts.Routes = append(opts.Routes, &url.URL{Scheme: "nats-route", Host: r})
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("nats server: not ready after 30s")
	}
	return &Server{ns: ns}, nil
}

// hostPort splits an address; a missing host is def, a missing or zero
// port a free one.
func hostPort(addr, def string) (string, int, error) {
	if addr == "" {
		return def, server.RANDOM_PORT, nil
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	if h == "" {
		h = def
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 65535 {
		return "", 0, fmt.Errorf("port %q", p)
	}
	if n == 0 {
		n = server.RANDOM_PORT
	}
	return h, n, nil
}

// URL is the server's client URL (nats://host:port).
func (s *Server) URL() string { return s.ns.ClientURL() }

// Shutdown stops the server and waits until it has stopped.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
