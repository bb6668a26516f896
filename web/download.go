package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"arena/game"
	"arena/standings"
	"arena/store"
)

// jsonFormat is arena's own record, which every game has.
var jsonFormat = game.Format{Name: "json", Ext: ".json", ContentType: "application/json", Title: "arena record (JSON)"}

// downloadRoutes adds the calls that hand out a stored game's files and a
// tournament's results file:
//
//	GET /api/games/ID                       the game's tournament and files
//	GET /api/games/ID/download?format=NAME  one file, as an attachment
//	GET /api/results/NAME                   a tournament's PGN-style results
func (s *Server) downloadRoutes(mux *http.ServeMux) {
	// IDs may hold slashes (a tournament's games do), hence catch-alls.
	mux.HandleFunc("GET /api/games/{path...}", s.handleGameFiles)
	mux.HandleFunc("GET /api/results/{name...}", s.handleResults)
}

// download is one file of a stored game, as GET /api/games/ID lists it.
type download struct {
	Format string `json:"format"`
	Title  string `json:"title"`
	Name   string `json:"name"` // the file name it is saved under
	URL    string `json:"url"`
}

// gameFiles is GET /api/games/ID.
type gameFiles struct {
	ID         string     `json:"id"`
	Game       string     `json:"game"`
	Tournament string     `json:"tournament"` // "" for a game outside any
	Round      int        `json:"round,omitempty"`
	Downloads  []download `json:"downloads"`
}

func (s *Server) handleGameFiles(w http.ResponseWriter, r *http.Request) {
	g, wantFile, ok := s.storedGame(w, r, r.PathValue("path"), "/download")
	if !ok {
		return
	}
	gameName := recordGame(g.Record)
	formats := append([]game.Format{jsonFormat}, s.cfg.Formats[gameName]...)
	if !wantFile {
		out := gameFiles{ID: g.ID, Game: gameName, Tournament: g.Tournament, Round: g.Round, Downloads: []download{}}
		for _, f := range formats {
			switch {
			case f.Name == jsonFormat.Name:
			case f.Write == nil && !fileExists(sibling(g, f)):
				continue // an Ants game whose replay file is gone
			case f.Write != nil:
				// Only files that can be made: not SGF for a field
				// wider than its letters.
				if _, status, _ := s.gameFile(g, f); status == http.StatusNotFound {
					continue
				}
			}
			out.Downloads = append(out.Downloads, download{Format: f.Name, Title: f.Title, Name: fileName(g.ID, f),
				URL: "/api/games/" + url.PathEscape(g.ID) + "/download?format=" + url.QueryEscape(f.Name)})
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	want := r.URL.Query().Get("format")
	var format game.Format
	var names []string
	for _, f := range formats {
		names = append(names, f.Name)
		if f.Name == want {
			format = f
		}
	}
	if format.Name == "" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("format: %q is not one of %s (a %s game)",
			want, strings.Join(names, ", "), gameName))
		return
	}
	data, status, err := s.gameFile(g, format)
	if err != nil {
		if status == http.StatusInternalServerError {
			s.internalError(w, r, err)
		} else {
			writeError(w, status, err.Error())
		}
		return
	}
	serveAttachment(w, format.ContentType, fileName(g.ID, format), data)
}

// gameFile makes one file of a stored game; on failure the status says
// whose fault it is.
func (s *Server) gameFile(g store.Game, f game.Format) ([]byte, int, error) {
	if len(g.Record) == 0 {
		return nil, http.StatusNotFound, fmt.Errorf("game %q has no record", g.ID)
	}
	switch {
	case f.Name == jsonFormat.Name:
		return g.Record, 0, nil
	case f.Write == nil:
		data, err := os.ReadFile(sibling(g, f))
		if errors.Is(err, os.ErrNotExist) {
			return nil, http.StatusNotFound, fmt.Errorf("the %s file of game %q is gone", f.Name, g.ID)
		}
		if err != nil {
			return nil, http.StatusInternalServerError, fmt.Errorf("game %s: %w", g.ID, err)
		}
		return data, 0, nil
	}
	var rec game.Record
	if err := json.Unmarshal(g.Record, &rec); err != nil {
		return nil, http.StatusInternalServerError, fmt.Errorf("game %s: record: %w", g.ID, err)
	}
	data, err := f.Write(&rec)
	if errors.Is(err, game.ErrNotExpressible) {
		return nil, http.StatusNotFound, fmt.Errorf("no %s file for game %q: %w", f.Name, g.ID, err)
	}
	if err != nil {
		return nil, http.StatusInternalServerError, fmt.Errorf("game %s: write %s: %w", g.ID, f.Name, err)
	}
	return data, 0, nil
}

func (s *Server) handleResults(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if _, err := s.cfg.Store.Tournament(r.Context(), name); errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no tournament "+strconv.Quote(name))
		return
	} else if err != nil {
		s.internalError(w, r, err)
		return
	}
	games, err := s.cfg.Store.Games(r.Context(), name)
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	pgn := standings.PGN(name, games)
	if pgn == "" {
		writeError(w, http.StatusNotFound, "tournament "+strconv.Quote(name)+" has no two-player games to write results of yet")
		return
	}
	serveAttachment(w, "application/x-chess-pgn", safeFileName(name)+".pgn", []byte(pgn))
}

// serveAttachment sends a file the browser saves under name.
func serveAttachment(w http.ResponseWriter, ctype, name string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	disp := mime.FormatMediaType("attachment", map[string]string{"filename": name})
	if disp == "" { // a name it cannot write: the browser names the file
		disp = "attachment"
	}
	h.Set("Content-Disposition", disp)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Cache-Control", "no-cache")
	w.Write(data)
}

// recordGame reads the game's name from a stored record.
func recordGame(record []byte) string {
	var head struct {
		Game string `json:"game"`
	}
	json.Unmarshal(record, &head)
	return head.Game
}

// sibling is where a game wrote one of its files: beside its record,
// ID.json, ID.replay, ...
func sibling(g store.Game, f game.Format) string {
	if g.RecordPath == "" {
		return ""
	}
	return strings.TrimSuffix(g.RecordPath, filepath.Ext(g.RecordPath)) + f.Ext
}

func fileExists(path string) bool {
	if path == "" {
		return false
	}
	_, err := os.Stat(path)
	return err == nil
}

// fileName is the name a game's file is saved under.
func fileName(id string, f game.Format) string { return safeFileName(id) + f.Ext }

// safeFileName turns an ID or a tournament's name into a file name: a
// tournament game's slashes become underscores, and so do the characters
// file systems refuse.
func safeFileName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		s = "game"
	}
	return s
}
