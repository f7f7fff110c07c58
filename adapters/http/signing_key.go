package http

import (
	"net/http"
	"strconv"
)

// signingKey serves the public key that verifies the commits Depot signs
// (catalogue 4.1).
type signingKey struct{ *kernel }

// signingKeyRoutes are the rows of signingKey. The key is the site's: the
// R/ row answers it for any repository the caller may see.
func (s *kernel) signingKeyRoutes() []route {
	h := signingKey{s}
	return []route{
		{"GET", "/signing-key.gpg", nil, "-", h.getSigningKey},
		{"GET", R + "/signing-key.gpg", nil, "-", h.getSigningKey},
	}
}

// getSigningKey answers GET /signing-key.gpg and R/signing-key.gpg: the
// armoured public key, or an empty 404 when Depot signs nothing.
func (s signingKey) getSigningKey(q *request) error {
	if s.signer == nil {
		q.w.Header().Set("Content-Length", "0")
		q.w.WriteHeader(http.StatusNotFound)
		return nil
	}
	key := s.signer.PublicKey()
	h := q.w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(key)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(key) // a failed write means the client left
	return nil
}
