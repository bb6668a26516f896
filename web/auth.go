package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// authorized reports whether r carries the server's token as
// "Authorization: Bearer TOKEN". The comparison takes the same time
// whatever the guess: both sides are hashed first, so neither a prefix
// nor the length leaks. A server without a token opens nothing.
func (s *Server) authorized(r *http.Request) bool {
	if s.cfg.Token == "" {
		return false
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	want := sha256.Sum256([]byte(s.cfg.Token))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

const errToken = "missing or wrong token"

// requireToken refuses a request without the token before its handler
// reads anything.
func (s *Server) requireToken(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="arena"`)
			writeError(w, http.StatusUnauthorized, errToken)
			return
		}
		next(w, r)
	}
}
