package http

import (
	"strings"
	"testing"
)

// FuzzParseByteRange fuzzes the Range header of raw file downloads: a part
// answered lies inside the content, a header that is not one plain range
// answers the whole, and an unsatisfiable range is only ever one that
// starts past the end or asks for no bytes.
func FuzzParseByteRange(f *testing.F) {
	for _, h := range []string{"bytes=0-9", "bytes=5-", "bytes=-3", "bytes=-0", "bytes=9-5", "bytes=0-1,3-4", "items=0-1",
		"bytes=99999999999999999999-", "bytes=-99999999999999999999", "bytes= 1 - 2", "bytes=+1-2", "bytes=100-", ""} {
		f.Add(h, int64(100))
	}
	f.Fuzz(func(t *testing.T, header string, size int64) {
		if size < 0 {
			size = -(size + 1)
		}
		start, length, ok := parseByteRange(header, size)
		if !ok {
			if !strings.HasPrefix(header, "bytes=") {
				t.Fatalf("%q refused though it is no byte range", header)
			}
			return
		}
		if start < 0 || length < 0 || start > size || length > size-start {
			t.Fatalf("parseByteRange(%q, %d) = %d, %d", header, size, start, length)
		}
		if !strings.HasPrefix(header, "bytes=") && (start != 0 || length != size) {
			t.Fatalf("%q answered with a part", header)
		}
	})
}

// FuzzETagMatches fuzzes If-None-Match: "*" and the ETag itself, weak or
// not, anywhere in the list match.
func FuzzETagMatches(f *testing.F) {
	for _, h := range []string{`"abc"`, `W/"abc"`, `*`, `"x", "abc"`, ``, `,,`} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, header string) {
		const etag = `"abc"`
		got := etagMatches(header, etag)
		if header == "" && got {
			t.Fatal("an empty header matched")
		}
		if !etagMatches(header+", "+etag, etag) || !etagMatches("W/"+etag+","+header, etag) {
			t.Fatalf("%q with the ETag added does not match", header)
		}
		if !strings.Contains(header, "*") && !strings.Contains(header, etag) && got {
			t.Fatalf("%q matched %s", header, etag)
		}
	})
}
