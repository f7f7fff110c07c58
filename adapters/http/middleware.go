package http

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
)

// requestIDs are a random per-process prefix and a counter: unique, cheap,
// and sortable within one run.
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return &requestIDs{prefix: hex.EncodeToString(b)}
}

func (g *requestIDs) next() string {
	return g.prefix + "-" + strconv.FormatUint(g.n.Add(1), 36)
}

// requestID is the id base gave the exchange, kept in the response header so
// that no per-request context is needed to carry it.
func requestID(w http.ResponseWriter) string { return w.Header().Get("X-Request-Id") }

// base wraps every request: request id, nosniff, CORS, body limit, panic
// recovery and the access log.
func (s *kernel) base(next http.Handler) http.Handler {
	ids := newRequestIDs()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := ids.next()
		sw := &httpkit.StatusWriter{ResponseWriter: w}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Request-Id", id)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic serving request", "request_id", id, "panic", p, "stack", string(debug.Stack()))
				if sw.Status == 0 {
					s.writeMessage(sw, http.StatusInternalServerError, "internal server error (request "+id+")")
				}
			}
			if s.log.Enabled(r.Context(), slog.LevelInfo) {
				s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("method", r.Method),
					slog.String("path", r.URL.Path), slog.Int("status", sw.Status),
					slog.Duration("duration", time.Since(start)), slog.String("request_id", id))
			}
		}()
		if s.cors(sw, r) {
			return
		}
		if r.ContentLength > s.settings.MaxBodyBytes {
			s.writeMessage(sw, http.StatusRequestEntityTooLarge, "request body too large")
			return
		}
		r.Body = http.MaxBytesReader(sw, r.Body, s.settings.MaxBodyBytes)
		next.ServeHTTP(sw, r)
	})
}

// corsAlwaysAllowed are the request headers every allowed origin may send.
var corsAlwaysAllowed = []string{"Authorization", "X-Service-OTP", "X-Gitea-OTP", "Content-Type", "Sudo"}

// cors applies the site's cross-origin policy and answers preflight requests;
// it reports whether the request has been answered.
func (s *kernel) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || len(s.settings.CORSAllowedOrigins) == 0 {
		return false
	}
	if !slices.Contains(s.settings.CORSAllowedOrigins, "*") && !slices.Contains(s.settings.CORSAllowedOrigins, origin) {
		return false
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", "Link, X-Total-Count, X-Service-Warning, X-Gitea-Warning")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	allowed := append(slices.Clone(corsAlwaysAllowed), s.settings.CORSAllowedHeaders...)
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
	h.Set("Access-Control-Allow-Headers", strings.Join(allowed, ", "))
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusOK)
	return true
}
