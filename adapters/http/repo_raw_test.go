package http

import (
	"testing"

	"github.com/matryer/is"
)

func TestContentsBlobContentType(t *testing.T) {
	for _, c := range []struct {
		name, head, want string
		whole            bool
	}{
		{"text", "hello\n", "text/plain; charset=utf-8", true},
		{"empty", "", "text/plain; charset=utf-8", true},
		{"utf-8", "héllo wörld\n", "text/plain; charset=utf-8", true},
		{"latin-1", "h\xe9llo\n", "text/plain", true},
		{"cut rune", "h\xc3", "text/plain; charset=utf-8", false},
		{"cut rune, whole file", "h\xc3", "text/plain", true},
		{"html", "<!DOCTYPE html><html><script>x</script></html>", "text/plain; charset=utf-8", true},
		{"xml", "<?xml version=\"1.0\"?><a/>", "text/plain; charset=utf-8", true},
		{"svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "image/svg+xml", true},
		{"svg with prolog", "\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE svg>\n<svg>", "image/svg+xml", true},
		{"not svg", "<svgfoo>", "text/plain; charset=utf-8", true},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png", true},
		{"gif", "GIF89a......", "image/gif", true},
		{"pdf", "%PDF-1.4\n", "application/pdf", true},
		{"zip", "PK\x03\x04\x14\x00", "application/octet-stream", true},
		{"binary", "\x00\x01\x02\x03", "application/octet-stream", true},
		{"utf-16", "\xff\xfeh\x00i\x00", "text/plain; charset=utf-16le", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			is.New(t).Equal(blobContentType([]byte(c.head), c.whole), c.want)
		})
	}
}

func TestContentsETagMatches(t *testing.T) {
	is := is.New(t)
	const etag = `"abc"`
	is.True(etagMatches(`"abc"`, etag))
	is.True(etagMatches(`"x", "abc"`, etag))
	is.True(etagMatches(`W/"abc"`, etag))
	is.True(etagMatches(`*`, etag))
	is.True(!etagMatches(``, etag))
	is.True(!etagMatches(`"abcd"`, etag))
	is.True(!etagMatches(`abc`, etag))
}

func TestParseByteRange(t *testing.T) {
	for _, c := range []struct {
		header        string
		size          int64
		start, length int64
		ok            bool
	}{
		{"bytes=0-9", 100, 0, 10, true},
		{"bytes=10-", 100, 10, 90, true},
		{"bytes=-10", 100, 90, 10, true},
		{"bytes=-200", 100, 0, 100, true},
		{"bytes=90-200", 100, 90, 10, true},
		{"bytes= 5-6", 100, 5, 2, true},
		{"bytes=100-", 100, 0, 0, false},
		{"bytes=-0", 100, 0, 0, false},
		{"bytes=0-", 0, 0, 0, false},
		{"bytes=0-1,3-4", 100, 0, 100, true},
		{"bytes=5-2", 100, 0, 100, true},
		{"bytes=a-2", 100, 0, 100, true},
		{"bytes=2", 100, 0, 100, true},
		{"pages=1-2", 100, 0, 100, true},
		{"bytes=-x", 100, 0, 100, true},
	} {
		t.Run(c.header, func(t *testing.T) {
			is := is.New(t)
			start, length, ok := parseByteRange(c.header, c.size)
			is.Equal(ok, c.ok)
			if ok {
				is.Equal(start, c.start)
				is.Equal(length, c.length)
			}
		})
	}
}
