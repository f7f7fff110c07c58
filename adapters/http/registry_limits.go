package http

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/depothq/depot/domain/errs"
)

// What the registries share about the size of what they are sent: one
// error, errs.ErrTooLarge, for a body past the site's max_body_bytes or
// past a bound of the registry's own, which each registry's error writer
// answers 413 in its own format (plain text, npm's JSON, the distribution
// spec's SIZE_INVALID) through registry's fail or failContainer.

// errBodyTooLarge is the answer to a body past the site's max_body_bytes.
var errBodyTooLarge = errs.TooLarge("request body too large")

// registryBody is the call's request body, streamed: reading past the
// site's max_body_bytes fails with errs.ErrTooLarge.
func registryBody(c *registryCall) io.Reader {
	return &boundedReader{r: c.r.Body, left: -1}
}

// readAtMost reads all of r, at most limit bytes: more fails with
// tooLarge, and so does a request body past the site's bound (with
// errBodyTooLarge).
func readAtMost(r io.Reader, limit int64, tooLarge error) ([]byte, error) {
	return io.ReadAll(&boundedReader{r: r, left: limit, tooLarge: tooLarge})
}

// decodeRegistryJSON decodes a JSON document of at most limit bytes from
// the call's request body into dst: past limit (or the site's bound) is
// errs.ErrTooLarge, anything else that fails errs.BadRequest(malformed).
func decodeRegistryJSON(c *registryCall, limit int64, dst any, malformed string) error {
	r := registryBody(c)
	if limit > 0 {
		r = &boundedReader{r: r, left: limit,
			tooLarge: errs.TooLarge("request body exceeds " + strconv.FormatInt(limit, 10) + " bytes")}
	}
	return registryReadError(json.NewDecoder(r).Decode(dst), malformed)
}

// registryReadError is what a failure to read or decode a request body is
// answered with: too large stays errs.ErrTooLarge (413), anything else is
// errs.BadRequest(malformed) (400); nil stays nil.
func registryReadError(err error, malformed string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errs.ErrTooLarge):
		return err
	default:
		return errs.BadRequest(malformed)
	}
}

// boundedReader reads r up to left bytes (left < 0: no bound of its own),
// failing with tooLarge past them, and turns the site's
// *http.MaxBytesError into errBodyTooLarge.
type boundedReader struct {
	r        io.Reader
	left     int64
	tooLarge error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	bounded := b.left >= 0
	// One byte more than is left tells a body that ends at the bound from
	// one that goes past it.
	if bounded && int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	var site *http.MaxBytesError
	if errors.As(err, &site) {
		return n, errBodyTooLarge
	}
	if bounded {
		if int64(n) > b.left {
			n = int(b.left)
			b.left = 0
			return n, b.tooLarge
		}
		b.left -= int64(n)
	}
	return n, err
}
