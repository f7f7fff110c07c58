package githttp

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// fetchPlain is a fetch request as git's client sends it, with args as its
// arguments.
func fetchPlain(args ...string) string { return v2Plain("fetch", args...) }

func TestFetchRequestParse(t *testing.T) {
	id := strings.Repeat("ab", 20)
	other := strings.Repeat("0c", 20)
	cases := []struct {
		name         string
		body         string
		ok           bool
		wants, haves int
	}{
		{"clone", fetchPlain("thin-pack", "no-progress", "include-tag", "ofs-delta", "want "+id, "want "+other, "done"),
			true, 2, 0},
		{"fetch with haves", fetchPlain("thin-pack", "ofs-delta", "want "+id, "have "+other, "have "+id, "done"),
			true, 1, 2},
		{"lines without newlines", pkt("command=fetch") + "0001" + pkt("want "+id) + pkt("done") + "0000", true, 1, 0},
		{"sha256", pkt("command=fetch\n") + pkt("object-format=sha256\n") + "0001" +
			pkt("want "+strings.Repeat("ab", 32)+"\n") + pkt("done\n") + "0000", true, 1, 0},
		// A negotiation round: git answers with acknowledgments, and the
		// client asks again on the same connection.
		{"no done", fetchPlain("want "+id, "have "+other), false, 0, 0},
		{"no want", fetchPlain("done"), false, 0, 0},
		{"another command", pkt("command=ls-refs\n") + "0001" + pkt("done\n") + "0000", false, 0, 0},
		{"no command", pkt("agent=x\n") + "0001" + pkt("want "+id+"\n") + pkt("done\n") + "0000", false, 0, 0},
		{"two commands", pkt("command=fetch\n") + pkt("command=fetch\n") + "0001" + pkt("want "+id+"\n") +
			pkt("done\n") + "0000", false, 0, 0},
		{"no arguments", pkt("command=fetch\n") + "0000", false, 0, 0},
		{"shallow", fetchPlain("want "+id, "deepen 1", "done"), false, 0, 0},
		{"filter", fetchPlain("want "+id, "filter blob:none", "done"), false, 0, 0},
		{"want-ref", fetchPlain("want-ref refs/heads/main", "done"), false, 0, 0},
		{"upper-case id", fetchPlain("want "+strings.ToUpper(id), "done"), false, 0, 0},
		{"short id", fetchPlain("want "+id[:39], "done"), false, 0, 0},
		{"sha1 id in a sha256 request", pkt("command=fetch\n") + pkt("object-format=sha256\n") + "0001" +
			pkt("want "+id+"\n") + pkt("done\n") + "0000", false, 0, 0},
		{"want with an option", fetchPlain("want --all", "done"), false, 0, 0},
		{"delimiter twice", fetchPlain("want "+id) + "0001" + pkt("done\n") + "0000", false, 0, 0},
		{"bytes after the flush", fetchPlain("want "+id, "done") + "0000", false, 0, 0},
		{"no flush", strings.TrimSuffix(fetchPlain("want "+id, "done"), "0000"), false, 0, 0},
		{"malformed length", pkt("command=fetch\n") + "0001" + "zzzzwant", false, 0, 0},
		{"NUL in a line", fetchPlain("want "+id+"\x00", "done"), false, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			req, consumed, ok := readFetch(strings.NewReader(tc.body))
			is.Equal(ok, tc.ok)
			is.True(strings.HasPrefix(tc.body, string(consumed)))
			if ok {
				is.Equal(string(consumed), tc.body) // all of it, for git
				is.Equal(len(req.wants), tc.wants)
				is.Equal(req.haves, tc.haves)
			}
		})
	}
}

// TestFetchRequestReadsNoFurtherThanItsBound checks that a request past
// the bound is given back after at most the bound and a line.
func TestFetchRequestReadsNoFurtherThanItsBound(t *testing.T) {
	is := is.New(t)
	have := pkt("have " + strings.Repeat("ab", 20) + "\n")
	body := fetchPlain("want "+strings.Repeat("cd", 20)) + strings.Repeat(have, fetchMaxBytes/len(have)+10)
	r := &countingReader{r: strings.NewReader(body)}
	_, consumed, ok := readFetch(r)
	is.True(!ok)
	is.True(len(consumed) <= fetchMaxBytes)
	is.True(r.n <= fetchMaxBytes+pktMaxLength)
	rest, _ := io.ReadAll(io.MultiReader(bytes.NewReader(consumed), r.r))
	is.Equal(string(rest), body) // given back whole
}

// countingReader counts what is read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestFetchRequestAcceptedBy(t *testing.T) {
	is := is.New(t)
	f := &v2Facts{clientKeys: map[string]bool{"agent": true, "object-format": true}, objectFormat: "sha1",
		fetchCommand: true}
	id := strings.Repeat("ab", 20)
	req, _, ok := readFetch(strings.NewReader(fetchPlain("want "+id, "done")))
	is.True(ok)
	is.True(req.acceptedBy(f))
	noFetch := *f
	noFetch.fetchCommand = false
	is.True(!req.acceptedBy(&noFetch))
	other, _, ok := readFetch(strings.NewReader(pkt("command=fetch\n") + pkt("bundle-uri=x\n") + "0001" +
		pkt("want "+id+"\n") + pkt("done\n") + "0000"))
	is.True(ok)
	is.True(!other.acceptedBy(f)) // a capability git does not take
}
