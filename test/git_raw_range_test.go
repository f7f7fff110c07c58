package test

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

	"github.com/matryer/is"
)

// Raw files answer one byte range with 206 (resumed downloads), refuse a
// range past the end with 416, fall back to the whole file for what they do
// not serve in parts, honour If-Range on the ETag, and answer HEAD with the
// headers alone.
func TestContentsRawRanges(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	raw := f.prefix + "/raw/main/bin/data.bin"
	size := len(f.bin)
	blobID := f.srv.Do("GET", raw, nil).Header.Get("ETag")
	for _, c := range []struct {
		name, rng, ifRange string
		status             int
		from, to           int // inclusive byte positions of the part
	}{
		{"first bytes", "bytes=0-9", "", 206, 0, 9},
		{"across the sniffed head", "bytes=1000-2999", "", 206, 1000, 2999},
		{"open end", "bytes=4990-", "", 206, 4990, size - 1},
		{"suffix", "bytes=-25", "", 206, size - 25, size - 1},
		{"end past the size", "bytes=4000-99999", "", 206, 4000, size - 1},
		{"whole as a range", "bytes=0-", "", 200, 0, size - 1},
		{"several ranges: whole", "bytes=0-1,5-6", "", 200, 0, size - 1},
		{"other unit: whole", "items=0-1", "", 200, 0, size - 1},
		{"bad syntax: whole", "bytes=x-1", "", 200, 0, size - 1},
		{"If-Range matching", "bytes=0-9", blobID, 206, 0, 9},
		{"If-Range stale: whole", "bytes=0-9", `"0000"`, 200, 0, size - 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			h := []string{"Range", c.rng}
			if c.ifRange != "" {
				h = append(h, "If-Range", c.ifRange)
			}
			r := f.srv.Do("GET", raw, nil, h...)
			is.Equal(r.Status, c.status)
			is.True(bytes.Equal(r.Body, f.bin[c.from:c.to+1])) // the part's bytes
			is.Equal(r.Header.Get("Content-Length"), strconv.Itoa(c.to-c.from+1))
			is.Equal(r.Header.Get("Accept-Ranges"), "bytes")
			if c.status == 206 {
				is.Equal(r.Header.Get("Content-Range"), "bytes "+strconv.Itoa(c.from)+"-"+strconv.Itoa(c.to)+"/"+strconv.Itoa(size))
			}
		})
	}
	t.Run("unsatisfiable", func(t *testing.T) {
		is := is.New(t)
		for _, rng := range []string{"bytes=5000-", "bytes=99999-100000", "bytes=-0"} {
			r := f.srv.Do("GET", raw, nil, "Range", rng)
			is.Equal(r.Status, http.StatusRequestedRangeNotSatisfiable)
			is.Equal(r.Header.Get("Content-Range"), "bytes */"+strconv.Itoa(size))
		}
	})
	t.Run("HEAD", func(t *testing.T) {
		is := is.New(t)
		for _, p := range []string{raw, f.prefix + "/media/main/bin/data.bin"} {
			r := f.srv.Do("HEAD", p, nil)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(len(r.Body), 0)
			is.Equal(r.Header.Get("Content-Length"), strconv.Itoa(size))
			is.Equal(r.Header.Get("ETag"), blobID)
		}
		r := f.srv.Do("HEAD", f.prefix+"/raw/main/absent", nil)
		is.Equal(r.Status, http.StatusNotFound)
	})
	t.Run("private needs access", func(t *testing.T) {
		is := is.New(t)
		p := contentsSetup(t, true)
		r := p.srv.Do("GET", p.prefix+"/raw/main/bin/data.bin", nil, "Range", "bytes=0-9")
		is.Equal(r.Status, http.StatusNotFound) // anonymous: the repository does not exist
		r = p.srv.Do("HEAD", p.prefix+"/raw/main/bin/data.bin", nil)
		is.Equal(r.Status, http.StatusNotFound)
	})
}
