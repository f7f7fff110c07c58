package http

import (
	"crypto/sha256"
	"net/http"
	"strings"
	"sync"

	"github.com/depothq/depot/app/auth"
)

// A poller's repeated conditional GET (If-None-Match with the tag it was
// given) of an answer built from the database alone is answered 304 from
// a memo, without resolving the caller, checking access or building the
// answer again: the memo keeps, per request (its URL and credentials),
// the tag last answered, the caller it was answered to and the database's
// change stamp read before that request was admitted. While the stamp is
// unchanged nothing the answer, the caller or the access check read has
// changed: a token deleted, a password changed, a member removed, a
// repository made private are all writes. The memo is only used for
// credentials whose validity ends with a write, never with time (no
// one-time codes, no OAuth2 JWTs, no HTTP signatures, no cookies, no
// reverse-proxy headers, whose trust depends on the connection), and
// only for the routes of memoRoutes, whose answers read no Git data (a
// push moves a branch without writing the database).

// memoRoutes are the GET routes whose answers the memo may vouch for.
var memoRoutes = map[string]bool{
	R:                              true,
	R + "/issues":                  true,
	R + "/issues/{index}":          true,
	R + "/issues/{index}/comments": true,
	R + "/labels":                  true,
	R + "/milestones":              true,
	"/user":                        true,
	"/users/{username}":            true,
	"/orgs/{org}":                  true,
	"/notifications":               true,
	"/notifications/new":           true,
}

// memoBound is how many requests the memo remembers; past it, it starts
// again empty.
const memoBound = 8192

// notModifiedMemo is the memo of tags answered.
type notModifiedMemo struct {
	mu      sync.Mutex
	entries map[[32]byte]memoEntry
}

// memoEntry is what one request was last answered.
type memoEntry struct {
	stamp, etag string
	caller      auth.Caller
}

// memoPending is a request the memo may learn from once it is answered.
type memoPending struct {
	key   [32]byte
	stamp string
}

func newNotModifiedMemo() *notModifiedMemo {
	return &notModifiedMemo{entries: map[[32]byte]memoEntry{}}
}

func (m *notModifiedMemo) get(key [32]byte) (memoEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	return e, ok
}

func (m *notModifiedMemo) put(key [32]byte, e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.entries) >= memoBound {
		clear(m.entries)
	}
	m.entries[key] = e
}

// memoKey names r by what its answer and its admission depend on: the
// URL (path and query, sudo included) and the credentials, hashed so that
// no password is kept.
func memoKey(r *http.Request) [32]byte {
	h := sha256.New()
	h.Write([]byte(r.URL.RequestURI()))
	h.Write([]byte{0})
	h.Write([]byte(r.Header.Get("Authorization")))
	h.Write([]byte{0})
	h.Write([]byte(r.Header.Get("Sudo")))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// memoEligible reports whether r's credentials stay valid until a write:
// none, Basic, or an access token in the Authorization header (forty hex
// digits, not an OAuth2 JWT), without a one-time code, a signature, a
// cookie or a query-string token.
func (s *kernel) memoEligible(r *http.Request) bool {
	if s.stamps == nil || s.proxy != nil || r.Header.Get("Cookie") != "" || r.Header.Get("Signature") != "" ||
		r.Header.Get("X-Service-OTP") != "" || r.Header.Get("X-Gitea-OTP") != "" {
		return false
	}
	if q := r.URL.RawQuery; q != "" && (strings.Contains(q, "token=") || strings.Contains(q, "access_token=")) {
		return false
	}
	a := r.Header.Get("Authorization")
	if a == "" {
		return true
	}
	scheme, rest, _ := strings.Cut(a, " ")
	switch strings.ToLower(scheme) {
	case "basic":
		return true
	case "token", "bearer":
		return isAccessTokenSecret(strings.TrimSpace(rest))
	}
	return false
}

// isAccessTokenSecret reports whether t has an access token's shape.
func isAccessTokenSecret(t string) bool {
	if len(t) != 40 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// memoLookup answers r 304 from the memo when it can, and otherwise
// returns what the memo should learn from r's answer (nil: nothing).
func (s *kernel) memoLookup(w http.ResponseWriter, r *http.Request) (answered bool, pending *memoPending) {
	inm := r.Header.Get("If-None-Match")
	if inm == "" || !s.memoEligible(r) {
		return false, nil
	}
	stamp, err := s.stamps.Stamp(r.Context())
	if err != nil {
		return false, nil
	}
	key := memoKey(r)
	e, ok := s.notModified.get(key)
	if !ok || e.stamp != stamp || !etagMatches(inm, e.etag) {
		return false, &memoPending{key: key, stamp: stamp}
	}
	if d, limited := s.limits.take(e.caller, r); limited {
		writeRateHeaders(w, d)
		if !d.Allowed {
			s.writeMessage(w, http.StatusTooManyRequests, "API rate limit exceeded; retry after "+
				w.Header().Get("Retry-After")+" seconds")
			return true, nil
		}
	}
	cc := "no-cache"
	if e.caller.Signed() {
		cc = "private, no-cache"
	}
	h := w.Header()
	h.Set("Cache-Control", cc)
	h.Set("ETag", e.etag)
	w.WriteHeader(http.StatusNotModified)
	return true, nil
}
