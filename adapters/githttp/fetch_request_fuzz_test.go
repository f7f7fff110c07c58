package githttp

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/ports"
)

// FuzzFetchRequest fuzzes the fetch request reader: it never reads past its
// bound and a line, what it reports as read is the input's start, and a
// request it takes is the whole input, ends its negotiation and holds only
// wants, haves and flags, and the pack cache keys it whatever the order of
// its wants.
func FuzzFetchRequest(f *testing.F) {
	id := strings.Repeat("ab", 20)
	for _, s := range []string{
		fetchPlain("thin-pack", "no-progress", "ofs-delta", "want "+id, "done"),
		fetchPlain("want "+id, "have "+id, "done"),
		fetchPlain("want "+id, "have "+id),
		fetchPlain("want "+id, "filter blob:none", "done"),
		pkt("command=fetch\n") + "0000",
		"0002", "zzzz", "0001", "ffff", "0004",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := &countingReader{r: bytes.NewReader(body)}
		req, consumed, ok := readFetch(r)
		if len(consumed) > fetchMaxBytes || r.n > fetchMaxBytes+pktMaxLength || !bytes.HasPrefix(body, consumed) {
			t.Fatalf("read %d bytes (%d consumed) that are not the input's start", r.n, len(consumed))
		}
		if !ok {
			return
		}
		if !bytes.Equal(consumed, body) || !bytes.HasSuffix(body, []byte("0000")) {
			t.Fatalf("took a request that is not the whole input: %q", body)
		}
		if len(req.wants) == 0 || !bytes.Contains(body, []byte("done")) {
			t.Fatalf("took a request that does not end the negotiation: %q", body)
		}
		for _, c := range req.capabilities {
			if strings.HasPrefix(c, "command=") || strings.ContainsAny(c, "\x00") {
				t.Fatalf("capability %q", c)
			}
		}
		// The pack cache's key: a request whose wants are all tips is kept
		// unless it has haves, and the order of its wants does not matter.
		var refs []ports.GitWireRef
		for i, w := range req.wants {
			refs = append(refs, ports.GitWireRef{Name: fmt.Sprintf("refs/heads/b%d", i), ObjectID: w})
		}
		inv := Invocation{Dir: "/r", RepoID: 1}
		key, kept := packCacheKey(inv, v2Key{}, &req, nil, refs)
		if kept != (req.haves == 0) {
			t.Fatalf("kept %v with %d haves", kept, req.haves)
		}
		slices.Reverse(req.wants)
		if again, _ := packCacheKey(inv, v2Key{}, &req, nil, refs); again != key {
			t.Fatalf("the order of the wants changed the key")
		}
	})
}
