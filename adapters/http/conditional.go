package http

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/maphash"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Conditional requests (beyond Gitea, as GitHub answers them): every JSON
// answer of a GET carries a strong ETag, the hash of its bytes, and a GET
// whose If-None-Match names it is answered 304 without a body. Clients that
// poll — CI systems, bots — then download nothing while nothing changed.
//
// The tag is the answer's own hash, so it is right whatever the answer was
// built from, and it differs between callers who see different answers.
// The hash is maphash with a seed drawn at start: as fast as a copy (a
// cryptographic hash of every answer was a tenth of a list's cost), and
// nobody who can write what an answer shows can make two answers share a
// tag without knowing the seed. Tags change when the server restarts,
// which costs a poller one full answer.
//
// An answer about one resource whose update time moves with every change
// of what the answer shows (an issue, a comment, a milestone) also says
// Last-Modified (not a pull request: its mergeability changes on its own), and a GET whose
// If-Modified-Since is not older is answered 304, unless it names tags
// (If-None-Match wins, as RFC 9110 says).

// etagSeed keys the answers' hashes.
var etagSeed = maphash.MakeSeed()

// maxConditionalBody is the largest answer held back to be hashed; a larger
// one streams on without an ETag.
const maxConditionalBody = 4 << 20

// conditionalWriter holds back a GET's 200 JSON answer until the handler is
// done, then answers it with its ETag, or 304 when the client has it.
type conditionalWriter struct {
	http.ResponseWriter
	ifNoneMatch string
	// ifModifiedSince is the request's If-Modified-Since, "" when absent.
	ifModifiedSince string
	// holding is set from a 200 JSON WriteHeader until finish or overflow.
	holding bool
	// body is the held answer, a pooled buffer while holding.
	body *bytes.Buffer
	// values back the headers the writer sets (conditionalHeader), so
	// that setting one allocates no slice.
	values [conditionalHeaders]string
}

// conditionalHeader numbers the headers a conditionalWriter sets.
type conditionalHeader int

const (
	cacheControlHeader conditionalHeader = iota
	etagHeader
	contentLengthHeader
	conditionalHeaders
)

// conditionalHeaderKeys are the headers' canonical keys.
var conditionalHeaderKeys = [conditionalHeaders]string{"Cache-Control", "Etag", "Content-Length"}

// start wraps w for the GET r, in place (the writer lives in the request,
// which spares allocating it).
func (c *conditionalWriter) start(w http.ResponseWriter, r *http.Request, signed bool) {
	*c = conditionalWriter{ResponseWriter: w, ifNoneMatch: headerValue(r.Header, "If-None-Match"),
		ifModifiedSince: headerValue(r.Header, "If-Modified-Since")}
	cc := "no-cache"
	if signed {
		// An answer made for one caller is no shared cache's to keep.
		cc = "private, no-cache"
	}
	c.set(cacheControlHeader, cc)
}

// set sets header k to v alone, as Header().Set does, in c's own storage.
// The value's slice is full, so that an Add copies it rather than writing
// into c.
func (c *conditionalWriter) set(k conditionalHeader, v string) {
	c.values[k] = v
	c.Header()[conditionalHeaderKeys[k]] = c.values[k : k+1 : k+1]
}

// headerValue is h.Get(key) for a key in canonical form, without
// canonicalising it again.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// holds reports whether an answer of status that starts now is to be held:
// a 200 JSON answer that no handler tagged or encoded.
func (c *conditionalWriter) holds(status int) bool {
	h := c.Header()
	return status == http.StatusOK && !c.holding && headerValue(h, "Etag") == "" &&
		headerValue(h, "Content-Encoding") == "" && strings.HasPrefix(headerValue(h, "Content-Type"), "application/json")
}

// WriteHeader starts holding a 200 JSON answer that no handler tagged.
func (c *conditionalWriter) WriteHeader(status int) {
	if c.holds(status) {
		c.holding = true
		c.body = bufPool.Get().(*bytes.Buffer)
		c.body.Reset()
		return
	}
	c.ResponseWriter.WriteHeader(status)
}

// holdJSON starts holding body, the whole answer writeJSON encoded, when
// WriteHeader(status) would: it takes the pooled buffer over instead of
// copying it, and reports whether it did.
func (c *conditionalWriter) holdJSON(status int, body *bytes.Buffer) bool {
	if !c.holds(status) || body.Len() > maxConditionalBody {
		return false
	}
	c.holding = true
	c.body = body
	return true
}

// Write holds the answer back, or passes it on once it is too large to.
func (c *conditionalWriter) Write(p []byte) (int, error) {
	if !c.holding {
		return c.ResponseWriter.Write(p)
	}
	if c.body.Len()+len(p) > maxConditionalBody {
		if err := c.release(); err != nil {
			return 0, err
		}
		return c.ResponseWriter.Write(p)
	}
	return c.body.Write(p)
}

// Flush gives up holding: whoever flushes wants the bytes on their way.
func (c *conditionalWriter) Flush() {
	if c.holding {
		_ = c.release()
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *conditionalWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// release sends what was held, untagged, and stops holding.
func (c *conditionalWriter) release() error {
	c.holding = false
	c.ResponseWriter.WriteHeader(http.StatusOK)
	_, err := c.ResponseWriter.Write(c.body.Bytes())
	c.putBody()
	return err
}

// putBody returns the held answer's buffer to the pool.
func (c *conditionalWriter) putBody() {
	if c.body != nil {
		bufPool.Put(c.body)
		c.body = nil
	}
}

// discard drops a held answer: the handler failed after all, and its
// error is the answer.
func (c *conditionalWriter) discard() {
	c.holding = false
	c.putBody()
	c.Header().Del("Content-Length")
}

// finish answers a held answer: 304 when the client's tag is its tag, else
// the answer with its tag; it returns the tag ("" for an answer not held).
func (c *conditionalWriter) finish() string {
	if !c.holding {
		return ""
	}
	c.holding = false
	defer c.putBody()
	var sum [12]byte
	binary.LittleEndian.PutUint64(sum[:8], maphash.Bytes(etagSeed, c.body.Bytes()))
	binary.LittleEndian.PutUint32(sum[8:], uint32(c.body.Len()))
	// The tag and the length are made as one string, one allocation.
	var b [etagLen + 20]byte
	b[0] = '"'
	base64.RawURLEncoding.Encode(b[1:etagLen-1], sum[:])
	b[etagLen-1] = '"'
	tagAndLength := string(strconv.AppendInt(b[:etagLen], int64(c.body.Len()), 10))
	etag := tagAndLength[:etagLen]
	c.set(etagHeader, etag)
	if etagMatches(c.ifNoneMatch, etag) || c.unmodified() {
		h := c.Header()
		delete(h, "Content-Length")
		delete(h, "Content-Type")
		c.ResponseWriter.WriteHeader(http.StatusNotModified)
		return etag
	}
	c.set(contentLengthHeader, tagAndLength[etagLen:])
	c.ResponseWriter.WriteHeader(http.StatusOK)
	_, _ = c.ResponseWriter.Write(c.body.Bytes())
	return etag
}

// etagLen is the length of an answer's tag: 12 bytes in unpadded base64
// between quotes.
const etagLen = 1 + 16 + 1

// unmodified reports whether the answer's Last-Modified is no later than
// the request's If-Modified-Since, which counts only without If-None-Match.
func (c *conditionalWriter) unmodified() bool {
	if c.ifNoneMatch != "" || c.ifModifiedSince == "" {
		return false
	}
	lm, err := http.ParseTime(c.Header().Get("Last-Modified"))
	if err != nil {
		return false
	}
	since, err := http.ParseTime(c.ifModifiedSince)
	return err == nil && !lm.After(since)
}

// lastModified says when the one resource a GET answers last changed
// (nothing for a zero time), to the second as the header has it.
func (q *request) lastModified(t time.Time) {
	if !t.IsZero() && q.r.Method == http.MethodGet {
		q.w.Header().Set("Last-Modified", t.UTC().Truncate(time.Second).Format(http.TimeFormat))
	}
}
