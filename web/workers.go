package web

import (
	"context"
	"net/http"
	"time"
)

// WorkerStatus is one match worker as GET /api/workers lists it, the
// same JSON object as a line of "arena workers --json".
type WorkerStatus struct {
	Type      string    `json:"type"` // always "worker"
	Name      string    `json:"name"`
	Host      string    `json:"host"`
	Slots     int       `json:"slots"`
	Running   int       `json:"running"`   // games in progress
	Done      int       `json:"done"`      // games finished since it started
	Started   time.Time `json:"started"`   // when it started
	Heartbeat time.Time `json:"heartbeat"` // its last report
	// Age is the seconds since its last heartbeat by the server's clock,
	// so that a browser's own clock does not matter.
	Age float64 `json:"age"`
}

// Workers lists the match workers that play a server's games when they
// are played on workers (arena serve --nats or --workers): a worker that
// died stays listed, its heartbeat ageing.
type Workers func(ctx context.Context) ([]WorkerStatus, error)

// workersTimeout bounds one listing of the workers: the page asks again
// every few seconds.
const workersTimeout = 5 * time.Second

// workerRoutes adds GET /api/workers: the workers as a JSON array, or 404
// when the server plays its games here.
func (s *Server) workerRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/workers", func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Workers == nil {
			writeError(w, http.StatusNotFound, "this server plays its games itself: it has no workers (arena serve --nats URL or --workers N)")
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), workersTimeout)
		defer cancel()
		ws, err := s.cfg.Workers(ctx)
		if err != nil {
			s.log.Warn("web: list the workers", "err", err)
			writeError(w, http.StatusBadGateway, "list the workers: "+err.Error())
			return
		}
		if ws == nil {
			ws = []WorkerStatus{}
		}
		writeJSON(w, http.StatusOK, ws)
	})
}
