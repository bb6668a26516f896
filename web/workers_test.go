package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestWorkersAPI: GET /api/workers lists what the server's Workers
// gives, answers 404 on a server that plays its games itself and 502
// when the list cannot be had; /api/info tells the page which it is.
func TestWorkersAPI(t *testing.T) {
	beat := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	two := []WorkerStatus{
		{Type: "worker", Name: "w1", Host: "h", Slots: 2, Running: 1, Done: 7, Started: beat, Heartbeat: beat, Age: 1.5},
		{Type: "worker", Name: "w2", Host: "h", Slots: 4, Heartbeat: beat, Age: 40},
	}
	for _, tc := range []struct {
		name     string
		workers  Workers
		code     int
		want     []WorkerStatus
		inBody   string
		infoSays bool
	}{
		{name: "no workers: games played here", code: http.StatusNotFound, inBody: "no workers"},
		{name: "two workers", workers: func(context.Context) ([]WorkerStatus, error) { return two, nil },
			code: http.StatusOK, want: two, infoSays: true},
		{name: "none joined yet", workers: func(context.Context) ([]WorkerStatus, error) { return nil, nil },
			code: http.StatusOK, want: []WorkerStatus{}, inBody: "[]", infoSays: true},
		{name: "the NATS server away", workers: func(ctx context.Context) ([]WorkerStatus, error) {
			if _, ok := ctx.Deadline(); !ok {
				return nil, errors.New("no deadline on the listing")
			}
			return nil, errors.New("nats: no servers available")
		}, code: http.StatusBadGateway, inBody: "no servers available", infoSays: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, &fakeLauncher{}, func(c *Config) { c.Workers = tc.workers })
			code, body := ts.do(t, "GET", "/api/workers", "", "")
			if code != tc.code || !strings.Contains(string(body), tc.inBody) {
				t.Fatalf("GET /api/workers: %d %s; want %d with %q", code, body, tc.code, tc.inBody)
			}
			if tc.want != nil {
				var got []WorkerStatus
				if err := json.Unmarshal(body, &got); err != nil {
					t.Fatal(err)
				}
				if len(got) != len(tc.want) {
					t.Fatalf("GET /api/workers: %s", body)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Errorf("worker %d: %+v, want %+v", i, got[i], tc.want[i])
					}
				}
			}
			var info struct {
				Workers bool `json:"workers"`
			}
			ts.getJSON(t, "/api/info", &info)
			if info.Workers != tc.infoSays {
				t.Errorf("/api/info says workers %v, want %v", info.Workers, tc.infoSays)
			}
		})
	}
}
